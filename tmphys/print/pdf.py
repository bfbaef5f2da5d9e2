"""PDF output (reportlab): pages of placed shapes and text, drawn in mm with y down.

Each page gets one transform from mm (origin top-left, y down) to PDF points, so every coordinate
in the file is the same millimetre figure the layout holds. Letters are real text in an embedded subset of
the language's font (English: Bitstream Vera Sans, shipped in reportlab; the others: the Noto subsets of
``lang/fonts``), only the glyphs the file uses, so a viewer finds and copies them; the game's symbols
(▲ ■ ● ◊ ¤ ✓ ✗), which the fonts lack, and the few glyphs shaping puts in no character's place, are form
XObjects defined once per file and placed by a matrix. Both take the fill colour current where they are placed.
The symbols are also text, invisible (render mode 3) in a font of their own over the shapes drawn, so a search
for "▲ < 3" or "¤585" finds them.
``invariant=1`` removes dates and random IDs: the same input gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from tmphys.art import params as P
from tmphys.art.draw import GlyphRun, Item, Shape
from tmphys.lang.glyphs import SYMBOL_FONT, SYMBOL_SPACE, Path, face_glyph, key_glyph, key_name, pdf_font

#: Box of a glyph form in em units: generous, so no glyph is clipped.
GLYPH_BOX = (-1.0, -1.0, 2.0, 2.0)
#: Two glyphs this close (mm) to where the font's advance puts them are set in one line of text.
SAME_PLACE = 1e-4


@dataclass(frozen=True)
class Page:
    """One PDF page: its size in mm and the items on it, each with its (dx, dy) offset in mm."""

    width: float
    height: float
    items: tuple[tuple[Item, float, float], ...]


def _rgb(colour: str) -> str:
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return f"{r:.4f} {g:.4f} {b:.4f}"


def path_ops(path: Path, dx: float = 0.0, dy: float = 0.0) -> str:
    """PDF path construction operators for a path moved by (dx, dy) (numbers to 0.001)."""
    out = []
    for cmd in path:
        op = cmd[0]
        if op == "M":
            out.append(f"{cmd[1] + dx:.3f} {cmd[2] + dy:.3f} m")
        elif op == "L":
            out.append(f"{cmd[1] + dx:.3f} {cmd[2] + dy:.3f} l")
        elif op == "C":
            out.append(f"{cmd[1] + dx:.3f} {cmd[2] + dy:.3f} {cmd[3] + dx:.3f} {cmd[4] + dy:.3f} "
                       f"{cmd[5] + dx:.3f} {cmd[6] + dy:.3f} c")
        else:
            out.append("h")
    return "\n".join(out)


def shape_ops(shape: Shape, dx: float, dy: float) -> str:
    """The operators that paint one shape (its colours set inside a q/Q pair)."""
    ops = ["q"]
    if shape.fill:
        ops.append(f"{_rgb(shape.fill)} rg")
    if shape.stroke:
        ops.append(f"{_rgb(shape.stroke)} RG {shape.stroke_width:.4f} w")
    ops.append(path_ops(shape.path, dx, dy))
    if shape.fill and shape.stroke:
        ops.append("B*" if shape.evenodd else "B")
    elif shape.fill:
        ops.append("f*" if shape.evenodd else "f")
    else:
        ops.append("S")
    ops.append("Q")
    return "\n".join(ops)


@dataclass
class _Piece:
    """Characters set side by side at their font's advances in one font, size and colour, from ``x`` to ``end``
    on one baseline (mm). The symbols' font (``SYMBOL_FONT``) is set invisibly, over their drawn shapes."""

    font_id: str
    x: float
    baseline: float
    size: float
    fill: str
    chars: str
    end: float
    run: int


def _advance(char: str, font_id: str) -> float:
    return (SYMBOL_SPACE if font_id == SYMBOL_FONT and char == " " else face_glyph(char, font_id).advance)


def _pieces(run: GlyphRun, dx: float, dy: float, number: int) -> list[_Piece]:
    """A run's characters as pieces: its letters and its symbols apart, each glyph joined to the piece before when
    the font's advance puts it there (a gap of whole spaces' widths is the spaces ``set_text`` left out). Glyphs
    that shaping put in no character's place carry no character: they are left out (drawn as forms)."""
    out: list[_Piece] = []
    for key, x, baseline, size in run.glyphs:
        font_id, char = key.split(":", 1)
        if _as_form(key) and font_id != "symbol":
            continue
        font_id = SYMBOL_FONT if font_id == "symbol" else font_id
        x, baseline = x + dx, baseline + dy
        last = out[-1] if out else None
        if last and (last.font_id, last.baseline, last.size) == (font_id, baseline, size):
            space = _advance(" ", font_id) * size
            spaces = (x - last.end) / space
            if abs(x - last.end) < SAME_PLACE or (spaces > 0.5 and abs(spaces - round(spaces)) * space < SAME_PLACE):
                last.chars += " " * (round(spaces) if abs(x - last.end) >= SAME_PLACE else 0) + char
                last.end = x + _advance(char, font_id) * size
                continue
        out.append(_Piece(font_id, x, baseline, size, run.fill, char, x + _advance(char, font_id) * size, number))
    return out


