"""Time the design-rule check: logical stacks, raster stacks, tolerance search, the whole check.

Run: python benchmarks/check.py [--repeat N]. Prints the median of N runs for each part, per layout, then the time
and peak memory of the raster check at the finest resolution allowed (50 px/mm), in a process of its own.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from tmphys.cards.check import check, check_stacks, raster_violations, tolerance
from tmphys.cards.deck import Deck
from tmphys.cards.layout import load_layout
from tmphys.game.criteria import library


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    t = time.perf_counter()
    library()
    print(f"criteria library load (once per process): {time.perf_counter() - t:.3f} s")
    for name in ("classic", "retail"):
        report(name, args.repeat)
    with ProcessPoolExecutor(max_workers=1) as pool:
        seconds, peak_kb = pool.submit(finest, "classic").result()
    print(f"\nraster check at 50 px/mm (classic), alone in a process: {seconds:.1f} s, peak memory "
          f"{peak_kb / 2**20:.2f} GB (the process's, imports included)")


def finest(name: str) -> tuple[float, int]:
    """The raster check at 50 px/mm: its wall time, and the process's peak resident memory (kB)."""
    deck = Deck(load_layout(name))
    t = time.perf_counter()
    raster_violations(deck, 50.0)
    return time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def report(name: str, repeat: int) -> None:
    """Print the timings of every part of the check on one layout."""
    layout = load_layout(name)
    deck = Deck(layout)
    deck.hole_matrix, deck.faces  # noqa: B018 - build the cached deck once
    parts = {
        "load layout": lambda: load_layout(name),
        "logical check, 125 stacks + 95 cards' marks": lambda: check_stacks(layout, deck.hole_matrix, deck.faces),
        "raster check, 125 stacks at 5 px/mm": lambda: raster_violations(deck, 5.0),
        "raster check, 125 stacks at 10 px/mm": lambda: raster_violations(deck, 10.0),
        "tolerance search (1.95 M hole triples)": lambda: tolerance(layout, deck.hole_matrix),
        "whole check (tmphys check)": lambda: check(load_layout(name)),
    }
    print(f"\nlayout {name}: median of {repeat} runs")
    for label, fn in parts.items():
        print(f"  {label:48s} {median_time(fn, repeat) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
