"""Pictures of a stack: the three punch cards of a code over a verification card, as they lie on the table.

Pure functions over the one drawing model: each layer is the card's own ``CardArt`` (the print files' art),
moved where that layer lies (shifted by (dx, dy) mm and turned about the card's centre, as ``cards.stack``
simulates it), and the layers are drawn bottom to top: the verification card, then the ▲, ■ and ● punch cards.
What shows through the holes is whatever lies below, so the open cell shows its mark. SVG comes from
``art.svg``, PNG from a PDF of the same items (``print.pdf`` → ``art.png``).

>>> picture = stack_picture(deck, Code.parse("241"), verification_card("447"))   # doctest: +SKIP
>>> png_bytes = picture_png(picture)                                              # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from tmphys.art import draw, png, svg
from tmphys.art import params as P
from tmphys.art.draw import Box, CardArt, GlyphRun, Item, Shape
from tmphys.cards.deck import Deck, stack_for
from tmphys.cards.layout import Layout
from tmphys.cards.stack import ALIGNED, Placement, read_stack
from tmphys.game.codes import Code
from tmphys.game.criteria import VerificationCard
from tmphys.lang.glyphs import Path, circle_path, key_glyph, text_width
from tmphys.print.pdf import Page, pdf_bytes

#: The layers of a stack, in the order ``--shift`` names them and ``Raster.view`` takes their placements.
LAYERS = ("blue", "yellow", "purple", "card")
#: Height (em) of the caption under a stack, and the space between the stack and its caption (mm).
CAPTION_SIZE = 4.0
CAPTION_GAP = 3.0
#: Space between two stacks drawn side by side (mm).
STACK_GAP = 8.0
#: The longest side a PNG picture gets, in pixels: a layer shifted far away lowers the resolution, not the memory.
MAX_PICTURE_PX = 4000
#: The picture's words, each in one place.
TITLE = "tmphys {layout}: {code} over verification card {card}"
LEGEND = "Ringed: the open cell · its square is the verification card's mark: ✓ light green passes, ✗ dark red fails"
#: The legend's text size (mm, at most), its least size, and its line's height as a multiple of its size.
LEGEND_SIZE = 3.0
LEGEND_MIN_SIZE = 1.6
LEGEND_LINE = 1.8

Point = Callable[[float, float], tuple[float, float]]


@dataclass(frozen=True)
class StackPicture:
    """A drawing of one or more stacks: items in table millimetres (y down), bottom first, and the box shown."""

    frame: Box
    items: tuple[Item, ...]
    title: str


def mover(placement: Placement, centre: tuple[float, float]) -> Point:
    """The map from a layer's own card coordinates to the table: turned about ``centre``, then shifted.

    The inverse of what ``Raster`` undoes for each pixel, so a picture and a simulation agree on where a layer lies.
    """
    t = math.radians(placement.rotation)
    c, s = math.cos(t), math.sin(t)
    cx, cy = centre

    def to_table(x: float, y: float) -> tuple[float, float]:
        u, v = x - cx, y - cy
        return cx + placement.dx + u * c - v * s, cy + placement.dy + u * s + v * c

    return to_table


def moved_path(path: Path, to_table: Point) -> Path:
    """A path with every point mapped (exact for lines and cubic curves: the map is affine)."""
    out = []
    for cmd in path:
        if cmd[0] == "Z":
            out.append(cmd)
            continue
        xy = [to_table(cmd[k], cmd[k + 1]) for k in range(1, len(cmd), 2)]
        out.append((cmd[0], *(v for p in xy for v in p)))
    return tuple(out)


def _glyph_outline(run: GlyphRun, to_table: Point) -> Shape:
    """A glyph run as one filled path (its glyphs' outlines placed and mapped), for a layer that is turned."""
    path: list = []
    for key, x, baseline, size in run.glyphs:
        path.extend(moved_path(key_glyph(key).path, lambda gx, gy, x=x, b=baseline, s=size: to_table(x + s * gx,
                                                                                                      b - s * gy)))
    return Shape(tuple(path), fill=run.fill, role=run.role)


def moved_item(item: Item, placement: Placement, centre: tuple[float, float]) -> Item:
    """One drawing item where its layer lies: shapes mapped exactly; text shifted, or outlined when turned."""
    if placement == ALIGNED:
        return item
    to_table = mover(placement, centre)
    if isinstance(item, GlyphRun):
        if placement.rotation:
            return _glyph_outline(item, to_table)
        return GlyphRun(tuple((k, x + placement.dx, b + placement.dy, s) for k, x, b, s in item.glyphs),
                        fill=item.fill, role=item.role)
    return Shape(moved_path(item.path, to_table), item.fill, item.stroke, item.stroke_width, item.evenodd, item.role)


def _moved_box(box: Box, placement: Placement, centre: tuple[float, float]) -> Box:
    """The axis-aligned box around ``box`` where its layer lies."""
    to_table = mover(placement, centre)
    corners = [to_table(x, y) for x in (box.x, box.x + box.width) for y in (box.y, box.y + box.height)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _union(boxes: Sequence[Box]) -> Box:
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    x1, y1 = max(b.x + b.width for b in boxes), max(b.y + b.height for b in boxes)
    return Box(x0, y0, x1 - x0, y1 - y0)


def stack_layers(deck: Deck, code: Code, card: VerificationCard) -> dict[str, CardArt]:
    """The art of each layer of the stack, by ``LAYERS`` name: the print files' drawings (no bleed, no kerf)."""
    blue, yellow, purple = stack_for(code)
    return {"blue": draw.punch_card(deck, blue), "yellow": draw.punch_card(deck, yellow),
            "purple": draw.punch_card(deck, purple), "card": draw.verification_front(deck, card)}


def open_rings(layout: Layout, cells: Sequence[int], placement: Placement) -> list[Item]:
    """A ring around each of ``cells`` (numbers 1..) where the verification card lies: a white ring under a dark one,
    seen on either mark and on the punch cards."""
    to_table = mover(placement, (layout.card_width / 2, layout.card_height / 2))
    radius = math.hypot(layout.hole_width, layout.hole_height) / 2 + P.RING_GAP
    out: list[Item] = []
    for width, colour in ((P.RING_WIDTH + 2 * P.RING_HALO, P.PAPER_WHITE), (P.RING_WIDTH, P.RING_INK)):
        path: tuple = ()
        for number in cells:
            cell = layout.cells[number - 1]
            path += circle_path(*to_table(cell.x, cell.y), radius)
        out.append(Shape(path, stroke=colour, stroke_width=width, role="open-ring"))
    return out


def legend(width: float, at: float, centre: float) -> list[Item]:
    """The one-line legend under a picture: what the ring and the coloured squares are, set in ``width`` mm (shrunk
    to fit, never below ``LEGEND_MIN_SIZE``), its baseline at ``at``."""
    size = max(LEGEND_MIN_SIZE, min(LEGEND_SIZE, width / text_width(LEGEND, 1.0)))
    return [replace(run, role="legend") for run in draw.text(LEGEND, centre, at + size * P.CAP_HEIGHT, size,
                                                              colour=P.FOOTER_INK, anchor="middle")]


def with_legend(picture: StackPicture) -> StackPicture:
    """The picture with the legend line under it, its frame grown to hold it."""
    f = picture.frame
    size = max(LEGEND_MIN_SIZE, min(LEGEND_SIZE, (f.width - 2 * P.PREVIEW_MARGIN) / text_width(LEGEND, 1.0)))
    items = legend(f.width - 2 * P.PREVIEW_MARGIN, f.y + f.height, f.x + f.width / 2)
    return StackPicture(Box(f.x, f.y, f.width, f.height + size * LEGEND_LINE), (*picture.items, *items),
                        picture.title)


def stack_picture(deck: Deck, code: Code, card: VerificationCard,
                  placements: Mapping[str, Placement] | None = None, caption: str | None = None,
                  ring: Sequence[int] | None = None, label: str | None = None,
                  with_key: bool = True) -> StackPicture:
    """The stack of ``code`` over ``card``, each layer at its placement (by ``LAYERS`` name; missing: aligned).

    The verification card lies at the bottom, then ▲, ■, ● on top; the cells in ``ring`` (default: the cell the
    aligned stack opens) are ringed where the card lies; the picture's frame holds every layer where it lies, with a
    white margin, the caption (if any) centred below and, ``with_key``, the one-line legend under it. ``label``:
    the card's ID as printed (its title names it; default: the green one).
    """
    placements = dict(placements or {})
    unknown = set(placements) - set(LAYERS)
    if unknown:
        raise ValueError(f"no layer {sorted(unknown)[0]!r} in a stack (layers: {', '.join(LAYERS)})")
    layout = deck.layout
    centre = (layout.card_width / 2, layout.card_height / 2)
    arts = stack_layers(deck, code, card)
    order = ("card", "blue", "yellow", "purple")
    items: list[Item] = []
    boxes = []
    for name in order:
        where = placements.get(name, ALIGNED)
        items.extend(moved_item(item, where, centre) for item in arts[name].art)
        boxes.append(_moved_box(arts[name].frame, where, centre))
    opened = ring if ring is not None else read_stack(deck, code, card).open_cells
    items += open_rings(layout, opened, placements.get("card", ALIGNED))
    frame = _union(boxes)
    if caption:
        baseline = frame.y + frame.height + CAPTION_GAP + CAPTION_SIZE * P.CAP_HEIGHT
        items += draw.text(caption, frame.x + frame.width / 2, baseline, CAPTION_SIZE, anchor="middle")
        frame = Box(frame.x, frame.y, frame.width, frame.height + CAPTION_GAP + CAPTION_SIZE)
    m = P.PREVIEW_MARGIN
    frame = Box(frame.x - m, frame.y - m, frame.width + 2 * m, frame.height + 2 * m)
    title = TITLE.format(layout=layout.name, code=code, card=label or card.label("green"))
    picture = StackPicture(frame, tuple(items), title)
    return with_legend(picture) if with_key else picture


def side_by_side(pictures: Sequence[StackPicture], title: str, with_key: bool = True) -> StackPicture:
    """Several pictures in one row, left to right, ``STACK_GAP`` apart, tops aligned (each made without its legend);
    ``with_key``: the one-line legend once, under the row."""
    items: list[Item] = []
    x = 0.0
    height = max(p.frame.height for p in pictures)
    for k, p in enumerate(pictures):
        if k:
            x += STACK_GAP
        shift = Placement(x - p.frame.x, -p.frame.y)
        items.extend(moved_item(item, shift, (0.0, 0.0)) for item in p.items)
        x += p.frame.width
    row = StackPicture(Box(0.0, 0.0, x, height), tuple(items), title)
    return with_legend(row) if with_key else row


def _on_white(picture: StackPicture) -> list[Item]:
    """The picture's items behind a white sheet the size of its frame."""
    f = picture.frame
    return [Shape(draw.rounded_rect(f.x, f.y, f.width, f.height, 0.0), fill=P.PAPER_WHITE, role="background"),
            *picture.items]


def picture_svg(picture: StackPicture) -> bytes:
    """The picture as an SVG in millimetres, written by ``art.svg`` like every card file."""
    art = CardArt("stack", picture.title, picture.frame, picture.frame, tuple(_on_white(picture)), ())
    return svg.card_svg(art, with_cut=False).encode()


def picture_dpi(picture: StackPicture, dpi: float = png.PREVIEW_DPI) -> float:
    """The resolution a PNG of the picture gets: ``dpi``, or less when its longest side would pass
    ``MAX_PICTURE_PX``."""
    longest = max(picture.frame.width, picture.frame.height) / 25.4  # inches
    return min(dpi, MAX_PICTURE_PX / longest)


def picture_png(picture: StackPicture, dpi: float = png.PREVIEW_DPI) -> bytes:
    """The picture as a PNG (rasterised from a PDF of the same items), its resolution recorded in the file."""
    f = picture.frame
    page = Page(f.width, f.height, tuple((item, -f.x, -f.y) for item in _on_white(picture)))
    return png.pdf_page_png(pdf_bytes([page], picture.title), dpi=picture_dpi(picture, dpi))


__all__ = ["LAYERS", "StackPicture", "legend", "mover", "moved_item", "moved_path", "open_rings", "picture_dpi",
           "picture_png", "picture_svg", "side_by_side", "stack_layers", "stack_picture", "with_legend"]
