"""The placement search and its measures: isolation clashes and Moran's I."""

from __future__ import annotations

import numpy as np

from tmphys.cards.placement import clashes, morans_i, neighbour_pairs, search
from tmphys.game.criteria import library

PLACES = [(r, c) for r in range(13) for c in range(10)]


def tables() -> np.ndarray:
    return np.array([v.criterion.table for v in library().verification_cards])


def test_neighbour_pair_counts() -> None:
    rows, cols = 13, 10
    assert len(neighbour_pairs(PLACES, "king")) == 4 * rows * cols - 3 * rows - 3 * cols + 2
    assert len(neighbour_pairs(PLACES, "diagonal")) == 2 * (rows - 1) * (cols - 1)
    assert len(neighbour_pairs(PLACES, "none")) == 0


def test_sorted_placement_is_clustered_and_clashes() -> None:
    codes = np.concatenate([np.arange(125), -np.ones(5, dtype=np.int64)])  # 111, 112, … row by row
    pairs = neighbour_pairs(PLACES, "king")
    values = morans_i(tables(), codes, pairs)
    assert values.max() > 0.5  # e.g. "▲ < 3" is a solid band of rows
    assert clashes(codes, pairs) > 300


def test_morans_i_of_alternating_columns_is_negative() -> None:
    table = np.zeros((1, 125), dtype=bool)
    places = [(r, c) for r in range(5) for c in range(25)]
    codes = np.arange(125)
    for i, (_, c) in enumerate(places):
        table[0, i] = c % 2 == 0
    value = morans_i(table, codes, neighbour_pairs(places, "king"))[0]
    assert value < -0.4


def test_search_is_reproducible() -> None:
    a = search(PLACES, tables(), seed=3, steps=1_000)
    b = search(PLACES, tables(), seed=3, steps=1_000)
    assert np.array_equal(a.cell_codes, b.cell_codes)
    assert sorted(a.cell_codes[a.cell_codes >= 0].tolist()) == list(range(125))
    assert a.clashes == clashes(a.cell_codes, neighbour_pairs(PLACES, "diagonal"))
    assert a.aim_clashes == clashes(a.cell_codes, neighbour_pairs(PLACES, "king"))
    assert a.worst_autocorrelation == np.float64(morans_i(tables(), a.cell_codes,
                                                          neighbour_pairs(PLACES, "king")).max())
    c = search(PLACES, tables(), seed=4, steps=1_000)
    assert not np.array_equal(a.cell_codes, c.cell_codes)
