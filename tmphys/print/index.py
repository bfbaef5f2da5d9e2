"""The index of a build's cards (``index.pdf``): where each card is printed, by sheet and place, so that a card is
found by any of its printed IDs, and a game's cards by its problem.

A place is counted on a sheet's front: row and column from its top left. The sheet is the number its footer gives
(a front and its back are one sheet). Every string is measured with the font and set in the box it has.

>>> pdf = index_pdf(layout, PAPERS["a4"], cards.verification_sheets, cards.criteria_sheets, selection)  # doctest: +SKIP
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tmphys.art import params as P
from tmphys.art.draw import Item, text
from tmphys.cards.layout import Layout
from tmphys.game.criteria import ID_COLOURS
from tmphys.lang.fit import fit_size
from tmphys.lang.glyphs import text_width, wrap
from tmphys.lang.i18n import N_, _, ngettext
from tmphys.print.pdf import Page, pdf_bytes
from tmphys.print.selection import Selection
from tmphys.print.sheets import Sheet

# The index's words, each in one place.
TITLE = N_("tmphys {layout} · where each card is printed")
INTRO_FULL = N_("Every verification card by each of its four printed IDs, in number order, then every criteria card: "
                "the sheet it is printed on (the number in the sheet's footer) and its place on the sheet's front, row "
                "and column from the top left. A verification card's front carries its IDs along its top edge, its "
                "back in large.")
INTRO_GAME = N_("The cards of {problems}: each problem's cards first, then every ID of these cards in number order. "
                "A card's place: the sheet it is printed on (the number in the sheet's footer), then row and column "
                "on the sheet's front from the top left. Punch cards are found by their tabs.")
VERIFICATION_HEAD = N_("Verification cards")
VERIFICATION_FILE = N_("in verification-cards.pdf")
CRITERIA_HEAD = N_("Criteria cards")
CRITERIA_FILE = N_("in criteria-cards.pdf")
CRITERIA_LABEL = N_("card {number}")
SPOT = N_("sheet {sheet} · row {row}, column {column}")
PROBLEM_HEAD = N_("Problem {number}")
VERIFIER_LINE = N_("{letter}: criteria card {cards} at {criteria_spot}; verification card {card} at {card_spot}")
NIGHTMARE_CRITERIA = N_("criteria cards (pairing unknown): {cards}")
NIGHTMARE_CARD = N_("{letter}: verification card {card} at {card_spot}")
SPOT_SHORT = N_("sheet {sheet}, row {row}, col. {column}")
FOOTER = N_("tmphys {layout} · index · sheet {page} of {pages}")


def problem_head(title: str) -> str:
    """A problem's title (``Problem 3 · #A46 NXF``, as the command line names it) in the table's language."""
    return re.sub(r"^Problem (\d+)", lambda m: _(PROBLEM_HEAD).format(number=m.group(1)), title)


def problem_count(count: int) -> str:
    """``1 problem`` or ``N problems``, as the game index's introduction names them."""
    return ngettext("{n} problem", "{n} problems", count).format(n=count)


@dataclass(frozen=True)
class Spot:
    """Where one card is printed: the sheet (1.., as its footer counts) and its row and column on the front."""

    sheet: int
    row: int
    column: int

    def words(self, short: bool = False) -> str:
        """The place in words: ``sheet 3 · row 2, column 1``."""
        return _(SPOT_SHORT if short else SPOT).format(sheet=self.sheet, row=self.row, column=self.column)


def spots(printed: list[Sheet]) -> list[Spot]:
    """The place of every card on the fronts of ``printed`` (a kind's pages, backs among them), in printed order."""
    out = []
    fronts = [s for s in printed if not s.back]
    for number, sheet in enumerate(fronts, start=1):
        xs = sorted({round(slot.x, 3) for slot in sheet.slots})
        ys = sorted({round(slot.y, 3) for slot in sheet.slots})
        out += [Spot(number, ys.index(round(slot.y, 3)) + 1, xs.index(round(slot.x, 3)) + 1) for slot in sheet.slots]
    return out


