"""The punch-card holder as cut files (``cut/holder.svg`` and ``cut/holder.dxf``) for a laser or a cutting plotter.

Three parts cut from board ``thickness`` mm thick: a base plate and two combs that stand in it, their tabs locked
in the base's slots. The combs stand the punch cards' width apart (less an overhang each side); each has a notch per
colour, as wide as five punch cards, so a colour's five cards stand on edge across both combs, tab up. Cut paths
follow the other cut files: red hairlines, every hole (the base's slots) before any outline, the kerf taken off
half on each side, a sheet-sized file with a viewBox in mm.

>>> parts = holder_parts(load_layout("classic"), thickness=3.0)   # doctest: +SKIP
"""

from __future__ import annotations

from tmphys.art import params as P
from tmphys.art.draw import Box, CardArt, Shape, cut_order, rounded_rect
from tmphys.cards.layout import Layout
from tmphys.game.codes import SHAPES


def slot_width() -> float:
    """A comb's notch: five punch cards side by side, with play to slide them in and out (mm)."""
    return 5 * P.PUNCH_CARD_THICKNESS + P.HOLDER_SLOT_PLAY


def comb_span(layout: Layout) -> float:
    """How far apart the two combs stand (mm between their inner faces): a punch card overhangs each."""
    return layout.card_width - 2 * P.HOLDER_OVERHANG


def comb_width() -> float:
    return len(SHAPES) * slot_width() + (len(SHAPES) + 1) * P.HOLDER_WALL


def tab_xs() -> tuple[float, float]:
    """Left edges of a comb's two tabs, from the comb's left edge."""
    return P.HOLDER_WALL, comb_width() - P.HOLDER_WALL - P.HOLDER_TAB


def _polygon(points: list[tuple[float, float]]) -> tuple:
    return (("M", *points[0]), *(("L", x, y) for x, y in points[1:]), ("Z",))


def _comb(thickness: float, kerf: float) -> CardArt:
    """A comb: a notch per colour from the top, two tabs below; its outline grown by kerf/2."""
    w, h, s, g = comb_width(), P.HOLDER_COMB_HEIGHT, slot_width(), kerf / 2
    depth = P.HOLDER_NOTCH_SHARE * h
    pts = [(-g, -g)]
    for k in range(len(SHAPES)):
        x0 = P.HOLDER_WALL * (k + 1) + s * k
        pts += [(x0 + g, -g), (x0 + g, depth - g), (x0 + s - g, depth - g), (x0 + s - g, -g)]
    pts += [(w + g, -g), (w + g, h + g)]
    for x0 in reversed(tab_xs()):
        pts += [(x0 + P.HOLDER_TAB + g, h + g), (x0 + P.HOLDER_TAB + g, h + thickness + g), (x0 - g, h + thickness + g),
                (x0 - g, h + g)]
    pts += [(-g, h + g)]
    box = Box(-g, -g, w + 2 * g, h + thickness + 2 * g)
    cut = (Shape(_polygon(pts), stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE, role="cut-outline"),)
    return CardArt("holder-comb", "comb", box, box, (), cut, {"thickness": thickness})


def base_size(layout: Layout, thickness: float) -> tuple[float, float]:
    """The base plate's width and depth (mm)."""
    return comb_width() + 2 * P.HOLDER_BASE_MARGIN, comb_span(layout) + 2 * thickness + 2 * P.HOLDER_BASE_MARGIN


def base_slots(layout: Layout, thickness: float) -> list[Box]:
    """The base's slots, nominal (before the kerf): two per comb, where its tabs go."""
    m = P.HOLDER_BASE_MARGIN
    ys = (m, m + thickness + comb_span(layout))
    return [Box(m + x, y, P.HOLDER_TAB, thickness) for y in ys for x in tab_xs()]


def _base(layout: Layout, thickness: float, kerf: float) -> CardArt:
    w, d = base_size(layout, thickness)
    g = kerf / 2
    holes = tuple(Shape(rounded_rect(b.x + g, b.y + g, b.width - kerf, b.height - kerf, 0.0), stroke=P.CUT_COLOUR,
                        stroke_width=P.HAIRLINE, role="cut-hole") for b in base_slots(layout, thickness))
    outline = Shape(rounded_rect(-g, -g, w + kerf, d + kerf, 3.0 + g), stroke=P.CUT_COLOUR, stroke_width=P.HAIRLINE,
                    role="cut-outline")
    box = Box(-g, -g, w + kerf, d + kerf)
    return CardArt("holder-base", "base", box, box, (), (*holes, outline), {"thickness": thickness})


def holder_parts(layout: Layout, thickness: float, kerf: float = 0.0) -> list[CardArt]:
    """The base and the two combs (cut paths only)."""
    if not 0 < thickness <= P.MAX_HOLDER_THICKNESS:
        raise ValueError(f"--thickness must be above 0 and at most {P.MAX_HOLDER_THICKNESS:g} mm, not {thickness:g}")
    if kerf >= min(thickness, P.HOLDER_TAB):
        raise ValueError(f"--kerf {kerf:g} mm would close the holder's {thickness:g} mm slots")
    return [_base(layout, thickness, kerf), _comb(thickness, kerf), _comb(thickness, kerf)]


def holder_placement(layout: Layout, paper: P.Paper, thickness: float,
                     kerf: float = 0.0) -> list[tuple[CardArt, float, float]]:
    """The parts on a sheet of ``paper`` (frame corners, mm): the base at the top left, the combs below it side by
    side or one under the other. Raises ValueError when they do not fit."""
    base, *combs = holder_parts(layout, thickness, kerf)
    m, gap = P.PRINTABLE_MARGIN, P.HOLDER_PART_GAP
    placed = [(base, m, m)]
    y = m + base.frame.height + gap
    x = m
    for comb in combs:
        if x + comb.frame.width > paper.width - m:
            x, y = m, y + comb.frame.height + gap
        placed.append((comb, x, y))
        x += comb.frame.width + gap
    bottom = max(y + c.frame.height for c, _, y in placed)
    if bottom > paper.height - m or base.frame.width > paper.width - 2 * m:
        raise ValueError(f"the punch-card holder does not fit on {paper.name}")
    return placed


def holder_files(layout: Layout, paper: P.Paper, thickness: float, kerf: float = 0.0) -> dict[str, bytes]:
    """``cut/holder.svg`` and ``cut/holder.dxf``: the three parts on one sheet of ``paper``."""
    from tmphys.art import svg
    from tmphys.print import dxf

    placed = holder_placement(layout, paper, thickness, kerf)
    page = Box(0.0, 0.0, paper.width, paper.height)
    title = (f"tmphys {layout.name}: punch-card holder from {thickness:g} mm board (base and two combs), "
             f"kerf {kerf:g} mm, {paper.name}")
    paths = cut_order((c, x - c.frame.x, y - c.frame.y) for c, x, y in placed)
    return {"cut/holder.svg": svg.cut_svg(placed, page, title).encode(), "cut/holder.dxf": dxf.cut_dxf(paths, page)}
