"""Card faces as drawing primitives: the one drawing path that SVG, PDF and PNG all render.

Every function is pure: it reads the layout and the deck and returns a ``CardArt`` (filled and
stroked paths in the card's own millimetre frame, origin at the card's top-left, y down). Sizes of
the card design come from the ``Layout``; print and style parameters from ``params``.

>>> art = punch_card(Deck(load_layout("classic")), PunchCard("blue", 2))   # doctest: +SKIP
>>> art.name
'punch-blue-2'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from tmphys.art import params as P
from tmphys.cards.deck import Deck, PunchCard
from tmphys.cards.layout import AlignmentMark, Layout
from tmphys.game.codes import SHAPES
from tmphys.game.criteria import ID_COLOURS, ID_SYMBOLS, CriteriaCard, VerificationCard
from tmphys.lang.fit import Misfit, check_lines, fit_size, report
from tmphys.lang.glyphs import KAPPA, Path, circle_path, glyph_key, set_text, text_width, wrap
from tmphys.lang.i18n import N_, _, card_words, criterion_words

# --- primitives ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """One path, filled and/or stroked. ``role`` names what it is (``hole``, ``outline``, ``mark-pass``…)."""

    path: Path
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    evenodd: bool = False
    role: str = ""


@dataclass(frozen=True)
class GlyphRun:
    """Characters of one colour: each a glyph (``weight:char``) set at (x, baseline) with em ``size``.

    Renderers define each distinct glyph once and place it many times (SVG ``use``, PDF form).
    """

    glyphs: tuple[tuple[str, float, float, float], ...]
    fill: str
    role: str = "text"


Item = Shape | GlyphRun


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in mm: left, top, width, height."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class CardArt:
    """One card face ready to render: printed shapes, cut paths, and where it sits in its frame.

    ``frame`` is the viewBox every per-card file of a kind shares (grown on every side by the bleed or kerf/2,
    whichever is more, so it holds the bleed art and the kerf-grown cut outline); ``trim`` is the card itself
    (with its tab) that crop marks point at; ``cut`` lists cut paths, holes before the outline.
    """

    kind: str
    name: str
    frame: Box
    trim: Box
    art: tuple[Item, ...]
    cut: tuple[Shape, ...]
    meta: dict = field(default_factory=dict, compare=False)


# --- geometry helpers ------------------------------------------------------------------------------

def _corner(p0: tuple[float, float], corner: tuple[float, float], p1: tuple[float, float]) -> tuple:
    """A quarter-circle cubic from p0 to p1 rounding the sharp ``corner`` between them."""
    return ("C", p0[0] + KAPPA * (corner[0] - p0[0]), p0[1] + KAPPA * (corner[1] - p0[1]),
            p1[0] + KAPPA * (corner[0] - p1[0]), p1[1] + KAPPA * (corner[1] - p1[1]), p1[0], p1[1])


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Path:
    """A closed rectangle path (top-left x, y) with corners rounded to radius r."""
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    return (("M", x + r, y), ("L", x + w - r, y), _corner((x + w - r, y), (x + w, y), (x + w, y + r)),
            ("L", x + w, y + h - r), _corner((x + w, y + h - r), (x + w, y + h), (x + w - r, y + h)),
            ("L", x + r, y + h), _corner((x + r, y + h), (x, y + h), (x, y + h - r)),
            ("L", x, y + r), _corner((x, y + r), (x, y), (x + r, y)), ("Z",))


def card_outline(layout: Layout, tab_colour: str | None = None, grow: float = 0.0) -> Path:
    """The card's outline (with its value tab for a punch card), offset outward by ``grow`` mm.

    Offsetting keeps the shape exact: straight edges move out, convex corners grow their radius,
    the two concave corners where the tab meets the card stay sharp.
    """
    k = grow
    w, h, r = layout.card_width, layout.card_height, layout.corner_radius
    if tab_colour is None:
        return rounded_rect(-k, -k, w + 2 * k, h + 2 * k, r + k)
    left, right, top, bottom, rr = -k, w + k, -k, h + k, r + k
    t0, t1 = layout.tab_x[tab_colour] - k, layout.tab_x[tab_colour] + layout.tab_width + k
    ttop, tr = -layout.tab_height - k, min(P.TAB_CORNER_RADIUS, layout.tab_height / 2) + k
    return (("M", left + rr, top), ("L", t0, top), ("L", t0, ttop + tr),
            _corner((t0, ttop + tr), (t0, ttop), (t0 + tr, ttop)), ("L", t1 - tr, ttop),
            _corner((t1 - tr, ttop), (t1, ttop), (t1, ttop + tr)), ("L", t1, top),
            ("L", right - rr, top), _corner((right - rr, top), (right, top), (right, top + rr)),
            ("L", right, bottom - rr), _corner((right, bottom - rr), (right, bottom), (right - rr, bottom)),
            ("L", left + rr, bottom), _corner((left + rr, bottom), (left, bottom), (left, bottom - rr)),
            ("L", left, top + rr), _corner((left, top + rr), (left, top), (left + rr, top)), ("Z",))


def hole_paths(layout: Layout, holes: list[int], shrink: float = 0.0) -> list[Path]:
    """One rounded rectangle per punched cell (positions in ``layout.cells``), shrunk by ``shrink``."""
    w, h = layout.hole_width - 2 * shrink, layout.hole_height - 2 * shrink
    r = max(0.0, layout.hole_radius - shrink)
    return [rounded_rect(layout.cells[i].x - w / 2, layout.cells[i].y - h / 2, w, h, r) for i in holes]


def _alignment_path(mark: AlignmentMark) -> Path:
    s, x, y = mark.size, mark.x, mark.y
    if mark.shape == "triangle":
        return (("M", x, y - s / 2), ("L", x + s / 2, y + s / 2), ("L", x - s / 2, y + s / 2), ("Z",))
    if mark.shape == "square":
        return rounded_rect(x - s / 2, y - s / 2, s, s, 0.0)
    if mark.shape == "circle":
        return circle_path(x, y, s / 2)
    if mark.shape == "diamond":
        return (("M", x, y - s / 2), ("L", x + s / 2, y), ("L", x, y + s / 2), ("L", x - s / 2, y), ("Z",))
    bar = s / 5  # cross
    return (("M", x - bar / 2, y - s / 2), ("L", x + bar / 2, y - s / 2), ("L", x + bar / 2, y - bar / 2),
            ("L", x + s / 2, y - bar / 2), ("L", x + s / 2, y + bar / 2), ("L", x + bar / 2, y + bar / 2),
            ("L", x + bar / 2, y + s / 2), ("L", x - bar / 2, y + s / 2), ("L", x - bar / 2, y + bar / 2),
            ("L", x - s / 2, y + bar / 2), ("L", x - s / 2, y - bar / 2), ("L", x - bar / 2, y - bar / 2),
            ("Z",))


def alignment_marks(layout: Layout, filled: bool) -> list[Shape]:
    """The layout's alignment marks: filled on verification cards, outlined on punch cards."""
    return [Shape(_alignment_path(m), fill=P.ALIGNMENT_FILL if filled else None,
                  stroke=None if filled else P.ALIGNMENT_FILL, stroke_width=0.0 if filled else P.ART_STROKE,
                  role="alignment")
            for m in layout.alignment_marks]


