"""The criteria library: 48 criteria cards, 95 verification cards with their printed IDs, and users' cards.

Read from ``tmphys/game/data/criteria.toml`` (our own format) by the same code that reads users' criteria files
(``load_library``). Each criterion is a short expression over one code in our own language (``game/expression``),
worked out once for all 125 codes into a truth table.

>>> verification_card("447").criterion.text
'■ = 4'
"""

from __future__ import annotations

from functools import cache

from tmphys.game.codes import COLOURS
from tmphys.game.criteria_file import (
    CriteriaFileError,
    card_title,
    criteria_warnings,
    criterion_text,
    library_from_texts,
    load_library,
    published_library,
    untranslated,
)
from tmphys.game.criteria_library import (
    ID_ALIASES,
    ID_COLOURS,
    ID_LETTERS,
    ID_SYMBOLS,
    CriteriaCard,
    Criterion,
    Library,
    UnknownIdError,
    VerificationCard,
)
from tmphys.game.expression import ExpressionError, truth_table


@cache
def library() -> Library:
    """The criteria library shipped with tmphys (loaded once)."""
    return published_library()


def criteria_card(number: int | str, in_library: Library | None = None) -> CriteriaCard:
    """The criteria card with this number: 1..48 in the published library, or a card of ``in_library``."""
    return (in_library or library()).criteria_card(number)


def parse_id(text: str | int, in_library: Library | None = None) -> tuple[VerificationCard, str]:
    """Resolve a printed ID (``447``, ``◊447``, ``G447``, ``O577`` or ``Y577``, ``#577``…) to (card, colour)."""
    return (in_library or library()).parse_id(text)


def verification_card(text: str | int, in_library: Library | None = None) -> VerificationCard:
    """The verification card that carries this printed ID (any of the four colours)."""
    return (in_library or library()).verification_card(text)


__all__ = [
    "COLOURS", "ID_ALIASES", "ID_COLOURS", "ID_LETTERS", "ID_SYMBOLS", "CriteriaCard", "CriteriaFileError", "Criterion",
    "ExpressionError", "Library", "UnknownIdError", "VerificationCard", "card_title", "criteria_card",
    "criteria_warnings", "criterion_text", "library", "library_from_texts", "load_library", "parse_id",
    "truth_table", "untranslated", "verification_card",
]
