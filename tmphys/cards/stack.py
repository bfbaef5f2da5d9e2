"""What a stack of three punch cards over a verification card shows.

Two views of the same physics. Logically, a cell is open when all three punch cards are punched
there. As a raster, each layer is a numpy mask of its holes (or of its printed cells) at a chosen
resolution, each layer offset by (dx, dy) mm and rotated by θ degrees about the card's centre; what
shows through is the AND of the three punch masks, read on the verification card below.

>>> read_stack(deck, Code.parse("241"), verification_card("447")).mark   # doctest: +SKIP
'pass'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from tmphys.cards.deck import PUNCH_CARDS, Deck, PunchCard, stack_for
from tmphys.cards.layout import Layout
from tmphys.game.codes import Code
from tmphys.game.criteria import VerificationCard
from tmphys.text import OneLineError

#: Default raster resolution, pixels per millimetre (0.1 mm pixels).
DEFAULT_PX_PER_MM = 10.0
#: The largest shift of a layer (mm, either way) a stack is simulated with: a metre takes any layer far off any card.
MAX_SHIFT_MM = 1000.0


@dataclass(frozen=True)
class Placement:
    """Where one layer lies on the table: shifted (dx, dy) mm and turned ``rotation`` degrees."""

    dx: float = 0.0
    dy: float = 0.0
    rotation: float = 0.0


ALIGNED = Placement()


@dataclass(frozen=True)
class StackView:
    """What one stack shows: the open cells and, for each, its area (mm²) and mark."""

    code: Code
    card: VerificationCard | None
    open_cells: tuple[int, ...]  # cell numbers (1..), reading order
    areas: dict[int, float] = field(default_factory=dict)  # cell number -> visible area, mm²
    marks: dict[int, bool] = field(default_factory=dict)  # cell number -> pass mark?
    gap_area: float = 0.0  # open area (mm²) that falls on no printed cell (the gaps between marks)

    @property
    def mark(self) -> str | None:
        """``"pass"`` or ``"fail"`` when exactly one cell shows, else None (an unreadable stack)."""
        if len(self.open_cells) != 1 or self.card is None:
            return None
        return "pass" if self.marks[self.open_cells[0]] else "fail"


def open_cells(deck: Deck, cards: tuple[PunchCard, ...]) -> tuple[int, ...]:
    """Cells (numbers 1..) where every one of ``cards`` is punched: the logical stack."""
    through = np.logical_and.reduce([deck.holes(c) for c in cards])
    return tuple(int(i) + 1 for i in np.flatnonzero(through))


def read_stack(deck: Deck, code: Code, card: VerificationCard | None = None) -> StackView:
    """Stack the punch cards of ``code`` (aligned) over ``card`` and read what shows.

    Aligned, each open cell shows one whole hole: its area is the hole's rounded rectangle.
    """
    cells = open_cells(deck, stack_for(code))
    face = deck.face(card) if card is not None else None
    area = deck.layout.hole_area
    return StackView(code, card, cells, {c: area for c in cells},
                     {c: bool(face[c - 1]) for c in cells} if face is not None else {})


def stack_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each code index 0..124, the rows (in ``PUNCH_CARDS`` order) of its ▲, ■ and ● punch cards."""
    b, y, p = np.meshgrid(np.arange(5), np.arange(5), np.arange(5), indexing="ij")
    return b.ravel(), 5 + y.ravel(), 10 + p.ravel()


def stack_openings(hole_matrix: np.ndarray) -> np.ndarray:
    """Bool (125, …): what every stack leaves open, from a (15, …) matrix of holes (cells or pixels)."""
    h = np.asarray(hole_matrix, dtype=bool)
    b, y, p = stack_rows()
    return h[b] & h[y] & h[p]



# --- raster --------------------------------------------------------------------------------

#: The most pixels a raster may have: the check and a shifted stack take about 100 bytes a pixel at their peak
#: (masks, coordinates, 125 stacks a slice at a time), so this holds either under about 1.6 GB. The classic layout at
#: 50 px/mm is 15.8 million pixels.
MAX_RASTER_PIXELS = 16_000_000


