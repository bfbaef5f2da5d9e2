"""Seeded search for a placement of the 125 codes on a card grid.

A good placement (1) isolates holes: no two neighbouring cells share a digit in any colour, so no
punch card has two holes side by side or corner to corner; and (2) is scrambled: no criterion's
✓/✗ pattern shows spatial structure, measured by Moran's I over the 8-neighbour graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tmphys.game.codes import ALL_CODES, CODE_COUNT

#: Neighbour steps (row, column) for each isolation rule.
NEIGHBOURS: dict[str, tuple[tuple[int, int], ...]] = {
    "king": ((0, 1), (1, -1), (1, 0), (1, 1)),
    "diagonal": ((1, -1), (1, 1)),
    "none": (),
}

#: In phase 2, how many neighbour clashes one unit of Moran's I above the target costs.
SCRAMBLE_WEIGHT = 500.0
#: Starting temperature of phase 2: low, so that scrambling keeps most of phase 1's isolation.
PHASE2_TEMPERATURE = 0.05
#: In phase 1, how many soft clashes one hard clash costs.
HARD_WEIGHT = 50

_DIGITS = np.array([c.digits for c in ALL_CODES], dtype=np.int8)  # (125, 3)


def neighbour_pairs(places: list[tuple[int, int]], rule: str = "king") -> np.ndarray:
    """Pairs (i, j) of indices into ``places`` (row, column) that are neighbours under ``rule``."""
    where = {rc: i for i, rc in enumerate(places)}
    pairs = [
        (i, where[(r + dr, c + dc)])
        for i, (r, c) in enumerate(places)
        for dr, dc in NEIGHBOURS[rule]
        if (r + dr, c + dc) in where
    ]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def clashes(cell_codes: np.ndarray, pairs: np.ndarray) -> int:
    """How many neighbour pairs share a digit in some colour (-1 marks a decoy cell)."""
    a, b = cell_codes[pairs[:, 0]], cell_codes[pairs[:, 1]]
    real = (a >= 0) & (b >= 0)
    same = (_DIGITS[a[real]] == _DIGITS[b[real]]).any(axis=1)
    return int(same.sum())


def morans_i(tables: np.ndarray, cell_codes: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Moran's I of each truth table (rows of ``tables``, shape (k, 125)) as laid out on the cells.

    +1 is a clustered pattern (recognisable blobs or stripes), -1 a checkerboard, 0 no structure.
    Decoy cells (-1) are left out.
    """
    real = cell_codes >= 0
    index = np.full(len(cell_codes), -1)
    index[real] = np.arange(real.sum())
    keep = real[pairs[:, 0]] & real[pairs[:, 1]]
    i, j = index[pairs[keep, 0]], index[pairs[keep, 1]]
    x = tables[:, cell_codes[real]].astype(float)
    z = x - x.mean(axis=1, keepdims=True)
    denom = (z * z).sum(axis=1)
    num = 2.0 * (z[:, i] * z[:, j]).sum(axis=1)
    n, w = z.shape[1], 2.0 * len(i)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, (n / w) * num / denom, 0.0)


@dataclass(frozen=True)
class PlacementResult:
    """A placement found by the search, with its measures."""

    cell_codes: np.ndarray  # per cell: code index 0..124, or -1 for a decoy cell
    clashes: int  # neighbour pairs sharing a digit under the hard rule (0 when the search succeeds)
    aim_clashes: int  # … under the rule aimed for
    worst_autocorrelation: float  # the largest Moran's I over ``tables``
    steps: int


def search(places: list[tuple[int, int]], tables: np.ndarray, seed: int, rule: str = "diagonal",
           aim: str = "king", steps: int = 150_000, target: float = 0.09) -> PlacementResult:
    """Anneal a placement of the 125 codes (plus decoys) on ``places``, reproducibly from ``seed``.

    Phase 1 swaps cells to remove every clash under ``rule`` (hard) and as many as it can under
    ``aim`` (soft). Phase 2 keeps the hard clashes at zero, brings the criteria's clustering (the largest
    Moran's I over ``tables``: blobs or stripes of ✓) under ``target``, and lowers the soft
    clashes again without letting it rise: no criterion can be read off a verification card at a
    glance. Isolated holes make single-digit criteria mildly dispersed (negative I); that is the
    price of isolation and looks like noise, so only clustering counts.
    """
    n = len(places)
    if n < CODE_COUNT:
        raise ValueError(f"the grid has {n} cells; it needs at least {CODE_COUNT}")
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(CODE_COUNT), -np.ones(n - CODE_COUNT, dtype=np.int64)])
    codes = rng.permutation(codes)
    hard_pairs = neighbour_pairs(places, rule)
    soft_pairs = neighbour_pairs(places, aim)
    king = neighbour_pairs(places, "king")

    def incidence(pairs: np.ndarray) -> list[np.ndarray]:
        inc: list[list[int]] = [[] for _ in range(n)]
        for k, (a, b) in enumerate(pairs):
            inc[a].append(k)
            inc[b].append(k)
        return [np.array(v, dtype=np.int64) for v in inc]

    hard_inc, soft_inc = incidence(hard_pairs), incidence(soft_pairs)

    def local(a: int, b: int) -> tuple[int, int]:
        hk = np.union1d(hard_inc[a], hard_inc[b])
        sk = np.union1d(soft_inc[a], soft_inc[b])
        return clashes(codes, hard_pairs[hk]), clashes(codes, soft_pairs[sk])

    hard, soft = clashes(codes, hard_pairs), clashes(codes, soft_pairs)
    step = 0

    def anneal(rounds: int, start: float, end: float, change: Callable[[int, int], float | None],
               kept: Callable[[], None] = lambda: None) -> None:
        """Swap random pairs of cells, keeping a swap by the Metropolis rule on ``change``'s cost.

        ``change(Δhard, Δsoft)`` gives the swap's change of cost, or None when it is not allowed;
        ``kept()`` is told when a swap stays.
        """
        nonlocal hard, soft, step
        temperature, cooling = start, (end / start) ** (1.0 / max(1, rounds))
        for _ in range(rounds):
            step += 1
            a, b = (int(x) for x in rng.integers(n, size=2))
            if codes[a] == codes[b]:
                continue
            h0, s0 = local(a, b)
            codes[a], codes[b] = codes[b], codes[a]
            h1, s1 = local(a, b)
            delta = change(h1 - h0, s1 - s0)
            if delta is not None and (delta <= 0 or rng.random() < np.exp(-delta / temperature)):
                hard, soft = hard + h1 - h0, soft + s1 - s0
                kept()
            else:
                codes[a], codes[b] = codes[b], codes[a]
            temperature *= cooling

    anneal(steps, 2.0, 0.02, lambda dh, ds: HARD_WEIGHT * dh + ds)

    def cost(soft_clashes: int) -> float:
        excess = float(morans_i(tables, codes, king).max()) - target
        return soft_clashes + SCRAMBLE_WEIGHT * max(0.0, excess)

    score = [cost(soft), 0.0]  # the current cost, and the cost of the swap being tried

    def scramble(dh: int, ds: int) -> float | None:
        if dh > 0:
            return None
        score[1] = cost(soft + ds)
        return score[1] - score[0]

    def keep() -> None:
        score[0] = score[1]

    if hard == 0:
        anneal(steps // 2, PHASE2_TEMPERATURE, 0.01, scramble, keep)
    score = float(morans_i(tables, codes, king).max())
    return PlacementResult(codes, hard, soft, score, step)
