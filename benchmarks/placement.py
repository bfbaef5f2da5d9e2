"""Re-run the seeded placement search of the classic layout and compare it with the shipped file.

Run: python benchmarks/placement.py. Prints the search time, its measures, and whether the shipped
layouts/classic.toml placement is reproduced exactly (it takes minutes, so it is not a test).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tmphys.cards.layout import load_layout
from tmphys.cards.placement import search
from tmphys.game.criteria import library


def main() -> None:
    """Search the classic layout's placement from its seed, print the figures and whether it is the shipped one."""
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    layout = load_layout("classic")
    steps = 600_000
    tables = np.array([v.criterion.table for v in library().verification_cards])
    t = time.perf_counter()
    result = search(layout.places(), tables, layout.seed, rule=layout.rules.isolation, steps=steps)
    took = time.perf_counter() - t
    shipped = np.array([c.index if c is not None else -1 for c in layout.cell_codes])
    print(f"search seed {layout.seed}, {steps} steps: {took:.1f} s")
    print(f"  diagonal clashes {result.clashes}, 8-neighbour clashes {result.aim_clashes}, "
          f"worst Moran's I {result.worst_autocorrelation:.4f}")
    print(f"  reproduces layouts/classic.toml: {bool(np.array_equal(result.cell_codes, shipped))}")


if __name__ == "__main__":
    main()