def text(s: str, x: float, baseline: float, size: float, colour: str = P.INK, weight: str = "regular",
         anchor: str = "start", shape_colours: bool = True, room: float | None = None,
         min_size: float = P.MIN_TEXT_SIZE, where: str = "") -> list[GlyphRun]:
    """Text as glyph runs; the code shapes ▲■● take their colour's ink when ``shape_colours``. With ``room`` (mm),
    the line shrinks to fit it, not below ``min_size`` (a misfit is reported: ``fit``)."""
    if room is not None:
        size = fit_size(s, size, room, min_size, weight, where or s)
    ink_of = {sym: P.CODE_INK[c] for c, sym in SHAPES.items()} if shape_colours else {}
    groups: dict[str, list] = {}
    for key, ch, gx, rise in set_text(s, x, size, weight, anchor):
        groups.setdefault(ink_of.get(ch, colour), []).append((key, gx, baseline - rise, size))
    return [GlyphRun(tuple(g), fill=c) for c, g in groups.items()]


def tint(path: Path, colour: str, ink: str, role: str, outline: str | None = None) -> list[Item]:
    """A card's tinted body or background: filled (``full`` ink); with ``low`` ink left out, or only outlined in
    ``outline`` (a punch card's body and its holes, to cut along: filled even-odd, so the holes stay open)."""
    if ink == "full":
        return [Shape(path, fill=colour, evenodd=outline is not None, role=role)]
    return [Shape(path, stroke=outline, stroke_width=P.LOW_INK_OUTLINE, role=role)] if outline else []


