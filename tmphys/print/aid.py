"""The player aid (``player-aid.pdf``): one landscape sheet, folded in three along its printed fold lines, that
stands as a screen and says how a round goes, how a stack reads, what Extreme and Nightmare change, and the
criteria cards' families at a glance (read from the criteria library).

>>> pdf = player_aid_pdf(PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tmphys.art import params as P
from tmphys.art.draw import Box, Item, Shape, mark_cells, text
from tmphys.game.criteria import library
from tmphys.lang.fit import Misfit, check_lines, report
from tmphys.lang.glyphs import wrap
from tmphys.lang.i18n import N_, _
from tmphys.print.pdf import Page, pdf_bytes
from tmphys.print.sheets import ruler

#: The aid's words (English msgids: each is translated where it is set).
TITLE = N_("tmphys · player aid")
ROUND = (N_("A round"), [
    N_("1. Propose. Choose a code, a digit 1 to 5 for each of ▲ ■ ●, and write it on the next line of your note "
       "sheet. Take the punch card of each colour with that digit on its tab, and lay the three on top of each "
       "other."),
    N_("2. Question up to 3 verifiers, one at a time, without changing the proposal: slide a verifier's "
       "verification card under your stack, the corner symbols lined up. The one open cell shows ✓ or ✗: write it "
       "in that verifier's box on the same line. Every question counts."),
    N_("3. Deduce. Put the punch cards back. Beside each verifier on your note sheet, write what its answers tell "
       "about its criterion, and cross off the digits no longer possible."),
    N_("4. Thumbs. Everyone at once: thumb up if you know the code, down if not. Up: write the code secretly, then "
       "check it against the problem's answer (at the back of the booklet, or tmphys prove CODE PROBLEM). Right: "
       "the fewest questions wins, then all tied win. Wrong: out."),
])
STACK = (N_("Reading a stack"), [
    N_("Three punch cards leave one hole open. Through it the verification card shows the verifier's answer:"),
])
PASS_TEXT = N_("✓ on light green: the proposal passes this verifier's criterion")
FAIL_TEXT = N_("✗ on dark red: it fails it")
RULES = (N_("Every problem"), [
    N_("Each verifier checks one criterion of its criteria card. Exactly one code passes all of them, and every "
       "verifier is needed to find it: none repeats what the others say."),
])
FAMILIES_HEAD = N_("Criteria cards by family")
FOLD_TEXT = N_("Fold along the dashed lines: two panels stand as a screen, the third leans back as its foot.")
SHEET_NOTE = N_("tmphys · player aid · one a player · measure the ruler, then fold on the dashed lines")
MODES = (N_("Extreme and Nightmare"), [
    N_("Extreme: two criteria cards at each verifier; only one of them holds its criterion."),
    N_("Nightmare: the verification cards are shuffled among the verifiers: which card belongs to which "
       "criteria card is part of the puzzle."),
])

#: The criteria cards' families, each with the rule that picks its cards by their English title (first rule that
#: holds); the family's name is translated where it is set.
FAMILIES: tuple[tuple[str, str], ...] = (
    (N_("smallest or largest"), r"smallest|largest"),
    (N_("even or odd"), r"\beven\b|\bodd\b"),
    (N_("sums"), r"\bsum\b|\+|add up"),
    (N_("how many of a digit"), r"^how many"),
    (N_("a colour against a number"), r"compared with \d"),
    (N_("colours against each other"), r"compared with"),
    (N_("which colour is…"), r"^which colour is"),
    (N_("repeats and order"), r""),
)


def families() -> list[tuple[str, list[int]]]:
    """The criteria cards grouped by family (``FAMILIES``), each family's card numbers ascending."""
    groups: dict[str, list[int]] = {name: [] for name, _ in FAMILIES}
    for card in library().criteria_cards:
        name = next(name for name, rule in FAMILIES if re.search(rule, card.title))
        groups[name].append(card.number)
    return [(name, numbers) for name, numbers in groups.items() if numbers]


def runs(numbers: list[int]) -> str:
    """Card numbers as ranges: 1–4, 39–41."""
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}–{prev}" if prev > start + 1 else f"{start}, {prev}")
        if n is not None:
            start = prev = n
    return ", ".join(out)


