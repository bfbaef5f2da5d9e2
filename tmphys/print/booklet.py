"""The problem booklet's PDF: rated problems, easiest first, and their answers upside down on a sheet of their own.

Unlike the card sheets (letters drawn as paths, so no file depends on a font), the booklet is text to read and copy:
it is set in the cards' font (Bitstream Vera Sans, shipped in reportlab), embedded as a subset, so a problem's line
can be copied into ``tmphys solve``. The symbols ▲ ■ ●, which the font lacks, are drawn; so are the answers (the
font's outlines), so that a viewer's search for "Problem 3" never lands on the answer. ``invariant`` output: the same
problems give the same bytes.

>>> pdf = booklet_pdf(problems, "Classic, 4 verifiers, easy", PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from tmphys.art import params as P
from tmphys.game.codes import SHAPES
from tmphys.lang.fit import Misfit, report
from tmphys.lang.glyphs import TEXT_FONT, TEXT_FONT_BOLD, key_glyph, language_fonts, set_text, shaped, text_width
from tmphys.lang.i18n import DEFAULT, N_, _, current, ngettext

#: The booklet's font names (``text_fonts`` registers them with reportlab).
REGULAR, BOLD = TEXT_FONT, TEXT_FONT_BOLD


@dataclass(frozen=True)
class BookletProblem:
    """One problem as the booklet prints it."""

    number: int
    mode: str
    line: str                                   # what tmphys solve / play / prove read back
    answer: str                                 # the code, ▲■● digits
    criteria_cards: tuple[tuple[int, ...], ...]  # per verifier (Nightmare: the cards, in no verifier's order)
    verification_cards: tuple[str, ...]          # per verifier, as printed: "651"
    colour: str
    rating: dict[str, Any]                       # rounds, questions, exact, (lower_bound)


def rating_text(rating: dict[str, Any], steps: int | None) -> str:
    """The rating in words: exact, a bound, or not found within the budget (with the proven floor where known)."""
    if rating.get("rounds") is None:
        low = rating.get("lower_bound") or {}
        within = _("within {steps} steps").format(steps=f"{steps:,}") if steps else _("in time")
        if low.get("rounds") is None:
            return _("not rated {within}").format(within=within)
        return _("at least {rounds} rounds, {questions} questions on average (not rated {within})").format(
            rounds=f"{low['rounds']:.2f}", questions=f"{low['questions']:.2f}", within=within)
    figures = _("{rounds} rounds, {questions} questions on average").format(
        rounds=f"{rating['rounds']:.2f}", questions=f"{rating['questions']:.2f}")
    if rating["exact"]:
        return _("{figures} (optimal)").format(figures=figures)
    low = rating.get("lower_bound") or {}
    floor = (_("; at least {rounds}, {questions}").format(rounds=f"{low['rounds']:.2f}",
                                                          questions=f"{low['questions']:.2f}")
             if low.get("rounds") is not None else "")
    return _("at most {figures} (a bound{floor})").format(figures=figures, floor=floor)


def booklet_heading(mode: str, verifiers: int, difficulty: str, seed: int, count: int) -> str:
    """What the booklet's first page says it holds, in the table's language."""
    return _("{mode}, {verifiers} verifiers, {difficulty}, seed {seed}, {problems}").format(
        mode=_(mode).capitalize(), verifiers=verifiers, difficulty=_(difficulty), seed=seed,
        problems=ngettext("{n} problem", "{n} problems", count).format(n=count))


class _Writer:
    """A reportlab canvas in mm from the page's top-left, y down for placing, text upright."""

    def __init__(self, paper: P.Paper, title: str) -> None:
        self.regular, self.bold = language_fonts()
        self.shaping = shaped()
        self.buf = io.BytesIO()
        self.paper = paper
        self.c = Canvas(self.buf, pagesize=(paper.width * P.PT_PER_MM, paper.height * P.PT_PER_MM), invariant=1,
                        pageCompression=1)
        self.c.setTitle(title)
        self.c.setAuthor("tmphys")
        self.c.setCreator("tmphys")

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return x * P.PT_PER_MM, (self.paper.height - y) * P.PT_PER_MM

    def text(self, s: str, x: float, y: float, pt: float, bold: bool = False, colour: str = P.INK,
             anchor: str = "start", upside_down: bool = False) -> float:
        """Set ``s`` with its baseline at ``y`` (mm); its width in mm."""
        font = self.bold if bold else self.regular
        width = self.width(s, pt, bold)
        c = self.c
        c.saveState()
        c.setFillColor(colour)
        c.setFont(font, pt)
        px, py = self._xy(x, y)
        if upside_down:
            c.translate(px, py)
            c.rotate(180)
            c.drawString(-width * P.PT_PER_MM if anchor == "end" else 0.0, 0.0, s, shaping=self.shaping)
        else:
            shift = {"start": 0.0, "middle": width / 2, "end": width}[anchor] * P.PT_PER_MM
            c.drawString(px - shift, py, s, shaping=self.shaping)
        c.restoreState()
        return width

    def width(self, s: str, pt: float, bold: bool = False) -> float:
        """The width of ``s`` at ``pt`` points, in mm (a shaped script's as HarfBuzz sets it)."""
        if self.shaping:
            return text_width(s, pt / P.PT_PER_MM, "bold" if bold else "regular")
        return pdfmetrics.stringWidth(s, self.bold if bold else self.regular, pt) / P.PT_PER_MM

    def fitted(self, s: str, pt: float, room: float, where: str, bold: bool = False) -> float:
        """The largest size up to ``pt`` at which ``s`` fits ``room`` mm, not below ``MIN_TEXT_SIZE`` (a misfit is
        reported)."""
        width = self.width(s, pt, bold)
        if width <= room:
            return pt
        least = P.MIN_TEXT_SIZE * P.PT_PER_MM
        fitted = max(least, pt * room / width)
        if self.width(s, fitted, bold) > room + 1e-6:
            report(Misfit(f"booklet: {where}", s, self.width(s, fitted, bold), room, fitted / P.PT_PER_MM))
        return fitted

    def paragraph(self, s: str, x: float, y: float, pt: float, room: float, colour: str = P.INK) -> tuple[float, float]:
        """``s`` wrapped to ``room`` mm from (x, first baseline y): the last baseline and the last line's width."""
        from tmphys.lang.glyphs import wrap

        lines = _wrap_rl(s, self.regular, pt, room) if current() == DEFAULT else wrap(s, pt / P.PT_PER_MM, room)
        width = 0.0
        for k, line in enumerate(lines):
            if k:
                y += _pt(pt)
            width = self.text(line, x, y, self.fitted(line, pt, room, "a paragraph"), colour=colour)
        return y, width

    def shape(self, colour: str, x: float, y: float, size: float) -> None:
        """A code shape (▲ ■ ●) in its ink, ``size`` mm high, its bottom-left at (x, baseline y)."""
        c = self.c
        c.saveState()
        c.setFillColor(P.CODE_INK[colour])
        px, py = self._xy(x, y)
        s = size * P.PT_PER_MM
        if colour == "blue":
            path = c.beginPath()
            path.moveTo(px, py)
            path.lineTo(px + s, py)
            path.lineTo(px + s / 2, py + s)
            path.close()
            c.drawPath(path, stroke=0, fill=1)
        elif colour == "yellow":
            c.rect(px + s * 0.08, py, s * 0.84, s * 0.84, stroke=0, fill=1)
        else:
            c.circle(px + s / 2, py + s * 0.45, s * 0.45, stroke=0, fill=1)
        c.restoreState()

    def outlined(self, s: str, x: float, y: float, pt: float, upside_down: bool = False) -> None:
        """``s`` drawn as the font's outlines, not text: a viewer's search never finds it (the answers). Upside
        down, it runs right to left from ``x``, read with the page turned."""
        c = self.c
        c.saveState()
        c.setFillColor(P.INK)
        c.translate(*self._xy(x, y))
        if upside_down:
            c.rotate(180)
        path = c.beginPath()
        for key, _ch, at, rise in set_text(s, 0.0, pt):
            g = key_glyph(key)
            for cmd in g.path:
                pts = [(at + cmd[k] * pt, rise + cmd[k + 1] * pt) for k in range(1, len(cmd), 2)]
                if cmd[0] == "M":
                    path.moveTo(*pts[0])
                elif cmd[0] == "L":
                    path.lineTo(*pts[0])
                elif cmd[0] == "C":
                    path.curveTo(*pts[0], *pts[1], *pts[2])
                else:
                    path.close()
        c.drawPath(path, stroke=0, fill=1, fillMode=1)
        c.restoreState()

    def ruler(self, note: str) -> None:
        """A 100 mm scale ruler in the page's foot margin, ``note`` beside it (measured to fit, else shrunk)."""
        c = self.c
        x0 = P.BOOK_MARGIN
        base = self.paper.height - P.BOOK_MARGIN + P.RULER_TICK_LONG + 0.5
        c.saveState()
        c.setStrokeColor(P.CROP_COLOUR)
        c.setLineWidth(P.RULER_STROKE * P.PT_PER_MM)
        steps = round(P.RULER_LENGTH / P.RULER_MINOR_TICK)
        for k in range(steps + 1):
            length = (P.RULER_TICK_LONG if k % 10 == 0 else P.RULER_TICK_MEDIUM if k % 5 == 0
                      else P.RULER_TICK_SHORT)
            x = x0 + k * P.RULER_MINOR_TICK
            c.line(*self._xy(x, base), *self._xy(x, base - length))
        c.line(*self._xy(x0, base), *self._xy(x0 + P.RULER_LENGTH, base))
        c.restoreState()
        label = P.RULER_LABEL_SIZE * P.PT_PER_MM  # the figures' size, as on the sheets (in points)
        for k in range(0, steps + 1, 10):
            self.text(str(k), x0 + k * P.RULER_MINOR_TICK, base + P.RULER_LABEL_SIZE * 1.2, label, anchor="middle",
                      colour=P.INK)
        right = self.paper.width - P.BOOK_MARGIN
        room = right - (x0 + P.RULER_LENGTH + P.REG_GAP)
        for k, (words, colour) in enumerate(((_(RULER_NOTE), P.INK), (note, P.FOOTER_INK))):
            pt = self.fitted(words, P.BOOK_SMALL_PT, room, "a page's foot")
            self.text(words, right, base - P.RULER_TICK_LONG + 2.6 + k * 3.4, pt, colour=colour, anchor="end")

    def rule(self, x0: float, y: float, x1: float) -> None:
        c = self.c
        c.saveState()
        c.setStrokeColor(P.BOOK_RULE_INK)
        c.setLineWidth(0.5)
        c.line(*self._xy(x0, y), *self._xy(x1, y))
        c.restoreState()

    def page(self) -> None:
        self.c.showPage()

    def bytes(self) -> bytes:
        self.c.save()
        return self.buf.getvalue()


