"""Text and symbols as vector paths, so no output file depends on a font being installed.

Letters come from the outlines of Bitstream Vera Sans, which ships inside reportlab (a dependency):
a small TrueType reader turns each glyph into move/line/cubic commands. The game's symbols
(▲ ■ ● ◊ ¤ ✓ ✗) are drawn from geometry, in the same em units, so they match the letters.

>>> width = text_width("▲ < ■", 3.0)   # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
import struct
from dataclasses import dataclass
from functools import cache

import reportlab

#: A path: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",). Units depend on context.
Command = tuple
Path = tuple[Command, ...]

FONT_FILES = {"regular": "Vera.ttf", "bold": "VeraBd.ttf"}
#: Circle-as-four-cubics constant.
KAPPA = 0.5522847498


# --- the TrueType reader -------------------------------------------------------------------------

@dataclass(frozen=True)
class Glyph:
    """One glyph in em units (y up, baseline at 0): its outline and advance width."""

    path: Path
    advance: float


class Font:
    """The outlines of one TrueType font, read on demand (glyf/loca/cmap format 4/hmtx)."""

    def __init__(self, path: str) -> None:
        with open(path, "rb") as f:
            self.data = data = f.read()
        count = struct.unpack_from(">H", data, 4)[0]
        self.tables = {}
        for i in range(count):
            tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            self.tables[tag.decode("latin-1")] = (offset, length)
        head = self.tables["head"][0]
        self.units = struct.unpack_from(">H", data, head + 18)[0]
        self.long_loca = struct.unpack_from(">h", data, head + 50)[0] == 1
        self.metrics_count = struct.unpack_from(">H", data, self.tables["hhea"][0] + 34)[0]
        self.cmap = self._read_cmap()
        self._glyphs: dict[int, Glyph] = {}

    def _read_cmap(self) -> dict[int, int]:
        data, base = self.data, self.tables["cmap"][0]
        for i in range(struct.unpack_from(">H", data, base + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
            sub = base + offset
            if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack_from(">H", data, sub)[0] == 4:
                break
        else:
            raise ValueError("font has no Unicode cmap of format 4")
        segs = struct.unpack_from(">H", data, sub + 6)[0] // 2
        ends = struct.unpack_from(f">{segs}H", data, sub + 14)
        starts = struct.unpack_from(f">{segs}H", data, sub + 16 + 2 * segs)
        deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 4 * segs)
        ranges_at = sub + 16 + 6 * segs
        ranges = struct.unpack_from(f">{segs}H", data, ranges_at)
        out: dict[int, int] = {}
        for k in range(segs):
            for c in range(starts[k], min(ends[k], 0xFFFE) + 1):
                if ranges[k] == 0:
                    g = (c + deltas[k]) & 0xFFFF
                else:
                    at = ranges_at + 2 * k + ranges[k] + 2 * (c - starts[k])
                    g = struct.unpack_from(">H", data, at)[0]
                    g = (g + deltas[k]) & 0xFFFF if g else 0
                if g:
                    out[c] = g
        return out

    def _advance(self, gid: int) -> float:
        hmtx = self.tables["hmtx"][0]
        k = min(gid, self.metrics_count - 1)
        return struct.unpack_from(">H", self.data, hmtx + 4 * k)[0] / self.units

    def _location(self, gid: int) -> tuple[int, int]:
        loca = self.tables["loca"][0]
        if self.long_loca:
            a, b = struct.unpack_from(">II", self.data, loca + 4 * gid)
        else:
            a, b = (2 * v for v in struct.unpack_from(">HH", self.data, loca + 2 * gid))
        return self.tables["glyf"][0] + a, b - a

    def _contours(self, gid: int) -> list[list[tuple[float, float, bool]]]:
        """The glyph's contours as (x, y, on-curve) points in font units."""
        data = self.data
        at, length = self._location(gid)
        if length == 0:
            return []
        n = struct.unpack_from(">h", data, at)[0]
        if n < 0:
            return self._composite(at + 10)
        ends = struct.unpack_from(f">{n}H", data, at + 10)
        total = ends[-1] + 1 if n else 0
        p = at + 10 + 2 * n
        p += 2 + struct.unpack_from(">H", data, p)[0]
        flags: list[int] = []
        while len(flags) < total:
            f = data[p]
            p += 1
            flags.append(f)
            if f & 8:
                flags.extend([f] * data[p])
                p += 1
        coords = []
        for short, same in ((2, 16), (4, 32)):
            value, column = 0, []
            for f in flags:
                if f & short:
                    d = data[p]
                    p += 1
                    value += d if f & same else -d
                elif not f & same:
                    value += struct.unpack_from(">h", data, p)[0]
                    p += 2
                column.append(value)
            coords.append(column)
        points = [(x, y, bool(f & 1)) for x, y, f in zip(coords[0], coords[1], flags)]
        out, start = [], 0
        for end in ends:
            out.append(points[start:end + 1])
            start = end + 1
        return out

    def _composite(self, p: int) -> list[list[tuple[float, float, bool]]]:
        data, out = self.data, []
        while True:
            flags, gid = struct.unpack_from(">HH", data, p)
            p += 4
            if flags & 1:
                dx, dy = struct.unpack_from(">hh", data, p)
                p += 4
            else:
                dx, dy = struct.unpack_from(">bb", data, p)
                p += 2
            a = d = 1.0
            b = c = 0.0
            if flags & 8:
                a = d = struct.unpack_from(">h", data, p)[0] / 16384
                p += 2
            elif flags & 0x40:
                a, d = (v / 16384 for v in struct.unpack_from(">hh", data, p))
                p += 4
            elif flags & 0x80:
                a, b, c, d = (v / 16384 for v in struct.unpack_from(">hhhh", data, p))
                p += 8
            if not flags & 2:
                dx = dy = 0  # point-matched components: not used by the glyphs we draw
            for contour in self._contours(gid):
                out.append([(a * x + c * y + dx, b * x + d * y + dy, on) for x, y, on in contour])
            if not flags & 0x20:
                return out

    def glyph(self, char: str) -> Glyph:
        """The glyph for one character, in em units; KeyError if the font lacks it."""
        gid = self.cmap[ord(char)]
        if gid not in self._glyphs:
            s = 1 / self.units
            path: list[Command] = []
            for contour in self._contours(gid):
                path.extend(_quadratic_contour([(x * s, y * s, on) for x, y, on in contour]))
            self._glyphs[gid] = Glyph(tuple(path), self._advance(gid))
        return self._glyphs[gid]


