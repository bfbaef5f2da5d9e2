"""A printable strategy chart: what to propose, whom to ask, what each answer leads to.

The decision tree from ``Solver.tree()`` is drawn as an indented outline in columns on A4 pages, scaled to fit
inside the margins: every line's width is measured with the font's metrics (``stringWidth``) before anything is
drawn. A small tree gets one page in type up to ``MAX_FONT``; when one page would need type under ``MIN_FONT``,
the outline goes on at that size over further pages, and each question whose ✗ branch lies in another column
says where it goes on. ▲■● and the ✓/✗ marks are drawn as filled paths (no font needs those glyphs); text uses
Bitstream Vera, shipped with reportlab and embedded. Output is reproducible (``invariant=1``) and written
atomically.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor, black
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from tmphys.art import params as P
from tmphys.files import write_atomic
from tmphys.game.problems import Problem
from tmphys.lang.glyphs import TEXT_FONT, TEXT_FONT_BOLD, text_fonts
from tmphys.text import plural

FONT, FONT_BOLD = TEXT_FONT, TEXT_FONT_BOLD
MARGIN = 12 * mm
#: Space between two columns of the outline.
GUTTER = 3 * mm
#: The smallest type on a chart (pt), the grey notes at MIN_FONT: under it, print gets hard to read.
SMALLEST = 6.0
#: Grey notes (codes possible, where a ✗ branch goes on), relative to the line's type size.
NOTE = 0.8
#: The outline's type size (pt): as large as fits, up to MAX_FONT; never under MIN_FONT unless a single line is
#: wider than the page at that size (a tree many rounds deep).
MAX_FONT = 9.5
MIN_FONT = SMALLEST / NOTE
#: Line step as a multiple of the type size.
LEADING = 1.28
#: Indent per level of the outline, in ems.
INDENT = 0.8
#: A code's ▲ ■ ● shapes, relative to the line's type size (about a digit's height).
SHAPE = 0.72
TITLE_SIZE = 13.0
HEAD_SIZE = 8.5
LEGEND_SIZE = 7.5
#: The widest note a question may get, reserved on every question line so that the layout never depends on it.
WIDEST_NOTE = "see p. 999, col. 9"
BLUE = Color(0.13, 0.38, 0.78)
YELLOW = Color(0.93, 0.73, 0.05)
PURPLE = Color(0.50, 0.24, 0.65)
#: ✓ and ✗ on the white page, in the marks' colours as the cards print them on paper (params.LOW_INK_GLYPH).
GREEN = HexColor(P.LOW_INK_GLYPH["pass"])
RED = HexColor(P.LOW_INK_GLYPH["fail"])
GREY = Color(0.45, 0.45, 0.45)


#: What "at worst" means, said once wherever a worst case is given.
WORST_MEANS = ("At worst: the longest single game, ranked as the game ranks players, by rounds and then questions "
               "(a solver that bounds rounds and questions separately may give other figures; neither is wrong).")
#: Said when the strategy shown (best on average) has a longer worst game than the best worst case.
BOTH_WORSTS = "This strategy: {rounds}, {questions} at worst; the best worst case: {best_rounds}, {best_questions}."


def worst_game(tree: dict[str, Any]) -> tuple[int, int]:
    """The longest single game of a strategy (its JSON, ``strategy_json``): (rounds, questions), ranked as the game
    ranks players (rounds first, then questions)."""
    def walk(node: dict[str, Any]) -> tuple[int, int]:
        if "code" in node:
            return (0, 0)
        if "ask" in node:
            worst = max(walk(node["pass"]), walk(node["fail"]))
            return (worst[0], worst[1] + 1)
        rounds, questions = walk(node["then"])
        return (rounds + 1, questions)

    return walk(tree)


def both_worsts(tree: dict[str, Any] | None, objective: str, optimal: dict[str, dict[str, Any]] | None) -> str | None:
    """``BOTH_WORSTS`` filled in when the strategy shown is the best on average and its longest game is longer than
    the proven best worst case; else None."""
    if not tree or objective != "expected" or not optimal:
        return None
    best = optimal["worst"]
    if best.get("rounds") is None or not best.get("exact", True):
        return None
    rounds, questions = worst_game(tree)
    if (rounds, questions) <= (best["rounds"], best["questions"]):
        return None
    return BOTH_WORSTS.format(rounds=plural(rounds, "round"), questions=plural(questions, "question"),
                              best_rounds=plural(best["rounds"], "round"),
                              best_questions=plural(best["questions"], "question"))


@dataclass(frozen=True)
class OutlineLine:
    """One line of the chart: its depth, the answer mark leading to it (``pass``/``fail``/None), its tree node, and
    for a question, the index of the line its ✗ branch starts on."""

    depth: int
    mark: str | None
    node: dict[str, Any]
    fail: int | None = None


def outline(tree: dict[str, Any]) -> list[OutlineLine]:
    """The decision tree as outline lines in reading order: each node, then its ✓ branch, then its ✗ branch."""
    out: list[OutlineLine] = []

    def walk(node: dict[str, Any], depth: int, mark: str | None) -> None:
        at = len(out)
        out.append(OutlineLine(depth, mark, node))
        if "round" in node:
            walk(node["then"], depth + 1, None)
        elif "ask" in node:
            walk(node["pass"], depth + 1, "pass")
            out[at] = OutlineLine(depth, mark, node, len(out))
            walk(node["fail"], depth + 1, "fail")

    walk(tree, 0, None)
    return out


def _mark(c: Canvas | None, x: float, y: float, size: float, passed: bool) -> float:
    """Draw a ✓ (green) or ✗ (red) as strokes (nothing when ``c`` is None); return the width used."""
    if c is not None:
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


def _code(c: Canvas | None, x: float, y: float, size: float, code: str) -> float:
    """Draw a code as its three digits, each after its ▲ ■ ● shape in that shape's colour (nothing when ``c`` is
    None); return the width used. The digits are set in the line's own type size, not inside the shapes, where
    they would be too small to read in print."""
    s = size * SHAPE
    digit = stringWidth("0", FONT_BOLD, size)
    step = s + 0.08 * size + digit + 0.28 * size
    if c is not None:
        c.saveState()
        for i, (number, colour) in enumerate(zip(code, (BLUE, YELLOW, PURPLE))):
            cx = x + i * step
            c.setFillColor(colour)
            if i == 0:
                p = c.beginPath()
                p.moveTo(cx, y)
                p.lineTo(cx + s, y)
                p.lineTo(cx + s / 2, y + s)
                p.close()
                c.drawPath(p, stroke=0, fill=1)
            elif i == 1:
                c.rect(cx + 0.06 * s, y + 0.06 * s, 0.88 * s, 0.88 * s, stroke=0, fill=1)
            else:
                c.circle(cx + s / 2, y + s / 2, s / 2, stroke=0, fill=1)
            c.setFillColor(black)
            c.setFont(FONT_BOLD, size)
            c.drawString(cx + s + 0.08 * size, y, number)
        c.restoreState()
    return 3 * step + 0.1 * size


def _text(c: Canvas | None, x: float, y: float, text: str, font: str, size: float, colour: Color = black) -> float:
    """Draw a string (nothing when ``c`` is None); return its width, measured with the font's metrics."""
    if c is not None:
        c.setFillColor(colour)
        c.setFont(font, size)
        c.drawString(x, y, text)
    return stringWidth(text, font, size)


