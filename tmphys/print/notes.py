"""Note sheets: what a player writes during a game, two sheets to a page (``note-sheets.pdf``).

Each sheet has the problem's number, a line per round (the proposal ▲ ■ ● and a ✓/✗ box per verifier A–F, so the
questions are counted), a grid to cross off digits per colour, and a space per verifier for its deductions and its
criterion once found. Everything is drawn with the one drawing model (``draw``) and sized in ``params``.

>>> pdf = note_sheets_pdf(PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tmphys.art import params as P
from tmphys.art.draw import Box, Item, Shape, rounded_rect, text
from tmphys.game.codes import SHAPES
from tmphys.lang.i18n import N_, _
from tmphys.print.pdf import Page, pdf_bytes
from tmphys.print.sheets import ruler

#: The digits a code's colour can take.
DIGITS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class NoteSheet:
    """Where the parts of one note sheet are on its page (mm boxes), for drawing and for tests."""

    area: Box
    number: Box
    proposal: tuple[tuple[Box, ...], ...]      # per round: ▲ ■ ●
    answers: tuple[tuple[Box, ...], ...]       # per round: A–F
    digits: tuple[tuple[Box, ...], ...]        # per colour: 1–5
    verifiers: tuple[Box, ...]                 # A–F


def _box(b: Box, width: float = P.NOTE_LINE, colour: str = P.NOTE_INK, radius: float = 0.0) -> Shape:
    return Shape(rounded_rect(b.x, b.y, b.width, b.height, radius), stroke=colour, stroke_width=width, role="note-box")


def _rule(x0: float, y: float, x1: float) -> Shape:
    return Shape((("M", x0, y), ("L", x1, y)), stroke=P.NOTE_RULE_INK, stroke_width=P.NOTE_RULE, role="note-rule")


def sheet_layout(area: Box) -> NoteSheet:
    """The parts of a note sheet laid out in ``area`` (half a page): rounds and digit grid side by side on top,
    the six verifiers' spaces in two rows below, as tall as what is left."""
    x0, y0 = area.x, area.y
    number = Box(area.x + area.width - 45.0, y0, 45.0, P.NOTE_HEADER - 1.0)
    top = y0 + P.NOTE_HEADER + P.NOTE_GAP + P.NOTE_LABEL_SIZE
    cell, row = P.NOTE_CELL, P.NOTE_ROW
    first = x0 + P.NOTE_LABEL_SIZE * 3  # after the round's number
    proposal, answers = [], []
    for r in range(P.NOTE_ROUNDS):
        y = top + r * row + (row - cell) / 2
        proposal.append(tuple(Box(first + k * cell, y, cell, cell) for k in range(3)))
        left = first + 3 * cell + P.NOTE_GAP
        answers.append(tuple(Box(left + k * cell, y, cell, cell) for k in range(len(P.VERIFIER_LETTERS))))
    right = answers[0][-1].x + cell
    d = P.NOTE_DIGIT_CELL
    grid_x = area.x + area.width - len(DIGITS) * d
    grid_x = max(grid_x, right + P.NOTE_GAP * 2 + P.NOTE_LABEL_SIZE * 2)
    digits = tuple(tuple(Box(grid_x + k * d, top + c * d, d, d) for k in range(len(DIGITS))) for c in range(3))
    below = top + P.NOTE_ROUNDS * row + P.NOTE_GAP
    height = (area.y + area.height - below - P.NOTE_GAP) / 2
    width = (area.width - 2 * P.NOTE_GAP) / 3
    verifiers = tuple(Box(x0 + (k % 3) * (width + P.NOTE_GAP), below + (k // 3) * (height + P.NOTE_GAP), width,
                          height) for k in range(len(P.VERIFIER_LETTERS)))
    return NoteSheet(area, number, tuple(proposal), tuple(answers), digits, verifiers)


def sheet_items(sheet: NoteSheet) -> list[Item]:
    """The drawing of one note sheet."""
    a = sheet.area
    out: list[Item] = []
    n = sheet.number
    out += text(_("tmphys · note sheet"), a.x, a.y + P.NOTE_TITLE_SIZE, P.NOTE_TITLE_SIZE, weight="bold",
                room=(n.x - a.x) / 2, where="note sheet: title")
    out += text(_("problem"), n.x - 1.5, n.y + n.height / 2 + P.NOTE_LABEL_SIZE * P.CAP_HEIGHT / 2,
                P.NOTE_LABEL_SIZE, colour=P.NOTE_INK, anchor="end", room=(n.x - a.x) / 2 - 3.0,
                where="note sheet: problem")
    out.append(_box(n, radius=1.0))
    label_y = sheet.proposal[0][0].y - 1.2
    for k, symbol in enumerate(SHAPES.values()):
        b = sheet.proposal[0][k]
        out += text(symbol, b.x + b.width / 2, label_y, P.NOTE_LABEL_SIZE, anchor="middle")
    for k, letter in enumerate(P.VERIFIER_LETTERS):
        b = sheet.answers[0][k]
        out += text(letter, b.x + b.width / 2, label_y, P.NOTE_LABEL_SIZE, weight="bold", anchor="middle")
    right = sheet.answers[0][-1].x + P.NOTE_CELL
    out += text(_("✓ / ✗ for each question"), right, label_y - P.NOTE_LABEL_SIZE * 1.1, P.NOTE_SMALL_SIZE,
                colour=P.FOOTER_INK, anchor="end", room=right - sheet.proposal[0][0].x,
                where="note sheet: answers")
    for r, (proposal, answers) in enumerate(zip(sheet.proposal, sheet.answers)):
        b = proposal[0]
        out += text(str(r + 1), a.x, b.y + b.height / 2 + P.NOTE_LABEL_SIZE * P.CAP_HEIGHT / 2, P.NOTE_LABEL_SIZE,
                    colour=P.FOOTER_INK)
        out += [_box(c) for c in (*proposal, *answers)]
    first = sheet.digits[0][0]
    out += text(_("cross off"), first.x, first.y - 1.2, P.NOTE_SMALL_SIZE, colour=P.FOOTER_INK,
                room=a.x + a.width - first.x, where="note sheet: digits")
    for symbol, row in zip(SHAPES.values(), sheet.digits):
        out += text(symbol, row[0].x - 1.5, row[0].y + row[0].height / 2 + P.NOTE_LABEL_SIZE * P.CAP_HEIGHT / 2,
                    P.NOTE_LABEL_SIZE, anchor="end")
        for digit, c in zip(DIGITS, row):
            out.append(_box(c))
            out += text(str(digit), c.x + c.width / 2, c.y + c.height / 2 + P.NOTE_LABEL_SIZE * P.CAP_HEIGHT / 2,
                        P.NOTE_LABEL_SIZE, colour=P.NOTE_RULE_INK, anchor="middle")
    for letter, v in zip(P.VERIFIER_LETTERS, sheet.verifiers):
        out.append(_box(v, radius=1.5))
        out += text(letter, v.x + 2.0, v.y + 2.0 + P.NOTE_TITLE_SIZE * P.CAP_HEIGHT, P.NOTE_TITLE_SIZE, weight="bold")
        out += text(_("criterion:"), v.x + 2.0, v.y + v.height - 2.0, P.NOTE_SMALL_SIZE, colour=P.FOOTER_INK,
                    room=v.width - 4.0, where="note sheet: verifier")
        y = v.y + P.NOTE_HEADER
        while y < v.y + v.height - P.NOTE_VERIFIER_LINE:
            out.append(_rule(v.x + 2.0, y, v.x + v.width - 2.0))
            y += P.NOTE_VERIFIER_LINE
    return out


#: The note sheets' words, each in one place.
SHEET_NOTE = N_("tmphys · note sheets · two to a sheet: cut on the dashed line · one each a game")


def cut_line(paper: P.Paper) -> float:
    """Where the page is cut in two (mm from its top): halfway down what the ruler strip at its foot leaves."""
    return (paper.height - P.RULER_AREA) / 2


def halves(paper: P.Paper) -> list[Box]:
    """The two sheets' areas on a page: its top and bottom halves inside the printable margin, above the ruler
    strip, a cut line apart; the same size."""
    m = P.PRINTABLE_MARGIN
    half = cut_line(paper)
    height = half - m - P.NOTE_CUT_GAP
    return [Box(m, m, paper.width - 2 * m, height),
            Box(m, half + P.NOTE_CUT_GAP, paper.width - 2 * m, height)]


def note_page(paper: P.Paper) -> tuple[Page, list[NoteSheet]]:
    """One page of two note sheets with a cut line between them."""
    sheets = [sheet_layout(area) for area in halves(paper)]
    items: list[Item] = [it for s in sheets for it in sheet_items(s)]
    half = cut_line(paper)
    dash = []
    x = P.PRINTABLE_MARGIN
    while x < paper.width - P.PRINTABLE_MARGIN:
        dash += [("M", x, half), ("L", min(x + 3.0, paper.width - P.PRINTABLE_MARGIN), half)]
        x += 5.0
    items.append(Shape(tuple(dash), stroke=P.CUT_GUIDE_COLOUR, stroke_width=P.CUT_GUIDE_WIDTH, role="note-cut"))
    items += ruler(paper, _(SHEET_NOTE))
    return Page(paper.width, paper.height, tuple((it, 0.0, 0.0) for it in items)), sheets


def note_sheets_pdf(paper: P.Paper) -> bytes:
    """``note-sheets.pdf``: one page, two note sheets (print as many pages as games to play)."""
    page, _sheets = note_page(paper)
    return pdf_bytes([page], "tmphys: note sheets")
