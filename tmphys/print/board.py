"""The machine board (``machine-board.pdf``): six verifier places A–F, each with room for a criteria card (Extreme,
``machine-board-extreme.pdf``: two) and a verification card as the layout sizes them, and a place for each colour's
punch cards, sorted by value.

The places are packed onto sheets (portrait, inside the printable margin, above the ruler); the sheets tile edge to
edge: trim each along its grey trim line and lay them side by side, the half-diamonds on shared edges making whole
ones. No place crosses a sheet's edge or comes near one, so no card rests on a seam and no half-diamond touches a
place.

>>> pdf = machine_board_pdf(load_layout("classic"), PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tmphys.art import params as P
from tmphys.art.draw import Box, Item, Shape, rounded_rect, text
from tmphys.cards.layout import Layout
from tmphys.game.codes import SHAPES
from tmphys.lang.i18n import N_, _
from tmphys.print import sheets
from tmphys.print.pdf import Page, pdf_bytes


@dataclass(frozen=True)
class Place:
    """A place on the board (mm, board coordinates): its outline, what it is for, and the card places in it."""

    name: str                       # "A".."F", or a colour
    box: Box
    slots: tuple[tuple[str, Box], ...]  # ("criteria card" | "verification card" | "punch cards", box)


@dataclass(frozen=True)
class Board:
    """The board's places and the sheets (tiles) it is printed on, each tile's box in board coordinates."""

    paper: P.Paper
    places: tuple[Place, ...]
    tiles: tuple[Box, ...]
    columns: int
    extreme: bool = False


#: The board's words, each in one place.
VERIFIER_LABEL = N_("verifier {letter}")
PUNCH_LABEL = N_("{shape} {colour}: 1 on top … 5")
SLOT_NAMES = {"criteria": N_("criteria card"), "second": N_("criteria card (Extreme)"),
              "verification": N_("verification card"), "punch": N_("punch cards")}
SHEET_NOTE = N_("tmphys machine board{mode} · sheet {sheet} of {sheets} (row {row}, column {column}) · trim on the "
                "grey line")
EXTREME_NOTE = N_(" (Extreme)")


def _verifier_place(layout: Layout, extreme: bool = False) -> tuple[float, float, list[tuple[str, Box]]]:
    """A verifier's place (its size and card places, relative to its top-left): its criteria card (Extreme: two,
    one above the other) beside its verification card."""
    m, gap = P.BOARD_SLOT_MARGIN, P.BOARD_GAP
    cw, ch = P.CRITERIA_CARD_WIDTH + 2 * m, P.CRITERIA_CARD_HEIGHT + 2 * m
    vw, vh = layout.card_width + 2 * m, layout.card_height + 2 * m
    top = P.BOARD_LABEL
    slots = [(SLOT_NAMES["criteria"], Box(gap, top, cw, ch))]
    if extreme:
        slots.append((SLOT_NAMES["second"], Box(gap, top + ch + gap, cw, ch)))
    slots.append((SLOT_NAMES["verification"], Box(gap + cw + gap, top, vw, vh)))
    tall = max(b.y + b.height for _, b in slots)
    return 3 * gap + cw + vw, tall + gap, slots


def _punch_place(layout: Layout) -> tuple[float, float, list[tuple[str, Box]]]:
    """A colour's punch cards' place: one card place, its colour written inside it (the cards show theirs)."""
    m, gap = P.BOARD_SLOT_MARGIN, P.BOARD_GAP
    w, h = layout.card_width + 2 * m, layout.card_height + layout.tab_height + 2 * m
    return 2 * gap + w, 2 * gap + h, [(SLOT_NAMES["punch"], Box(gap, gap, w, h))]


def edge_room() -> float:
    """How far every place keeps in from its sheet's edges: a half-diamond's reach and its clearance."""
    return P.BOARD_MARK / 2 + P.BOARD_MARK_CLEARANCE


def tile_size(paper: P.Paper) -> tuple[float, float]:
    """A board sheet's tile (mm): its printable area less the ruler strip at its foot (and a half-diamond's
    clearance above the strip, so that no half-diamond on the tile's lower edge touches the ruler or its words)."""
    return (paper.width - 2 * P.PRINTABLE_MARGIN,
            paper.height - 2 * P.PRINTABLE_MARGIN - P.RULER_AREA - P.BOARD_MARK_CLEARANCE)


