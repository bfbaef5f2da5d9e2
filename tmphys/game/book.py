"""The published problem book: its 8,500 problems in nine sets, with answers, read offline by their printed ID.

The book ships as package data (``data/book.txt.gz``, our own compact format; its header says how it reads). A
problem's ``line`` is the book's own text, which ``parse_problem`` (and so ``tmphys solve``) reads.

>>> p = book_problem("#A46 NXF")
>>> p.set_name, p.number, str(p.answer)
('ClassicEasy4V', 1, '515')
>>> p.line
'1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754'
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from tmphys.game.codes import Code
from tmphys.text import OneLineError, quote

#: The book's sets, in its order, with how many problems each holds: mode, difficulty, verifiers.
BOOK_SETS: MappingProxyType[str, int] = MappingProxyType({
    "ClassicEasy4V": 500, "ClassicStandard5V": 1000, "ClassicHard6V": 1000,
    "ExtremeHard4V": 1000, "ExtremeHard5V": 1000, "ExtremeHard6V": 1000,
    "NightmareHard4V": 1000, "NightmareHard5V": 1000, "NightmareHard6V": 1000,
})
#: The package data file holding the book.
BOOK_FILE = "book.txt.gz"
#: What a printed book ID looks like: a letter for mode and difficulty, the verifier count, then letters and
#: digits in two or three groups (``#A46 NXF``, ``#F4R S8``, ``#I64 QY3 G``); case and spaces are forgiven.
_ID_SHAPE = re.compile(r"#?\s*[A-I][4-6][0-9A-Z]\s*[0-9A-Z]{1,3}(?:\s*[0-9A-Z])?", re.I)


class BookError(OneLineError):
    """A book ID or set name that is not in the published problem book."""


@dataclass(frozen=True)
class BookProblem:
    """One problem of the book: its printed ID, its set and number there, its line as printed, and its answer."""

    id: str
    set_name: str
    number: int
    line: str
    answer: Code

    @property
    def mode(self) -> str:
        """``classic``, ``extreme`` or ``nightmare``, from the set the problem is in."""
        return re.match(r"[A-Z][a-z]+", self.set_name).group(0).lower()  # type: ignore[union-attr]


def _key(book_id: str) -> str:
    """An ID as looked up: upper case, without its "#" and spaces (``#a46 nxf`` and ``A46NXF`` are one)."""
    return re.sub(r"[\s#]", "", book_id).upper()


def _book_line(number: int, book_id: str, cards: str, dealt: str, mode: str) -> str:
    """The book's printed line from the data file's fields."""
    colour, *ids = dealt.split()
    numbers = [n for pair in cards.split() for n in pair.split("/")]
    prefix = "N" if mode == "nightmare" else ""
    return ",".join([str(number), f"#{book_id}", "->", *(prefix + n for n in numbers), *(colour + i for i in ids)])


@cache
def _book() -> tuple[dict[str, tuple[BookProblem, ...]], dict[str, BookProblem]]:
    """The book by set, and by ID key (an ID printed twice in a set, the same game, keeps its first problem)."""
    text = gzip.decompress(resources.files("tmphys.game.data").joinpath(BOOK_FILE).read_bytes()).decode("utf-8")
    sets: dict[str, list[BookProblem]] = {}
    problems: list[BookProblem] = []
    for row in text.splitlines():
        if row.startswith("#") or not row.strip():
            continue
        if row.startswith("= "):
            name = row[2:].strip()
            problems = sets.setdefault(name, [])
            mode = re.match(r"[A-Z][a-z]+", name).group(0).lower()  # type: ignore[union-attr]
            continue
        book_id, cards, dealt, answer = row.split("\t")
        number = len(problems) + 1
        problems.append(BookProblem(f"#{book_id}", name, number, _book_line(number, book_id, cards, dealt, mode),
                                    Code.parse(answer)))
    by_set = {name: tuple(ps) for name, ps in sets.items()}
    by_id: dict[str, BookProblem] = {}
    for ps in by_set.values():
        for p in ps:
            by_id.setdefault(_key(p.id), p)
    return by_set, by_id


def book_sets() -> dict[str, tuple[BookProblem, ...]]:
    """Every set of the book, in the book's order."""
    return dict(_book()[0])


def book_set(name: str) -> tuple[BookProblem, ...]:
    """The problems of one set, e.g. ``book_set("NightmareHard4V")`` (case forgiven), in the book's order."""
    found = {n.lower(): ps for n, ps in _book()[0].items()}.get(name.strip().lower())
    if found is None:
        raise BookError(f"no set {quote(name)} in the problem book (sets: {', '.join(BOOK_SETS)})")
    return found


def book_problem(book_id: str) -> BookProblem:
    """The book's problem with this printed ID, e.g. ``#A46 NXF`` (case, "#" and spaces forgiven)."""
    found = _book()[1].get(_key(book_id))
    if found is None:
        raise BookError(f"{quote(book_id.strip())} is not an ID of the published problem book")
    return found


def looks_like_book_id(text: str) -> bool:
    """Whether ``text`` is shaped as a printed book ID (``#A46 NXF``), in the book or not."""
    return _ID_SHAPE.fullmatch(text.strip()) is not None


def book_line(text: str) -> str | None:
    """The book's line for a bare book ID (``#A46 NXF`` → ``1,#A46 NXF,->,2,5,…``); None when ``text`` is not
    shaped as one; BookError when it is shaped as one (has its "#" or a letter past its first) but is not in the
    book. An ID of digits only, ``A41 182``, without its "#" is looked up but not claimed."""
    if not looks_like_book_id(text):
        return None
    found = _book()[1].get(_key(text))
    if found is not None:
        return found.line
    if text.strip().startswith("#") or re.search(r"[A-Z]", _key(text)[1:], re.I):
        raise BookError(not_in_book(text))
    return None


def not_in_book(text: str) -> str:
    """The one line for a book ID that is not one of the book's (mistyped, or shaped otherwise: ``#A46-NXF``)."""
    return (f"{quote(text.strip())} is not an ID of the published problem book: only its IDs are read offline; for "
            "another problem type its cards, e.g. 'A 4 447 B 9 646 C 11 566 D 14 322' or '3 7 10 14'")


__all__ = ["BOOK_FILE", "BOOK_SETS", "BookError", "BookProblem", "book_line", "book_problem", "book_set",
           "book_sets", "looks_like_book_id", "not_in_book"]