def _line(c: Canvas | None, x: float, y: float, size: float, line: OutlineLine, note: str | None) -> float:
    """Draw one outline line from its indented start (or only measure it when ``c`` is None); return its right
    edge. A question reserves the room of ``WIDEST_NOTE`` whether or not it gets a note."""
    x += line.depth * INDENT * size
    if line.mark is not None:
        x += _mark(c, x, y, size, line.mark == "pass")
    node = line.node
    if "round" in node:
        x += _text(c, x, y, f"Round {node['round']}: propose ", FONT_BOLD, size)
        x += _code(c, x, y, size, node["proposal"])
        x += _text(c, x, y, f"({plural(node['codes'], 'code')} possible)", FONT, size * NOTE, GREY)
    elif "ask" in node:
        x += _text(c, x, y, f"ask {node['ask']}", FONT, size)
        small = size * NOTE
        x += stringWidth("  ", FONT, small)
        if note is not None:
            end = x + _mark(c, x, y, small, False)
            _text(c, end, y, note, FONT, small, GREY)
        x += _mark(None, x, y, small, False) + stringWidth(WIDEST_NOTE, FONT, small)
    else:
        x += _text(c, x, y, "code ", FONT_BOLD, size)
        x += _code(c, x, y, size, node["code"])
    return x


