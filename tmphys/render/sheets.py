"""Imposition, a separate named step: cards placed on A4 or Letter pages, with crop marks and a ruler.

Cards sit in a grid centred on the page inside the printable margin, above the strip reserved for
the scale ruler. Neighbouring cards never touch: the gutter between them (``SHEET_GUTTER`` where the
paper has room, never under the kerf plus ``CUT_CLEARANCE``) keeps their cut paths apart, so a laser or
knife cuts no length twice and no cut enters another card. Crop marks stand outside the grid in line
with every card edge, so a guillotine cut along them never crosses another card. Duplex backs use the
long-edge flip: a back is placed at the mirror image of its front's position, then shifted by the
back offset.

>>> sheets = impose(cards, PAPERS["a4"])          # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tmphys.render import params as P
from tmphys.render.draw import Box, CardArt, Shape, guides, rounded_rect, text
from tmphys.render.pdf import Page


class FitError(ValueError):
    """A card (with its bleed and crop marks) that does not fit on the page."""


@dataclass(frozen=True)
class Slot:
    """Where one card's trim box lands on a page (mm from the page's top-left)."""

    card: CardArt
    x: float
    y: float


@dataclass(frozen=True)
class Sheet:
    """One imposed page: its paper, its cards, and whether it is a back (no crop marks, no cut lines)."""

    paper: P.Paper
    slots: tuple[Slot, ...]
    back: bool
    note: str


@dataclass(frozen=True)
class Grid:
    """How cards of one trim size tile a page: columns, rows, and the top-left of each slot."""

    columns: int
    rows: int
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    width: float
    height: float

    @property
    def per_page(self) -> int:
        """Cards per page."""
        return self.columns * self.rows


def least_gutter(bleed: float = 0.0, kerf: float = 0.0) -> float:
    """The narrowest gutter (mm) between two cards: room for both bleeds, and for both cut paths (each kerf/2
    outside its card) with ``CUT_CLEARANCE`` of paper between them, so no length is cut twice."""
    return max(2 * bleed, kerf + P.CUT_CLEARANCE)


def _gutter(usable: float, count: int, size: float, least: float) -> float:
    """The gutter between ``count`` cards of ``size`` in ``usable`` mm: ``SHEET_GUTTER`` where it fits, else
    whatever is left (never under ``least``, which was used to choose ``count``)."""
    if count < 2:
        return least
    room = (usable - count * size) / (count - 1)
    return max(least, min(P.SHEET_GUTTER, room))


def grid_for(paper: P.Paper, width: float, height: float, bleed: float = 0.0, kerf: float = 0.0) -> Grid:
    """The largest grid of ``width`` × ``height`` cards that fits, with room for bleed, crop marks and the
    gutter that keeps neighbouring cut paths (grown by ``kerf``/2) apart."""
    least = least_gutter(bleed, kerf)
    edge = bleed + P.CROP_MARK_OFFSET + P.CROP_MARK_LENGTH  # around the grid, for the crop marks
    usable_w = paper.width - 2 * P.PRINTABLE_MARGIN - 2 * edge
    usable_h = paper.height - 2 * P.PRINTABLE_MARGIN - 2 * edge - P.RULER_AREA
    columns = math.floor((usable_w + least) / (width + least) + 1e-9)
    rows = math.floor((usable_h + least) / (height + least) + 1e-9)
    if columns < 1 or rows < 1:
        raise FitError(f"a {width:g} × {height:g} mm card with {bleed:g} mm bleed and crop marks does not fit "
                       f"on {paper.name} ({paper.width:g} × {paper.height:g} mm, {P.PRINTABLE_MARGIN:g} mm margins)")
    gutter_x, gutter_y = _gutter(usable_w, columns, width, least), _gutter(usable_h, rows, height, least)
    grid_w = columns * width + (columns - 1) * gutter_x
    grid_h = rows * height + (rows - 1) * gutter_y
    left = (paper.width - grid_w) / 2
    top = P.PRINTABLE_MARGIN + edge + (usable_h - grid_h) / 2
    return Grid(columns, rows, tuple(left + c * (width + gutter_x) for c in range(columns)),
                tuple(top + r * (height + gutter_y) for r in range(rows)), width, height)


def impose(cards: list[CardArt], paper: P.Paper, bleed: float = 0.0, label: str = "", kerf: float = 0.0) -> list[Sheet]:
    """Fronts: cards in reading order, as many per page as fit with gutters for ``bleed`` and ``kerf`` (mm)."""
    trim = cards[0].trim
    grid = grid_for(paper, trim.width, trim.height, bleed, kerf)
    places = [(x, y) for y in grid.ys for x in grid.xs]
    sheets = []
    for start in range(0, len(cards), grid.per_page):
        chunk = cards[start:start + grid.per_page]
        slots = tuple(Slot(c, *places[k]) for k, c in enumerate(chunk))
        sheets.append(Sheet(paper, slots, back=False, note=label))
    return sheets


def backs_for(fronts: list[Sheet], backs: list[CardArt], offset: tuple[float, float] = (0.0, 0.0),
              label: str = "") -> list[Sheet]:
    """Back pages for front pages (long-edge flip): each back at its front's mirror image, shifted."""
    out, k = [], 0
    for sheet in fronts:
        slots = []
        for slot in sheet.slots:
            back = backs[k]
            k += 1
            x = sheet.paper.width - slot.x - back.trim.width + offset[0]
            slots.append(Slot(back, x, slot.y + offset[1]))
        out.append(Sheet(sheet.paper, tuple(slots), back=True, note=label))
    return out


