"""PDF output (reportlab): pages of placed shapes and text, drawn in mm with y down.

Each page gets one transform from mm (origin top-left, y down) to PDF points, so every coordinate
in the file is the same millimetre figure the layout holds. Letters are real text in an embedded subset of
the language's font (English: Bitstream Vera Sans, shipped in reportlab; the others: the Noto subsets of
``lang/fonts``), only the glyphs the file uses, so a viewer finds and copies them; the game's symbols
(▲ ■ ● ◊ ¤ ✓ ✗), which the fonts lack, and the few glyphs shaping puts in no character's place, are form
XObjects defined once per file and placed by a matrix. Both take the fill colour current where they are placed.
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
from tmphys.lang.glyphs import Path, face_glyph, key_glyph, key_name, pdf_font

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


def _lines(run: GlyphRun) -> list[tuple[str, float, float, float, str]]:
    """A run's letters as lines of text: (weight, x, baseline, size, characters), the glyphs of each line side by
    side at their font's advances (a gap of whole spaces' widths is the spaces ``set_text`` left out)."""
    out: list[tuple[str, float, float, float, str]] = []
    end = 0.0
    for key, x, baseline, size in run.glyphs:
        weight, char = key.split(":", 1)
        if out and out[-1][0] == weight and out[-1][2] == baseline and out[-1][3] == size:
            spaces = (x - end) / (face_glyph(" ", weight).advance * size)
            if abs(x - end) < SAME_PLACE:
                out[-1] = (*out[-1][:4], out[-1][4] + char)
                end = x + face_glyph(char, weight).advance * size
                continue
            if spaces > 0.5 and abs(spaces - round(spaces)) * face_glyph(" ", weight).advance * size < SAME_PLACE:
                out[-1] = (*out[-1][:4], out[-1][4] + " " * round(spaces) + char)
                end = x + face_glyph(char, weight).advance * size
                continue
        out.append((weight, x, baseline, size, char))
        end = x + face_glyph(char, weight).advance * size
    return out


def _as_form(key: str) -> bool:
    """Whether a glyph is placed as a form (a symbol, or a glyph shaping put in no character's place)."""
    font_id, char = key.split(":", 1)
    return font_id == "symbol" or (char.startswith("#") and len(char) > 1)


def _glyph_run(c: Canvas, run: GlyphRun, dx: float, dy: float) -> None:
    """Letters as real text in the embedded subset of the font, symbols as forms placed by their matrix; both in
    the run's fill colour."""
    c.addLiteral(f"q {_rgb(run.fill)} rg")
    letters = GlyphRun(tuple(g for g in run.glyphs if not _as_form(g[0])), run.fill, run.role)
    for font_id, x, baseline, size, chars in _lines(letters):
        t = c.beginText()
        t.setFont(pdf_font(font_id), 1.0)
        t.setTextTransform(size, 0.0, 0.0, -size, x + dx, baseline + dy)
        t.textOut(chars)
        c.drawText(t)
    for key, x, baseline, size in run.glyphs:
        if _as_form(key):
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
            for item, dx, dy in page.items:
                if isinstance(item, GlyphRun):
                    _glyph_run(c, item, dx, dy)
                else:
                    c.addLiteral(shape_ops(item, dx, dy))
            c.addLiteral("Q")
            c.showPage()
        c.save()
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()
