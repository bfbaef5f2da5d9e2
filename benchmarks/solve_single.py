"""Time the exact optima of single official problems, one after the other in this process (one core).

    python benchmarks/solve_single.py NightmareHard4V 1 31 251                  # expected case
    python benchmarks/solve_single.py --objective worst NightmareHard4V 914 333
    python benchmarks/solve_single.py --time-limit 600 NightmareHard4V 341

For each problem it prints the optimum (rounds and questions, means for the expected case), the seconds it took,
the search's steps and memo (the engine's figures, or the reference solver's with --reference), or, past the time
limit, the lower bound the search had reached. The single-problem figures of benchmarks/RESULTS.md come from here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is


def problem_lines(set_name: str) -> dict[str, str] | None:
    """The set's problem-book lines by their number (the book shipped with tmphys); None if there is no such set."""
    from tmphys.game.book import BookError, book_set

    try:
        return {str(p.number): p.line for p in book_set(set_name)}
    except BookError:
        return None


def main() -> None:
    """Parse options, solve each named problem, print one line each."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", help="set name, e.g. NightmareHard4V")
    ap.add_argument("numbers", nargs="+", help="problem numbers in the set")
    ap.add_argument("--objective", choices=["expected", "worst"], default="expected")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds per problem (default 300)")
    ap.add_argument("--reference", action="store_true", help="search with the reference solver, not the engine")
    args = ap.parse_args()

    from tmphys.game.problems import parse_problem
    from tmphys.solve.solver import Deduction, SearchStopped, Solver

    lines = problem_lines(args.set)
    if lines is None:
        ap.error(f"no problem set {args.set!r} in the problem book")
    missing = [n for n in args.numbers if n not in lines]
    if missing:
        ap.error(f"{args.set} has no problem {', '.join(missing)}")
    for number in args.numbers:
        d = Deduction(parse_problem(lines[number]))
        s = Solver(d, args.objective, native=not args.reference)
        s.set_time_limit(args.time_limit)
        start = time.perf_counter()
        try:
            rounds, questions = s.optimum()
            found = f"optimum {float(rounds):.4f} rounds, {float(questions):.4f} questions"
        except SearchStopped:
            (rounds, questions), _ = s.bounds(0.01)
            found = f"not proven in {args.time_limit:g} s (at least {float(rounds):.4f} rounds, {float(questions):.4f})"
        seconds = time.perf_counter() - start
        stats = s.search.stats()
        extra = ", ".join(f"{k} {v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{k} {v}"
                          for k, v in stats.items())
        print(f"{args.set} #{number} {args.objective}: {found}; {seconds:.2f} s; "
              f"{'compiled' if s.native else 'reference'} search, {extra}", flush=True)


if __name__ == "__main__":
    main()