def _text_lines(runs: list[tuple[GlyphRun, float, float]]) -> list[list[_Piece]]:
    """The pieces of runs drawn one after the other, as lines: the pieces on one baseline at one size, in the order
    of their first, each line left to right (a text's code shapes are runs of their own colours: their line reads
    "▲ < 3", not "< 3" then "▲"). Between two pieces apart, spaces: as many as the gap holds of the letters' font,
    else one where a symbol or another run begins (they are words apart; a gap within a run's letters is shaping's,
    as a Thai mark's), so that the text found reads as the text printed."""
    lines: dict[tuple[float, float], list[_Piece]] = {}
    for number, (run, dx, dy) in enumerate(runs):
        for piece in _pieces(run, dx, dy, number):
            lines.setdefault((piece.baseline, piece.size), []).append(piece)
    out = []
    for pieces in lines.values():
        pieces.sort(key=lambda p: p.x)  # stable: pieces that start at one x keep their order
        for before, after in zip(pieces, pieces[1:]):
            gap = after.x - before.end
            if gap < SAME_PLACE:
                continue
            letters = after.font_id if after.font_id != SYMBOL_FONT else before.font_id
            spaces = gap / (_advance(" ", letters) * after.size)
            whole = round(spaces) >= 1 and abs(spaces - round(spaces)) * _advance(" ", letters) * after.size < 1e-3
            apart = before.run != after.run or SYMBOL_FONT in (before.font_id, after.font_id)
            before.chars += " " * (round(spaces) if whole else 1 if apart else 0)
        out.append(pieces)
    return out


def _as_form(key: str) -> bool:
    """Whether a glyph is placed as a form (a symbol, or a glyph shaping put in no character's place)."""
    font_id, char = key.split(":", 1)
    return font_id == "symbol" or (char.startswith("#") and len(char) > 1)


def _glyph_runs(c: Canvas, runs: list[tuple[GlyphRun, float, float]]) -> None:
    """Runs drawn one after the other: their letters as real text in the embedded subset of the font, a line to a
    text object; their symbols as forms placed by their matrix, and also as invisible text (render mode 3) in the
    symbols' font over them, so that the file's text holds them where they are printed ("▲ < 3", "¤585"). Each in
    its run's fill colour."""
    for line in _text_lines(runs):
        t = c.beginText()
        font_id, mode, fill = None, 0, None
        for piece in line:
            if piece.font_id != font_id:
                font_id = piece.font_id
                t.setFont(pdf_font(font_id), 1.0)
            if (3 if font_id == SYMBOL_FONT else 0) != mode:
                mode = 3 - mode
                t.setTextRenderMode(mode)
            if mode == 0 and piece.fill != fill:
                fill = piece.fill
                t.setFillColorRGB(*(int(fill[k:k + 2], 16) / 255 for k in (1, 3, 5)))
            t.setTextTransform(piece.size, 0.0, 0.0, -piece.size, piece.x, piece.baseline)
            t.textOut(piece.chars)
        c.addLiteral("q")
        c.drawText(t)
        c.addLiteral("Q")
    for run, dx, dy in runs:
        forms = [g for g in run.glyphs if _as_form(g[0])]
        if not forms:
            continue
        c.addLiteral(f"q {_rgb(run.fill)} rg")
        for key, x, baseline, size in forms:
            c.addLiteral(f"q {size:.4f} 0 0 {-size:.4f} {x + dx:.3f} {baseline + dy:.3f} cm")
            c.doForm(key_name(key))
            c.addLiteral("Q")
        c.addLiteral("Q")


class _Canvas(Canvas):
    """A canvas that sets no initial font: reportlab's default names Helvetica on every page, unembedded, which
    a print shop's preflight flags; the text here names its own, embedded font."""

    def _make_preamble(self) -> None:
        self._preamble = "1 0 0 1 0 0 cm" if self.bottomup else f"1 0 0 -1 0 {self._pagesize[1]:.4f} cm"


def pdf_bytes(pages: Iterable[Page], title: str) -> bytes:
    """A PDF of the pages, reproducible byte for byte."""
    pages = list(pages)
    keys = sorted({g[0] for p in pages for item, _, _ in p.items if isinstance(item, GlyphRun)
                   for g in item.glyphs if _as_form(g[0])})
    buf = io.BytesIO()
    saved = rl_config.useA85
    rl_config.useA85 = 0  # binary streams: smaller, and much faster than reportlab's pure-Python A85
    try:
        c = _Canvas(buf, invariant=1, pageCompression=1)
        c.setTitle(title)
        c.setCreator("tmphys")
        c.setAuthor("tmphys")
        for key in keys:
            c.beginForm(key_name(key), *GLYPH_BOX)
            c.addLiteral(path_ops(key_glyph(key).path) + "\nf")
            c.endForm()
        for page in pages:
            c.setPageSize((page.width * P.PT_PER_MM, page.height * P.PT_PER_MM))
            c.addLiteral(f"q {P.PT_PER_MM:.6f} 0 0 {-P.PT_PER_MM:.6f} 0 {page.height * P.PT_PER_MM:.4f} cm 1 j")
            runs: list[tuple[GlyphRun, float, float]] = []  # runs drawn one after the other, no shape between
            for item, dx, dy in page.items:
                if isinstance(item, GlyphRun):
                    runs.append((item, dx, dy))
                    continue
                if runs:
                    _glyph_runs(c, runs)
                    runs = []
                c.addLiteral(shape_ops(item, dx, dy))
            if runs:
                _glyph_runs(c, runs)
            c.addLiteral("Q")
            c.showPage()
        c.save()
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()
