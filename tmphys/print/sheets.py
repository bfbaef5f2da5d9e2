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
from dataclasses import dataclass, replace

from tmphys.art import params as P
from tmphys.art.draw import Box, CardArt, Shape, guides, rounded_rect, text
from tmphys.lang.glyphs import text_width
from tmphys.lang.i18n import N_, _
from tmphys.print.pdf import Page
from tmphys.text import OneLineError


class FitError(OneLineError):
    """A card (with its bleed and crop marks) that does not fit on the page."""


@dataclass(frozen=True)
class Slot:
    """Where one card's trim box lands on a page (mm from the page's top-left)."""

    card: CardArt
    x: float
    y: float


@dataclass(frozen=True)
class Sheet:
    """One imposed page: its paper, its cards, and whether it is a back (no crop marks, no cut lines).

    ``registration``: the sheet is one side of a front and back pair, so it carries the duplex registration mark
    (a cross on the front, a scale at its mirror image on the back); ``offset`` is the back offset it was
    printed with (mm), said on the back.
    """

    paper: P.Paper
    slots: tuple[Slot, ...]
    back: bool
    note: str
    registration: bool = False
    offset: tuple[float, float] = (0.0, 0.0)


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


def with_backs(fronts: list[Sheet], backs: list[CardArt], offset: tuple[float, float], label: str,
               duplex: bool) -> list[Sheet]:
    """Fronts and their backs as printed: each front followed by its back (``duplex``), else every front then
    every back; every page of the pair carries the duplex registration mark."""
    marked = [replace(s, registration=True) for s in fronts]
    turned = [replace(s, registration=True, offset=offset) for s in backs_for(fronts, backs, offset, label)]
    if duplex:
        return [s for pair in zip(marked, turned) for s in pair]
    return marked + turned


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


def ruler_x0(paper: P.Paper, mirrored: bool = False) -> float:
    """Where the ruler's 0 is (mm from the left): by the left margin, or by the right one on a back page, at the
    mirror image of its front's (less what keeps its last figure inside the margin)."""
    x0 = P.PRINTABLE_MARGIN + P.RULER_INSET
    if not mirrored:
        return x0
    last = text_width(f"{P.RULER_LENGTH:g}", P.RULER_LABEL_SIZE) / 2  # its figure, wider than the 0, stays inside
    return paper.width - P.PRINTABLE_MARGIN - max(P.RULER_INSET, last + P.RULER_INSET / 2) - P.RULER_LENGTH


def strip_middle(paper: P.Paper) -> float:
    """The height (mm from the top) of the middle of the ruler strip at the page's foot."""
    return paper.height - P.PRINTABLE_MARGIN - P.RULER_AREA / 2


def registration_x(paper: P.Paper) -> float:
    """Where a front's registration cross stands (mm from the left): right of the ruler, in the ruler strip."""
    return ruler_x0(paper) + P.RULER_LENGTH + P.REG_GAP + P.REG_HALF_WIDTH


#: The first line beside every ruler.
PRINT_NOTE = N_("Print at 100 % (actual size): this ruler must measure 100 mm.")


def ruler(paper: P.Paper, note: str, mirrored: bool = False, room: float | None = None,
          first: str | None = None) -> list[Shape]:
    """A 100 mm scale ruler at the foot of the page with a line on how to print at 100 % (``first``, default
    ``PRINT_NOTE`` in the table's language) and the note (already in it).

    ``mirrored`` (a back page): the ruler by the right margin and the lines by the left one, the mirror image of
    the front's; ``room``: the width the two lines may take, beside a registration mark (default: beside the
    ruler); they shrink to it, down to ``NOTE_MIN_SIZE``.
    """
    first = _(PRINT_NOTE) if first is None else first
    if room is None:
        room = paper.width - 2 * P.PRINTABLE_MARGIN - P.RULER_INSET - P.RULER_LENGTH - P.REG_GAP
    x0 = ruler_x0(paper, mirrored)
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
    edge, anchor = (P.PRINTABLE_MARGIN, "start") if mirrored else (paper.width - P.PRINTABLE_MARGIN, "end")
    out += text(first, edge, base - P.RULER_TICK_LONG + P.SHEET_NOTE_SIZE, P.SHEET_NOTE_SIZE, anchor=anchor,
                room=room, min_size=P.NOTE_MIN_SIZE, where="a sheet's foot")
    out += text(note, edge, label_y, P.SHEET_NOTE_SIZE, colour=P.FOOTER_INK, anchor=anchor, room=room,
                min_size=P.NOTE_MIN_SIZE, where="a sheet's foot")
    return out


def _stroke(points: list[tuple[float, float, float, float]], role: str) -> Shape:
    """Separate straight strokes (x0, y0, x1, y1) as one path of the registration mark's width."""
    path = tuple(cmd for x0, y0, x1, y1 in points for cmd in (("M", x0, y0), ("L", x1, y1)))
    return Shape(path, stroke=P.CROP_COLOUR, stroke_width=P.REG_STROKE, role=role)


