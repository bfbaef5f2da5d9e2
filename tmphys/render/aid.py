"""The player aid (``player-aid.pdf``): one landscape sheet, folded in three along its printed fold lines, that
stands as a screen and says how a round goes, how a stack reads, what Extreme and Nightmare change, and the
criteria cards' families at a glance (read from the criteria library).

>>> pdf = player_aid_pdf(PAPERS["a4"])   # doctest: +SKIP
"""

from __future__ import annotations

import re

from tmphys.game.criteria import library
from tmphys.render import params as P
from tmphys.render.draw import Box, Item, Shape, mark_cells, text
from tmphys.render.glyphs import wrap
from tmphys.render.pdf import Page, pdf_bytes

ROUND = ("A round", [
    "1. Propose. Lay one punch card of each colour over another: a ▲, a ■ and a ● digit, 1 to 5.",
    "2. Question up to 3 verifiers, one at a time, without changing the proposal: slide its verification card "
    "under your stack, the corner symbols lined up. Write ✓ or ✗ in its column: every question counts.",
    "3. Deduce. Punch cards back; note what each answer tells about its verifier's criterion.",
    "4. Thumbs. Everyone at once: thumb up if you know the code, down if not. Up: write it secretly and check "
    "it. Right: the fewest questions wins, then all tied win. Wrong: out.",
])
STACK = ("Reading a stack", [
    "Three punch cards leave one hole open. Through it the verification card shows the verifier's answer:",
])
PASS_TEXT = "green ✓: the proposal passes this verifier's criterion"
FAIL_TEXT = "red ✗: it fails it"
RULES = ("Every problem", [
    "Each verifier checks one criterion of its criteria card. Exactly one code passes all of them, and every "
    "verifier is needed to find it: none repeats what the others say.",
])
MODES = ("Extreme and Nightmare", [
    "Extreme: two criteria cards at each verifier; only one of them holds its criterion.",
    "Nightmare: the verification cards are shuffled among the verifiers: which card belongs to which "
    "criteria card is part of the puzzle.",
])

#: The criteria cards' families, each with the rule that picks its cards by their title (first rule that holds).
FAMILIES: tuple[tuple[str, str], ...] = (
    ("smallest or largest", r"smallest|largest"),
    ("even or odd", r"\beven\b|\bodd\b"),
    ("sums", r"\bsum\b|\+|add up"),
    ("how many of a digit", r"^how many"),
    ("a colour against a number", r"compared with \d"),
    ("colours against each other", r"compared with"),
    ("which colour is…", r"^which colour is"),
    ("repeats and order", r""),
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
    """Text set down a panel, line by line."""

    def __init__(self, box: Box) -> None:
        self.box, self.y, self.items = box, box.y, []  # type: Box, float, list[Item]

    def line(self, s: str, size: float, weight: str = "regular", colour: str = P.INK) -> None:
        self.y += size * P.AID_LINE_GAP
        self.items += text(s, self.box.x, self.y, size, colour=colour, weight=weight)

    def paragraph(self, s: str, size: float = P.AID_TEXT_SIZE) -> None:
        for line in wrap(s, size, self.box.width):
            self.line(line, size)
        self.y += P.AID_PARA_GAP

    def heading(self, s: str) -> None:
        self.y += P.AID_PARA_GAP
        self.line(s, P.AID_HEAD_SIZE, weight="bold")
        self.y += P.AID_PARA_GAP / 2

    def section(self, part: tuple[str, list[str]]) -> None:
        self.heading(part[0])
        for s in part[1]:
            self.paragraph(s)

    def sample(self, kind: str, label: str) -> None:
        """A ✓ or ✗ cell (``kind``: pass or fail) as a verification card prints it, with what it means."""
        c = P.AID_SAMPLE_CELL
        x, y = self.box.x, self.y + P.AID_PARA_GAP
        self.items += mark_cells([(x + c / 2, y + c / 2, kind == "pass")], c, c, P.MARK_GLYPH_SCALE * c)
        lines = wrap(label, P.AID_TEXT_SIZE, self.box.width - c - 3.0)
        for k, s in enumerate(lines):
            self.items += text(s, x + c + 3.0, y + c / 2 + P.AID_TEXT_SIZE * (0.35 + (k - (len(lines) - 1) / 2)
                                                                            * P.AID_LINE_GAP), P.AID_TEXT_SIZE)
        self.y = y + c


def panels(paper: P.Paper) -> list[Box]:
    """The panels of the aid on a landscape sheet (inside the padding), left to right."""
    width, height = paper.height, paper.width
    step = width / P.AID_PANELS
    pad = max(P.AID_PADDING, P.PRINTABLE_MARGIN)
    return [Box(k * step + pad, pad, step - 2 * pad, height - 2 * pad) for k in range(P.AID_PANELS)]


def fold_lines(paper: P.Paper) -> list[float]:
    """Where the sheet folds (mm from its left edge, landscape)."""
    step = paper.height / P.AID_PANELS
    return [k * step for k in range(1, P.AID_PANELS)]


def aid_page(paper: P.Paper) -> Page:
    """The aid on one landscape page of ``paper``."""
    width, height = paper.height, paper.width
    first, second, third = panels(paper)
    items: list[Item] = []
    a = _Column(first)
    a.line("tmphys · player aid", P.AID_TITLE_SIZE, weight="bold")
    a.section(ROUND)
    items += a.items
    b = _Column(second)
    b.section(STACK)
    b.sample("pass", PASS_TEXT)
    b.sample("fail", FAIL_TEXT)
    b.y += P.AID_PARA_GAP
    b.section(RULES)
    b.section(MODES)
    items += b.items
    c = _Column(third)
    c.heading("Criteria cards by family")
    titles = {card.number: card.title for card in library().criteria_cards}
    for name, numbers in families():
        for s in wrap(f"{name}: {runs(numbers)}", P.AID_TEXT_SIZE, third.width, "bold"):
            c.line(s, P.AID_TEXT_SIZE, weight="bold")
        for s in wrap(f"e.g. {numbers[0]}: {titles[numbers[0]]}", P.AID_TEXT_SIZE, third.width):
            c.line(s, P.AID_TEXT_SIZE, colour=P.FOOTER_INK)
        c.y += P.AID_PARA_GAP / 2
    c.y += P.AID_PARA_GAP
    c.paragraph("Fold along the dashed lines: two panels stand as a screen, the third leans back as its foot.",
                P.NOTE_SMALL_SIZE)
    items += c.items
    period = P.FOLD_DASH + P.FOLD_GAP
    for x in fold_lines(paper):
        dashes = []
        y = P.PRINTABLE_MARGIN
        while y < height - P.PRINTABLE_MARGIN:
            dashes += [("M", x, y), ("L", x, min(y + P.FOLD_DASH, height - P.PRINTABLE_MARGIN))]
            y += period
        items.append(Shape(tuple(dashes), stroke=P.FOLD_INK, stroke_width=P.FOLD_WIDTH, role="fold"))
    return Page(width, height, tuple((it, 0.0, 0.0) for it in items))


def player_aid_pdf(paper: P.Paper) -> bytes:
    """``player-aid.pdf``: one page, landscape (print one per player)."""
    return pdf_bytes([aid_page(paper)], "tmphys: player aid")