class RasterTooLarge(OneLineError):
    """A raster that would take more memory than a check should: the message says what resolution fits."""


def raster_size(layout: Layout, px_per_mm: float, margin: float | None = None) -> tuple[int, int]:
    """Width and height (pixels) of ``Raster(layout, px_per_mm)``, worked out without making it."""
    m = max(layout.pitch_x, layout.pitch_y) if margin is None else margin
    xy = layout.centres
    span_x = xy[:, 0].max() - xy[:, 0].min() + 2 * m
    span_y = xy[:, 1].max() - xy[:, 1].min() + 2 * m
    return int(np.ceil(span_x * px_per_mm)), int(np.ceil(span_y * px_per_mm))


def check_raster_size(layout: Layout, px_per_mm: float) -> None:
    """Raise RasterTooLarge, naming the finest resolution that fits, when the raster would pass
    ``MAX_RASTER_PIXELS``."""
    width, height = raster_size(layout, px_per_mm)
    if width * height > MAX_RASTER_PIXELS:
        fits = math.floor(10 * px_per_mm * math.sqrt(MAX_RASTER_PIXELS / (width * height))) / 10
        while fits > 0.1 and math.prod(raster_size(layout, fits)) > MAX_RASTER_PIXELS:  # pixels round up
            fits = round(fits - 0.1, 1)
        raise RasterTooLarge(f"a raster of layout {layout.label} at {px_per_mm:g} px/mm would be {width:,} × "
                             f"{height:,} pixels, more than the {MAX_RASTER_PIXELS:,} that fit in memory: give "
                             f"--resolution {fits:g} or less")