def _grown(box: Box, by: float) -> Box:
    """``box`` grown by ``by`` mm on every side."""
    return Box(box.x - by, box.y - by, box.width + 2 * by, box.height + 2 * by)


def frame_margin(bleed: float = 0.0, kerf: float = 0.0) -> float:
    """How far a per-card frame reaches past the card on every side: the bleed art reaches ``bleed`` out and the
    cut outline ``kerf``/2, and the frame holds both (the card keeps its place in it)."""
    return max(bleed, kerf / 2)


def _frame(layout: Layout, bleed: float = 0.0, kerf: float = 0.0) -> Box:
    """The shared frame of every per-card file of a layout: the card plus the tab area above it, grown by
    ``frame_margin`` on every side so that the bleed art and a cut outline grown by the kerf stay inside it."""
    tall = Box(0.0, -layout.tab_height, layout.card_width, layout.card_height + layout.tab_height)
    return _grown(tall, frame_margin(bleed, kerf))


def _grid_top(layout: Layout) -> float:
    return min(c.y for c in layout.cells) - layout.pitch_y / 2


def _grid_bottom(layout: Layout) -> float:
    return max(c.y for c in layout.cells) + layout.pitch_y / 2


def _footer(layout: Layout, label: str) -> list[GlyphRun]:
    """Small print in the bottom strip: the set's name, so cards of two layouts never get mixed (``label``: the
    English name of the face, translated here)."""
    y = (_grid_bottom(layout) + layout.card_height) / 2 + P.FOOTER_SIZE * P.CAP_HEIGHT / 2
    return text(f"tmphys {layout.name} · {_(label)}", layout.card_width / 2, y, P.FOOTER_SIZE,
                colour=P.FOOTER_INK, anchor="middle", shape_colours=False, room=_inner_width(layout),
                where=f"{label}: footer")


def _inner_width(layout: Layout) -> float:
    """The width a line may take across a card: inside its rounded corners, with a millimetre to spare."""
    return layout.card_width - 2 * (layout.corner_radius + 1.0)


# --- punch cards ------------------------------------------------------------------------------------

