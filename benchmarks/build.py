"""Time ``tmphys build``: every card of the set, both papers, both layouts.

Run: python benchmarks/build.py [--repeat N]. For each layout and paper it prints the median wall
time of making all files in memory, of writing them (temp dir, rename), the file count and size,
and the time of some parts of the default build (drawing, per-card SVGs, two PDFs, the punch cards'
cut SVGs alone, and every cut file: an SVG and a DXF per printed sheet of punch cards, verification
card fronts and criteria cards).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tmphys.art import draw, svg
from tmphys.art.draw import Box
from tmphys.cards.deck import PUNCH_CARDS, Deck
from tmphys.game.criteria import library
from tmphys.print import sheets
from tmphys.print.build import BuildOptions, build_files, cut_files, cut_placement, draw_set, plan
from tmphys.print.folder import write_tree
from tmphys.print.pdf import pdf_bytes


def median_time(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median wall time of ``fn`` over ``repeat`` runs (seconds), and its last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def parts(layout_name: str, repeat: int) -> None:
    """Where the time of one default build goes."""
    the_plan = plan(BuildOptions(layout=layout_name))
    deck, lib = Deck(the_plan.layout), library()
    punch = [draw.punch_card(deck, c) for c in PUNCH_CARDS]
    fronts = [draw.verification_front(deck, v) for v in lib.verification_cards]
    criteria = [draw.criteria_card(c) for c in lib.criteria_cards]
    to_cut = [a for a in punch for _ in range(3)]
    printed = sheets.impose(to_cut, the_plan.paper)
    page = Box(0.0, 0.0, the_plan.paper.width, the_plan.paper.height)
    per = len(printed[0].slots)

    def punch_cut_svgs() -> list[str]:
        return [svg.cut_svg(cut_placement(s, to_cut[k * per:k * per + len(s.slots)]), page, "b")
                for k, s in enumerate(printed)]

    rows = [
        ("draw all cards", lambda: ([draw.punch_card(deck, c) for c in PUNCH_CARDS],
                                    [draw.verification_front(deck, v) for v in lib.verification_cards],
                                    [draw.verification_back(deck.layout, v) for v in lib.verification_cards],
                                    [draw.criteria_card(c) for c in lib.criteria_cards])),
        ("158 per-card SVGs (no backs)", lambda: [svg.card_svg(a) for a in punch + fronts + criteria]),
        ("verification fronts PDF", lambda: pdf_bytes(
            [sheets.sheet_page(s, 0.0, 1, 1) for s in sheets.impose(fronts, the_plan.paper)], "b")),
        ("criteria cards PDF", lambda: pdf_bytes(
            [sheets.sheet_page(s, 0.0, 1, 1) for s in sheets.impose(criteria, the_plan.paper)], "b")),
        (f"{len(printed)} punch cut sheets (SVG)", punch_cut_svgs),
    ]
    drawn = draw_set(the_plan)
    n_cut = len(cut_files(the_plan, drawn))
    rows.append((f"{n_cut} cut files (SVG + DXF)", lambda: cut_files(the_plan, drawn)))
    for label, fn in rows:
        seconds, _ = median_time(fn, repeat)
        print(f"  {layout_name:8} {label:26} {seconds * 1000:8.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median is shown)")
    args = parser.parse_args()
    print(f"tmphys build, median of {args.repeat} runs")
    print(f"  {'layout':8} {'paper':6} {'make':>8} {'write':>8} {'files':>6} {'MB':>6}")
    total = 0.0
    for layout_name in ("classic", "retail"):
        for paper in ("a4", "letter"):
            the_plan = plan(BuildOptions(layout=layout_name, paper=paper))
            make, files = median_time(lambda p=the_plan: build_files(p), args.repeat)
            with tempfile.TemporaryDirectory() as tmp:
                write, _ = median_time(lambda f=files, t=tmp: write_tree(f, Path(t) / "set"), args.repeat)
            size = sum(len(b) for b in files.values()) / 1e6
            total += make + write
            print(f"  {layout_name:8} {paper:6} {make:7.2f}s {write:7.2f}s {len(files):6d} {size:6.1f}")
    print(f"  all four sets: {total:.2f}s")
    print("parts of the default (A4) build")
    for layout_name in ("classic", "retail"):
        parts(layout_name, args.repeat)


if __name__ == "__main__":
    main()