def _quadratic_contour(points: list[tuple[float, float, bool]]) -> list[Command]:
    """A closed TrueType contour (on/off-curve points) as move/line/cubic commands."""
    if not points:
        return []
    first = next((i for i, p in enumerate(points) if p[2]), None)
    if first is None:  # all off-curve: start at the midpoint of the first two
        (x0, y0, _), (x1, y1, _) = points[0], points[1]
        start, order = ((x0 + x1) / 2, (y0 + y1) / 2), points
    else:
        start, order = points[first][:2], points[first + 1:] + points[:first + 1]
    out: list[Command] = [("M", *start)]
    cur, ctrl = start, None
    for x, y, on in order + ([(start[0], start[1], True)] if first is None else []):
        if on:
            if ctrl is None:
                out.append(("L", x, y))
            else:
                out.append(_q2c(cur, ctrl, (x, y)))
                ctrl = None
            cur = (x, y)
        else:
            if ctrl is not None:
                mid = ((ctrl[0] + x) / 2, (ctrl[1] + y) / 2)
                out.append(_q2c(cur, ctrl, mid))
                cur = mid
            ctrl = (x, y)
    if ctrl is not None:
        out.append(_q2c(cur, ctrl, start))
    out.append(("Z",))
    return out


def _q2c(p0: tuple[float, float], c: tuple[float, float], p1: tuple[float, float]) -> Command:
    """A quadratic Bézier as the equal cubic."""
    return ("C", p0[0] + 2 / 3 * (c[0] - p0[0]), p0[1] + 2 / 3 * (c[1] - p0[1]),
            p1[0] + 2 / 3 * (c[0] - p1[0]), p1[1] + 2 / 3 * (c[1] - p1[1]), p1[0], p1[1])


@cache
def font(weight: str = "regular") -> Font:
    """The bundled Vera font (``regular`` or ``bold``)."""
    return Font(os.path.join(os.path.dirname(reportlab.__file__), "fonts", FONT_FILES[weight]))


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