def punch_card(deck: Deck, card: PunchCard, bleed: float = 0.0, kerf: float = 0.0, ink: str = "full") -> CardArt:
    """A punch card: its tinted body with the holes cut out (``low`` ink: outlined), the value tab, shape, colour,
    marks."""
    layout = deck.layout
    holes = [int(i) for i in deck.holes(card).nonzero()[0]]
    body = card_outline(layout, card.colour, grow=bleed) + sum(hole_paths(layout, holes), ())
    shape = SHAPES[card.colour]
    tab_mid = layout.tab_x[card.colour] + layout.tab_width / 2
    tab_base = -layout.tab_height / 2 + P.TAB_VALUE_SIZE * P.CAP_HEIGHT / 2
    strip_mid = _grid_top(layout) / 2
    art: list[Item] = tint(body, P.CARD_TINT[card.colour], ink, "punch-body", outline=P.CODE_INK[card.colour])
    art += text(f"{shape}{card.value}", tab_mid, tab_base, P.TAB_VALUE_SIZE, weight="bold", anchor="middle")
    art += text(f"{shape} {card.value}", layout.card_width / 2, strip_mid + P.PUNCH_LABEL_SIZE * 0.2,
                P.PUNCH_LABEL_SIZE, weight="bold", anchor="middle")
    art += text(_(card.colour), layout.card_width / 2,
                strip_mid + P.PUNCH_LABEL_SIZE * 0.2 + P.PUNCH_NAME_SIZE * 1.3, P.PUNCH_NAME_SIZE,
                colour=P.CODE_INK[card.colour], anchor="middle", room=_inner_width(layout), where="punch card")
    art += alignment_marks(layout, filled=False)
    art += _footer(layout, N_("punch card"))
    cut = [Shape(p, stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE, role="cut-hole")
           for p in hole_paths(layout, holes, shrink=kerf / 2)]
    cut.append(Shape(card_outline(layout, card.colour, grow=kerf / 2), stroke=P.CUT_COLOUR,
                     stroke_width=P.HAIRLINE, role="cut-outline"))
    return CardArt("punch-card", f"punch-{card.colour}-{card.value}", _frame(layout, bleed, kerf),
                   Box(0.0, -layout.tab_height, layout.card_width, layout.card_height + layout.tab_height),
                   tuple(art), tuple(cut), {"colour": card.colour, "value": card.value})


# --- verification cards -------------------------------------------------------------------------

def hatch(x: float, y: float, w: float, h: float, pitch: float) -> Path:
    """Diagonal lines (``/``) ``pitch`` mm apart across the rectangle (top-left x, y), clipped to it."""
    step = pitch * math.sqrt(2)  # along x + y = c, lines ``pitch`` apart across them
    out: list = []
    c = x + y + step / 2
    while c < x + w + y + h:
        lo, hi = max(x, c - (y + h)), min(x + w, c - y)
        if hi > lo:
            out += [("M", lo, c - lo), ("L", hi, c - hi)]
        c += step
    return tuple(out)


def mark_cells(cells: Iterable[tuple[float, float, bool]], width: float, height: float, glyph: float,
               ink: str = "full") -> list[Item]:
    """✓ and ✗ cells (centre x, y, passed) of ``width`` × ``height`` mm with glyphs ``glyph`` mm high.

    ``full``: each cell filled whole in its mark's fill, the glyph on top (``params.MARKS``); ``low``: the same
    cells, ✓ outlined and ✗ hatched, each glyph in a dark ink on a knocked-out square of paper.
    """
    cells = list(cells)
    kinds = {"pass": [c for c in cells if c[2]], "fail": [c for c in cells if not c[2]]}
    art: list[Item] = []
    for kind, found in kinds.items():
        ink_of = P.MARKS[kind]
        if ink == "full":
            path = sum((rounded_rect(x - width / 2, y - height / 2, width, height, 0.0) for x, y, _ in found), ())
            art.append(Shape(path, fill=ink_of.fill, role=f"mark-{kind}"))
        elif kind == "pass":
            inset = P.LOW_INK_OUTLINE / 2
            path = sum((rounded_rect(x - width / 2 + inset, y - height / 2 + inset, width - 2 * inset,
                                     height - 2 * inset, 0.0) for x, y, _ in found), ())
            art.append(Shape(path, stroke=ink_of.glyph, stroke_width=P.LOW_INK_OUTLINE, role="mark-pass"))
        else:
            path = sum((hatch(x - width / 2, y - height / 2, width, height, P.LOW_INK_HATCH_PITCH)
                        for x, y, _ in found), ())
            art.append(Shape(path, stroke=ink_of.fill, stroke_width=P.LOW_INK_HATCH_WIDTH, role="mark-fail"))
            knock = sum((rounded_rect(x - glyph / 2, y - glyph / 2, glyph, glyph, 0.0) for x, y, _ in found), ())
            art.append(Shape(knock, fill=P.PAPER_WHITE, role="mark-knockout"))
    for kind, found in kinds.items():
        key = glyph_key(P.MARKS[kind].glyph_char)
        colour = P.MARKS[kind].glyph if ink == "full" else P.LOW_INK_GLYPH[kind]
        art.append(GlyphRun(tuple((key, x - glyph / 2, y + glyph / 2, glyph) for x, y, _ in found), fill=colour,
                            role=f"mark-glyph-{kind}"))
    return art


