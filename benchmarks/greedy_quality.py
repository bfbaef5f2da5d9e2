"""How good is the strategy that plays on when the exact search runs out of time?

For a sample of official problems per set: the greedy strategy's exact value (expected rounds and questions
over the valid hidden assignments, as ``Solver.greedy_value`` works it out) with one proposal tried per round
(``--width 1``: what is played on problems too big for the greedy strategy's own evaluation) or more, and the
optimum where the exact search proves it within ``--timeout`` seconds. With ``--found SECONDS``, also the strategy
that plays on past a time limit of that many seconds: the best one the search found for the start (a start
proposal searched to the end; ``Solver._known_move``), or the greedy strategy where the search found none or it is
better.

    python benchmarks/greedy_quality.py --sample 40 NightmareHard4V ExtremeHard5V
    python benchmarks/greedy_quality.py --sample 12 --timeout 20 NightmareHard4V   # with the optima
    python benchmarks/greedy_quality.py --numbers 7,113,126,333,646 --found 10 NightmareHard4V   # the hardest

Prints per set: the greedy strategy's mean expected rounds and questions, and over the problems whose optimum
was proven, the optimum's mean and the greedy strategy's mean excess in rounds; with ``--found``, per problem and
on average, the value of the strategy played past the limit against the greedy strategy's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    """Parse options, evaluate the greedy strategy (and the optimum) per problem, print the figures."""
    import solve_official

    import tmphys.solve.solver as solver
    from tmphys.game.problems import parse_problem

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="set names, e.g. NightmareHard4V")
    ap.add_argument("--sample", type=int, default=40, help="problems per set, evenly spaced (default 40)")
    ap.add_argument("--width", type=int, default=1, help="proposals the greedy strategy tries per round")
    ap.add_argument("--timeout", type=float, default=0.0,
                    help="seconds for the exact optimum per problem (default 0: greedy strategy only)")
    ap.add_argument("--found", type=float, default=0.0,
                    help="seconds of exact search, then value the strategy it plays on with (default 0: not)")
    ap.add_argument("--numbers", default="",
                    help="comma-separated problem numbers (their place in the set's file, from 1) instead of a sample")
    ap.add_argument("--max-classes", type=int, default=3000,
                    help="skip problems with more assignment classes than this (default 3000)")
    args = ap.parse_args()
    solver.GREEDY_WIDTH = args.width
    for name in args.sets:
        greedy, optimal, excess, skipped, found = [], [], [], 0, []
        t0 = time.perf_counter()
        problems = solve_official.load(name, None if args.numbers else args.sample)
        if args.numbers:
            problems = [problems[int(k) - 1] for k in args.numbers.split(",")]
        for line, _ in problems:
            d = solver.Deduction(parse_problem(line))
            if len(d.hidden) > args.max_classes:
                skipped += 1
                continue
            w = d.weight(d.universe)
            g = solver.Solver(d, "expected").greedy_value(d.universe)
            greedy.append((g[0] / w, g[1] / w))
            if args.found > 0:
                s = solver.Solver(d, "expected")
                s.set_time_limit(args.found)
                try:
                    r, q = s.optimum()
                    value, whose = (float(r), float(q)), "proven"
                except solver.SearchStopped:
                    _, up, _ = s._known_move(d.universe)  # played where it is no worse than the greedy strategy
                    value, whose = ((up[0] / w, up[1] / w), "search") if up is not None \
                        and (up[0] / w, up[1] / w) <= greedy[-1] else (greedy[-1], "greedy")
                found.append(value)
                print(f"  {line.split(',')[0]} {line.split(',')[1]}: after {args.found:g} s, {whose}: "
                      f"{value[0]:.3f} rounds, {value[1]:.3f} questions (greedy {greedy[-1][0]:.3f}, "
                      f"{greedy[-1][1]:.3f})", flush=True)
            if args.timeout > 0:
                s = solver.Solver(d, "expected")
                s.set_time_limit(args.timeout)
                try:
                    r, q = s.optimum()
                except solver.SearchStopped:
                    continue
                optimal.append((float(r), float(q)))
                excess.append(g[0] / w - float(r))
        print(f"{name}: greedy strategy (width {args.width}) over {len(greedy)} problems "
              f"({skipped} skipped, > {args.max_classes} classes): "
              f"{statistics.fmean(x[0] for x in greedy):.3f} rounds, "
              f"{statistics.fmean(x[1] for x in greedy):.3f} questions on average", flush=True)
        if found:
            print(f"  played past a {args.found:g} s limit: {statistics.fmean(x[0] for x in found):.3f} rounds, "
                  f"{statistics.fmean(x[1] for x in found):.3f} questions on average", flush=True)
        if optimal:
            print(f"  optimum proven for {len(optimal)}: {statistics.fmean(x[0] for x in optimal):.3f} rounds, "
                  f"{statistics.fmean(x[1] for x in optimal):.3f} questions; the greedy strategy plays "
                  f"{statistics.fmean(excess):.3f} rounds more on average there (max {max(excess):.3f})",
                  flush=True)
        print(f"  wall {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
