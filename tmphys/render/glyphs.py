"""Text and symbols as vector paths, so no output file depends on a font being installed.

Letters come from the outlines of Bitstream Vera Sans, which ships inside reportlab (a dependency);
fontTools reads each glyph and a pen records it as move/line/cubic commands. The game's symbols
(▲ ■ ● ◊ ¤ ✓ ✗) are drawn from geometry, in the same em units, so they match the letters.

>>> width = text_width("▲ < ■", 3.0)   # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cache

import reportlab
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

#: A path: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",). Units depend on context.
Command = tuple
Path = tuple[Command, ...]

FONT_FILES = {"regular": "Vera.ttf", "bold": "VeraBd.ttf"}
#: Circle-as-four-cubics constant.
KAPPA = 0.5522847498


# --- the font's outlines, through fontTools ---------------------------------------------------

@dataclass(frozen=True)
class Glyph:
    """One glyph in em units (y up, baseline at 0): its outline and advance width."""

    path: Path
    advance: float


class _Recorder(BasePen):
    """A fontTools pen that records an outline as move/line/cubic commands scaled to em units."""

    def __init__(self, glyph_set: object, scale: float) -> None:
        super().__init__(glyph_set)
        self.scale, self.path = scale, []  # type: list[Command]

    def _pt(self, p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] * self.scale, p[1] * self.scale)

    def _moveTo(self, p: tuple[float, float]) -> None:
        self.path.append(("M", *self._pt(p)))

    def _lineTo(self, p: tuple[float, float]) -> None:
        self.path.append(("L", *self._pt(p)))

    def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]) -> None:
        self.path.append(("C", *self._pt(p1), *self._pt(p2), *self._pt(p3)))

    def _closePath(self) -> None:
        self.path.append(("Z",))

    _endPath = _closePath


class Font:
    """The outlines and advance widths of one TrueType font (read with fontTools)."""

    def __init__(self, path: str) -> None:
        self.font = TTFont(path, lazy=True)
        self.units = self.font["head"].unitsPerEm
        self.cmap = self.font.getBestCmap()
        self.glyph_set = self.font.getGlyphSet()
        self._glyphs: dict[str, Glyph] = {}

    def glyph(self, char: str) -> Glyph:
        """The glyph for one character, in em units; KeyError if the font lacks it."""
        name = self.cmap[ord(char)]
        if name not in self._glyphs:
            pen = _Recorder(self.glyph_set, 1 / self.units)
            self.glyph_set[name].draw(pen)  # BasePen turns TrueType quadratics into cubics
            self._glyphs[name] = Glyph(tuple(pen.path), self.glyph_set[name].width / self.units)
        return self._glyphs[name]


@cache
def font(weight: str = "regular") -> Font:
    """The bundled Vera font (``regular`` or ``bold``)."""
    return Font(font_path(weight))


def font_path(weight: str = "regular") -> str:
    """The file of the bundled Vera font (``regular`` or ``bold``), inside reportlab."""
    return os.path.join(os.path.dirname(reportlab.__file__), "fonts", FONT_FILES[weight])


#: The names under which ``text_fonts`` registers Vera with reportlab, for pages set in real type (the booklet, the
#: chart): one pair for every page, so that one process can make any of them in any order.
TEXT_FONT, TEXT_FONT_BOLD = "TmphysVera", "TmphysVera-Bold"


@cache
def text_fonts() -> tuple[str, str]:
    """Register Vera and Vera Bold with reportlab (once per process, each on its own); their names."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as ReportlabFont

    registered = pdfmetrics.getRegisteredFontNames()
    for name, weight in ((TEXT_FONT, "regular"), (TEXT_FONT_BOLD, "bold")):
        if name not in registered:
            pdfmetrics.registerFont(ReportlabFont(name, font_path(weight)))
    return TEXT_FONT, TEXT_FONT_BOLD


# --- the game's symbols, drawn in em units (y up, baseline 0) -----------------------------------

#: Height of the shape symbols above the baseline, as a share of the em (about the cap height).
SYMBOL_HEIGHT = 0.72
SYMBOL_ADVANCE = 0.86


def _polygon(points: list[tuple[float, float]]) -> Path:
    return (("M", *points[0]), *(("L", *p) for p in points[1:]), ("Z",))


def circle_path(cx: float, cy: float, r: float, clockwise: bool = False) -> Path:
    """A circle as four cubic Béziers."""
    k = KAPPA * r
    s = -1 if clockwise else 1
    return (("M", cx + r, cy),
            ("C", cx + r, cy + s * k, cx + k, cy + s * r, cx, cy + s * r),
            ("C", cx - k, cy + s * r, cx - r, cy + s * k, cx - r, cy),
            ("C", cx - r, cy - s * k, cx - k, cy - s * r, cx, cy - s * r),
            ("C", cx + k, cy - s * r, cx + r, cy - s * k, cx + r, cy), ("Z",))