def front_ids(layout: Layout, card: VerificationCard) -> list[Item]:
    """The card's four printed IDs, small along its top edge in their colours (as the published cards print numbers
    around their edges), so a card is found by its front too; measured to fit between the alignment marks."""
    labels = [(colour, card.label(colour)) for colour in ID_COLOURS]
    gap = P.FRONT_ID_GAP
    size = P.FRONT_ID_SIZE
    top = P.FRONT_ID_EDGE
    left, right = front_id_room(layout, top, top + size)
    words = sum(text_width(s, 1.0, "bold") for _, s in labels) + gap * (len(labels) - 1)
    size = max(P.FRONT_ID_MIN_SIZE, min(size, (right - left) / words))
    x = (left + right) / 2 - words * size / 2
    baseline = top + size * P.CAP_HEIGHT
    out: list[Item] = []
    for colour, s in labels:
        for run in text(s, x, baseline, size, colour=P.ID_INK[colour], weight="bold", shape_colours=False):
            out.append(replace(run, role="front-id"))
        x += (text_width(s, 1.0, "bold") + gap) * size
    return out


def front_id_room(layout: Layout, top: float, bottom: float) -> tuple[float, float]:
    """The free span (left, right, mm) across the card's middle between ``top`` and ``bottom``: inside the rounded
    corners and clear of every alignment mark in that band (``FRONT_ID_CLEARANCE`` from each)."""
    inset = layout.corner_radius + P.FRONT_ID_CLEARANCE
    left, right = inset, layout.card_width - inset
    mid = layout.card_width / 2
    for m in layout.alignment_marks:
        if m.y + m.size / 2 < top or m.y - m.size / 2 > bottom:
            continue
        if m.x < mid:
            left = max(left, m.x + m.size / 2 + P.FRONT_ID_CLEARANCE)
        else:
            right = min(right, m.x - m.size / 2 - P.FRONT_ID_CLEARANCE)
    return left, right


def verification_front(deck: Deck, card: VerificationCard, bleed: float = 0.0, kerf: float = 0.0,
                       ink: str = "full") -> CardArt:
    """A verification card's front: every cell filled whole, ✓ on pass, ✗ on fail (``ink``: see ``mark_cells``);
    alignment marks; its four IDs small along the top edge."""
    layout = deck.layout
    face = deck.face(card)
    mw, mh = layout.mark_width, layout.mark_height
    g = P.MARK_GLYPH_SCALE * min(mw, mh)
    art: list[Item] = mark_cells(((c.x, c.y, bool(passed)) for c, passed in zip(layout.cells, face)), mw, mh, g, ink)
    art += alignment_marks(layout, filled=True)
    art += front_ids(layout, card)
    art += _footer(layout, N_("verification card"))
    cut = (Shape(card_outline(layout, None, grow=kerf / 2), stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE,
                 role="cut-outline"),)
    trim = Box(0.0, 0.0, layout.card_width, layout.card_height)
    return CardArt("verification-front", f"verification-{card.index:03d}-front", _frame(layout, bleed, kerf), trim,
                   tuple(art), cut, {"ids": dict(card.ids)})


def verification_back(layout: Layout, card: VerificationCard, bleed: float = 0.0, kerf: float = 0.0,
                      ink: str = "full") -> CardArt:
    """A verification card's back: its four printed IDs in their colours and symbols, tick boxes A–F."""
    w, h = layout.card_width, layout.card_height
    art: list[Item] = tint(card_outline(layout, None, grow=bleed), P.BACK_TINT, ink, "background")
    art += text(_("verification card"), w / 2, h * P.BACK_TITLE_AT, P.BACK_TITLE_SIZE, anchor="middle",
                room=_inner_width(layout), where="verification card back")
    line = P.BACK_ID_SIZE * P.BACK_ID_LINE
    first = h * P.BACK_IDS_AT
    for k, colour in enumerate(ID_COLOURS):
        art += text(f"{ID_SYMBOLS[colour]} {card.ids[colour]}", w / 2, first + k * line, P.BACK_ID_SIZE,
                    colour=P.ID_INK[colour], weight="bold", anchor="middle", shape_colours=False)
    n, side, gap = len(P.VERIFIER_LETTERS), P.BACK_BOX_SIZE, P.BACK_BOX_GAP
    x0 = (w - n * side - (n - 1) * gap) / 2
    top = h * P.BACK_BOXES_AT
    for k, letter in enumerate(P.VERIFIER_LETTERS):
        x = x0 + k * (side + gap)
        art.append(Shape(rounded_rect(x, top, side, side, side / 6), fill=P.PAPER_WHITE, stroke=P.INK,
                         stroke_width=P.ART_STROKE, role="tick-box"))
        art += text(letter, x + side / 2, top - P.BACK_LETTER_SIZE * 0.5, P.BACK_LETTER_SIZE, anchor="middle")
    art += _footer(layout, N_("verifier"))
    cut = (Shape(card_outline(layout, None, grow=kerf / 2), stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE,
                 role="cut-outline"),)
    return CardArt("verification-back", f"verification-{card.index:03d}-back", _frame(layout, bleed, kerf),
                   Box(0.0, 0.0, w, h), tuple(art), cut, {"ids": dict(card.ids)})


# --- criteria cards ----------------------------------------------------------------------------------