def _pt(pt: float) -> float:
    """A text size's line height in mm."""
    return pt / P.PT_PER_MM * P.BOOK_LINE


def _block_height(p: BookletProblem) -> float:
    rows = 3 if p.mode != "nightmare" else 3
    return _pt(P.BOOK_HEAD_PT) + _pt(P.BOOK_SMALL_PT) + rows * _pt(P.BOOK_TEXT_PT) + _pt(P.BOOK_SMALL_PT) \
        + P.BOOK_PROBLEM_GAP


def _problem(w: _Writer, p: BookletProblem, y: float, steps: int | None) -> float:
    """Draw one problem from ``y`` (its top); the height it took."""
    x0 = P.BOOK_MARGIN
    top = y
    y += _pt(P.BOOK_HEAD_PT)
    room = w.paper.width - 2 * P.BOOK_MARGIN
    width = w.text(_("Problem {number}").format(number=p.number), x0, y, P.BOOK_HEAD_PT, bold=True)
    kind = "   " + ngettext("{mode} · {n} verifier", "{mode} · {n} verifiers", len(p.verification_cards)).format(
        mode=_(p.mode).capitalize(), n=len(p.verification_cards))
    w.text(kind, x0 + width, y, w.fitted(kind, P.BOOK_TEXT_PT, room - width, "a problem"), colour=P.FOOTER_INK)
    y += _pt(P.BOOK_SMALL_PT)
    rating = _("Rating: {rating}").format(rating=rating_text(p.rating, steps))
    w.text(rating, x0, y, w.fitted(rating, P.BOOK_SMALL_PT, room, "a problem's rating"), colour=P.FOOTER_INK)
    letters = P.VERIFIER_LETTERS[:len(p.verification_cards)]
    col = P.BOOK_COLUMN
    left = x0 + P.BOOK_LABEL_COLUMN
    label_room = P.BOOK_LABEL_COLUMN - 2.0

    def label(words: str, y: float) -> None:
        w.text(words, x0, y, w.fitted(words, P.BOOK_TEXT_PT, label_room, "a row's label"), colour=P.FOOTER_INK)

    y += _pt(P.BOOK_TEXT_PT)
    label(_("verifier"), y)
    for k, letter in enumerate(letters):
        w.text(letter, left + k * col, y, P.BOOK_TEXT_PT, bold=True)
    w.rule(x0, y + 1.2, left + len(letters) * col)
    y += _pt(P.BOOK_TEXT_PT)
    if p.mode == "nightmare":
        label(_("criteria cards"), y)
        cards = ", ".join(str(c[0]) for c in p.criteria_cards)
        line = _("{cards}  (which verifier has which is part of the puzzle)").format(cards=cards)
        w.text(line, left, y, w.fitted(line, P.BOOK_TEXT_PT, room - P.BOOK_LABEL_COLUMN, "a nightmare's cards"))
    else:
        label(_("criteria cards") if p.mode == "extreme" else _("criteria card"), y)
        for k, cs in enumerate(p.criteria_cards):
            w.text(" + ".join(map(str, cs)), left + k * col, y, P.BOOK_TEXT_PT)
    y += _pt(P.BOOK_TEXT_PT)
    label(_("verification card ({colour})").format(colour=_(p.colour)), y)
    for k, card in enumerate(p.verification_cards):
        w.text(card, left + k * col, y, P.BOOK_TEXT_PT, bold=True, colour=P.ID_INK[p.colour])
    y += _pt(P.BOOK_SMALL_PT)
    w.text(f"tmphys play {p.line}", x0, y, P.BOOK_SMALL_PT, colour=P.FOOTER_INK)
    return y - top + P.BOOK_PROBLEM_GAP


#: The booklet's words, each in one place (English msgids, translated where they are set).
RULER_NOTE = N_("Print at 100 % (actual size): this ruler must measure 100 mm.")
FOOTER = N_("tmphys problem booklet · page {page} of {pages} · sheet {sheet} of {sheets}, printed on both sides")
BLANK = N_("This page is blank: the answers start on a sheet of their own.")
ANSWER = N_("Problem {number}: {answer}")
INTRO = N_("Lay out each problem's criteria cards at its verifiers, and beside them the verification cards listed (by "
           "the ID printed on their back, in the colour given). The rating is the optimal strategy's rounds and "
           "questions on average over every game the criteria cards allow: the machine to beat. Problems go from the "
           "easiest to the hardest. Each problem's line plays it on screen: tmphys play, solve or prove. The answers "
           "are at the end, upside down. Code shapes:")
ANSWERS_NOTE = N_("Upside down, so that a glance does not give the next one away: turn the page to read one. Each "
                  "code is blue, yellow, purple in order.")


def answer_lines(problems: list[BookletProblem]) -> list[str]:
    """What the answers section draws for each problem, in order (as outlines: no viewer's search finds them)."""
    return [_(ANSWER).format(number=p.number, answer=p.answer) for p in problems]


def _wrap_rl(s: str, font: str, pt: float, room: float) -> list[str]:
    """``s`` broken at spaces into lines no wider than ``room`` mm, measured as reportlab sets ``font``."""
    lines: list[str] = []
    line = ""
    for word in s.split():
        candidate = f"{line} {word}" if line else word
        if line and pdfmetrics.stringWidth(candidate, font, pt) / P.PT_PER_MM > room:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + ([line] if line else [])


def booklet_pdf(problems: list[BookletProblem], heading: str, paper: P.Paper, steps: int | None = None) -> bytes:
    """The booklet: an introduction, the problems in the given order, then their answers upside down on a sheet of
    their own (a blank page first when the problems end on a sheet's front), a ruler on every page."""
    pages = _booklet(problems, heading, paper, steps, None)[1]
    return _booklet(problems, heading, paper, steps, pages)[0]


def _booklet(problems: list[BookletProblem], heading: str, paper: P.Paper, steps: int | None,
             total: int | None) -> tuple[bytes, int]:
    """The booklet's bytes and page count; ``total``, the page count its footers give (None: the first pass)."""
    w = _Writer(paper, f"tmphys problem booklet: {heading}")
    bottom = paper.height - P.BOOK_MARGIN - _pt(P.BOOK_SMALL_PT)
    page = [1]
    pages = total or 0

    def footer() -> None:
        w.ruler(_(FOOTER).format(page=page[0], pages=pages, sheet=(page[0] + 1) // 2, sheets=(pages + 1) // 2))

    def new_page() -> float:
        footer()
        w.page()
        page[0] += 1
        return P.BOOK_MARGIN
    x0, y = P.BOOK_MARGIN, P.BOOK_MARGIN + _pt(P.BOOK_TITLE_PT)
    room = paper.width - 2 * P.BOOK_MARGIN
    title = _("tmphys problem booklet")
    w.text(title, x0, y, w.fitted(title, P.BOOK_TITLE_PT, room, "the title", bold=True), bold=True)
    y += _pt(P.BOOK_HEAD_PT)
    w.text(heading, x0, y, w.fitted(heading, P.BOOK_HEAD_PT, room, "the heading"), colour=P.FOOTER_INK)
    y, width = w.paragraph(_(INTRO), x0, y + _pt(P.BOOK_TEXT_PT), P.BOOK_TEXT_PT, room)
    size = P.BOOK_TEXT_PT / P.PT_PER_MM * P.CAP_HEIGHT
    shapes = sum(w.width(f" {_(colour)}  ", P.BOOK_TEXT_PT) + size for colour in SHAPES)
    if width + w.width(" ", P.BOOK_TEXT_PT) + shapes > room:  # the shapes on a line of their own
        y += _pt(P.BOOK_TEXT_PT)
        width = 0.0
    x = x0 + width + (w.width(" ", P.BOOK_TEXT_PT) if width else 0.0)
    for colour in SHAPES:
        w.shape(colour, x, y, size)
        x += w.text(f" {_(colour)}  ", x + size, y, P.BOOK_TEXT_PT) + size
    y += P.BOOK_PROBLEM_GAP * 1.5
    for p in problems:
        if y + _block_height(p) > bottom:
            y = new_page()
        y += _problem(w, p, y, steps)
    y = new_page()
    if page[0] % 2 == 0:  # the back of a problem's sheet: left blank, so the answers start on a sheet of their own
        w.paragraph(_(BLANK), x0, y + _pt(P.BOOK_TEXT_PT), P.BOOK_TEXT_PT, room, colour=P.FOOTER_INK)
        y = new_page()
    y += _pt(P.BOOK_TITLE_PT)
    w.text(_("Answers"), x0, y, P.BOOK_TITLE_PT, bold=True)
    y, _width = w.paragraph(_(ANSWERS_NOTE), x0, y + _pt(P.BOOK_TEXT_PT), P.BOOK_SMALL_PT, room,
                            colour=P.FOOTER_INK)
    y += P.BOOK_PROBLEM_GAP
    column = (paper.width - 2 * P.BOOK_MARGIN) / P.BOOK_ANSWER_COLUMNS
    for k, line in enumerate(answer_lines(problems)):
        if k and k % P.BOOK_ANSWER_COLUMNS == 0:
            y += P.BOOK_ANSWER_ROW
        if y + P.BOOK_ANSWER_ROW > bottom:
            y = new_page()
        x = x0 + (k % P.BOOK_ANSWER_COLUMNS) * column
        # upside down: the text runs right to left from the column's right end, read with the page turned
        w.outlined(line, x + column - 4.0, y, P.BOOK_HEAD_PT, upside_down=True)
    footer()
    return w.bytes(), page[0]
