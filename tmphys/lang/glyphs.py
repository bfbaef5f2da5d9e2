"""Text and symbols as vector paths, so no output file depends on a font being installed.

English letters come from the outlines of Bitstream Vera Sans, which ships inside reportlab (a dependency); every
other language's from a subset of Noto (``lang/fonts/``, made by ``lang/fonts/make_subsets.py`` from Debian's
Noto fonts, holding the glyphs the catalogues use): Noto Sans for Latin, Greek and Cyrillic, Noto Sans Thai (merged
with Noto Sans) for Thai, Noto Sans CJK for Japanese, Korean and Chinese. fontTools reads each glyph and a pen
records it as move/line/cubic commands. Thai is shaped with HarfBuzz (its marks stack over their consonants); the
other scripts set each character at its advance. The game's symbols (▲ ■ ● ◊ ¤ ✓ ✗) are drawn from geometry, in the
same em units, so they match the letters. A character no font of the language holds is an error, never a blank.

>>> width = text_width("▲ < ■", 3.0)   # doctest: +SKIP
"""

from __future__ import annotations

import io
import math
import os
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

import reportlab
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

from tmphys.lang.i18n import DEFAULT, LANGUAGES, current

#: A path: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",). Units depend on context.
Command = tuple
Path = tuple[Command, ...]

