"""Time the exact optima of the same problems in this checkout and in another one, side by side, in one run.

    python benchmarks/compare_trees.py --other ../old --other-python ../old-venv/bin/python \\
        --runs 3 "--cards 3 7 10 14" "#C64 F65 C" "#I4D DOH"

Each PROBLEM is solved for both objectives by a fresh process of each checkout in turn (A B A B …, so a drift of
the machine's speed hits both alike), timing the search alone inside the process. It prints, per problem and
objective, both optima (which must be equal) and the median seconds of each. The other checkout may be an older
tmphys: the problem is handed to it as a problem-book line or as criteria cards, which every version reads.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Run inside each checkout's interpreter: solve one problem's two optima, print them with the seconds taken.
PROBE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from tmphys.solve.solver import Deduction, Solver
    from tmphys.game.problems import parse_problem
except ImportError:  # an older tmphys, before the subpackages
    from tmphys.solver import Deduction, Solver
    from tmphys.problems import parse_problem
words, nightmare = sys.argv[2], sys.argv[3] == "1"
out = {}
for objective in ("expected", "worst"):
    d = Deduction(parse_problem(words, nightmare=nightmare))
    s = Solver(d, objective)
    t = time.perf_counter()
    r, q = s.optimum()
    out[objective] = [str(r), str(q), time.perf_counter() - t]
print(json.dumps(out))
"""


def problem_words(text: str) -> tuple[str, bool]:
    """A problem as words any tmphys reads (a book ID becomes its book line), and whether it is Nightmare cards."""
    if text.startswith("#"):
        sys.path.insert(0, str(ROOT))
        from tmphys.game.book import book_problem

        return book_problem(text).line, False
    nightmare = text.startswith("--nightmare ")
    text = text.removeprefix("--nightmare ").removeprefix("--cards ")
    return text, nightmare


def solve(python: str, tree: Path, words: str, nightmare: bool) -> dict[str, list]:
    """Both optima and the search's seconds, from a fresh process of that checkout."""
    done = subprocess.run([python, "-c", PROBE, str(tree), words, "1" if nightmare else "0"],
                          capture_output=True, text=True, check=True, cwd="/")
    return json.loads(done.stdout)


def main() -> None:
    """Parse options, solve each problem in both checkouts in turn, print the figures as a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("problems", nargs="+", help='"#BOOK ID", "--cards 3 7 10 14" or "--nightmare --cards …"')
    ap.add_argument("--other", type=Path, required=True, help="the other checkout (built in place)")
    ap.add_argument("--other-python", default=sys.executable, help="the interpreter the other checkout runs in")
    ap.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    args = ap.parse_args()
    print("| problem | objective | optimum (rounds, questions) | this checkout, s | other, s | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for text in args.problems:
        words, nightmare = problem_words(text)
        ours: dict[str, list[float]] = {"expected": [], "worst": []}
        theirs: dict[str, list[float]] = {"expected": [], "worst": []}
        for _ in range(args.runs):
            a = solve(sys.executable, ROOT, words, nightmare)
            b = solve(args.other_python, args.other.resolve(), words, nightmare)
            for o in ours:
                if a[o][:2] != b[o][:2]:
                    raise SystemExit(f"{text} {o}: optima differ: {a[o][:2]} here, {b[o][:2]} there")
                ours[o].append(a[o][2])
                theirs[o].append(b[o][2])
        for o in ours:
            mine, other = statistics.median(ours[o]), statistics.median(theirs[o])
            print(f"| {text} | {o} | {a[o][0]}, {a[o][1]} | {mine:.3f} | {other:.3f} | "
                  f"{mine / other if other else float('nan'):.2f} |", flush=True)


if __name__ == "__main__":
    main()