class _Column:
    """Text set down a panel, line by line, every size multiplied by ``scale``."""

    def __init__(self, box: Box, scale: float = 1.0) -> None:
        self.box, self.y, self.items, self.scale = box, box.y, [], scale  # type: Box, float, list[Item], float

    def line(self, s: str, size: float, weight: str = "regular", colour: str = P.INK) -> None:
        size *= self.scale
        self.y += size * P.AID_LINE_GAP
        check_lines([s], size, self.box.width, None, P.AID_LINE_GAP, weight, where="player aid")
        self.items += text(s, self.box.x, self.y, size, colour=colour, weight=weight)

    def paragraph(self, s: str, size: float = P.AID_TEXT_SIZE, weight: str = "regular",
                  colour: str = P.INK) -> None:
        """``s`` (English: translated here) wrapped to the panel."""
        self.lines(_(s), size, weight, colour)
        self.y += P.AID_PARA_GAP * self.scale

    def lines(self, s: str, size: float, weight: str = "regular", colour: str = P.INK) -> None:
        """``s`` (already in the table's language) wrapped to the panel, without a paragraph's gap."""
        for line in wrap(s, size * self.scale, self.box.width, weight):
            self.line(line, size, weight, colour)

    def heading(self, s: str) -> None:
        self.y += P.AID_PARA_GAP * self.scale
        self.lines(_(s), P.AID_HEAD_SIZE, weight="bold")
        self.y += P.AID_PARA_GAP * self.scale / 2

    def section(self, part: tuple[str, list[str]]) -> None:
        self.heading(part[0])
        for s in part[1]:
            self.paragraph(s)

    def sample(self, kind: str, label: str) -> None:
        """A ✓ or ✗ cell (``kind``: pass or fail) as a verification card prints it, with what it means."""
        c = P.AID_SAMPLE_CELL * self.scale
        size = P.AID_TEXT_SIZE * self.scale
        x, y = self.box.x, self.y + P.AID_PARA_GAP * self.scale
        self.items += mark_cells([(x + c / 2, y + c / 2, kind == "pass")], c, c, P.MARK_GLYPH_SCALE * c)
        lines = wrap(_(label), size, self.box.width - c - 3.0)
        check_lines(lines, size, self.box.width - c - 3.0, None, P.AID_LINE_GAP, where="player aid")
        for k, s in enumerate(lines):
            self.items += text(s, x + c + 3.0, y + c / 2 + size * (0.35 + (k - (len(lines) - 1) / 2)
                                                                  * P.AID_LINE_GAP), size)
        self.y = y + max(c, len(lines) * size * P.AID_LINE_GAP)


def filled(box: Box, content: Callable[[_Column], None]) -> _Column:
    """A panel's ``content`` set at the largest scale (1 to ``AID_MAX_SCALE``) at which it fits the panel's height,
    so that no panel stands half empty beside a full one (each string measured with the font as it is set); a
    longer language's shrinks below 1, down to ``AID_MIN_SCALE`` (then a misfit is reported)."""
    low, high = 1.0, P.AID_MAX_SCALE
    best = _Column(box, low)
    content(best)
    if best.y > box.y + box.height:
        low, high = P.AID_MIN_SCALE, 1.0
        best = _Column(box, low)
        content(best)
        if best.y > box.y + box.height:
            report(Misfit("player aid: a panel", "", best.y - box.y, box.height, P.AID_TEXT_SIZE * low))
            return best
    for _step in range(12):
        mid = (low + high) / 2
        column = _Column(box, mid)
        content(column)
        if column.y <= box.y + box.height:
            low, best = mid, column
        else:
            high = mid
    return best


def panels(paper: P.Paper) -> list[Box]:
    """The panels of the aid on a landscape sheet (inside the padding, above the ruler strip), left to right."""
    width, height = paper.height, paper.width
    step = width / P.AID_PANELS
    pad = max(P.AID_PADDING, P.PRINTABLE_MARGIN)
    return [Box(k * step + pad, pad, step - 2 * pad, height - 2 * pad - P.RULER_AREA) for k in range(P.AID_PANELS)]


def fold_lines(paper: P.Paper) -> list[float]:
    """Where the sheet folds (mm from its left edge, landscape)."""
    step = paper.height / P.AID_PANELS
    return [k * step for k in range(1, P.AID_PANELS)]


def _round_panel(c: _Column) -> None:
    c.lines(_(TITLE), P.AID_TITLE_SIZE, weight="bold")
    c.section(ROUND)


def _stack_panel(c: _Column) -> None:
    c.section(STACK)
    c.sample("pass", PASS_TEXT)
    c.sample("fail", FAIL_TEXT)
    c.y += P.AID_PARA_GAP * c.scale
    c.section(RULES)
    c.section(MODES)


def _families_panel(c: _Column) -> None:
    c.heading(FAMILIES_HEAD)
    titles = {card.number: card.title for card in library().criteria_cards}
    for name, numbers in families():
        c.lines(f"{_(name)}: {runs(numbers)}", P.AID_TEXT_SIZE, weight="bold")
        c.lines(_("e.g. {number}: {title}").format(number=numbers[0], title=_(titles[numbers[0]])),
                P.AID_TEXT_SIZE, colour=P.FOOTER_INK)
        c.y += P.AID_PARA_GAP * c.scale / 2
    c.y += P.AID_PARA_GAP * c.scale
    c.paragraph(FOLD_TEXT, P.NOTE_SMALL_SIZE)


def aid_page(paper: P.Paper) -> Page:
    """The aid on one landscape page of ``paper``, with its ruler (measure it before folding)."""
    width, height = paper.height, paper.width
    items: list[Item] = []
    for box, content in zip(panels(paper), (_round_panel, _stack_panel, _families_panel)):
        items += filled(box, content).items
    period = P.FOLD_DASH + P.FOLD_GAP
    bottom = height - P.PRINTABLE_MARGIN - P.RULER_AREA  # the folds stop above the ruler strip
    for x in fold_lines(paper):
        dashes = []
        y = P.PRINTABLE_MARGIN
        while y < bottom:
            dashes += [("M", x, y), ("L", x, min(y + P.FOLD_DASH, bottom))]
            y += period
        items.append(Shape(tuple(dashes), stroke=P.FOLD_INK, stroke_width=P.FOLD_WIDTH, role="fold"))
    landscape = P.Paper(paper.name, width, height)
    items += ruler(landscape, _(SHEET_NOTE))
    return Page(width, height, tuple((it, 0.0, 0.0) for it in items))


def player_aid_pdf(paper: P.Paper) -> bytes:
    """``player-aid.pdf``: one page, landscape (print one per player)."""
    return pdf_bytes([aid_page(paper)], "tmphys: player aid")
