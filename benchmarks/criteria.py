"""Users' criteria files: how long a file of 48 new cards takes to load, and whether a problem of new cards is searched
as fast as the same problem written with published cards (one run, the two alternating, CPU time).

    python benchmarks/criteria.py                 # load 48 new cards; the three modes' searches side by side
    python benchmarks/criteria.py --rounds 5

The mirrored problems take published problems of the book and copy each of their criteria cards into a new card
(numbered from 49, criteria under new keys, the same truth tables): the search is the same problem, so any gap in CPU
is what the new cards' path costs. Figures go in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is

#: Published problems of the book, one a mode, mirrored with new cards (each searched to its proof in about a second).
PROBLEMS = {"classic": "#C64 F65 C", "extreme": "#F4B MZR", "nightmare": "#I4D DOH"}


def forty_eight_cards() -> str:
    """A criteria file of 48 new cards, three criteria each, every criterion on a verification card of its own."""
    lines = ["[criteria]"]
    cards = []
    for n in range(48):
        a, b = ("b", "y", "p")[n % 3], ("y", "p", "b")[n % 3]
        k = 3 + n % 3
        keys = [f"c{n}_{i}" for i in range(3)]
        exprs = [f"({a} + {b} + {n // 12}) % {k} == {i}" if i < 2 else f"({a} + {b} + {n // 12}) % {k} >= 2"
                 for i in range(3)]
        for key, expr in zip(keys, exprs):
            lines.append(f'{key} = {{ expr = "{expr}", text = "{expr}" }}')
        cards.append((49 + n, keys))
    for number, keys in cards:
        lines += ["[[criteria_cards]]", f"number = {number}", f'title = "card {number}"',
                  "criteria = [" + ", ".join(f'"{k}"' for k in keys) + "]"]
        lines += [f'[[verification_cards]]\ncriterion = "{k}"' for k in keys]
    return "\n".join(lines) + "\n"


def mirrored(problem_id: str) -> tuple[object, object]:
    """A book problem, and the same problem with each criteria card copied into a new card (numbers from 49)."""
    from tmphys.game.book import book_problem
    from tmphys.game.criteria import library, library_from_texts
    from tmphys.game.problems import parse_problem

    published = parse_problem(book_problem(problem_id).line)
    numbers = sorted({n for cs in published.cards for n in cs})
    new = {n: 49 + i for i, n in enumerate(numbers)}
    lines = ["[criteria]"]
    for n in numbers:
        for c in library().criteria_card(n).criteria:
            lines.append(f'm{n}_{c.key} = {{ expr = "{c.expr}", text = "{c.text}" }}')
    for n in numbers:
        keys = ", ".join(f'"m{n}_{c.key}"' for c in library().criteria_card(n).criteria)
        lines += ["[[criteria_cards]]", f"number = {new[n]}", f'title = "copy of {n}"', f"criteria = [{keys}]"]
    cards = library_from_texts([("mirror.toml", "\n".join(lines) + "\n")])
    if published.mode == "nightmare":
        words = ["--"] + [f"N{new[c[0]]}" for c in published.cards]
    else:
        words = ["/".join(str(new[n]) for n in cs) for cs in published.cards]
    copy = parse_problem(" ".join(w for w in words if w != "--"), cards_only=True, criteria=cards,
                         nightmare=published.mode == "nightmare")
    cards_only = parse_problem(" ".join("/".join(map(str, cs)) if published.mode != "nightmare" else f"N{cs[0]}"
                                        for cs in published.cards), cards_only=True,
                               nightmare=published.mode == "nightmare")
    return cards_only, copy


def solve_cpu(problem: object) -> tuple[float, tuple]:
    """CPU seconds of both optima of a problem, in a fresh solver, and the optima."""
    from tmphys.solve.deduction import Deduction
    from tmphys.solve.solver import Solver

    start = time.process_time()
    values = tuple(Solver(Deduction(problem), objective).optimum() for objective in ("expected", "worst"))
    return time.process_time() - start, values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs of each search (median quoted)")
    args = ap.parse_args()
    from tmphys.game.criteria import load_library

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "forty-eight.toml"
        path.write_text(forty_eight_cards(), "utf-8")
        load_library([path])  # the published library's tables, cached once a process, as a command has them
        times = []
        for _ in range(5):
            start = time.process_time()
            cards = load_library([path])
            times.append(time.process_time() - start)
    print(f"load a file of {len(cards.user_cards)} new cards ({len(cards.user_verification_cards)} verification "
          f"cards): median {statistics.median(times):.3f} s CPU (min {min(times):.3f}, max {max(times):.3f})")
    for mode, problem_id in PROBLEMS.items():
        published, copy = mirrored(problem_id)
        a, b = [], []
        for _ in range(args.rounds):
            ta, va = solve_cpu(published)
            tb, vb = solve_cpu(copy)
            assert va == vb, (problem_id, va, vb)
            a.append(ta)
            b.append(tb)
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"{mode:9} {problem_id}: published cards {ma:.3f} s, the same as new cards {mb:.3f} s CPU "
              f"(new/published {mb / ma:.3f}; both optima equal)")


if __name__ == "__main__":
    main()
