"""Words and numbers as tmphys prints them: plurals, fractions, codes in the game's shapes."""

from __future__ import annotations

from fractions import Fraction


def plural(n: object, word: str) -> str:
    """``n word``, the word in the plural unless n is one: ``plural(2, "round") == "2 rounds"``."""
    return f"{n} {word}{'' if str(n) == '1' else 's'}"


def fraction_text(x: Fraction) -> str:
    """A fraction as ``"9/7"``, or ``"2"`` when whole."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def shapes(code: object) -> str:
    """A code in the game's shapes and digits: ``shapes("241") == "▲2 ■4 ●1 (241)"``."""
    s = str(code)
    return f"▲{s[0]} ■{s[1]} ●{s[2]} ({s})"
