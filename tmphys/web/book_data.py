"""The problem book as the table app carries it: the package's book (``game/data/book.txt.gz``) in a form that packs
to two thirds of its size, which ``problems.js`` reads back into the book's own lines.

Each set is written column by column (the IDs, then the criteria cards, the dealt cards, the answers: like follows
like, and gzip finds more to share), and a dealt verification card is written as its place among the cards a
verifier may be dealt (those whose criterion is on its criteria cards; in Nightmare, on any card of the problem),
one character 0-9a-z, instead of its three-digit ID.
"""

from __future__ import annotations

import gzip
import re
from importlib import resources

from tmphys.game.book import BOOK_FILE
from tmphys.game.criteria import ID_COLOURS, ID_LETTERS, Library

#: The digits of a dealt card's place and of a criteria card's number (the book's are 1-48).
PLACES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _dealt_of(lib: Library) -> dict[int, list]:
    """Each criteria card's verification cards: those whose criterion is one of the card's, in the deck's order."""
    keys = {c.number: {k.key for k in c.criteria} for c in lib.criteria_cards}
    return {n: [v for v in lib.verification_cards if v.criterion.key in ks] for n, ks in keys.items()}


def _places(by_card: dict[int, list], mode: str, cards: str, dealt: str) -> str:
    colour = next(c for c in ID_COLOURS if ID_LETTERS[c] == dealt[0])
    numbers = [[int(n) for n in group.split("/")] for group in cards.split(" ")]
    every = sorted({n for group in numbers for n in group})
    out = colour[0]
    for i, printed in enumerate(dealt[2:].split(" ")):
        own = every if mode == "nightmare" else numbers[i]
        candidates = sorted({v.index: v for n in own for v in by_card[n]}.values(), key=lambda v: v.index)
        place = [v.ids[colour] for v in candidates].index(int(printed))
        out += PLACES[place]
    return out


def book_data(lib: Library) -> list[list[str]]:
    """The book, packed: one ``[name, IDs, cards, dealt, answers]`` a set, each column's entries joined by ``,``
    (a dealt entry: the colour's initial, then each verifier's card's place)."""
    text = gzip.decompress(resources.files("tmphys.game.data").joinpath(BOOK_FILE).read_bytes()).decode("utf-8")
    by_card = _dealt_of(lib)
    sets: dict[str, list[list[str]]] = {}
    for row in text.split("\n"):
        if row.startswith("#") or not row.strip():
            continue
        if row.startswith("= "):
            name = row[2:].strip()
            mode = re.match(r"[A-Z][a-z]+", name)[0].lower()  # type: ignore[index]
            columns = sets[name] = [[], [], [], []]
            continue
        ident, cards, dealt, answer = row.split("\t")
        numbers = "".join(PLACES[int(n)] for n in re.split("[ /]", cards))
        for column, value in zip(columns, (ident, numbers, _places(by_card, mode, cards, dealt), answer.strip())):
            column.append(value)
    return [[name, *(",".join(c) for c in columns)] for name, columns in sets.items()]