@dataclass(frozen=True)
class ChartPlan:
    """How the outline is set: type size (pt), rows per column, and where each column goes: its page, its place
    among that page's columns and its left edge (pt from the tree area's left), all counted from 0."""

    size: float
    rows: int
    columns: tuple[tuple[int, int, float], ...]

    @property
    def pages(self) -> int:
        """How many pages the outline takes."""
        return self.columns[-1][0] + 1

    def place(self, index: int) -> tuple[int, int, float, int]:
        """The page, column on that page, column's left edge and row of the outline's line ``index``."""
        chunk, row = divmod(index, self.rows)
        page, column, left = self.columns[chunk]
        return page, column, left, row


def _columns(widths: list[float], size: float, rows: int, width: float) -> tuple[tuple[int, int, float], ...]:
    """Columns of ``rows`` lines each, as wide as their widest line at ``size``, set side by side across each
    page's ``width`` and onto a new page when the next one would not fit."""
    out: list[tuple[int, int, float]] = []
    page, column, left = 0, 0, 0.0
    for start in range(0, len(widths), rows):
        wide = size * max(widths[start:start + rows])
        if column and left + wide > width:
            page, column, left = page + 1, 0, 0.0
        out.append((page, column, left))
        column, left = column + 1, left + wide + GUTTER
    return out


