"""Codes: the three-digit answers ▲■● (blue, yellow, purple), each digit 1..5.

>>> Code.parse("241")
Code(blue=2, yellow=4, purple=1)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tmphys.text import OneLineError, halfwidth, quote

#: The three colours of a code, in the order they are written (▲ ■ ●).
COLOURS: tuple[str, str, str] = ("blue", "yellow", "purple")
#: The shape printed for each colour.
SHAPES: dict[str, str] = {"blue": "▲", "yellow": "■", "purple": "●"}
#: The digits a code may use.
DIGITS: tuple[int, ...] = (1, 2, 3, 4, 5)
#: How many codes there are.
CODE_COUNT = 125


class CodeError(OneLineError):
    """A string that is not a code of three digits 1..5."""


@dataclass(frozen=True, order=True)
class Code:
    """One code: a ▲ (blue), ■ (yellow) and ● (purple) digit, each 1..5."""

    blue: int
    yellow: int
    purple: int

    def __post_init__(self) -> None:
        for colour, digit in zip(COLOURS, (self.blue, self.yellow, self.purple)):
            if digit not in DIGITS:
                raise CodeError(f"{colour} digit must be 1..5, not {quote(digit)}")

    @classmethod
    def parse(cls, text: str | int) -> Code:
        """Read a code written as three digits, e.g. ``"241"`` (or full-width, ``"２４１"``), or with its shapes as
        tmphys prints it, ``"▲2 ■4 ●1"`` or ``"▲2 ■4 ●1 (241)"`` (spaces optional; the digits in brackets must
        agree)."""
        s = halfwidth(str(text)).strip()
        shaped = re.fullmatch(r"▲\s*([0-9])\s*■\s*([0-9])\s*●\s*([0-9])\s*(?:\(([0-9]{3})\))?", s)
        if shaped and shaped.group(4) in (None, "".join(shaped.groups()[:3])):
            s = "".join(shaped.groups()[:3])
        if len(s) != 3 or any(ch not in "12345" for ch in s):  # ASCII digits 1..5 only (not ⑤, not ٥)
            raise CodeError(f"not a code: {quote(text)} (want three digits 1..5, e.g. 241)")
        return cls(int(s[0]), int(s[1]), int(s[2]))

    @classmethod
    def from_index(cls, index: int) -> Code:
        """The code with this index 0..124 (``111`` is 0, ``555`` is 124)."""
        if not 0 <= index < CODE_COUNT:
            raise CodeError(f"code index must be 0..124, not {index}")
        return cls(index // 25 + 1, index // 5 % 5 + 1, index % 5 + 1)

    @property
    def index(self) -> int:
        """Position 0..124 in the fixed order 111, 112, …, 555 (the bit used in bitsets)."""
        return (self.blue - 1) * 25 + (self.yellow - 1) * 5 + (self.purple - 1)

    @property
    def digits(self) -> tuple[int, int, int]:
        """The digits in colour order (▲, ■, ●)."""
        return (self.blue, self.yellow, self.purple)

    def digit(self, colour: str) -> int:
        """The digit of one colour (``"blue"``, ``"yellow"`` or ``"purple"``)."""
        return self.digits[COLOURS.index(colour)]

    def __str__(self) -> str:
        return f"{self.blue}{self.yellow}{self.purple}"


def all_codes() -> Iterator[Code]:
    """Every code, in index order 111 … 555."""
    return (Code.from_index(i) for i in range(CODE_COUNT))


ALL_CODES: tuple[Code, ...] = tuple(all_codes())
