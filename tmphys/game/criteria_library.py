"""The cards of a criteria library as values: criteria, criteria cards, verification cards and their printed IDs.

A ``Library`` holds the published game's cards, and with users' criteria files (``criteria_file.load_library``)
theirs after them; looking up a card number or a printed ID is a method, so a caller holding a library with users'
cards finds them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from tmphys.game.codes import ALL_CODES, Code
from tmphys.text import ASCII_DIGITS, OneLineError, halfwidth, quote, whole_number

#: The four ID colours printed on every verification card, in printed order, with symbol and letter.
ID_COLOURS: tuple[str, str, str, str] = ("green", "yellow", "blue", "purple")
ID_SYMBOLS: dict[str, str] = {"green": "◊", "yellow": "#", "blue": "/", "purple": "¤"}
ID_LETTERS: dict[str, str] = {"green": "G", "yellow": "O", "blue": "B", "purple": "P"}
#: Other letters read as a colour: Y for yellow, its name's (the published app writes O).
ID_ALIASES: dict[str, str] = {"Y": "yellow"}
#: How many criteria cards the published game has (numbered 1..48); users' cards are numbered after them.
PUBLISHED_CARDS = 48


class UnknownIdError(OneLineError):
    """An ID that is on no verification card, or a criteria card number that no card has."""


@dataclass(frozen=True)
class Criterion:
    """One criterion: a name, its expression, our wording, and which codes pass it."""

    key: str
    expr: str
    text: str
    printed_only: bool = False
    table: np.ndarray = field(repr=False, compare=False, hash=False, default=None)  # type: ignore[assignment]
    #: The passing codes as a 125-bit int (bit i is ``Code.from_index(i)``), for bitset deduction.
    mask: int = field(repr=False, compare=False, hash=False, default=0)
    #: The wording in each language of its file, the file's first language first (``text`` is that one).
    texts: Mapping[str, str] = field(repr=False, compare=False, hash=False, default_factory=dict)
    #: The criteria file it comes from, as it was named; None for the published game's.
    source: str | None = field(compare=False, hash=False, default=None)

    @property
    def codes(self) -> tuple[Code, ...]:
        """The codes that pass, in index order."""
        return tuple(c for c in ALL_CODES if self.table[c.index])

    def passes(self, code: Code) -> bool:
        """Whether ``code`` passes this criterion (the truth, not what a card shows)."""
        return bool(self.table[code.index])


@dataclass(frozen=True)
class CriteriaCard:
    """A criteria card: its number (1..48 published, 49 on from files), what its verifier checks, its criteria."""

    number: int
    title: str
    criteria: tuple[Criterion, ...]
    #: The title in each language of its file, the file's first language first.
    titles: Mapping[str, str] = field(repr=False, compare=False, hash=False, default_factory=dict)
    source: str | None = field(compare=False, hash=False, default=None)


@dataclass(frozen=True)
class VerificationCard:
    """A verification card: its place in the deck (1..95 published, then files' cards), four IDs, its criterion."""

    index: int
    ids: Mapping[str, int]
    criterion: Criterion
    source: str | None = field(compare=False, hash=False, default=None)
    #: Whether its IDs were assigned by the loader (the file wrote none), not written in the file.
    assigned: bool = field(compare=False, hash=False, default=False)

    def label(self, colour: str = "green") -> str:
        """The ID as printed in one colour, e.g. ``◊447``."""
        return f"{ID_SYMBOLS[colour]}{self.ids[colour]}"


def _ranges(numbers: list[int]) -> str:
    """Sorted numbers as runs: ``1..48, 50, 52..53``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = [str(a) if a == b else f"{a}..{b}" for a, b in runs[:6]]
    return ", ".join(shown) + (", …" if len(runs) > 6 else "")


@dataclass(frozen=True)
class Library:
    """Every criterion and card of the published game, and of the criteria files loaded with it, cross-referenced."""

    criteria: Mapping[str, Criterion]
    criteria_cards: tuple[CriteriaCard, ...]
    verification_cards: tuple[VerificationCard, ...]
    by_id: Mapping[int, tuple[VerificationCard, str]]
    #: The criteria files loaded after the published cards, as they were named, in load order.
    files: tuple[str, ...] = ()
    #: What the loader found worth a look but not wrong (a criterion no card uses, one equal to another), one line each.
    warnings: tuple[str, ...] = ()

    @property
    def published(self) -> bool:
        """Whether this is the published game alone, with no criteria file."""
        return not self.files

    @property
    def user_criteria(self) -> tuple[Criterion, ...]:
        """The criteria that come from criteria files, in load order."""
        return tuple(c for c in self.criteria.values() if c.source is not None)

    @property
    def user_cards(self) -> tuple[CriteriaCard, ...]:
        """The criteria cards that come from criteria files, by number."""
        return tuple(c for c in self.criteria_cards if c.source is not None)

    @property
    def user_verification_cards(self) -> tuple[VerificationCard, ...]:
        """The verification cards that come from criteria files, in deck order."""
        return tuple(v for v in self.verification_cards if v.source is not None)

    @cached_property
    def _by_number(self) -> dict[int, CriteriaCard]:
        return {c.number: c for c in self.criteria_cards}

    def verification_cards_for(self, criterion: Criterion) -> tuple[VerificationCard, ...]:
        """The verification cards that carry this criterion (none for a printed-only one)."""
        return tuple(v for v in self.verification_cards if v.criterion.key == criterion.key)

    def has_card(self, number: int) -> bool:
        """Whether a criteria card has this number."""
        return number in self._by_number

    def criteria_card(self, number: int | str) -> CriteriaCard:
        """The criteria card with this number (``4``, ``"N17"``); raises UnknownIdError naming the numbers there are."""
        n = number if isinstance(number, int) and not isinstance(number, bool) else \
            whole_number(halfwidth(str(number)).strip().removeprefix("N").removeprefix("n"))
        if n is None:
            raise UnknownIdError(f"not a criteria card number: {quote(number)}")
        card = self._by_number.get(n)
        if card is None:
            raise UnknownIdError(f"no criteria card {n} (criteria cards are numbered {_ranges(list(self._by_number))})")
        return card

    def parse_id(self, text: str | int) -> tuple[VerificationCard, str]:
        """Resolve a printed ID (``447``, ``◊447``, ``G447``, ``O577`` or ``Y577``, ``#577``…, in ASCII or full-width
        forms: ``Ｇ４４７``) to (card, colour)."""
        s = halfwidth(str(text)).strip()
        want: str | None = None
        if s and s[0] not in ASCII_DIGITS:
            prefix, s = s[0], s[1:]
            for colour in ID_COLOURS:
                if prefix.upper() == ID_LETTERS[colour] or prefix == ID_SYMBOLS[colour]:
                    want = colour
            want = want or ID_ALIASES.get(prefix.upper())
            if want is None:
                letters = [ID_LETTERS[c] + "".join(f" (or {a})" for a, of in ID_ALIASES.items() if of == c)
                           for c in ID_COLOURS]
                known = " ".join(letters) + " " + " ".join(ID_SYMBOLS[c] for c in ID_COLOURS)
                raise UnknownIdError(f"unknown verification card ID {quote(text)} (prefixes: {known})")
        number = whole_number(s)
        if number is None:
            raise UnknownIdError(
                f"unknown verification card ID {quote(text)} (an ID is digits 0-9, e.g. 447 or G447)")
        found = self.by_id.get(number)
        if found is None:
            raise UnknownIdError(f"no verification card has the ID {quote(text)}")
        if want is not None and found[1] != want:
            raise UnknownIdError(
                f"ID {s} is printed in {found[1]}, not {want} (verification card {found[0].index})")
        return found

    def verification_card(self, text: str | int) -> VerificationCard:
        """The verification card that carries this printed ID (any of the four colours)."""
        return self.parse_id(text)[0]


__all__ = [
    "ID_ALIASES", "ID_COLOURS", "ID_LETTERS", "ID_SYMBOLS", "PUBLISHED_CARDS", "Criterion", "CriteriaCard", "Library",
    "UnknownIdError", "VerificationCard",
]
