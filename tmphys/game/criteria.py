"""The criteria library: 48 criteria cards, 95 verification cards with their printed IDs.

Read from ``tmphys/data/criteria.toml`` (our own format). Each criterion is a short
expression over one code, evaluated once for all 125 codes into a truth table.

>>> verification_card("447").criterion.text
'■ = 4'
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import numpy as np

from tmphys.game.codes import ALL_CODES, COLOURS, Code
from tmphys.text import ASCII_DIGITS, OneLineError, halfwidth, quote, whole_number

#: The four ID colours printed on every verification card, in printed order, with symbol and letter.
ID_COLOURS: tuple[str, str, str, str] = ("green", "yellow", "blue", "purple")
ID_SYMBOLS: dict[str, str] = {"green": "◊", "yellow": "#", "blue": "/", "purple": "¤"}
ID_LETTERS: dict[str, str] = {"green": "G", "yellow": "O", "blue": "B", "purple": "P"}
#: Other letters read as a colour: Y for yellow, its name's (the published app writes O).
ID_ALIASES: dict[str, str] = {"Y": "yellow"}


class UnknownIdError(OneLineError):
    """An ID that is on no verification card, or a criteria card number out of range."""


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

    @property
    def codes(self) -> tuple[Code, ...]:
        """The codes that pass, in index order."""
        return tuple(c for c in ALL_CODES if self.table[c.index])

    def passes(self, code: Code) -> bool:
        """Whether ``code`` passes this criterion (the truth, not what a card shows)."""
        return bool(self.table[code.index])


@dataclass(frozen=True)
class CriteriaCard:
    """A criteria card: its number 1..48, what its verifier checks, its criteria in printed order."""

    number: int
    title: str
    criteria: tuple[Criterion, ...]


@dataclass(frozen=True)
class VerificationCard:
    """A verification card: its place 1..95 in the deck, its four printed IDs and its criterion."""

    index: int
    ids: Mapping[str, int]
    criterion: Criterion

    def label(self, colour: str = "green") -> str:
        """The ID as printed in one colour, e.g. ``◊447``."""
        return f"{ID_SYMBOLS[colour]}{self.ids[colour]}"


@dataclass(frozen=True)
class Library:
    """Everything in the criteria data file, cross-referenced."""

    criteria: Mapping[str, Criterion]
    criteria_cards: tuple[CriteriaCard, ...]
    verification_cards: tuple[VerificationCard, ...]
    by_id: Mapping[int, tuple[VerificationCard, str]]

    def verification_cards_for(self, criterion: Criterion) -> tuple[VerificationCard, ...]:
        """The verification cards that carry this criterion (none for a printed-only one)."""
        return tuple(v for v in self.verification_cards if v.criterion.key == criterion.key)


def _mask(table: np.ndarray) -> int:
    """A bool[125] truth table as a Python int, bit i set when code index i passes."""
    return int.from_bytes(np.packbits(np.asarray(table, dtype=bool), bitorder="little").tobytes(), "little")


# --- the expression language -------------------------------------------------------------

_ALLOWED = (
    ast.Expression, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load,
    ast.Constant, ast.Call, ast.And, ast.Or, ast.Not, ast.Add, ast.Sub, ast.Mod,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
)
_NAMES = {"b", "y", "p", "total", "evens", "odds", "most", "up_run", "run", "count"}


def _code_names(code: Code) -> dict[str, object]:
    """The names a criterion expression may use, for one code."""
    d = code.digits
    steps = (d[1] - d[0], d[2] - d[1])
    up_run = 1 + (1 in steps) + (steps == (1, 1))
    run = 3 if steps in ((1, 1), (-1, -1)) else (2 if 1 in map(abs, steps) else 1)
    return {
        "b": d[0], "y": d[1], "p": d[2], "total": sum(d),
        "evens": sum(x % 2 == 0 for x in d), "odds": sum(x % 2 == 1 for x in d),
        "most": max(d.count(x) for x in d), "up_run": up_run, "run": run,
        "count": d.count,
    }


def truth_table(expr: str) -> np.ndarray:
    """Evaluate a criterion expression for all 125 codes; raises ValueError on a bad expression."""
    tree = ast.parse(expr, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ValueError(f"criterion {expr!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Name) and node.id not in _NAMES:
            raise ValueError(f"criterion {expr!r}: unknown name {node.id!r}")
    compiled = compile(tree, "<criterion>", "eval")
    return np.array(
        [bool(eval(compiled, {"__builtins__": {}}, _code_names(c))) for c in ALL_CODES],  # noqa: S307
        dtype=bool,
    )


# --- loading -----------------------------------------------------------------------------

@cache
def library() -> Library:
    """The criteria library shipped with tmphys (loaded once)."""
    raw = tomllib.loads(resources.files("tmphys.game").joinpath("data/criteria.toml").read_text("utf-8"))
    criteria = {
        key: Criterion(key, spec["expr"], spec["text"], bool(spec.get("printed_only", False)), table, _mask(table))
        for key, spec in raw["criteria"].items()
        for table in (truth_table(spec["expr"]),)
    }
    cards = tuple(
        CriteriaCard(c["number"], c["title"], tuple(criteria[k] for k in c["criteria"]))
        for c in raw["criteria_cards"]
    )
    vcards = tuple(
        VerificationCard(i, dict(zip(ID_COLOURS, v["ids"])), criteria[v["criterion"]])
        for i, v in enumerate(raw["verification_cards"], start=1)
    )
    by_id: dict[int, tuple[VerificationCard, str]] = {}
    for v in vcards:
        for colour, number in v.ids.items():
            by_id[number] = (v, colour)
    return Library(criteria, cards, vcards, by_id)


def criteria_card(number: int | str) -> CriteriaCard:
    """The criteria card with this number 1..48."""
    n = number if isinstance(number, int) and not isinstance(number, bool) else \
        whole_number(halfwidth(str(number)).strip().removeprefix("N").removeprefix("n"))
    if n is None:
        raise UnknownIdError(f"not a criteria card number: {quote(number)}")
    if not 1 <= n <= 48:
        raise UnknownIdError(f"no criteria card {n} (cards are numbered 1..48)")
    return library().criteria_cards[n - 1]


def parse_id(text: str | int) -> tuple[VerificationCard, str]:
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
        raise UnknownIdError(f"unknown verification card ID {quote(text)} (an ID is digits 0-9, e.g. 447 or G447)")
    found = library().by_id.get(number)
    if found is None:
        raise UnknownIdError(f"no verification card has the ID {quote(text)}")
    if want is not None and found[1] != want:
        raise UnknownIdError(
            f"ID {s} is printed in {found[1]}, not {want} (verification card {found[0].index})")
    return found


def verification_card(text: str | int) -> VerificationCard:
    """The verification card that carries this printed ID (any of the four colours)."""
    return parse_id(text)[0]


__all__ = [
    "COLOURS", "ID_ALIASES", "ID_COLOURS", "ID_LETTERS", "ID_SYMBOLS", "Criterion", "CriteriaCard",
    "Library", "UnknownIdError", "VerificationCard", "criteria_card", "library", "parse_id",
    "truth_table", "verification_card",
]