class _Flow:
    """Lines of text flowing down the columns of pages, a new page when the last column is full."""

    def __init__(self, paper: P.Paper) -> None:
        self.paper = paper
        self.left, self.top = P.PRINTABLE_MARGIN + P.INDEX_MARGIN, P.PRINTABLE_MARGIN + P.INDEX_MARGIN
        self.width = paper.width - 2 * self.left
        self.bottom = paper.height - P.PRINTABLE_MARGIN - P.INDEX_MARGIN - P.INDEX_FOOTER
        self.pages: list[list[Item]] = [[]]
        self.y = self.column_top = self.top
        self.columns, self.column, self.column_width = 1, 0, self.width

    def room(self, height: float) -> None:
        """Move to the next column (or page) unless ``height`` mm more fit in this one."""
        if self.y + height <= self.bottom:
            return
        self.column += 1
        if self.column >= self.columns:
            self.pages.append([])
            self.column, self.column_top = 0, self.top
        self.y = self.column_top

    def set_columns(self, width: float) -> None:
        """Lay what follows in as many columns of ``width`` mm as fit across the page, from the current line down
        (call it in the first column)."""
        self.columns = max(1, int((self.width + P.INDEX_COLUMN_GAP) // (width + P.INDEX_COLUMN_GAP)))
        self.column_width = (self.width - (self.columns - 1) * P.INDEX_COLUMN_GAP) / self.columns
        self.column, self.column_top = 0, self.y

    @property
    def x(self) -> float:
        return self.left + self.column * (self.column_width + P.INDEX_COLUMN_GAP)

    def line(self, parts: list[tuple[str, str, str]], size: float) -> None:
        """One line of (words, colour, weight) parts side by side, shrunk to the column's width if it must."""
        widths = [text_width(s, 1.0, weight) for s, _colour, weight in parts]
        if sum(widths) * size > self.column_width:
            size = fit_size("".join(s for s, _colour, _weight in parts), size, self.column_width,
                            where="index: a line")
        step = size * P.INDEX_LINE
        self.room(step)
        self.y += step
        x = self.x
        for (s, colour, weight), w in zip(parts, widths):
            self.pages[-1].extend(text(s, x, self.y, size, colour=colour, weight=weight, shape_colours=False))
            x += w * size

    def paragraph(self, s: str, size: float, colour: str = P.INK) -> None:
        for line in wrap(s, size, self.column_width):
            self.line([(line, colour, "regular")], size)
        self.y += size * (P.INDEX_LINE - 1)

    def gap(self, mm: float) -> None:
        self.y += mm


def _id_entries(selection: Selection, places: list[Spot]) -> list[tuple[int, list[tuple[str, str, str]]]]:
    """Every printed ID of the selection's verification cards with its card's place, in number order."""
    by_index = {v.index: spot for v, spot in zip(selection.verification, places)}
    out = []
    for v in selection.verification:
        for colour in ID_COLOURS:
            out.append((v.ids[colour], [(v.label(colour), P.ID_INK[colour], "bold"),
                                        ("  " + by_index[v.index].words(short=True), P.INK, "regular")]))
    return sorted(out, key=lambda e: e[0])


def index_pages(layout: Layout, paper: P.Paper, verification_sheets: list[Sheet], criteria_sheets: list[Sheet],
                selection: Selection) -> list[Page]:
    """The index's pages: the problems' cards (a game's set), every ID and every criteria card to its place."""
    cards_at = dict(zip((v.index for v in selection.verification), spots(verification_sheets)))
    criteria_at = dict(zip((c.number for c in selection.criteria), spots(criteria_sheets)))
    flow = _Flow(paper)
    for line in wrap(_(TITLE).format(layout=layout.name), P.INDEX_TITLE_SIZE, flow.width, "bold"):
        flow.line([(line, P.INK, "bold")], P.INDEX_TITLE_SIZE)
    flow.gap(P.INDEX_GAP)
    if selection.problems:
        flow.paragraph(_(INTRO_GAME).format(problems=problem_count(len(selection.problems))), P.INDEX_TEXT_SIZE)
        for title, p in zip(selection.titles, selection.problems):
            flow.gap(P.INDEX_GAP / 2)
            flow.line([(problem_head(title), P.INK, "bold")], P.INDEX_HEAD_SIZE)
            flow.paragraph(p.describe(), P.INDEX_TEXT_SIZE, P.FOOTER_INK)
            if p.mode == "nightmare":
                cards = ", ".join(f"{n} ({criteria_at[n].words(short=True)})" for (n,) in p.cards)
                flow.paragraph(_(NIGHTMARE_CRITERIA).format(cards=cards), P.INDEX_TEXT_SIZE)
            for letter, numbers, card in zip(p.verifiers, p.cards, p.dealt or ()):
                if p.mode == "nightmare":
                    line = _(NIGHTMARE_CARD).format(letter=letter, card=card.label(p.colour),
                                                 card_spot=cards_at[card.index].words(short=True))
                else:
                    line = _(VERIFIER_LINE).format(
                        letter=letter, cards=" + ".join(map(str, numbers)),
                        criteria_spot="; ".join(criteria_at[n].words(short=True) for n in numbers),
                        card=card.label(p.colour), card_spot=cards_at[card.index].words(short=True))
                flow.paragraph(line, P.INDEX_TEXT_SIZE)
    else:
        flow.paragraph(_(INTRO_FULL), P.INDEX_TEXT_SIZE)
    entries = [parts for _number, parts in _id_entries(selection, [cards_at[v.index] for v in selection.verification])]
    criteria = [[(_(CRITERIA_LABEL).format(number=c.number), P.INK, "bold"),
                 ("  " + criteria_at[c.number].words(short=True), P.INK, "regular")]
                for c in sorted(selection.criteria, key=lambda c: c.number)]
    flow.gap(P.INDEX_GAP)
    flow.set_columns(max(sum(text_width(s, P.INDEX_TEXT_SIZE, w) for s, _colour, w in parts)
                         for parts in entries + criteria))
    for head, where, lines in ((VERIFICATION_HEAD, VERIFICATION_FILE, entries), (CRITERIA_HEAD, CRITERIA_FILE,
                                                                                 criteria)):
        flow.room(P.INDEX_HEAD_SIZE * P.INDEX_LINE * 4)  # a heading never ends a column
        flow.line([(_(head), P.INK, "bold")], P.INDEX_HEAD_SIZE)
        flow.line([(_(where), P.FOOTER_INK, "regular")], P.INDEX_TEXT_SIZE)
        for parts in lines:
            flow.line(parts, P.INDEX_TEXT_SIZE)
        flow.gap(P.INDEX_GAP)
    pages = []
    for k, items in enumerate(flow.pages, start=1):
        footer = _(FOOTER).format(layout=layout.name, page=k, pages=len(flow.pages))
        items = items + text(footer, paper.width / 2, paper.height - P.PRINTABLE_MARGIN - P.INDEX_FOOTER / 3,
                             P.NOTE_SMALL_SIZE, colour=P.FOOTER_INK, anchor="middle", shape_colours=False,
                             room=paper.width - 2 * P.PRINTABLE_MARGIN, where="index: footer")
        pages.append(Page(paper.width, paper.height, tuple((it, 0.0, 0.0) for it in items)))
    return pages


def index_pdf(layout: Layout, paper: P.Paper, verification_sheets: list[Sheet], criteria_sheets: list[Sheet],
              selection: Selection) -> bytes:
    """``index.pdf``: where each card of the build is printed (see ``index_pages``)."""
    return pdf_bytes(index_pages(layout, paper, verification_sheets, criteria_sheets, selection),
                     f"tmphys {layout.name}: index of the cards")