# --- sheet furniture: crop marks and the ruler -------------------------------------------------------

def _line(x0: float, y0: float, x1: float, y1: float, width: float, colour: str, role: str) -> Shape:
    """A straight stroke as a path."""
    return Shape((("M", x0, y0), ("L", x1, y1)), stroke=colour, stroke_width=width, role=role)


def crop_marks(sheet: Sheet, bleed: float) -> list[Shape]:
    """Crop marks outside the grid, in line with every card edge (no mark ever touches a card)."""
    if not sheet.slots:
        return []
    xs = sorted({v for s in sheet.slots for v in (s.x, s.x + s.card.trim.width)})
    ys = sorted({v for s in sheet.slots for v in (s.y, s.y + s.card.trim.height)})
    left, right, top, bottom = xs[0] - bleed, xs[-1] + bleed, ys[0] - bleed, ys[-1] + bleed
    gap, length, w = P.CROP_MARK_OFFSET, P.CROP_MARK_LENGTH, P.CROP_MARK_WIDTH
    out = []
    for x in xs:
        out.append(_line(x, top - gap, x, top - gap - length, w, P.CROP_COLOUR, "crop"))
        out.append(_line(x, bottom + gap, x, bottom + gap + length, w, P.CROP_COLOUR, "crop"))
    for y in ys:
        out.append(_line(left - gap, y, left - gap - length, y, w, P.CROP_COLOUR, "crop"))
        out.append(_line(right + gap, y, right + gap + length, y, w, P.CROP_COLOUR, "crop"))
    return out


def ruler(paper: P.Paper, note: str) -> list[Shape]:
    """A 100 mm scale ruler at the foot of the page with a line on how to print at 100 %."""
    x0 = P.PRINTABLE_MARGIN + P.RULER_INSET
    base = paper.height - P.PRINTABLE_MARGIN - P.RULER_AREA + P.RULER_TICK_LONG
    ticks = []
    steps = round(P.RULER_LENGTH / P.RULER_MINOR_TICK)
    for k in range(steps + 1):
        x = x0 + k * P.RULER_MINOR_TICK
        length = (P.RULER_TICK_LONG if k % 10 == 0 else P.RULER_TICK_MEDIUM if k % 5 == 0
                  else P.RULER_TICK_SHORT)
        ticks += [("M", x, base), ("L", x, base - length)]
    ticks += [("M", x0, base), ("L", x0 + P.RULER_LENGTH, base)]
    out = [Shape(tuple(ticks), stroke=P.CROP_COLOUR, stroke_width=P.RULER_STROKE, role="ruler")]
    label_y = base + P.RULER_LABEL_SIZE * 1.2
    for k in range(0, steps + 1, 10):
        out += text(str(round(k * P.RULER_MINOR_TICK)), x0 + k * P.RULER_MINOR_TICK, label_y,
                    P.RULER_LABEL_SIZE, anchor="middle", shape_colours=False)
    right = paper.width - P.PRINTABLE_MARGIN
    out += text("Print at 100 % (actual size): this ruler must measure 100 mm.", right,
                base - P.RULER_TICK_LONG + P.SHEET_NOTE_SIZE, P.SHEET_NOTE_SIZE, anchor="end")
    out += text(note, right, label_y, P.SHEET_NOTE_SIZE, colour=P.FOOTER_INK, anchor="end")
    return out


def sheet_page(sheet: Sheet, bleed: float, number: int, total: int) -> Page:
    """Render one sheet to a PDF page: art, printed cut lines (fronts), crop marks, ruler."""
    items: list[tuple[Shape, float, float]] = []
    for slot in sheet.slots:
        dx, dy = slot.x - slot.card.trim.x, slot.y - slot.card.trim.y
        shapes = slot.card.art if sheet.back else slot.card.art + guides(slot.card)
        items += [(s, dx, dy) for s in shapes]
    furniture = [] if sheet.back else crop_marks(sheet, bleed)
    note = f"{sheet.note} · sheet {number} of {total} · {sheet.paper.name.upper()}"
    furniture += ruler(sheet.paper, note)
    items += [(s, 0.0, 0.0) for s in furniture]
    return Page(sheet.paper.width, sheet.paper.height, tuple(items))


def frame_page(cards: list[CardArt], frame: Box, margin: float = 0.0) -> Page:
    """A page exactly one frame large holding cards drawn on top of each other (a stack)."""
    items = [(s, margin - frame.x, margin - frame.y) for c in cards for s in c.art]
    return Page(frame.width + 2 * margin, frame.height + 2 * margin, tuple(items))


def blank(width: float, height: float) -> Shape:
    """A white rectangle (a preview's background)."""
    return Shape(rounded_rect(0.0, 0.0, width, height, 0.0), fill=P.PAPER_WHITE, role="background")