def criteria_card(card: CriteriaCard, bleed: float = 0.0, kerf: float = 0.0, ink: str = "full") -> CardArt:
    """A criteria card in our own wording: number, what its verifier checks, each criterion on a row."""
    w, h, pad = P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT, P.CRITERIA_PADDING
    inner = w - 2 * pad
    background = rounded_rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, P.CRITERIA_CORNER_RADIUS + bleed)
    art: list[Item] = tint(background, P.CRITERIA_TINT, ink, "background")
    num = P.CRITERIA_NUMBER_SIZE
    art += text(str(card.number), pad, pad + num * P.CAP_HEIGHT, num, weight="bold")
    title_x = pad + text_width(str(card.number), num, "bold") + pad / 2
    title, where = card_words(card), f"criteria card {card.number}"
    title_lines = wrap(title, P.CRITERIA_TITLE_SIZE, w - pad - title_x)
    check_lines(title_lines, P.CRITERIA_TITLE_SIZE, w - pad - title_x, None, P.CRITERIA_LINE_GAP, where=where)
    for k, line in enumerate(title_lines):
        art += text(line, title_x, pad + P.CRITERIA_TITLE_SIZE * (0.9 + k * P.CRITERIA_LINE_GAP),
                    P.CRITERIA_TITLE_SIZE, colour=P.FOOTER_INK)
    top = pad + max(num, P.CRITERIA_TITLE_SIZE * P.CRITERIA_LINE_GAP * len(title_lines)) + pad / 2
    bottom = h - pad - P.FOOTER_SIZE * 2
    size = P.CRITERIA_TEXT_SIZE
    texts = [criterion_words(c) for c in card.criteria]
    while True:  # the largest text size at which every criterion fits
        blocks = [wrap(t, size, inner) for t in texts]
        lines = sum(len(b) for b in blocks)
        needed = lines * size * P.CRITERIA_LINE_GAP + len(blocks) * size * P.CRITERIA_ROW_GAP
        wide = any(text_width(line, size) > inner for b in blocks for line in b)
        if (needed <= bottom - top and not wide) or size * 0.92 < P.CRITERIA_MIN_TEXT_SIZE:
            break
        size *= 0.92
    for block in blocks:
        check_lines(block, size, inner, None, P.CRITERIA_LINE_GAP, where=where)
    if needed > bottom - top + 1e-6:
        report(Misfit(where, " / ".join(texts), needed, bottom - top, size))
    row_gap = size * P.CRITERIA_ROW_GAP
    y = top + max(0.0, (bottom - top - needed) / 2)  # the criteria block sits mid-card
    for k, block in enumerate(blocks):
        if k:
            art.append(Shape(rounded_rect(pad, y - row_gap / 2, inner, P.ART_STROKE / 2, 0.0),
                             fill=P.CRITERIA_RULE, role="rule"))
        for line in block:
            y += size * P.CRITERIA_LINE_GAP
            art += text(line, w / 2, y - size * 0.25, size, anchor="middle")
        y += row_gap
    art += text(_("tmphys · criteria card {number}").format(number=card.number), w / 2, h - pad, P.FOOTER_SIZE,
                colour=P.FOOTER_INK, anchor="middle", shape_colours=False, room=inner, where=f"{where}: footer")
    box = Box(0.0, 0.0, w, h)
    cut = (Shape(rounded_rect(-kerf / 2, -kerf / 2, w + kerf, h + kerf, P.CRITERIA_CORNER_RADIUS + kerf / 2),
                 stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE, role="cut-outline"),)
    return CardArt("criteria-card", f"criteria-{card.number:02d}", _grown(box, frame_margin(bleed, kerf)), box,
                   tuple(art), cut)


def cut_order(placed: Iterable[tuple[CardArt, float, float]]) -> list[tuple[Shape, float, float]]:
    """The cut paths of cards moved by (dx, dy) each, in the order a cutter takes them: every card's holes
    before any outline (a card cut free first would shift before its holes are cut)."""
    placed = list(placed)
    return [(s, dx, dy) for holes in (True, False) for card, dx, dy in placed for s in card.cut
            if (s.role == "cut-hole") == holes]


def guides(card: CardArt) -> tuple[Shape, ...]:
    """The card's cut paths restyled as printed cut lines (for knife or scissors on a sheet)."""
    return tuple(replace(s, stroke=P.CUT_GUIDE_COLOUR, stroke_width=P.CUT_GUIDE_WIDTH) for s in card.cut)


# --- backs of punch and criteria cards ---------------------------------------------------------------

def mirror_path(path: Path, width: float) -> Path:
    """A path mirrored left to right about the middle of ``width`` (what a long-edge flip shows)."""
    out = []
    for cmd in path:
        if cmd[0] == "Z":
            out.append(cmd)
        else:
            out.append((cmd[0], *(width - v if k % 2 == 0 else v for k, v in enumerate(cmd[1:]))))
    return tuple(out)


