"""Text that fits its box: measured in its font, shrunk (never below a set size) or wrapped, and every misfit told.

Every word a player reads is set in a box of known width (a card, a panel, a cell): ``fit_size`` shrinks a line to
its room, ``fit_lines`` wraps a paragraph and shrinks it until it fits both ways. What cannot fit at the smallest
size allowed (``MIN_TEXT_SIZE``, or a part's own floor) is drawn all the same and reported to whoever is
``collecting`` misfits: a build prints them, the tests fail on them (a longer language must never overflow silently).

>>> with collecting() as misfits:
...     size = fit_size("verification card", 3.4, 20.0, where="back")   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from tmphys.lang.glyphs import text_width, wrap

#: No word a player reads is set smaller than this (the font's em, mm: about 5 pt): a text that does not fit its box
#: even so is a misfit, which the tests fail on. Parts with a larger floor of their own name it (art/params.py).
MIN_TEXT_SIZE = 1.8


@dataclass(frozen=True)
class Misfit:
    """A text that does not fit its box even at its smallest size: where, what, and by how much (mm)."""

    where: str
    text: str
    needed: float
    room: float
    size: float

    def describe(self) -> str:
        """One line for a person: where the text is and how far it overflows."""
        return (f"{self.where}: {self.text!r} needs {self.needed:.1f} mm, has {self.room:.1f} mm "
                f"(at {self.size:.2f} mm)")


_collector: ContextVar[list[Misfit] | None] = ContextVar("tmphys_misfits", default=None)


@contextmanager
def collecting() -> Iterator[list[Misfit]]:
    """Collect every misfit of the texts set inside the block into the list it gives."""
    found: list[Misfit] = []
    token = _collector.set(found)
    try:
        yield found
    finally:
        _collector.reset(token)


def report(misfit: Misfit) -> None:
    """Tell the collector (if any) of a text that does not fit."""
    found = _collector.get()
    if found is not None and misfit not in found:
        found.append(misfit)


def fit_size(text: str, size: float, room: float, min_size: float = MIN_TEXT_SIZE, weight: str = "regular",
             where: str = "") -> float:
    """The largest size up to ``size`` at which ``text`` fits ``room`` mm on one line, at least ``min_size``; a text
    too wide even then is reported (and set at ``min_size``)."""
    width = text_width(text, 1.0, weight)
    if width * size <= room + 1e-9:
        return size
    fitted = max(min(size, room / width if width else size), min(min_size, size))
    if width * fitted > room + 1e-6:
        report(Misfit(where, text, width * fitted, room, fitted))
    return fitted


def fit_lines(text: str, size: float, width: float, height: float, line_gap: float,
              min_size: float = MIN_TEXT_SIZE, weight: str = "regular", where: str = "") -> tuple[float, list[str]]:
    """``text`` wrapped to ``width`` mm at the largest size up to ``size`` whose lines (each ``line_gap`` × size
    high) fill at most ``height`` mm, at least ``min_size``: (size, lines). What overflows even then is reported."""
    lines = wrap(text, size, width, weight)
    while size > min_size and (_too_wide(lines, size, width, weight) or len(lines) * size * line_gap > height):
        size = max(min_size, size * 0.95)
        lines = wrap(text, size, width, weight)
    check_lines(lines, size, width, height, line_gap, weight, where)
    return size, lines


def _too_wide(lines: list[str], size: float, width: float, weight: str) -> bool:
    return any(text_width(line, size, weight) > width + 1e-6 for line in lines)


def check_lines(lines: list[str], size: float, width: float, height: float | None, line_gap: float,
                weight: str = "regular", where: str = "") -> None:
    """Report the lines wider than ``width`` (a word too long for its box) and a block taller than ``height``."""
    for line in lines:
        needed = text_width(line, size, weight)
        if needed > width + 1e-6:
            report(Misfit(where, line, needed, width, size))
    if height is not None and len(lines) * size * line_gap > height + 1e-6:
        report(Misfit(where, " / ".join(lines), len(lines) * size * line_gap, height, size))