def _stroke_polyline(points: list[tuple[float, float]], width: float) -> Path:
    """A thick open polyline as one closed outline (mitred joins), for ✓ and ✗."""
    def normal(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        return -dy / length * width / 2, dx / length * width / 2

    left, right = [], []
    for i, p in enumerate(points):
        ns = [normal(points[j], points[j + 1]) for j in (i - 1, i) if 0 <= j < len(points) - 1]
        nx, ny = (sum(n[0] for n in ns) / len(ns), sum(n[1] for n in ns) / len(ns))
        if len(ns) == 2:  # mitre: stretch the averaged normal back to the half width
            scale = (width / 2) ** 2 / (nx * nx + ny * ny)
            nx, ny = nx * scale, ny * scale
        left.append((p[0] + nx, p[1] + ny))
        right.append((p[0] - nx, p[1] - ny))
    return _polygon(left + right[::-1])


def _symbol_paths() -> dict[str, Glyph]:
    h, a = SYMBOL_HEIGHT, SYMBOL_ADVANCE
    mid = a / 2
    side = h * 0.9
    ring = circle_path(mid, h / 2, h * 0.36) + circle_path(mid, h / 2, h * 0.22, clockwise=True)
    spokes: Path = ()
    for ang in (45, 135, 225, 315):
        c, s = math.cos(math.radians(ang)), math.sin(math.radians(ang))
        spokes += _stroke_polyline([(mid + c * h * 0.3, h / 2 + s * h * 0.3),
                                    (mid + c * h * 0.52, h / 2 + s * h * 0.52)], h * 0.1)
    return {
        "▲": Glyph(_polygon([(mid - h * 0.55, 0), (mid + h * 0.55, 0), (mid, h)]), a),
        "■": Glyph(_polygon([(mid - side / 2, 0), (mid + side / 2, 0),
                             (mid + side / 2, side), (mid - side / 2, side)]), a),
        "●": Glyph(circle_path(mid, h / 2, h / 2), a),
        "◊": Glyph(_polygon([(mid, -0.05), (mid + h * 0.38, h / 2), (mid, h + 0.05),
                             (mid - h * 0.38, h / 2)])
                   + _polygon([(mid, 0.12), (mid - h * 0.24, h / 2), (mid, h - 0.12),
                               (mid + h * 0.24, h / 2)]), a),
        "¤": Glyph(ring + spokes, a),
        "✓": Glyph(_stroke_polyline([(0.1, 0.45), (0.38, 0.14), (0.9, 0.86)], 0.2), 1.0),
        "✗": Glyph(_stroke_polyline([(0.14, 0.14), (0.86, 0.86)], 0.2)
                   + _stroke_polyline([(0.14, 0.86), (0.86, 0.14)], 0.2), 1.0),
    }


SYMBOLS: dict[str, Glyph] = _symbol_paths()


def glyph(char: str, weight: str = "regular") -> Glyph:
    """The em-unit glyph of one character: a game symbol, else the font's letter."""
    if char in SYMBOLS:
        return SYMBOLS[char]
    try:
        return font(weight).glyph(char)
    except KeyError:
        raise ValueError(f"no glyph for {char!r}: add it to glyphs.SYMBOLS") from None


# --- setting text --------------------------------------------------------------------------------

def text_width(text: str, size: float, weight: str = "regular") -> float:
    """Width of ``text`` set at em size ``size`` (mm)."""
    return sum(glyph(ch, weight).advance for ch in text) * size


def glyph_key(char: str, weight: str = "regular") -> str:
    """The name a glyph is defined under in an output file: ``weight:char`` (symbols have no weight)."""
    return f"symbol:{char}" if char in SYMBOLS else f"{weight}:{char}"


def key_glyph(key: str) -> Glyph:
    """The glyph a ``glyph_key`` names."""
    weight, char = key.split(":", 1)
    return glyph(char, "regular" if weight == "symbol" else weight)


def key_name(key: str) -> str:
    """A short ASCII name for a glyph key, safe as an SVG id or a PDF name (``gr41``: regular 'A')."""
    weight, char = key.split(":", 1)
    return f"g{weight[0]}{ord(char):x}"


def set_text(text: str, x: float, size: float, weight: str = "regular",
             anchor: str = "start") -> list[tuple[str, float]]:
    """Lay ``text`` out on one line: (character, x of its origin) for every visible character.

    ``anchor`` is ``start``, ``middle`` or ``end`` of the line at ``x``.
    """
    width = text_width(text, size, weight)
    x -= {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    out = []
    for ch in text:
        g = glyph(ch, weight)
        if g.path:
            out.append((ch, x))
        x += g.advance * size
    return out


def wrap(text: str, size: float, width: float, weight: str = "regular") -> list[str]:
    """Break ``text`` into lines no wider than ``width`` mm (at word boundaries)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, weight) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines
