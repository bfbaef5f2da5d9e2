"""The fold-up paper tray (``holder-tray.pdf``): the punch cards' holder for those with only a printer.

A net to cut out with scissors, fold and glue: an open box whose floor is a punch card wide (plus
``TRAY_CLEARANCE``) and three compartments deep, ▲ blue at the back, ■ yellow, ● purple at the front, each deep
enough for five punch cards standing upright, tab up; and two dividers glued by their side tabs to the side walls.
The walls stand ``wall_height`` tall, low enough that every card's top and tab stand above them. Cut lines are solid,
fold lines dashed, glue tabs grey, as on the other sheets. A net too wide for the paper is split across the floor's
middle into two pieces: the left one carries a glue strip, and half-diamonds on both edges make whole diamonds when
the right piece's edge lies on the strip's fold.

>>> pdf = tray_pdf(load_layout("classic"), PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tmphys.art import params as P
from tmphys.art.draw import Box, Item, Shape, text
from tmphys.cards.layout import Layout
from tmphys.game.codes import SHAPES
from tmphys.lang.fit import check_lines
from tmphys.lang.glyphs import wrap
from tmphys.lang.i18n import N_, _
from tmphys.print import sheets
from tmphys.print.pdf import Page, pdf_bytes

#: How many punch cards of one colour a compartment holds: the five values, in as many copies as a build prints by
#: default (one set runs a table's machine).
CARDS_PER_COLOUR = 5 * P.PUNCH_COPIES

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class TraySize:
    """The tray's inside (mm): the floor's width across, one compartment's depth, the walls' height."""

    width: float
    compartment: float
    wall: float

    @property
    def depth(self) -> float:
        """The floor's depth front to back: a compartment per colour."""
        return len(SHAPES) * self.compartment


def tray_size(layout: Layout) -> TraySize:
    """The tray for this layout's punch cards: a card's width across, five cards deep per colour, walls lower than a
    card with its tab by ``TRAY_REVEAL`` (and at most ``TRAY_WALL_HEIGHT``)."""
    wall = min(P.TRAY_WALL_HEIGHT, layout.card_height + layout.tab_height - P.TRAY_REVEAL)
    return TraySize(layout.card_width + P.TRAY_CLEARANCE,
                    CARDS_PER_COLOUR * P.TRAY_CARD_ALLOWANCE + P.TRAY_CLEARANCE, wall)


@dataclass(frozen=True)
class Label:
    """A line of text on a piece: its words, where it starts (or is centred), its size and ink."""

    words: str
    x: float
    baseline: float
    size: float
    anchor: str = "start"
    colour: str = P.INK
    room: float | None = None  # the width it may take (it shrinks to it: lang/fit.py)


@dataclass(frozen=True)
class Piece:
    """One piece to cut out (mm, its own frame): the cut outline (closed), fold lines, filled areas (glue tabs,
    compartments), guide lines (where dividers stand), labels and alignment half-diamonds."""

    name: str
    outline: tuple[Point, ...]
    folds: tuple[Segment, ...] = ()
    fills: tuple[tuple[tuple[Point, ...], str, str], ...] = ()   # (polygon, colour, role)
    guides: tuple[Segment, ...] = ()
    labels: tuple[Label, ...] = ()
    marks: tuple[tuple[Point, ...], ...] = ()

    def box(self) -> Box:
        """The outline's bounding box."""
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def moved(self, dx: float, dy: float) -> Piece:
        """The piece moved by (dx, dy)."""
        def pts(ps: tuple[Point, ...]) -> tuple[Point, ...]:
            return tuple((x + dx, y + dy) for x, y in ps)

        def seg(s: Segment) -> Segment:
            return (s[0][0] + dx, s[0][1] + dy), (s[1][0] + dx, s[1][1] + dy)

        return Piece(self.name, pts(self.outline), tuple(seg(s) for s in self.folds),
                     tuple((pts(p), c, r) for p, c, r in self.fills), tuple(seg(s) for s in self.guides),
                     tuple(replace(lb, x=lb.x + dx, baseline=lb.baseline + dy) for lb in self.labels),
                     tuple(pts(m) for m in self.marks))