class Raster:
    """A pixel frame over the grid area of a layout, in table coordinates (mm)."""

    def __init__(self, layout: Layout, px_per_mm: float = DEFAULT_PX_PER_MM, margin: float | None = None):
        if px_per_mm <= 0:
            raise ValueError("px_per_mm must be positive")
        if margin is None:
            check_raster_size(layout, px_per_mm)
        self.layout, self.px_per_mm = layout, float(px_per_mm)
        m = max(layout.pitch_x, layout.pitch_y) if margin is None else margin
        xy = layout.centres
        self.x0, self.y0 = xy[:, 0].min() - m, xy[:, 1].min() - m
        x1, y1 = xy[:, 0].max() + m, xy[:, 1].max() + m
        self.width = int(np.ceil((x1 - self.x0) * px_per_mm))
        self.height = int(np.ceil((y1 - self.y0) * px_per_mm))

    @property
    def pixel_area(self) -> float:
        """Area of one pixel in mm²."""
        return 1.0 / self.px_per_mm**2

    @cached_property
    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """Table coordinates (mm) of every pixel centre, each of shape (height, width)."""
        xs = self.x0 + (np.arange(self.width) + 0.5) / self.px_per_mm
        ys = self.y0 + (np.arange(self.height) + 0.5) / self.px_per_mm
        return np.meshgrid(xs, ys)

    @cached_property
    def _cell_lookup(self) -> tuple[float, float, np.ndarray]:
        lay = self.layout
        c0 = lay.cells[0]
        ox, oy = c0.x - c0.column * lay.pitch_x, c0.y - c0.row * lay.pitch_y
        table = np.full((lay.rows + 2, lay.columns + 2), -1, dtype=np.int64)
        for i, c in enumerate(lay.cells):
            table[c.row + 1, c.column + 1] = i
        return ox, oy, table

    def _local(self, placement: Placement) -> tuple[np.ndarray, np.ndarray]:
        """Pixel centres in the layer's own card coordinates, undoing its placement."""
        x, y = self.points
        lay = self.layout
        cx, cy = lay.card_width / 2, lay.card_height / 2
        u, v = x - placement.dx - cx, y - placement.dy - cy
        if placement.rotation:
            t = np.radians(-placement.rotation)
            u, v = u * np.cos(t) - v * np.sin(t), u * np.sin(t) + v * np.cos(t)
        return u + cx, v + cy

    def _nearest(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Nearest cell (index into cells, or -1) of each point, and the offset from its centre."""
        lay = self.layout
        ox, oy, table = self._cell_lookup
        col = np.rint((u - ox) / lay.pitch_x).astype(np.int64)
        row = np.rint((v - oy) / lay.pitch_y).astype(np.int64)
        ok = (col >= -1) & (col <= lay.columns) & (row >= -1) & (row <= lay.rows)
        idx = np.where(ok, table[np.clip(row + 1, 0, table.shape[0] - 1),
                                 np.clip(col + 1, 0, table.shape[1] - 1)], -1)
        return idx, u - (ox + col * lay.pitch_x), v - (oy + row * lay.pitch_y)

    def hole_sites(self, placement: Placement = ALIGNED) -> np.ndarray:
        """Int image: the cell (index into cells) whose hole outline covers each pixel, else -1.

        The same for every punch card at this placement; a card's mask keeps the cells it punches.
        """
        lay = self.layout
        idx, du, dv = self._nearest(*self._local(placement))
        hw, hh, r = lay.hole_width / 2, lay.hole_height / 2, lay.hole_radius
        ax, ay = np.abs(du), np.abs(dv)
        inside = (ax <= hw) & (ay <= hh)
        corner = (ax > hw - r) & (ay > hh - r)
        inside &= ~corner | ((ax - (hw - r)) ** 2 + (ay - (hh - r)) ** 2 <= r * r)
        return np.where(inside, idx, -1)

    def hole_mask(self, deck: Deck, card: PunchCard, placement: Placement = ALIGNED,
                  sites: np.ndarray | None = None) -> np.ndarray:
        """Bool image: where light passes through ``card`` lying at ``placement``."""
        sites = self.hole_sites(placement) if sites is None else sites
        punched = np.concatenate([deck.holes(card), [False]])
        return punched[sites]

    def cell_image(self, placement: Placement = ALIGNED) -> np.ndarray:
        """Int image: which cell's printed mark (index into cells) lies under each pixel, -1 for none."""
        lay = self.layout
        idx, du, dv = self._nearest(*self._local(placement))
        on_mark = (np.abs(du) <= lay.mark_width / 2) & (np.abs(dv) <= lay.mark_height / 2)
        return np.where(on_mark, idx, -1)

    def view(self, deck: Deck, code: Code, card: VerificationCard | None = None,
             placements: tuple[Placement, Placement, Placement, Placement] | None = None) -> StackView:
        """Simulate the stack of ``code`` over ``card``; placements: ▲, ■, ● cards, then the card below."""
        pl = placements or (ALIGNED,) * 4
        through = np.logical_and.reduce([self.hole_mask(deck, c, p) for c, p in zip(stack_for(code), pl)])
        return self.read(deck, code, card, through, self.cell_image(pl[3]))

    def read(self, deck: Deck, code: Code, card: VerificationCard | None, through: np.ndarray,
             cells: np.ndarray) -> StackView:
        """Read an open-pixel image over a cell image: visible cells, their areas and marks."""
        seen = cells[through]
        counts = np.bincount(seen[seen >= 0], minlength=len(self.layout.cells))
        visible = tuple(int(i) + 1 for i in np.flatnonzero(counts))
        face = deck.face(card) if card is not None else None
        return StackView(code, card, visible, {c: float(counts[c - 1]) * self.pixel_area for c in visible},
                         {c: bool(face[c - 1]) for c in visible} if face is not None else {},
                         float((seen < 0).sum()) * self.pixel_area)

    def all_masks(self, deck: Deck, placement: Placement = ALIGNED) -> np.ndarray:
        """Bool (15, height, width): every punch card's mask at one placement."""
        sites = self.hole_sites(placement)
        return np.stack([self.hole_mask(deck, c, placement, sites) for c in PUNCH_CARDS])