def plan_chart(widths: list[float], width: float, height: float) -> ChartPlan:
    """Set outline lines (``widths``: each line's width at 1 pt type) in a ``width`` × ``height`` pt area: the
    largest type up to ``MAX_FONT`` (in steps of 0.1 pt) that puts them all on one page; when that is under
    ``MIN_FONT``, ``MIN_FONT`` over as many pages as needed. Each column is as wide as its widest line, so
    deep and shallow parts of the tree share a page well. Type goes under ``MIN_FONT`` only when one line is
    wider than the page at that size (a tree many rounds deep)."""
    widths = widths or [0.0]
    for tenths in range(round(MAX_FONT * 10), round(MIN_FONT * 10) - 1, -1):
        size = tenths / 10
        rows = max(1, int(height // (size * LEADING)))
        if max(widths) * size <= width:
            columns = _columns(widths, size, rows, width)
            if columns[-1][0] == 0:
                return ChartPlan(size, rows, columns)
    size = min(MIN_FONT, width / max(max(widths), 1e-9))
    rows = max(1, int(height // (size * LEADING)))
    return ChartPlan(size, rows, _columns(widths, size, rows, width))


def _header(problem: Problem, objective: str, optimal: dict[str, dict[str, Any]] | None, width: float,
            tree: dict[str, Any] | None = None) -> list[str]:
    """The header's lines under the title (problem, objective, optima; the strategy's own worst game where it is
    longer than the best; what "at worst" means), wrapped to ``width`` pt."""
    text_fonts()  # measured with the font's metrics: registered first
    line = f"Objective: {'best on average' if objective == 'expected' else 'best in the worst case'}."
    if optimal:
        e, w = optimal["expected"], optimal["worst"]
        word = "Optimal" if e.get("exact", True) and w.get("exact", True) else "Best found (not proven optimal)"
        unknown = "not worked out within the limit"  # no strategy known in full when the search stopped
        mean = (f"{plural(e['rounds_fraction'], 'round')}, {plural(e['questions_fraction'], 'question')} on average"
                if e["rounds"] is not None else f"on average {unknown}")
        figures = f"{plural(w['rounds'], 'round')}, {plural(w['questions'], 'question')}"
        worst = (f"at worst {unknown}" if w["rounds"] is None else f"the best worst case {figures}"
                 if w.get("exact", True) else f"{figures} at worst")
        line += f"  {word}: {mean}; {worst}."
        longer = both_worsts(tree, objective, optimal)
        if longer:
            line += f"  {longer}"
        line += f"  {WORST_MEANS}"
    out: list[str] = []
    for text in (problem.describe(), line):
        fits = stringWidth(text, FONT, HEAD_SIZE) <= width
        out.extend([text] if fits else simpleSplit(text, FONT, HEAD_SIZE, width))
    return out


def render_chart(problem: Problem, tree: dict[str, Any], objective: str,
                 optimal: dict[str, dict[str, Any]] | None = None) -> bytes:
    """The strategy chart as PDF bytes: A4, every mark inside the margins; one page when the tree fits there in
    readable type, else as many as it needs (each with the header and its page number)."""
    text_fonts()
    width, height = A4
    inner = width - 2 * MARGIN
    head = _header(problem, objective, optimal, inner, tree)
    lines = outline(tree)
    top = height - MARGIN - TITLE_SIZE - 4 - len(head) * HEAD_SIZE * 1.25 - 8
    bottom = MARGIN + 2 * LEGEND_SIZE * 1.3 + 6
    plan = plan_chart([_line(None, 0.0, 0.0, 1.0, line, None) for line in lines], inner, top - bottom)
    step = plan.size * LEADING
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, pageCompression=1)
    c.setTitle("Turing Machine strategy chart")
    c.setAuthor("tmphys")
    indices: list[list[int]] = [[] for _ in range(plan.pages)]
    for index in range(len(lines)):
        indices[plan.place(index)[0]].append(index)
    noted = False
    for page in range(plan.pages):
        _text(c, MARGIN, height - MARGIN - 10, "Strategy chart", FONT_BOLD, TITLE_SIZE)
        if plan.pages > 1:
            number = f"page {page + 1} of {plan.pages}"
            _text(c, width - MARGIN - stringWidth(number, FONT, HEAD_SIZE), height - MARGIN - 10, number, FONT,
                  HEAD_SIZE)
        for i, text in enumerate(head):
            _text(c, MARGIN, height - MARGIN - 10 - TITLE_SIZE * 0.5 - (i + 1) * HEAD_SIZE * 1.25, text, FONT,
                  HEAD_SIZE)
        for index in indices[page]:
            line = lines[index]
            _, column, left, row = plan.place(index)
            note = None
            if line.fail is not None:
                fail_page, fail_column, _, _ = plan.place(line.fail)
                if (fail_page, fail_column) != (page, column):
                    note = (f"see p. {fail_page + 1}, col. {fail_column + 1}" if plan.pages > 1
                            else f"see col. {fail_column + 1}")
                    noted = True
            _line(c, MARGIN + left, top - (row + 1) * step + (step - plan.size),
                  plan.size, line, note)
        _legend(c, plan.pages > 1 or noted)
        c.showPage()
    c.save()
    return buf.getvalue()


def _legend(c: Canvas, notes: bool) -> None:
    """The foot of a page: what the marks mean, and (when questions carry them) what their notes mean."""
    y = MARGIN + LEGEND_SIZE * 1.3 + 3
    x = MARGIN + _mark(c, MARGIN, y, 8, True)
    x += _text(c, x, y, "the stack shows a pass mark; ", FONT, LEGEND_SIZE)
    x += _mark(c, x, y, 8, False)
    _text(c, x, y, "a fail mark.  Ask the verifiers in the order shown; stop when a code is reached.", FONT,
          LEGEND_SIZE)
    if notes:
        y -= LEGEND_SIZE * 1.3
        x = MARGIN + _text(c, MARGIN, y, "A question's note ", FONT, LEGEND_SIZE)
        x += _mark(c, x, y, LEGEND_SIZE, False)
        _text(c, x, y, "see p. …, col. … tells where its fail branch goes on.", FONT, LEGEND_SIZE)


def write_chart(path: Path, problem: Problem, tree: dict[str, Any] | None, objective: str,
                optimal: dict[str, dict[str, Any]] | None = None) -> None:
    """Write the strategy chart PDF atomically (temporary file, then rename)."""
    if tree is None:
        raise ValueError("no decision tree to chart")
    write_atomic(Path(path), render_chart(problem, tree, objective, optimal))
