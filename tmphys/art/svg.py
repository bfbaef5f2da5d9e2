"""SVG output (svgwrite): per-card files in the shared mm frame, and the cut file.

Width and height are in mm and the viewBox is in mm, so one user unit is one millimetre in any
viewer or vector editor. Letters and symbols are paths defined once in ``<defs>`` and placed with
``<use>`` (no fonts needed). Cut paths are red hairlines, holes first, outline last, as laser and
plotter software cut them in document order.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import svgwrite

from tmphys.art.draw import Box, CardArt, GlyphRun, Item, cut_order
from tmphys.lang.glyphs import Path, key_glyph, key_name

#: Decimal places written for coordinates (0.001 mm).
DECIMALS = 3


def num(v: float) -> str:
    """A coordinate as short, stable text (at most ``DECIMALS`` places, no ``-0``)."""
    s = f"{v:.{DECIMALS}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def path_data(path: Path, dx: float = 0.0, dy: float = 0.0, decimals: int = DECIMALS) -> str:
    """SVG path data for a path moved by (dx, dy)."""
    fmt = f"{{:.{decimals}f}}".format

    def short(v: float) -> str:
        n = fmt(v).rstrip("0").rstrip(".")
        return "0" if n in ("-0", "") else n

    out = []
    for cmd in path:
        if cmd[0] == "Z":
            out.append("Z")
            continue
        out.append(cmd[0] + " ".join(short(v + (dx if i % 2 == 0 else dy)) for i, v in enumerate(cmd[1:])))
    return "".join(out)


@cache
def _glyph_data(key: str) -> str:
    """Path data of one glyph in em units (y up), computed once per process."""
    return path_data(key_glyph(key).path, decimals=4)


class _Writer:
    """One SVG document being filled: glyphs are defined the first time they are used."""

    def __init__(self, frame: Box, title: str) -> None:
        self.dwg = svgwrite.Drawing(size=(f"{num(frame.width)}mm", f"{num(frame.height)}mm"),
                                    profile="full", debug=False)
        self.dwg["viewBox"] = " ".join(num(v) for v in (frame.x, frame.y, frame.width, frame.height))
        self.dwg.set_desc(title=title)
        self.defined: set[str] = set()

    def add(self, group: svgwrite.container.Group, item: Item, dx: float, dy: float) -> None:
        if isinstance(item, GlyphRun):
            run = self.dwg.g(fill=item.fill, class_=item.role)
            for key, x, baseline, size in item.glyphs:
                name = key_name(key)
                if name not in self.defined:
                    self.defined.add(name)
                    self.dwg.defs.add(self.dwg.path(d=_glyph_data(key), id=name))
                run.add(self.dwg.use(f"#{name}", transform=f"matrix({num(size)} 0 0 {num(-size)} "
                                                           f"{num(x + dx)} {num(baseline + dy)})"))
            group.add(run)
            return
        attrs: dict[str, object] = {"d": path_data(item.path, dx, dy), "fill": item.fill or "none"}
        if item.stroke:
            attrs.update(stroke=item.stroke, stroke_width=num(item.stroke_width))
        if item.evenodd:
            attrs["fill_rule"] = "evenodd"
        if item.role:
            attrs["class_"] = item.role
        group.add(self.dwg.path(**attrs))

    def text(self) -> str:
        return self.dwg.tostring() + "\n"


def _cut_group(w: _Writer, placed: Iterable[tuple[CardArt, float, float]]) -> svgwrite.container.Group:
    """All cut paths, every card's holes before any outline."""
    group = w.dwg.g(id="cut")
    for shape, dx, dy in cut_order(placed):
        w.add(group, shape, dx, dy)
    return group


def card_svg(card: CardArt, with_cut: bool = True) -> str:
    """One card in its frame: the printed art, then (optionally) its cut paths."""
    w = _Writer(card.frame, card.name)
    art = w.dwg.g(id="art")
    for item in card.art:
        w.add(art, item, 0.0, 0.0)
    w.dwg.add(art)
    if with_cut:
        w.dwg.add(_cut_group(w, [(card, 0.0, 0.0)]))
    return w.text()


def cut_svg(placed: list[tuple[CardArt, float, float]], frame: Box, title: str) -> str:
    """A cut file: only the cut paths of the placed cards (card, x, y of the card frame's corner)."""
    w = _Writer(frame, title)
    w.dwg.add(_cut_group(w, [(c, x - c.frame.x, y - c.frame.y) for c, x, y in placed]))
    return w.text()