def registration_cross(paper: P.Paper) -> list[Shape]:
    """The front's registration mark: a thin cross in the ruler strip, right of the ruler."""
    x, y, arm = registration_x(paper), strip_middle(paper), P.REG_CROSS_ARM
    return [_stroke([(x - arm, y, x + arm, y), (x, y - arm, x, y + arm)], "registration-cross")]


def registration_scale(paper: P.Paper) -> list[Shape]:
    """The back's registration mark: two scales in mm crossing at the mirror image of the front's cross (never
    moved by the back offset). Held to the light, the front's cross shows at DX on the horizontal scale (right +)
    and DY on the vertical one (down +): the ``--back-offset DX,DY`` that lays the backs on their fronts."""
    x, y, reach = paper.width - registration_x(paper), strip_middle(paper), P.REG_SCALE_REACH
    strokes = [(x - reach, y, x + reach, y), (x, y - reach, x, y + reach)]
    steps = round(reach / P.RULER_MINOR_TICK)
    for k in range(-steps, steps + 1):
        t = k * P.RULER_MINOR_TICK
        length = P.REG_TICK_LONG if k % 2 == 0 else P.REG_TICK
        strokes.append((x + t, y, x + t, y - length))   # horizontal scale: ticks above its line
        strokes.append((x, y + t, x - length, y + t))   # vertical scale: ticks left of its line
    out: list[Shape] = [_stroke(strokes, "registration-scale")]
    size, lift = P.REG_LABEL_SIZE, P.REG_LABEL_SIZE * P.CAP_HEIGHT / 2
    gap = P.RULER_MINOR_TICK / 2
    out += text(f"−{reach:g}", x - reach - gap, y + lift, size, anchor="end", shape_colours=False)
    out += text(f"+{reach:g}", x + reach + gap, y + lift, size, anchor="start", shape_colours=False)
    out += text(f"−{reach:g}", x + gap, y - reach + lift, size, anchor="start", shape_colours=False)
    out += text(f"+{reach:g}", x + gap, y + reach + lift - size / 2, size, anchor="start", shape_colours=False)
    return out


def sheet_note(label: str, number: int, total: int, side: str | None, paper: P.Paper) -> str:
    """A sheet's footer: what it holds, its number among the sheets (what a printer user counts: a front and its
    back are one sheet), which side, and the paper: ``tmphys classic · punch cards · sheet 2 of 4 · back · A4``."""
    counted = _("{label} · sheet {number} of {total}").format(label=label, number=number, total=total)
    return f"{counted}{f' · {_(side)}' if side else ''} · {paper.name.upper()}"


def sheet_page(sheet: Sheet, bleed: float, number: int, total: int) -> Page:
    """Render one sheet to a PDF page: art, printed cut lines (fronts), crop marks, ruler; ``number`` of ``total``
    counts sheets (a front and its back share their number)."""
    items: list[tuple[Shape, float, float]] = []
    for slot in sheet.slots:
        dx, dy = slot.x - slot.card.trim.x, slot.y - slot.card.trim.y
        shapes = slot.card.art if sheet.back else slot.card.art + guides(slot.card)
        items += [(s, dx, dy) for s in shapes]
    furniture = [] if sheet.back else crop_marks(sheet, bleed)
    side = (N_("back") if sheet.back else N_("front")) if sheet.registration else None
    note = sheet_note(sheet.note, number, total, side, sheet.paper)
    if not sheet.registration:
        furniture += ruler(sheet.paper, note)
    else:  # the mark beside the ruler; the lines in what is left of the strip
        paper = sheet.paper
        room = paper.width - P.PRINTABLE_MARGIN - registration_x(paper) - P.REG_HALF_WIDTH - P.REG_GAP
        if sheet.back:
            dx, dy = sheet.offset
            first = _("Held to the light, the front's + reads --back-offset DX,DY here (now {dx},{dy})").format(
                dx=f"{dx:g}", dy=f"{dy:g}")
            furniture += ruler(paper, note, mirrored=True, room=room, first=first) + registration_scale(paper)
        else:
            furniture += ruler(paper, note, room=room) + registration_cross(paper)
    items += [(s, 0.0, 0.0) for s in furniture]
    return Page(sheet.paper.width, sheet.paper.height, tuple(items))


def frame_page(cards: list[CardArt], frame: Box, margin: float = 0.0) -> Page:
    """A page exactly one frame large holding cards drawn on top of each other (a stack)."""
    items = [(s, margin - frame.x, margin - frame.y) for c in cards for s in c.art]
    return Page(frame.width + 2 * margin, frame.height + 2 * margin, tuple(items))


def blank(width: float, height: float) -> Shape:
    """A white rectangle (a preview's background)."""
    return Shape(rounded_rect(0.0, 0.0, width, height, 0.0), fill=P.PAPER_WHITE, role="background")
