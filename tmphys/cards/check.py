"""Design-rule checks: every stack shows exactly its own cell, and the cards can be cut and used.

Checks run over all 125 stacks at once (numpy), over the hole geometry (sizes, webs, edges,
alignment marks), the isolation rule, the scramble measure, and the misregistration tolerance:
the largest shift (mm) each layer may have, in x and in y independently, with every stack still
showing one window, on its own cell's mark, and nothing else.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from tmphys.cards.deck import PUNCH_CARDS, Deck
from tmphys.cards.layout import Layout
from tmphys.cards.placement import clashes, morans_i, neighbour_pairs
from tmphys.cards.stack import ALIGNED, Raster, stack_openings
from tmphys.game.codes import Code
from tmphys.game.criteria import Library, library


def mm(value: float) -> str:
    """A length as every message prints it: two decimals and the unit, e.g. ``4.50 mm``."""
    return f"{value:.2f} mm"


def mm_tolerated(value: float) -> str:
    """A tolerance as ``mm`` prints a length, rounded down: a stack never tolerates less than it says."""
    return mm(math.floor(value * 100 + 1e-9) / 100) if math.isfinite(value) else "any shift"


@dataclass(frozen=True)
class Violation:
    """One broken rule: which rule, and what is wrong, in a sentence."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


@dataclass
class Tolerance:
    """How far (mm) every layer may shift, and what breaks first beyond that."""

    spurious: float  # another cell starts to open
    closing: float  # the stack's own window closes
    straying: float  # the own window leaves its own cell's mark on the verification card
    rotation_deg: float  # a turn of any layer about the card centre that moves no hole by more
    witness: tuple[int, int, int, int] = (-1, -1, -1, -1)  # code index and the ▲ ■ ● hole cells (0-based)
    #: that open first as a spurious window

    @property
    def mm(self) -> float:
        """The tolerance: the smallest of the three limits."""
        return min(self.spurious, self.closing, self.straying)

    @property
    def limited_by(self) -> str:
        """Which limit is reached first."""
        parts = {"spurious": self.spurious, "closing": self.closing, "straying": self.straying}
        return min(parts, key=parts.__getitem__)