def punch_back(deck: Deck, card: PunchCard, bleed: float = 0.0, kerf: float = 0.0, ink: str = "full") -> CardArt:
    """A punch card's back: its front's body and holes mirrored (a long-edge flip lays them over the front's),
    with the value on the tab and the shape and colour in the top strip, so a card reads from either side."""
    layout = deck.layout
    w = layout.card_width
    holes = [int(i) for i in deck.holes(card).nonzero()[0]]
    body = mirror_path(card_outline(layout, card.colour, grow=bleed) + sum(hole_paths(layout, holes), ()), w)
    shape = SHAPES[card.colour]
    tab_mid = w - (layout.tab_x[card.colour] + layout.tab_width / 2)
    tab_base = -layout.tab_height / 2 + P.TAB_VALUE_SIZE * P.CAP_HEIGHT / 2
    strip_mid = _grid_top(layout) / 2
    art: list[Item] = tint(body, P.CARD_TINT[card.colour], ink, "punch-back-body", outline=P.CODE_INK[card.colour])
    art += text(f"{shape}{card.value}", tab_mid, tab_base, P.TAB_VALUE_SIZE, weight="bold", anchor="middle")
    art += text(f"{shape} {card.value}", w / 2, strip_mid + P.PUNCH_LABEL_SIZE * 0.2, P.PUNCH_LABEL_SIZE,
                weight="bold", anchor="middle")
    art += text(_("{colour} · back").format(colour=_(card.colour)), w / 2,
                strip_mid + P.PUNCH_LABEL_SIZE * 0.2 + P.PUNCH_NAME_SIZE * 1.3, P.PUNCH_NAME_SIZE,
                colour=P.CODE_INK[card.colour], anchor="middle", room=_inner_width(layout), where="punch card back")
    art += _footer(layout, N_("punch card back"))
    cut = [Shape(mirror_path(p, w), stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE, role="cut-hole")
           for p in hole_paths(layout, holes, shrink=kerf / 2)]
    cut.append(Shape(mirror_path(card_outline(layout, card.colour, grow=kerf / 2), w), stroke=P.CUT_COLOUR,
                     stroke_width=P.HAIRLINE, role="cut-outline"))
    return CardArt("punch-back", f"punch-{card.colour}-{card.value}-back", _frame(layout, bleed, kerf),
                   Box(0.0, -layout.tab_height, w, layout.card_height + layout.tab_height),
                   tuple(art), tuple(cut), {"colour": card.colour, "value": card.value})


def criteria_back(bleed: float = 0.0, kerf: float = 0.0, ink: str = "full") -> CardArt:
    """The back every criteria card shares: a framed field with the three shapes ▲■● and the set's name; symmetric
    left to right, so a duplex registration error shows least."""
    w, h = P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT
    background = rounded_rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, P.CRITERIA_CORNER_RADIUS + bleed)
    inset = P.CRITERIA_BACK_FRAME_INSET
    art: list[Item] = [*tint(background, P.CRITERIA_BACK_TINT, ink, "background"),
                       Shape(rounded_rect(inset, inset, w - 2 * inset, h - 2 * inset,
                                          max(0.0, P.CRITERIA_CORNER_RADIUS - inset / 2)),
                             stroke=P.CRITERIA_RULE, stroke_width=P.ART_STROKE, role="frame")]
    size = P.CRITERIA_BACK_SHAPE_SIZE
    art += text(" ".join(SHAPES.values()), w / 2, h / 2 + size * P.CAP_HEIGHT / 2, size, anchor="middle")
    art += text("tmphys", w / 2, h / 2 - size * 1.1, P.CRITERIA_BACK_TITLE_SIZE, weight="bold", anchor="middle")
    art += text(_("criteria card"), w / 2, h / 2 + size * 1.1 + P.CRITERIA_BACK_SUBTITLE_SIZE * P.CAP_HEIGHT,
                P.CRITERIA_BACK_SUBTITLE_SIZE, colour=P.FOOTER_INK, anchor="middle", room=w - 2 * inset - 2.0,
                where="criteria card back")
    box = Box(0.0, 0.0, w, h)
    cut = (Shape(rounded_rect(-kerf / 2, -kerf / 2, w + kerf, h + kerf, P.CRITERIA_CORNER_RADIUS + kerf / 2),
                 stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE, role="cut-outline"),)
    return CardArt("criteria-back", "criteria-back", _grown(box, frame_margin(bleed, kerf)), box, tuple(art), cut)