#: English's fonts (their font ids are the weights themselves, so English files keep their glyph names).
FONT_FILES = {"regular": "Vera.ttf", "bold": "VeraBd.ttf"}
#: Every other script's subset in ``lang/fonts/``, by script: (regular, bold).
SCRIPT_FONTS: dict[str, tuple[str, str]] = {
    "latin": ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    "thai": ("NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    # One weight for the CJK scripts: their glyphs are many, a bold set would double the fonts tmphys ships.
    "ja": ("NotoSansCJKjp-Regular.ttf",) * 2,
    "ko": ("NotoSansCJKkr-Regular.ttf",) * 2,
    "zh-Hans": ("NotoSansCJKsc-Regular.ttf",) * 2,
    "zh-Hant": ("NotoSansCJKtc-Regular.ttf",) * 2,
}
#: Scripts set through HarfBuzz: their marks are placed by the font's own rules.
SHAPED_SCRIPTS = frozenset({"thai"})
WEIGHTS = ("regular", "bold")
#: A break a line may take without a space (translators put it between Thai words).
ZERO_WIDTH_SPACE = "\u200b"
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
        return self._named(self.cmap[ord(char)])

    def glyph_number(self, number: int) -> Glyph:
        """The glyph at ``number`` in the font's glyph order (one that shaping put in place of a character)."""
        return self._named(self.font.getGlyphOrder()[number])

    def _named(self, name: str) -> Glyph:
        if name not in self._glyphs:
            pen = _Recorder(self.glyph_set, 1 / self.units)
            self.glyph_set[name].draw(pen)  # BasePen turns TrueType quadratics into cubics
            self._glyphs[name] = Glyph(tuple(pen.path), self.glyph_set[name].width / self.units)
        return self._glyphs[name]


def face(weight: str = "regular") -> str:
    """The font id of ``weight`` (``regular`` or ``bold``) in the current language: the weight itself for English
    (Vera), ``<script>-<weight>`` for the others (``latin-bold``, ``thai-regular``, ``ja-regular``)."""
    code = current()
    if code == DEFAULT:
        return weight
    script = LANGUAGES[code].script
    regular, bold = SCRIPT_FONTS[script]
    return f"{script}-{'regular' if regular == bold else weight}"


def font_path(font_id: str = "regular") -> str:
    """The file of a font id: English's Vera inside reportlab, the other scripts' subsets in ``lang/fonts/``."""
    if font_id in FONT_FILES:
        return os.path.join(os.path.dirname(reportlab.__file__), "fonts", FONT_FILES[font_id])
    script, weight = font_id.rsplit("-", 1)
    return str(resources.files("tmphys.lang").joinpath("fonts", SCRIPT_FONTS[script][WEIGHTS.index(weight)]))


@cache
def font(font_id: str = "regular") -> Font:
    """The font of a font id (``regular``, ``bold``: Vera; ``latin-bold``, ``ja-regular``, …: a Noto subset)."""
    return Font(font_path(font_id))


#: The names under which ``text_fonts`` registers Vera with reportlab, for pages set in real type (the booklet, the
#: chart): one pair for every page, so that one process can make any of them in any order.
TEXT_FONT, TEXT_FONT_BOLD = "TmphysVera", "TmphysVera-Bold"


def pdf_font(font_id: str) -> str:
    """The name under which reportlab knows a font id, registered on first use (each file once per process)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as ReportlabFont

    name = {"regular": TEXT_FONT, "bold": TEXT_FONT_BOLD}.get(font_id, f"Tmphys-{font_id}")
    if name not in pdfmetrics.getRegisteredFontNames():
        source = io.BytesIO(symbol_font_bytes()) if font_id == SYMBOL_FONT else font_path(font_id)
        pdfmetrics.registerFont(ReportlabFont(name, source))
    return name


@cache
def text_fonts() -> tuple[str, str]:
    """Register Vera and Vera Bold with reportlab (once per process, each on its own); their names."""
    return pdf_font("regular"), pdf_font("bold")


def language_fonts() -> tuple[str, str]:
    """The reportlab names of the current language's regular and bold fonts (registered on first use)."""
    return pdf_font(face("regular")), pdf_font(face("bold"))


def shaped() -> bool:
    """Whether the current language's script is set through HarfBuzz (a reportlab page passes ``shaping``)."""
    code = current()
    return code != DEFAULT and LANGUAGES[code].script in SHAPED_SCRIPTS


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

#: The font id of the symbols as a font (``symbol_font_bytes``): a PDF sets them in it as invisible text over their
#: drawn shapes, so that its text holds ▲ ■ ● ◊ ¤ ✓ ✗ where they are printed.
SYMBOL_FONT = "symbol"
#: The symbol font's units per em, its space's advance (em) and its ascent and descent (em, Vera's).
SYMBOL_UNITS, SYMBOL_SPACE, SYMBOL_ASCENT, SYMBOL_DESCENT = 1000, 0.318, 0.928, -0.236
#: The symbol font's date (seconds since 1904, as TrueType counts: 2024-01-01), fixed so its bytes are.
SYMBOL_FONT_DATE = 3786825600


@cache
def symbol_font_bytes() -> bytes:
    """A TrueType font of the game's symbols (their outlines from ``SYMBOLS``, at their advances) and a space, made
    with fontTools: the same bytes on every run (its dates fixed), so the PDFs that embed it stay reproducible."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = {ch: f"uni{ord(ch):04X}" for ch in SYMBOLS}
    order = [".notdef", "space", *names.values()]
    glyphs, metrics = {}, {}
    for name, glyph in ((".notdef", Glyph((), SYMBOL_ADVANCE)), ("space", Glyph((), SYMBOL_SPACE)),
                        *((names[ch], g) for ch, g in SYMBOLS.items())):
        pen = TTGlyphPen(None)
        outline = Cu2QuPen(pen, max_err=1.0, reverse_direction=True)
        for cmd in glyph.path:
            pts = [v * SYMBOL_UNITS for v in cmd[1:]]
            xy = list(zip(pts[::2], pts[1::2]))
            if cmd[0] == "M":
                outline.moveTo(xy[0])
            elif cmd[0] == "L":
                outline.lineTo(xy[0])
            elif cmd[0] == "C":
                outline.curveTo(*xy)
            else:
                outline.closePath()
        glyphs[name] = pen.glyph()
        metrics[name] = (round(glyph.advance * SYMBOL_UNITS), 0)
    fb = FontBuilder(SYMBOL_UNITS, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({32: "space", **{ord(ch): name for ch, name in names.items()}})
    fb.setupGlyf(glyphs)
    for name in order:
        metrics[name] = (metrics[name][0], getattr(glyphs[name], "xMin", 0))
    fb.setupHorizontalMetrics(metrics)
    ascent, descent = round(SYMBOL_ASCENT * SYMBOL_UNITS), round(SYMBOL_DESCENT * SYMBOL_UNITS)
    fb.setupHorizontalHeader(ascent=ascent, descent=descent)
    fb.setupNameTable({"familyName": "Tmphys Symbols", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=ascent, sTypoDescender=descent, usWinAscent=ascent, usWinDescent=-descent)
    fb.setupPost()
    fb.setupHead(unitsPerEm=SYMBOL_UNITS, created=SYMBOL_FONT_DATE, modified=SYMBOL_FONT_DATE)
    fb.font.recalcTimestamp = False
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def face_glyph(char: str, font_id: str) -> Glyph:
    """The em-unit glyph of one character in a font id: a game symbol, else the font's letter."""
    if char in SYMBOLS:
        return SYMBOLS[char]
    try:
        return font(font_id).glyph(char)
    except KeyError:
        raise ValueError(f"no glyph for {char!r} (U+{ord(char):04X}) in font {font_id}: add it to glyphs.SYMBOLS, "
                         "or make the font subsets again (lang/fonts/make_subsets.py)") from None


def glyph(char: str, weight: str = "regular") -> Glyph:
    """The em-unit glyph of one character in the current language's font of ``weight``."""
    return face_glyph(char, face(weight))


# --- setting text --------------------------------------------------------------------------------

#: One placed glyph of a line: its key (``glyph_key``), its character, its x and its rise (mm, y up) from the line.
Placed = tuple[str, str, float, float]


def _visible(text: str) -> str:
    return text.replace(ZERO_WIDTH_SPACE, "")


@lru_cache(maxsize=4096)
def _shape_run(run: str, font_id: str) -> tuple[tuple[str, str, float, float, float], ...]:
    """HarfBuzz's layout of a run in em units: (key, character, x offset, y offset, advance) per glyph."""
    import uharfbuzz as hb

    f = font(font_id)
    hb_font = hb.Font(hb.Face(hb.Blob.from_file_path(font_path(font_id))))
    buf = hb.Buffer()
    buf.add_str(run)
    buf.guess_segment_properties()
    buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
    hb.shape(hb_font, buf, {"liga": False, "clig": False})
    order = f.font.getGlyphOrder()
    out = []
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        char = run[info.cluster]
        name = order[info.codepoint]
        if info.codepoint == 0:
            raise ValueError(f"no glyph for {char!r} (U+{ord(char):04X}) in font {font_id}: make the font subsets "
                             "again (lang/fonts/make_subsets.py)")
        key = f"{font_id}:{char}" if f.cmap.get(ord(char)) == name else f"{font_id}:#{info.codepoint}"
        out.append((key, char, pos.x_offset / f.units, pos.y_offset / f.units, pos.x_advance / f.units))
    return tuple(out)


def _layout(text: str, weight: str) -> tuple[tuple[tuple[str, str, float, float], ...], float]:
    """A line's glyphs in em units, (key, character, x, rise) for each one drawn, and its advance."""
    return _laid_out(text, face(weight))


@lru_cache(maxsize=65536)
def _laid_out(text: str, font_id: str) -> tuple[tuple[tuple[str, str, float, float], ...], float]:
    text = _visible(text)
    out: list[tuple[str, str, float, float]] = []
    x = 0.0
    if font_id.split("-", 1)[0] in SHAPED_SCRIPTS:
        for run in re.split(f"([{''.join(SYMBOLS)}])", text):
            if not run:
                continue
            if run in SYMBOLS:
                out.append((f"symbol:{run}", run, x, 0.0))
                x += SYMBOLS[run].advance
                continue
            for key, char, dx, dy, advance in _shape_run(run, font_id):
                if key.split(":", 1)[1].startswith("#") or key_glyph(key).path:
                    out.append((key, char, x + dx, dy))
                x += advance
        return tuple(out), x
    for ch in text:
        g = face_glyph(ch, font_id)
        if g.path:
            out.append((f"symbol:{ch}" if ch in SYMBOLS else f"{font_id}:{ch}", ch, x, 0.0))
        x += g.advance
    return tuple(out), x


def text_width(text: str, size: float, weight: str = "regular") -> float:
    """Width of ``text`` set at em size ``size`` (mm) in the current language's font."""
    return _layout(text, weight)[1] * size


def glyph_key(char: str, weight: str = "regular") -> str:
    """The name a glyph is defined under in an output file: ``font id:char`` (symbols: ``symbol:char``; a glyph that
    shaping put in no character's place: ``font id:#glyph number``)."""
    return f"symbol:{char}" if char in SYMBOLS else f"{face(weight)}:{char}"


def key_glyph(key: str) -> Glyph:
    """The glyph a ``glyph_key`` names."""
    font_id, char = key.split(":", 1)
    if font_id == "symbol":
        return SYMBOLS[char]
    if char.startswith("#") and len(char) > 1:
        return font(font_id).glyph_number(int(char[1:]))
    return face_glyph(char, font_id)


def key_name(key: str) -> str:
    """A short ASCII name for a glyph key, safe as an SVG id or a PDF name (``gr41``: Vera regular 'A';
    ``glatinb41``: Noto Sans bold 'A'; ``gthairn123``: Noto Sans Thai's glyph 123, put by shaping)."""
    font_id, char = key.split(":", 1)
    if font_id in ("regular", "bold", "symbol"):
        return f"g{font_id[0]}{ord(char):x}"
    script, weight = font_id.rsplit("-", 1)
    prefix = "g" + re.sub(r"[^a-z]", "", script.lower()) + weight[0]
    return f"{prefix}n{char[1:]}" if char.startswith("#") and len(char) > 1 else f"{prefix}{ord(char):x}"


def set_text(text: str, x: float, size: float, weight: str = "regular",
             anchor: str = "start") -> list[Placed]:
    """Lay ``text`` out on one line: (glyph key, character, x, rise) for every visible glyph, in mm.

    ``anchor`` is ``start``, ``middle`` or ``end`` of the line at ``x``.
    """
    font_id = face(weight)
    placed, advance = _laid_out(text, font_id)
    x -= {"start": 0.0, "middle": advance * size / 2, "end": advance * size}[anchor]
    if font_id.split("-", 1)[0] in SHAPED_SCRIPTS:
        return [(key, ch, x + gx * size, rise * size) for key, ch, gx, rise in placed]
    out = []
    for ch in _visible(text):  # each glyph's origin stepped in mm, as English files always were
        g = face_glyph(ch, font_id)
        if g.path:
            out.append((f"symbol:{ch}" if ch in SYMBOLS else f"{font_id}:{ch}", ch, x, 0.0))
        x += g.advance * size
    return out


# --- breaking lines ------------------------------------------------------------------------------------

#: Characters a line must not start with (closing marks and small kana, as Japanese and Chinese set them) or end with.
NO_START = set("、。，．・：；？！）〕］｝〉》」』】ー々ゝゞぁぃぅぇぉっゃゅょァィゥェォッャュョ,.:;!?)]}…")
NO_END = set("（〔［｛〈《「『【([{")


def _cjk(ch: str) -> bool:
    """Whether a line may break beside ``ch`` without a space (Chinese and Japanese scripts, their punctuation)."""
    o = ord(ch)
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
            or 0xFF00 <= o <= 0xFF60)


def _pieces(word: str) -> list[str]:
    """A word cut where a line may break without a space: at a zero-width space, and beside a CJK character."""
    pieces = [""]
    for ch in word:
        if ch == ZERO_WIDTH_SPACE:
            if pieces[-1]:
                pieces.append("")
            continue
        prev = pieces[-1][-1:] if pieces[-1] else ""
        if prev and (_cjk(prev) or _cjk(ch)) and ch not in NO_START and prev not in NO_END:
            pieces.append("")
        pieces[-1] += ch
    return [p for p in pieces if p]


def wrap(text: str, size: float, width: float, weight: str = "regular") -> list[str]:
    """Break ``text`` into lines no wider than ``width`` mm: at spaces, at zero-width spaces (Thai) and between CJK
    characters (never before a closing mark or after an opening one)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        for k, piece in enumerate(_pieces(word)):
            candidate = line + (" " if k == 0 and line else "") + piece
            if line and text_width(candidate, size, weight) > width:
                lines.append(line)
                line = piece
            else:
                line = candidate
    if line:
        lines.append(line)
    return lines