def _rect(x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _taper(size: TraySize) -> float:
    """How far a glue tab's ends slant in: ``TRAY_TAB_TAPER``, less on a short edge."""
    return min(P.TRAY_TAB_TAPER, size.wall / 4, size.depth / 4)


def _side_tab(x: float, y0: float, y1: float, out: float) -> tuple[Point, ...]:
    """A glue tab on the vertical edge x from y0 to y1, reaching ``out`` mm (negative: to the left), tapered."""
    t = min(P.TRAY_TAB_TAPER, (y1 - y0) / 4)
    return ((x, y0), (x + out, y0 + t), (x + out, y1 - t), (x, y1))


def _glue_label(polygon: tuple[Point, ...]) -> Label:
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return Label(_("glue"), (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2 + P.TRAY_TEXT_SIZE * P.CAP_HEIGHT / 2,
                 P.TRAY_TEXT_SIZE, "middle", P.FOOTER_INK, room=max(xs) - min(xs) - 1.0)


def net(size: TraySize) -> Piece:
    """The box's net, the floor at (0, 0)–(width, depth): back wall above it, front wall below, a side wall either
    side, glue tabs on the back and front walls' ends (they fold in and glue inside the side walls)."""
    w, d, h, g = size.width, size.depth, size.wall, P.TRAY_GLUE_TAB
    tabs = [_side_tab(0.0, -h, 0.0, -g), _side_tab(w, -h, 0.0, g), _side_tab(w, d, d + h, g),
            _side_tab(0.0, d, d + h, -g)]
    left_back, right_back, right_front, left_front = tabs
    outline = ((0.0, -h), (w, -h), right_back[1], right_back[2], (w, 0.0), (w + h, 0.0), (w + h, d), (w, d),
               right_front[1], right_front[2], (w, d + h), (0.0, d + h), left_front[2], left_front[1], (0.0, d),
               (-h, d), (-h, 0.0), (0.0, 0.0), left_back[2], left_back[1])
    folds: list[Segment] = [((0.0, 0.0), (w, 0.0)), ((0.0, d), (w, d)), ((0.0, 0.0), (0.0, d)), ((w, 0.0), (w, d)),
                            ((0.0, -h), (0.0, 0.0)), ((w, -h), (w, 0.0)), ((0.0, d), (0.0, d + h)),
                            ((w, d), (w, d + h))]
    c = size.compartment
    fills = [(tab, P.TRAY_GLUE_TINT, "tray-glue") for tab in tabs]
    labels = [_glue_label(tab) for tab in tabs]
    size_label = min(P.TRAY_LABEL_SIZE, 0.8 * c / P.CAP_HEIGHT)
    for k, colour in enumerate(SHAPES):
        fills.append((_rect(0.0, k * c, w, c), P.CARD_TINT[colour], "tray-floor"))
        fills += [(_rect(-h, k * c, h, c), P.CARD_TINT[colour], "tray-side"),
                  (_rect(w, k * c, h, c), P.CARD_TINT[colour], "tray-side")]
        labels.append(Label(f"{SHAPES[colour]} {_(colour)}", P.TRAY_TEXT_INSET,
                            k * c + c / 2 + size_label * P.CAP_HEIGHT / 2, size_label, room=w - 2 * P.TRAY_TEXT_INSET))
    guides = [((x0, k * c), (x1, k * c)) for k in range(1, len(SHAPES)) for x0, x1 in ((-h, 0.0), (0.0, w), (w, w + h))]
    inset, small = P.TRAY_TEXT_INSET, P.TRAY_TEXT_SIZE
    labels += [Label(_("back wall"), inset, -h + inset + small, small, colour=P.FOOTER_INK, room=w - 2 * inset),
               Label(_("front wall"), inset, d + h - inset, small, colour=P.FOOTER_INK, room=w - 2 * inset),
               Label(_("side"), -h + inset, d - inset, small, colour=P.FOOTER_INK, room=h - 2 * inset),
               Label(_("side"), w + h - inset, d - inset, small, "end", P.FOOTER_INK, room=h - 2 * inset)]
    return Piece("net", outline, tuple(folds), tuple(fills), tuple(guides), tuple(labels))


def divider(size: TraySize, between: tuple[str, str]) -> Piece:
    """A divider (0, 0)–(width, wall) with a glue tab at each end: it stands on the floor's grey line between two
    compartments, its tabs glued to the side walls."""
    w, h, g = size.width, size.wall, P.TRAY_GLUE_TAB
    left, right = _side_tab(0.0, 0.0, h, -g), _side_tab(w, 0.0, h, g)
    outline = ((0.0, 0.0), (w, 0.0), right[1], right[2], (w, h), (0.0, h), left[2], left[1])
    first, second = (SHAPES[c] for c in between)
    labels = (_glue_label(left), _glue_label(right),
              Label(_("divider {first} | {second}").format(first=first, second=second), w / 2, h / 2,
                    P.TRAY_TEXT_SIZE, "middle", P.FOOTER_INK, room=w - 2 * P.TRAY_TEXT_INSET))
    return Piece(f"divider {first}{second}", outline, (((0.0, 0.0), (0.0, h)), ((w, 0.0), (w, h))),
                 ((left, P.TRAY_GLUE_TINT, "tray-glue"), (right, P.TRAY_GLUE_TINT, "tray-glue")), (), labels)


def pieces(size: TraySize) -> list[Piece]:
    """The whole tray: its net and a divider between each two neighbouring compartments."""
    colours = list(SHAPES)
    return [net(size), *(divider(size, (a, b)) for a, b in zip(colours, colours[1:]))]


# --- splitting a net too wide for the paper ----------------------------------------------------------------

def _clip(polygon: tuple[Point, ...], at: float, keep_left: bool) -> tuple[Point, ...]:
    """The part of a polygon left (or right) of the vertical line x = ``at`` (Sutherland–Hodgman, one edge)."""
    def inside(p: Point) -> bool:
        return p[0] <= at if keep_left else p[0] >= at

    out: list[Point] = []
    for k, p in enumerate(polygon):
        q = polygon[(k + 1) % len(polygon)]
        if inside(p):
            out.append(p)
        if inside(p) != inside(q) and p[0] != q[0]:
            s = (at - p[0]) / (q[0] - p[0])
            cut = (at, p[1] + s * (q[1] - p[1]))
            if cut != p and cut != q:
                out.append(cut)
    return tuple(out)


def _clip_segment(seg: Segment, at: float, keep_left: bool) -> Segment | None:
    (x0, y0), (x1, y1) = seg
    lo, hi = (-float("inf"), at) if keep_left else (at, float("inf"))
    if max(x0, x1) < lo or min(x0, x1) > hi:
        return None
    if x0 == x1:
        return seg

    def at_x(x: float) -> Point:
        return (x, y0 + (x - x0) / (x1 - x0) * (y1 - y0))
    a, b = at_x(min(max(x0, lo), hi)), at_x(min(max(x1, lo), hi))
    return None if a == b else (a, b)


def _half_diamond(at: float, y: float, towards: float) -> tuple[Point, ...]:
    """Half a diamond, its long side on x = ``at``, its tip ``towards`` the right (+1) or the left (-1)."""
    s = P.TRAY_MARK / 2
    return ((at, y - s), (at + towards * s, y), (at, y + s))


def _strip_points(p: Point, q: Point, reach: float) -> list[Point]:
    """The glue strip's two outer corners between the cut edge's ends p and q (on x = p's x), slanted in."""
    sign = 1.0 if q[1] > p[1] else -1.0
    t = min(P.TRAY_TAB_TAPER, abs(q[1] - p[1]) / 4)
    return [(p[0] + reach, p[1] + sign * t), (p[0] + reach, q[1] - sign * t)]


def split(piece: Piece, size: TraySize) -> list[Piece]:
    """The net cut across the floor's middle: the left piece with a glue strip beyond the cut (folded under the
    right piece), the right piece ending on the cut; half-diamonds on both edges, at the walls' middles."""
    at, h, d, g = size.width / 2, size.wall, size.depth, P.TRAY_GLUE_TAB
    strip = _side_tab(at, -h, d + h, g)
    marks_y = (-h / 2, d + h / 2)
    out = []
    for keep_left in (True, False):
        outline = list(_clip(piece.outline, at, keep_left))
        folds = [s for s in (_clip_segment(f, at, keep_left) for f in piece.folds) if s]
        guides = [s for s in (_clip_segment(f, at, keep_left) for f in piece.guides) if s]
        fills = [(p, c, r) for p, c, r in ((_clip(p, at, keep_left), c, r) for p, c, r in piece.fills) if len(p) >= 3]
        labels = [lb for lb in piece.labels if (lb.x <= at) is keep_left]
        if keep_left:  # the cut edge becomes the strip's fold: the strip's slanted outline takes its place
            k = next(i for i in range(len(outline)) if outline[i][0] == at and outline[i - 1][0] == at)
            outline[k:k] = _strip_points(outline[k - 1], outline[k], g)
            folds.append(((at, -h), (at, d + h)))
            fills.append((strip, P.TRAY_GLUE_TINT, "tray-glue"))
            labels.append(_glue_label(strip))
        marks = tuple(_half_diamond(at, y, -1.0 if keep_left else 1.0) for y in marks_y)
        out.append(Piece(f"net, {'left' if keep_left else 'right'} half", tuple(outline), tuple(folds), tuple(fills),
                         tuple(guides), tuple(labels), marks))
    return out


# --- sheets ---------------------------------------------------------------------------------------------------

HOW_TO = N_("Cut on the solid lines; fold on every dashed line, printed side in. Fold up the walls and glue each "
            "grey tab inside the side wall beside it; glue each divider's tabs to the side walls on the grey lines. "
            "▲ blue cards stand at the back, ■ yellow in the middle, ● purple at the front, tab up.")
SPLIT_HOW_TO = N_("The net is in two pieces: glue the right piece over the left one's strip, the half-diamonds "
                  "meeting.")


@dataclass(frozen=True)
class TraySheets:
    """The tray's pieces placed on sheets (page mm): per sheet, its pieces; and the instructions above them."""

    paper: P.Paper
    size: TraySize
    pages: tuple[tuple[Piece, ...], ...]
    split: bool
    header: tuple[str, ...]
    title: str = ""


def _header(paper: P.Paper, title: str, split_net: bool) -> list[str]:
    width = paper.width - 2 * P.PRINTABLE_MARGIN
    lines = wrap(title, P.TRAY_TEXT_SIZE, width, "bold")
    for paragraph in (HOW_TO, SPLIT_HOW_TO) if split_net else (HOW_TO,):
        lines += wrap(_(paragraph), P.TRAY_TEXT_SIZE, width)
    check_lines(lines, P.TRAY_TEXT_SIZE, width, None, P.TRAY_LINE_GAP, where="tray: instructions")
    return lines


def _pack(parts: list[Piece], paper: P.Paper, top: float) -> list[list[Piece]] | None:
    """Shelf-pack the pieces onto sheets below ``top`` (in rows, a gap apart, above the ruler strip); None when a
    piece does not fit a sheet."""
    m, gap = P.PRINTABLE_MARGIN, P.TRAY_PIECE_GAP
    right, bottom = paper.width - m, paper.height - m - P.RULER_AREA - gap
    pages: list[list[Piece]] = [[]]
    x, y, row = m, top, 0.0
    for piece in parts:
        b = piece.box()
        if b.width > right - m or b.height > bottom - top:
            return None
        if x + b.width > right:
            x, y, row = m, y + row + gap, 0.0
        if y + b.height > bottom:
            pages.append([])
            x, y, row = m, top, 0.0
        pages[-1].append(piece.moved(x - b.x, y - b.y))
        x, row = x + b.width + gap, max(row, b.height)
    return pages


def tray_sheets(layout: Layout, paper: P.Paper) -> TraySheets:
    """The tray's pieces on sheets of ``paper``: the whole net when it fits a sheet, else split in two. Raises
    ValueError when even the halves do not fit."""
    size = tray_size(layout)
    if size.wall < P.TRAY_MIN_WALL:
        raise ValueError(f"the punch cards ({layout.card_height + layout.tab_height:g} mm tall with the tab) are too "
                         f"short for a paper tray: its walls would be {size.wall:g} mm")
    title = _("tmphys {layout} · fold-up punch-card tray: three compartments ▲ ■ ●, {count} punch cards each").format(
        layout=layout.name, count=CARDS_PER_COLOUR)
    whole, *dividers = pieces(size)
    for split_net, parts in ((False, [whole, *dividers]), (True, [*split(whole, size), *dividers])):
        header = _header(paper, title, split_net)
        top = P.PRINTABLE_MARGIN + len(header) * P.TRAY_TEXT_SIZE * P.TRAY_LINE_GAP + P.TRAY_PIECE_GAP
        pages = _pack(parts, paper, top)
        if pages is not None:
            return TraySheets(paper, size, tuple(tuple(p) for p in pages), split_net, tuple(header), title)
    raise ValueError(f"the punch-card tray ({size.width:g} mm wide, walls {size.wall:g} mm) does not fit on "
                     f"{paper.name}, even in two pieces")


def _polygon(points: tuple[Point, ...]) -> tuple:
    return (("M", *points[0]), *(("L", x, y) for x, y in points[1:]), ("Z",))


def dashes(seg: Segment) -> tuple:
    """A fold line as dashes, a dash at each end so that the line reaches its two ends, no gap over ``FOLD_GAP``."""
    (x0, y0), (x1, y1) = seg
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    n = max(1, math.ceil((length + P.FOLD_GAP) / (P.FOLD_DASH + P.FOLD_GAP)))  # gaps at most FOLD_GAP
    dash = min(P.FOLD_DASH, length)
    step = (length - dash) / (n - 1) if n > 1 else 0.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    out: list[tuple] = []
    for k in range(n):
        a = k * step
        out += [("M", x0 + ux * a, y0 + uy * a), ("L", x0 + ux * (a + dash), y0 + uy * (a + dash))]
    return tuple(out)


def piece_items(piece: Piece) -> list[Item]:
    """One piece drawn: fills, guides, fold lines (dashed), labels, marks, then its cut line (solid) on top."""
    out: list[Item] = [Shape(_polygon(p), fill=c, role=r) for p, c, r in piece.fills]
    out += [Shape((("M", *a), ("L", *b)), stroke=P.TRAY_GUIDE_INK, stroke_width=P.TRAY_GUIDE_WIDTH, role="tray-guide")
            for a, b in piece.guides]
    out += [Shape(dashes(f), stroke=P.FOLD_INK, stroke_width=P.FOLD_WIDTH, role="fold") for f in piece.folds]
    for lb in piece.labels:
        out += text(lb.words, lb.x, lb.baseline, lb.size, colour=lb.colour, anchor=lb.anchor, room=lb.room,
                    where="tray: a piece")
    out += [Shape(_polygon(m), fill=P.TRAY_MARK_FILL, role="tray-align") for m in piece.marks]
    out.append(Shape(_polygon(piece.outline), stroke=P.CUT_GUIDE_COLOUR, stroke_width=P.CUT_GUIDE_WIDTH, role="cut"))
    return out


def tray_pages(placed: TraySheets) -> list[Page]:
    """One page per sheet: the instructions, the pieces, the 100 mm ruler with the sheet's number."""
    paper, pages = placed.paper, []
    room = paper.width - P.PRINTABLE_MARGIN - (sheets.ruler_x0(paper) + P.RULER_LENGTH + P.REG_GAP)
    for k, parts in enumerate(placed.pages):
        items: list[Item] = []
        bold = len(wrap(placed.title, P.TRAY_TEXT_SIZE, paper.width - 2 * P.PRINTABLE_MARGIN, "bold"))
        for n, line in enumerate(placed.header):
            items += text(line, P.PRINTABLE_MARGIN, P.PRINTABLE_MARGIN + (n + 1) * P.TRAY_TEXT_SIZE * P.TRAY_LINE_GAP,
                          P.TRAY_TEXT_SIZE, weight="bold" if n < bold else "regular")
        for piece in parts:
            items += piece_items(piece)
        note = _("punch-card tray · sheet {sheet} of {sheets}").format(sheet=k + 1, sheets=len(placed.pages))
        items += sheets.ruler(paper, note, room=room)
        pages.append(Page(paper.width, paper.height, tuple((it, 0.0, 0.0) for it in items)))
    return pages


def tray_pdf(layout: Layout, paper: P.Paper) -> bytes:
    """``holder-tray.pdf``: the fold-up tray's net and dividers on one sheet of ``paper`` (two when it must)."""
    return pdf_bytes(tray_pages(tray_sheets(layout, paper)), f"tmphys {layout.name}: punch-card tray")