def _shelves(sizes: list[tuple[float, float]], width: float, height: float) -> list[tuple[int, float, float]] | None:
    """Shelf-pack places of ``sizes`` in order, into tiles of ``width`` × ``height``: each one's (tile, x, y), or
    None when one does not fit a tile."""
    out, tile, x, y, row = [], 0, 0.0, 0.0, 0.0
    for w, h in sizes:
        if w > width or h > height:
            return None
        if x + w > width:  # next row
            x, y, row = 0.0, y + row, 0.0
        if y + h > height:  # next tile
            tile, x, y, row = tile + 1, 0.0, 0.0, 0.0
        out.append((tile, x, y))
        x, row = x + w, max(row, h)
    return out


def board_for(layout: Layout, paper: P.Paper, extreme: bool = False) -> Board:
    """Pack the places onto sheets: each sheet's printable area above its ruler is a tile, the places keep
    ``edge_room`` in from its edges, and the tiles are laid ``BOARD_TILE_COLUMNS`` side by side. Of the orders of
    the verifiers' and the punch cards' places, the one on the fewest sheets, then with the most places on its
    emptiest sheet (no sheet holding a lone place when another order avoids it). Raises ValueError when a place does
    not fit a sheet. ``extreme``: two criteria-card places per verifier."""
    tw, th = tile_size(paper)
    edge = edge_room()
    inner_w, inner_h = tw - 2 * edge, th - 2 * edge
    verifier, punch = _verifier_place(layout, extreme), _punch_place(layout)
    kinds = [("verifier", *verifier)] * len(P.VERIFIER_LETTERS) + [("punch", *punch)] * len(SHAPES)
    for kind, w, h, _slots in kinds:
        if w > inner_w or h > inner_h:
            name = "a verifier's place" if kind == "verifier" else "a punch cards' place"
            raise ValueError(f"the board's {name} ({w:g} × {h:g} mm) does not fit on {paper.name}")
    best: tuple | None = None
    for where in sorted(itertools.combinations(range(len(kinds)), len(SHAPES))):  # where the punch places go
        order = [punch if k in where else verifier for k in range(len(kinds))]
        packed = _shelves([(w, h) for w, h, _ in order], inner_w, inner_h)
        if packed is None:
            continue
        count = packed[-1][0] + 1
        emptiest = min(sum(1 for t, _, _ in packed if t == k) for k in range(count))
        if best is None or (count, -emptiest) < best[0]:
            best = ((count, -emptiest), order, packed)
    assert best is not None
    _, order, packed = best
    count, columns = packed[-1][0] + 1, min(P.BOARD_TILE_COLUMNS, packed[-1][0] + 1)
    tiles = tuple(Box((k % columns) * tw, (k // columns) * th, tw, th) for k in range(count))
    names = iter(P.VERIFIER_LETTERS)
    colours = iter(SHAPES)
    places = []
    for (w, h, slots), (k, px, py) in zip(order, packed):
        name = next(colours) if slots[0][0] == SLOT_NAMES["punch"] else next(names)
        ox, oy = tiles[k].x + edge + px, tiles[k].y + edge + py
        places.append(Place(name, Box(ox, oy, w, h),
                            tuple((what, Box(ox + b.x, oy + b.y, b.width, b.height)) for what, b in slots)))
    return Board(paper, tuple(places), tiles, columns, extreme)


def _rect(b: Box, colour: str, width: float, dx: float, dy: float, role: str, radius: float = 0.0) -> Shape:
    return Shape(rounded_rect(b.x + dx, b.y + dy, b.width, b.height, radius), stroke=colour, stroke_width=width,
                 role=role)


def _place_items(place: Place, dx: float, dy: float) -> list[Item]:
    """One place drawn at its board position moved by (dx, dy) onto its sheet."""
    b, inset = place.box, P.BOARD_GAP / 4  # neighbouring places' outlines stay apart
    outline = Box(b.x + inset, b.y + inset, b.width - 2 * inset, b.height - 2 * inset)
    out: list[Item] = [_rect(outline, P.BOARD_INK, P.BOARD_LINE, dx, dy, "board-place", radius=3.0)]
    baseline = b.y + dy + P.BOARD_LABEL - 1.5
    if place.name in SHAPES:
        slot = place.slots[0][1]
        out += text(_(PUNCH_LABEL).format(shape=SHAPES[place.name], colour=_(place.name)),
                    slot.x + dx + slot.width / 2, slot.y + dy + P.BOARD_LABEL, P.BOARD_TEXT_SIZE + 1.0,
                    weight="bold", anchor="middle", room=slot.width - 2.0, where="machine board: punch cards")
    else:
        out += text(_(VERIFIER_LABEL).format(letter=place.name), b.x + dx + P.BOARD_GAP, baseline,
                    P.BOARD_LETTER_SIZE, weight="bold", room=b.width - 2 * P.BOARD_GAP,
                    where="machine board: verifier")
    for what, s in place.slots:
        out.append(_rect(s, P.BOARD_SLOT_INK, P.BOARD_LINE, dx, dy, "board-slot", radius=2.0))
        out += text(_(what), s.x + dx + s.width / 2, s.y + dy + s.height - 4.0, P.BOARD_TEXT_SIZE,
                    colour=P.BOARD_SLOT_INK, anchor="middle", room=s.width - 2.0, where="machine board: a place")
    return out


def _half_diamonds(edge: str, tile: Box, dx: float, dy: float) -> list[Item]:
    """Half-diamonds on one shared edge of a tile, at a quarter and three quarters along it."""
    s = P.BOARD_MARK / 2
    out: list[Item] = []
    for share in (0.25, 0.75):
        if edge in ("left", "right"):
            x = tile.x + (0.0 if edge == "left" else tile.width) + dx
            y = tile.y + share * tile.height + dy
            tip = x + s if edge == "left" else x - s
            path = (("M", x, y - s), ("L", tip, y), ("L", x, y + s), ("Z",))
        else:
            y = tile.y + (0.0 if edge == "top" else tile.height) + dy
            x = tile.x + share * tile.width + dx
            tip = y + s if edge == "top" else y - s
            path = (("M", x - s, y), ("L", x, tip), ("L", x + s, y), ("Z",))
        out.append(Shape(path, fill=P.BOARD_MARK_FILL, role="board-align"))
    return out


def board_pages(board: Board) -> list[Page]:
    """One page per tile: its places, its trim line, and alignment marks on the edges it shares."""
    paper, m = board.paper, P.PRINTABLE_MARGIN
    rows = -(-len(board.tiles) // board.columns)
    pages = []
    for k, tile in enumerate(board.tiles):
        dx, dy = m - tile.x, m - tile.y
        items: list[Item] = [_rect(tile, P.BOARD_TRIM_INK, P.CUT_GUIDE_WIDTH, dx, dy, "board-trim")]
        for place in board.places:
            if tile.x <= place.box.x < tile.x + tile.width and tile.y <= place.box.y < tile.y + tile.height:
                items += _place_items(place, dx, dy)
        col, row = k % board.columns, k // board.columns
        neighbours = {"left": col > 0, "right": col + 1 < board.columns and k + 1 < len(board.tiles),
                      "top": row > 0, "bottom": row + 1 < rows and k + board.columns < len(board.tiles)}
        for edge, shared in neighbours.items():
            if shared:
                items += _half_diamonds(edge, tile, dx, dy)
        note = _(SHEET_NOTE).format(mode=_(EXTREME_NOTE) if board.extreme else "", sheet=k + 1,
                                    sheets=len(board.tiles), row=row + 1, column=col + 1)
        room = paper.width - P.PRINTABLE_MARGIN - (sheets.ruler_x0(paper) + P.RULER_LENGTH + P.REG_GAP)
        items += sheets.ruler(paper, note, room=room)
        pages.append(Page(paper.width, paper.height, tuple((it, 0.0, 0.0) for it in items)))
    return pages


def machine_board_pdf(layout: Layout, paper: P.Paper, extreme: bool = False) -> bytes:
    """``machine-board.pdf`` (``machine-board-extreme.pdf``: two criteria-card places per verifier): the board's
    sheets, each with its ruler."""
    title = f"tmphys {layout.name}: machine board{EXTREME_NOTE if extreme else ''}"
    return pdf_bytes(board_pages(board_for(layout, paper, extreme)), title)
