"""The machine board (``machine-board.pdf``): six verifier places A–F, each with room for a criteria card and a
verification card as the layout sizes them, and a place for each colour's punch cards, sorted by value.

The places are packed onto sheets (portrait, inside the printable margin); the sheets tile edge to edge: trim each
along its grey trim line and lay them side by side, the half-diamonds on shared edges making whole ones. No place
crosses a sheet's edge, so no card ever rests on a seam.

>>> pdf = machine_board_pdf(load_layout("classic"), PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tmphys.cards.layout import Layout
from tmphys.game.codes import SHAPES
from tmphys.render import params as P
from tmphys.render.draw import Box, Item, Shape, rounded_rect, text
from tmphys.render.pdf import Page, pdf_bytes


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


def _verifier_place(letter: str, layout: Layout) -> tuple[float, float, list[tuple[str, Box]]]:
    """A verifier's place (its size and card places, relative to its top-left)."""
    m, gap = P.BOARD_SLOT_MARGIN, P.BOARD_GAP
    cw, ch = P.CRITERIA_CARD_WIDTH + 2 * m, P.CRITERIA_CARD_HEIGHT + 2 * m
    vw, vh = layout.card_width + 2 * m, layout.card_height + 2 * m
    top = P.BOARD_LABEL
    slots = [("criteria card", Box(gap, top, cw, ch)), ("verification card", Box(gap + cw + gap, top, vw, vh))]
    return 3 * gap + cw + vw, top + max(ch, vh) + gap, slots


def _punch_place(layout: Layout) -> tuple[float, float, list[tuple[str, Box]]]:
    m, gap = P.BOARD_SLOT_MARGIN, P.BOARD_GAP
    w, h = layout.card_width + 2 * m, layout.card_height + layout.tab_height + 2 * m
    return 2 * gap + w, P.BOARD_LABEL + h + gap, [("punch cards", Box(gap, P.BOARD_LABEL, w, h))]


def board_for(layout: Layout, paper: P.Paper) -> Board:
    """Pack the places onto sheets: each sheet's printable area is a tile; places fill a tile in rows, and the
    tiles are laid ``BOARD_TILE_COLUMNS`` side by side. Raises ValueError when a place does not fit a sheet."""
    tw, th = paper.width - 2 * P.PRINTABLE_MARGIN, paper.height - 2 * P.PRINTABLE_MARGIN
    wanted = [(letter, *_verifier_place(letter, layout)) for letter in P.VERIFIER_LETTERS]
    wanted += [(colour, *_punch_place(layout)) for colour in SHAPES]
    placed: list[tuple[int, str, float, float, float, float, list]] = []
    tile, x, y, row = 0, 0.0, 0.0, 0.0
    for name, w, h, slots in wanted:
        if w > tw or h > th:
            raise ValueError(f"the board's place {name} ({w:g} × {h:g} mm) does not fit on {paper.name}")
        if x + w > tw:  # next row
            x, y, row = 0.0, y + row, 0.0
        if y + h > th:  # next tile
            tile, x, y, row = tile + 1, 0.0, 0.0, 0.0
        placed.append((tile, name, x, y, w, h, slots))
        x, row = x + w, max(row, h)
    count, columns = tile + 1, min(P.BOARD_TILE_COLUMNS, tile + 1)
    tiles = tuple(Box((k % columns) * tw, (k // columns) * th, tw, th) for k in range(count))
    places = []
    for k, name, px, py, w, h, slots in placed:
        ox, oy = tiles[k].x + px, tiles[k].y + py
        places.append(Place(name, Box(ox, oy, w, h),
                            tuple((what, Box(ox + b.x, oy + b.y, b.width, b.height)) for what, b in slots)))
    return Board(paper, tuple(places), tiles, columns)


def _rect(b: Box, colour: str, width: float, dx: float, dy: float, role: str, radius: float = 0.0) -> Shape:
    return Shape(rounded_rect(b.x + dx, b.y + dy, b.width, b.height, radius), stroke=colour, stroke_width=width,
                 role=role)


def _place_items(place: Place, dx: float, dy: float) -> list[Item]:
    """One place drawn at its board position moved by (dx, dy) onto its sheet."""
    b, inset = place.box, P.BOARD_GAP / 4  # neighbouring places' outlines stay apart
    outline = Box(b.x + inset, b.y + inset, b.width - 2 * inset, b.height - 2 * inset)
    out: list[Item] = [_rect(outline, P.BOARD_INK, P.BOARD_LINE, dx, dy, "board-place", radius=3.0)]
    baseline = b.y + dy + P.BOARD_LABEL - 2.5
    if place.name in SHAPES:
        out += text(f"{SHAPES[place.name]} {place.name}: 1 on top … 5", b.x + dx + P.BOARD_GAP, baseline,
                    P.BOARD_TEXT_SIZE + 1.0, weight="bold")
    else:
        out += text(f"verifier {place.name}", b.x + dx + P.BOARD_GAP, baseline, P.BOARD_LETTER_SIZE, weight="bold")
    for what, s in place.slots:
        out.append(_rect(s, P.BOARD_SLOT_INK, P.BOARD_LINE, dx, dy, "board-slot", radius=2.0))
        out += text(what, s.x + dx + s.width / 2, s.y + dy + s.height - 4.0, P.BOARD_TEXT_SIZE,
                    colour=P.BOARD_SLOT_INK, anchor="middle")
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
        note = (f"tmphys machine board · sheet {k + 1} of {len(board.tiles)} (row {row + 1}, column {col + 1}) · "
                f"trim on the grey line, lay edge to edge")
        items += text(note, m + tile.width - 2.0, m + tile.height - 2.0, P.NOTE_SMALL_SIZE, colour=P.FOOTER_INK,
                      anchor="end")
        pages.append(Page(paper.width, paper.height, tuple((it, 0.0, 0.0) for it in items)))
    return pages


def machine_board_pdf(layout: Layout, paper: P.Paper) -> bytes:
    """``machine-board.pdf``: the board's sheets."""
    return pdf_bytes(board_pages(board_for(layout, paper)), f"tmphys {layout.name}: machine board")
