"""A one-page printable strategy chart: what to propose, whom to ask, what each answer leads to.

The decision tree from ``Solver.tree()`` is drawn as an indented outline on one A4 page. ▲■● and the ✓/✗
marks are drawn as filled paths (no font needs those glyphs); text uses Bitstream Vera, shipped with
reportlab and embedded. Output is reproducible (``invariant=1``) and written atomically.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, black, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .files import write_atomic
from .problems import Problem

FONT = "TmphysVera"
FONT_BOLD = "TmphysVeraBold"
MARGIN = 12 * mm
HEADER = 24 * mm
LEGEND = 12 * mm
MAX_LINE = 12.0  # pt
MIN_LINE = 5.5  # pt
INDENT = 4.2 * mm
BLUE = Color(0.13, 0.38, 0.78)
YELLOW = Color(0.93, 0.73, 0.05)
PURPLE = Color(0.50, 0.24, 0.65)
GREEN = Color(0.10, 0.55, 0.25)
RED = Color(0.80, 0.15, 0.15)
GREY = Color(0.45, 0.45, 0.45)


def _fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(FONT_BOLD, "VeraBd.ttf"))


def chart_lines(tree: dict[str, Any]) -> list[tuple[int, str | None, dict[str, Any]]]:
    """Flatten the decision tree into (depth, answer mark or None, node) lines, in reading order."""
    out: list[tuple[int, str | None, dict[str, Any]]] = []

    def walk(node: dict[str, Any], depth: int, mark: str | None) -> None:
        out.append((depth, mark, node))
        if "round" in node:
            walk(node["then"], depth + 1, None)
        elif "ask" in node:
            walk(node["pass"], depth + 1, "pass")
            walk(node["fail"], depth + 1, "fail")

    walk(tree, 0, None)
    return out


def _mark(c: Canvas, x: float, y: float, size: float, passed: bool) -> float:
    """Draw a ✓ (green) or ✗ (red) as strokes; return the width used."""
    c.saveState()
    c.setLineWidth(size * 0.16)
    c.setLineCap(1)
    if passed:
        c.setStrokeColor(GREEN)
        p = c.beginPath()
        p.moveTo(x + 0.05 * size, y + 0.40 * size)
        p.lineTo(x + 0.35 * size, y + 0.08 * size)
        p.lineTo(x + 0.85 * size, y + 0.80 * size)
        c.drawPath(p, stroke=1, fill=0)
    else:
        c.setStrokeColor(RED)
        c.line(x + 0.1 * size, y + 0.1 * size, x + 0.75 * size, y + 0.75 * size)
        c.line(x + 0.1 * size, y + 0.75 * size, x + 0.75 * size, y + 0.1 * size)
    c.restoreState()
    return size * 1.05


def _code(c: Canvas, x: float, y: float, size: float, code: str) -> float:
    """Draw a code as ▲ ■ ● shapes in their colours, each with its digit; return the width used."""
    c.saveState()
    s = size * 1.05
    for i, (digit, colour) in enumerate(zip(code, (BLUE, YELLOW, PURPLE))):
        cx = x + i * (s + size * 0.2)
        c.setFillColor(colour)
        if i == 0:
            p = c.beginPath()
            p.moveTo(cx, y - 0.12 * size)
            p.lineTo(cx + s, y - 0.12 * size)
            p.lineTo(cx + s / 2, y - 0.12 * size + s)
            p.close()
            c.drawPath(p, stroke=0, fill=1)
            ty = y + 0.02 * size
        elif i == 1:
            c.rect(cx, y - 0.12 * size, s, s, stroke=0, fill=1)
            ty = y + 0.08 * size
        else:
            c.circle(cx + s / 2, y - 0.12 * size + s / 2, s / 2, stroke=0, fill=1)
            ty = y + 0.08 * size
        c.setFillColor(black if i == 1 else white)
        c.setFont(FONT_BOLD, size * 0.62)
        c.drawCentredString(cx + s / 2, ty, digit)
    c.restoreState()
    return 3 * s + 2 * size * 0.2 + size * 0.3


def render_chart(problem: Problem, tree: dict[str, Any], objective: str,
                 optimal: dict[str, dict[str, Any]] | None = None) -> bytes:
    """The strategy chart as PDF bytes (one A4 page; columns added when the tree is long)."""
    _fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("Turing Machine strategy chart")
    c.setAuthor("tmphys")
    width, height = A4
    c.setFont(FONT_BOLD, 13)
    c.drawString(MARGIN, height - MARGIN - 10, "Strategy chart")
    c.setFont(FONT, 8.5)
    c.drawString(MARGIN, height - MARGIN - 22, _fit(problem.describe(), 120))
    line = f"Objective: {'best on average' if objective == 'expected' else 'best in the worst case'}."
    if optimal:
        e, w = optimal["expected"], optimal["worst"]
        word = "Optimal" if e.get("exact", True) and w.get("exact", True) else "Best found (not proven optimal)"
        line += (f"  {word}: {e['rounds_fraction']} rounds, {e['questions_fraction']} questions on average; "
                 f"{'?' if w['rounds'] is None else w['rounds']} rounds, "
                 f"{'?' if w['questions'] is None else w['questions']} questions at worst.")
    c.drawString(MARGIN, height - MARGIN - 33, line)
    lines = chart_lines(tree)
    top, bottom = height - MARGIN - HEADER, MARGIN + LEGEND
    columns = 1
    while (top - bottom) / -(-len(lines) // columns) < MIN_LINE and columns < 4:
        columns += 1
    per_column = -(-len(lines) // columns)
    step = min(MAX_LINE, (top - bottom) / max(per_column, 1))
    size = step * 0.78
    col_width = (width - 2 * MARGIN) / columns
    for i, (depth, mark, node) in enumerate(lines):
        col, row = divmod(i, per_column)
        x = MARGIN + col * col_width + depth * min(INDENT, step * 1.0)
        y = top - (row + 1) * step
        if mark is not None:
            x += _mark(c, x, y, size, mark == "pass")
        c.setFillColor(black)
        if "round" in node:
            c.setFont(FONT_BOLD, size)
            label = f"Round {node['round']}: propose "
            c.drawString(x, y, label)
            x += c.stringWidth(label, FONT_BOLD, size)
            x += _code(c, x, y, size, node["proposal"])
            c.setFont(FONT, size * 0.8)
            c.setFillColor(GREY)
            c.drawString(x, y, f"({node['codes']} codes possible)")
        elif "ask" in node:
            c.setFont(FONT, size)
            c.drawString(x, y, f"ask {node['ask']}")
        else:
            c.setFont(FONT_BOLD, size)
            c.drawString(x, y, "code ")
            x += c.stringWidth("code ", FONT_BOLD, size)
            _code(c, x, y, size, node["code"])
    c.setFont(FONT, 7.5)
    c.setFillColor(black)
    ly = MARGIN + 3
    x = MARGIN
    x += _mark(c, x, ly, 8, True)
    c.drawString(x, ly, "the stack shows a pass mark;")
    x += c.stringWidth("the stack shows a pass mark; ", FONT, 7.5)
    x += _mark(c, x, ly, 8, False)
    c.drawString(x, ly, "a fail mark.  Ask the verifiers in the order shown; stop when a code is reached.")
    c.showPage()
    c.save()
    return buf.getvalue()


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_chart(path: Path, problem: Problem, tree: dict[str, Any] | None, objective: str,
                optimal: dict[str, dict[str, Any]] | None = None) -> None:
    """Write the strategy chart PDF atomically (temporary file, then rename)."""
    if tree is None:
        raise ValueError("no decision tree to chart")
    write_atomic(Path(path), render_chart(problem, tree, objective, optimal))
