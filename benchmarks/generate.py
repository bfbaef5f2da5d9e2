"""Generated problems against the problem book's: how fast they are drawn, and how hard they are.

For each official set named (``ClassicStandard5V``: mode, difficulty and verifier count from its name), draws
``--sample`` problems with ``tmphys.game.generate`` (seed ``--seed``, the ``--min-codes`` rule) and takes as many of the
book's, evenly spaced, then rates both with the exact expected-case search (``--timeout`` seconds a problem).

    python benchmarks/generate.py --sample 100 ClassicEasy4V ClassicStandard5V ClassicHard6V
    python benchmarks/generate.py --sample 40 --timeout 5 ExtremeHard4V NightmareHard4V

Prints per set and side: the time to draw a problem (median, max), the share whose cards alone fix the code, the
mean number of possible codes at the start, and over the problems rated in time, the mean optimal rounds and
questions (with how many were rated).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    """Parse options, draw and rate generated and official problems per set, print the figures."""
    import solve_official

    from tmphys.game.generate import generate
    from tmphys.game.problems import Problem, parse_problem
    from tmphys.solve.runner import rate

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="set names, e.g. ClassicStandard5V")
    ap.add_argument("--sample", type=int, default=100, help="problems per set and side (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the generated problems (default 1)")
    ap.add_argument("--min-codes", type=int, default=2, help="generate's --min-codes (default 2)")
    ap.add_argument("--timeout", type=float, default=2.0, help="seconds of exact search a problem (default 2)")
    args = ap.parse_args()

    def report(label: str, problems: list[Problem], draw: list[float]) -> None:
        codes = [len({h.code for h in p.hidden}) for p in problems]
        rated = [r for r in (rate(p, args.timeout) for p in problems) if r is not None]
        line = (f"  {label}: {len(problems)} problems; cards fix the code in {sum(c == 1 for c in codes)}, "
                f"{statistics.fmean(codes):.1f} codes possible at the start")
        if draw:
            line += f"; drawn in {statistics.median(draw) * 1000:.1f} ms median, {max(draw) * 1000:.0f} ms max"
        if rated:
            line += (f"; optimal {statistics.fmean(float(r) for r, _ in rated):.3f} rounds, "
                     f"{statistics.fmean(float(q) for _, q in rated):.3f} questions on average "
                     f"({len(rated)} rated within {args.timeout:g} s)")
        print(line, flush=True)

    for name in args.sets:
        m = re.fullmatch(r"(Classic|Extreme|Nightmare)(Easy|Standard|Hard)([4-6])V", name)
        if not m:
            sys.exit(f"generate.py: not a set name: {name!r} (e.g. ClassicStandard5V)")
        mode, difficulty, verifiers = m.group(1).lower(), m.group(2).lower(), int(m.group(3))
        print(f"{name}:", flush=True)
        rng = random.Random(args.seed)
        drawn, times = [], []
        seen: set[str] = set()
        while len(drawn) < args.sample:
            t = time.perf_counter()
            p = generate(mode, verifiers, difficulty, rng, min_codes=args.min_codes)[0]
            times.append(time.perf_counter() - t)
            if p.describe() not in seen:
                seen.add(p.describe())
                drawn.append(p)
        report("generated", drawn, times)
        book = [parse_problem(line) for line, _ in solve_official.load(name, args.sample)]
        report("problem book", book, [])


if __name__ == "__main__":
    main()