@dataclass
class Report:
    """The outcome of ``check``: counts, violations, the tolerance and the measures behind them."""

    layout: str
    stacks_checked: int
    stacks_with_one_cell: int
    violations: list[Violation]
    tolerance: Tolerance
    measures: dict[str, float | int | str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no rule is broken."""
        return not self.violations

    def to_json(self) -> dict:
        """The report as plain JSON data (stable key order)."""
        return {
            "layout": self.layout,
            "ok": self.ok,
            "stacks_checked": self.stacks_checked,
            "stacks_with_one_cell": self.stacks_with_one_cell,
            "violations": [asdict(v) for v in self.violations],
            "tolerance_mm": round(self.tolerance.mm, 4),
            "tolerance": {k: round(getattr(self.tolerance, k), 4)
                          for k in ("spurious", "closing", "straying", "rotation_deg")}
            | {"limited_by": self.tolerance.limited_by},
            "measures": self.measures,
        }


# --- the stack check (also run on geometry read back from printed files) -------------------

def check_stacks(layout: Layout, hole_matrix: np.ndarray, faces: np.ndarray | None = None,
                 criteria: Library | None = None) -> list[Violation]:
    """Every stack opens exactly the cell of its code, no decoy ever opens, marks tell the truth.

    ``hole_matrix`` is (15, cells) in ``PUNCH_CARDS`` order; ``faces`` (95, cells) the pass marks,
    checked against each verification card's criterion through the stacks, when given.
    """
    out: list[Violation] = []
    opened = stack_openings(hole_matrix)
    counts = opened.sum(axis=1)
    own = layout.code_cells
    for code_index in np.flatnonzero(counts != 1):
        cells = [layout.cells[i].index for i in np.flatnonzero(opened[code_index])]
        out.append(Violation("one-cell", f"stack {_code(code_index)} opens {len(cells)} cells {cells[:6]}"))
    wrong = (counts == 1) & (opened.argmax(axis=1) != own)
    for code_index in np.flatnonzero(wrong):
        got = layout.cells[int(opened[code_index].argmax())].index
        out.append(Violation("own-cell", f"stack {_code(code_index)} opens cell {got}, "
                             f"not its own cell {layout.cells[own[code_index]].index}"))
    decoy = np.array([c is None for c in layout.cell_codes])
    if (opened[:, decoy]).any():
        out.append(Violation("decoy", "a stack opens a decoy cell"))
    per_card = np.asarray(hole_matrix).sum(axis=1)
    for card, n in zip(PUNCH_CARDS, per_card):
        if n != 25:
            out.append(Violation("holes", f"punch card {card.label} has {n} holes, not 25"))
    if faces is not None:
        seen = np.asarray(faces, dtype=bool)[:, own]  # (cards, 125): the mark each stack shows
        for v in (criteria or library()).verification_cards:
            bad = np.flatnonzero(seen[v.index - 1] != v.criterion.table)
            if len(bad):
                out.append(Violation("marks", f"verification card {v.label()} shows the wrong mark "
                                     f"for {len(bad)} codes, e.g. {_code(bad[0])}"))
    return out


def _code(index: int) -> str:
    return str(Code.from_index(int(index)))


# --- geometry rules ----------------------------------------------------------------------

def _rect_gap(dx: np.ndarray, dy: np.ndarray, w: float, h: float, r: float) -> np.ndarray:
    """Distance between two equal rounded rectangles whose centres are (dx, dy) apart."""
    gx = np.maximum(0.0, np.abs(dx) - (w - 2 * r))
    gy = np.maximum(0.0, np.abs(dy) - (h - 2 * r))
    return np.hypot(gx, gy) - 2 * r


def min_web(layout: Layout, hole_matrix: np.ndarray) -> float:
    """The narrowest material (mm) between two holes of one punch card."""
    xy = layout.centres
    best = np.inf
    for holes in np.asarray(hole_matrix, dtype=bool):
        p = xy[holes]
        d = _rect_gap(p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1],
                      layout.hole_width, layout.hole_height, layout.hole_radius)
        np.fill_diagonal(d, np.inf)
        best = min(best, float(d.min()))
    return best


def edge_depth(layout: Layout, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """How far (mm) each point lies inside the card's outline, its rounded corners included (negative: outside)."""
    r = layout.corner_radius
    half_w, half_h = layout.card_width / 2, layout.card_height / 2
    qx = np.abs(np.asarray(x, dtype=float) - half_w) - (half_w - r)
    qy = np.abs(np.asarray(y, dtype=float) - half_h) - (half_h - r)
    outside = np.hypot(np.maximum(qx, 0.0), np.maximum(qy, 0.0)) + np.minimum(np.maximum(qx, qy), 0.0)
    return r - outside


def min_edge(layout: Layout) -> float:
    """The least distance (mm) from any hole to the card's edge, measured to the rounded corners too.

    A hole is its straight core (the hole less its corner radius each way) grown by that radius; the depth inside
    a convex outline is least at a vertex of the core, so the four vertices of each core settle it."""
    xy = layout.centres
    rh = layout.hole_radius
    a, b = layout.hole_width / 2 - rh, layout.hole_height / 2 - rh
    depth = [edge_depth(layout, xy[:, 0] + sx * a, xy[:, 1] + sy * b) for sx in (-1, 1) for sy in (-1, 1)]
    return float(np.min(depth)) - rh


def mark_clearance(layout: Layout) -> float:
    """The least distance (mm) from any hole to any alignment mark's bounding box (inf if none)."""
    if not layout.alignment_marks:
        return float("inf")
    xy = layout.centres
    best = np.inf
    for m in layout.alignment_marks:
        gx = np.maximum(0.0, np.abs(xy[:, 0] - m.x) - (layout.hole_width + m.size) / 2)
        gy = np.maximum(0.0, np.abs(xy[:, 1] - m.y) - (layout.hole_height + m.size) / 2)
        best = min(best, float(np.hypot(gx, gy).min()))
    return best


def isolation_clashes(layout: Layout, rule: str) -> int:
    """How many neighbour pairs (under ``rule``) share a digit, i.e. put two holes side by side."""
    codes = np.array([c.index if c is not None else -1 for c in layout.cell_codes])
    return clashes(codes, neighbour_pairs(layout.places(), rule))


def autocorrelation(layout: Layout, criteria: Library | None = None) -> tuple[float, str]:
    """The most clustered verification card (of ``criteria``, the published game's by default): its Moran's I
    (8 neighbours) and its criterion."""
    lib = criteria or library()
    tables = np.array([v.criterion.table for v in lib.verification_cards])
    codes = np.array([c.index if c is not None else -1 for c in layout.cell_codes])
    values = morans_i(tables, codes, neighbour_pairs(layout.places(), "king"))
    k = int(values.argmax())
    return float(values[k]), lib.verification_cards[k].criterion.text


def tolerance(layout: Layout, hole_matrix: np.ndarray) -> Tolerance:
    """The largest per-layer shift (mm, in x and y independently) under which every stack reads right.

    Spurious: a window opens wherever three holes (one per punch card) can be slid to overlap; the
    two outermost layers close their spread by 2δ, so it takes δ = max(spread_x − w, spread_y − h)/2,
    minimised over all 125 stacks and all their other hole triples (rounded corners ignored: safe).
    Closing: two layers sliding apart close the own window at δ = w/2. Straying: the own window
    stays on its own mark while hole/2 + 2δ ≤ mark/2 (punch cards one way, verification card the other).
    """
    xy = layout.centres
    h = np.asarray(hole_matrix, dtype=bool)
    w, hh = layout.hole_width, layout.hole_height
    best, witness = np.inf, (-1, -1, -1, -1)
    cells = np.arange(len(layout.cells))
    for b in range(5):
        pb = xy[h[b]]
        for y in range(5):
            py = xy[h[5 + y]]
            lo = np.minimum(pb[:, None, :], py[None, :, :])  # (25, 25, 2)
            hi = np.maximum(pb[:, None, :], py[None, :, :])
            for p in range(5):
                pp = xy[h[10 + p]]
                lo3 = np.minimum(lo[:, :, None, :], pp[None, None, :, :])
                hi3 = np.maximum(hi[:, :, None, :], pp[None, None, :, :])
                spread = hi3 - lo3
                need = np.maximum((spread[..., 0] - w) / 2, (spread[..., 1] - hh) / 2)
                need[need < 0] = np.inf  # the triple that is the stack's own cell (spread 0)
                k = int(need.argmin())
                if need.flat[k] < best:
                    i, j, m = np.unravel_index(k, need.shape)
                    best = float(need.flat[k])
                    witness = (b * 25 + y * 5 + p, int(cells[h[b]][i]), int(cells[h[5 + y]][j]),
                               int(cells[h[10 + p]][m]))
    spurious = best
    closing = min(w, hh) / 2
    straying = min(layout.mark_width - w, layout.mark_height - hh) / 4
    delta = min(spurious, closing, straying)
    cx, cy = layout.card_width / 2, layout.card_height / 2
    reach = float(np.hypot(np.abs(xy[:, 0] - cx) + w / 2, np.abs(xy[:, 1] - cy) + hh / 2).max())
    return Tolerance(spurious, closing, straying, float(np.degrees(delta / reach)), witness)


# --- the whole check ---------------------------------------------------------------------

def check(layout: Layout, px_per_mm: float = 5.0, raster: bool = True, criteria: Library | None = None) -> Report:
    """Run every rule on ``layout``: the logical stacks, the raster stacks, geometry, isolation, scramble; over the
    verification cards of ``criteria`` (the published game's, and users' cards with their files)."""
    deck = Deck(layout, criteria)
    violations = check_stacks(layout, deck.hole_matrix, deck.faces, deck.library)
    opened = stack_openings(deck.hole_matrix)
    one = int((opened.sum(axis=1) == 1).sum())
    pixel_faults = raster_violations(deck, px_per_mm) if raster else []
    violations += pixel_faults
    design, measures = design_rules(deck)
    if raster:  # what the pixel check saw, and how finely
        measures["raster_px_per_mm"] = px_per_mm
        measures["raster_stacks_reading_right"] = len(opened) - len(pixel_faults)
    tol = tolerance(layout, deck.hole_matrix)
    measures["rotation_tolerance_deg"] = round(tol.rotation_deg, 4)
    return Report(layout.name, len(opened), one, violations + design, tol, measures)


def quick_check(layout: Layout, criteria: Library | None = None) -> list[Violation]:
    """Every rule of ``check`` but the raster (and without measuring the tolerance): a few ms, for ``build``."""
    deck = Deck(layout, criteria)
    return check_stacks(layout, deck.hole_matrix, deck.faces, deck.library) + design_rules(deck)[0]


def design_rules(deck: Deck) -> tuple[list[Violation], dict[str, float | int | str]]:
    """The rules on the cards themselves (hole size, webs, edges, alignment marks, isolation, scramble),
    with the measures behind them."""
    layout, rules = deck.layout, deck.layout.rules
    violations: list[Violation] = []
    size = min(layout.hole_width, layout.hole_height)
    if size < rules.min_hole:
        violations.append(Violation("hole-size", f"holes are {mm(size)}, under the {mm(rules.min_hole)} minimum"))
    web = min_web(layout, deck.hole_matrix)
    if web < rules.min_web:
        violations.append(Violation("web", f"the narrowest web between two holes of one punch card is "
                                    f"{mm(web)}, under the {mm(rules.min_web)} minimum"))
    edge = min_edge(layout)
    if edge < rules.min_edge:
        violations.append(Violation("edge", f"a hole comes {mm(edge)} from the card edge, "
                                    f"under the {mm(rules.min_edge)} minimum"))
    if layout.mark_width < layout.hole_width or layout.mark_height < layout.hole_height:
        violations.append(Violation("mark-size", f"the printed result marks ({mm(layout.mark_width)} × "
                                    f"{mm(layout.mark_height)}) are smaller than the holes ({mm(layout.hole_width)} × "
                                    f"{mm(layout.hole_height)}): even square, a stack shows the unprinted gap"))
    clearance = mark_clearance(layout)
    if clearance < rules.min_mark_clearance:
        violations.append(Violation("alignment-mark", f"a hole comes {mm(clearance)} from an alignment "
                                    f"mark, under the {mm(rules.min_mark_clearance)} minimum"))
    for m in layout.alignment_marks:  # its square's corners inside the outline, the rounded corners too
        half = m.size / 2
        if edge_depth(layout, np.array([m.x - half, m.x + half] * 2), np.array([m.y - half] * 2 + [m.y + half] * 2)
                      ).min() < 0:
            violations.append(Violation("alignment-mark", f"the {m.shape} mark at ({m.x:.2f}, {m.y:.2f}) mm "
                                        "does not fit on the card"))
    clash_rule = isolation_clashes(layout, rules.isolation) if rules.isolation != "none" else 0
    if clash_rule:
        violations.append(Violation("isolation", f"{clash_rule} {rules.isolation} neighbour pairs share a "
                                    "digit: some punch card has two touching holes"))
    worst_i, worst_text = autocorrelation(layout, deck.library)
    if worst_i > rules.max_autocorrelation:
        violations.append(Violation("scramble", f"the criterion '{worst_text}' is clustered on the card "
                                    f"(Moran's I {worst_i:.3f} > {rules.max_autocorrelation:g})"))
    measures: dict[str, float | int | str] = {
        "cells": len(layout.cells),
        "decoys": len(layout.decoys),
        "hole_mm": round(size, 4),
        "min_web_mm": round(web, 4),
        "min_edge_mm": round(edge, 4),
        "alignment_clearance_mm": round(clearance, 4) if np.isfinite(clearance) else "none",
        "diagonal_clashes": isolation_clashes(layout, "diagonal"),
        "neighbour_clashes": isolation_clashes(layout, "king"),
        "worst_autocorrelation": round(worst_i, 4),
        "worst_autocorrelation_criterion": worst_text,
    }
    return violations, measures


#: Pixels the raster check takes at a time: all 125 stacks over a slice is 125 bytes a pixel (64 MB here).
RASTER_SLICE = 1 << 19


def raster_violations(deck: Deck, px_per_mm: float = 5.0) -> list[Violation]:
    """Rasterise every punch card once (aligned) and check all 125 stacks pixel by pixel (vectorised, a slice of
    ``RASTER_SLICE`` pixels at a time)."""
    layout = deck.layout
    raster = Raster(layout, px_per_mm)
    masks = raster.all_masks(deck, ALIGNED).reshape(15, -1)
    cells = raster.cell_image(ALIGNED).ravel()
    own = layout.code_cells
    shown: list[set[int]] = [set() for _ in range(125)]  # every cell (-1: a gap) each stack shows a pixel of
    # the 125 stacks a slice of pixels at a time: at 50 px/mm all at once would take gigabytes
    for first in range(0, masks.shape[1], RASTER_SLICE):
        part = slice(first, first + RASTER_SLICE)
        stack, pixel = np.nonzero(stack_openings(masks[:, part]))
        span = len(layout.cells) + 1
        for key in np.unique(stack * span + cells[part][pixel] + 1).tolist():
            shown[key // span].add(key % span - 1)
    out: list[Violation] = []
    for index in range(125):
        if shown[index] == {int(own[index])}:
            continue
        got = [layout.cells[i].index if i >= 0 else "gap" for i in sorted(shown[index])]
        out.append(Violation("raster", f"stack {_code(index)} shows {got} in the raster, "
                             f"not just cell {layout.cells[own[index]].index}"))
    return out
