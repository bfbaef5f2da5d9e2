"""Which cards a build prints: the full set, or the cards some problems use (``tmphys build --for``).

>>> selection = for_problems([parse_problem("#A46 NXF")])   # doctest: +SKIP
>>> [v.ids["green"] for v in selection.verification]        # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from tmphys.game.criteria import CriteriaCard, Library, VerificationCard, library
from tmphys.game.problems import Problem


class SelectionError(ValueError):
    """Problems whose cards cannot be chosen (the message is one line, for the command line)."""


@dataclass(frozen=True)
class Selection:
    """Which cards a build prints: every card (``full``), or those some problems use (``for_problems``), in the
    order the sheets print them."""

    verification: tuple[VerificationCard, ...]
    criteria: tuple[CriteriaCard, ...]
    problems: tuple[Problem, ...] = ()  # the problems the cards are for (none: the full set)
    titles: tuple[str, ...] = ()        # what the index calls each problem


def full_selection(criteria: Library | None = None) -> Selection:
    """Every verification and criteria card (of ``criteria``: the published game's, or with users' cards), in the
    deck's order."""
    lib = criteria or library()
    return Selection(lib.verification_cards, lib.criteria_cards)


def problem_title(number: int, problem: Problem) -> str:
    """What the index calls a problem: ``problem 3``, with its book ID when it has one."""
    return f"Problem {number}" + (f" · {problem.name}" if problem.name else "")


def for_problems(problems: list[Problem], titles: list[str] | None = None) -> Selection:
    """The cards ``problems`` use: their dealt verification cards and their criteria cards, each once, in the order
    the problems first use them (problem 1's first, so a first game's cards share the first sheets). Raises
    SelectionError for a problem without verification cards (criteria cards only: nothing says which to deal)."""
    verification: dict[int, VerificationCard] = {}
    criteria: dict[int, CriteriaCard] = {}
    for k, p in enumerate(problems, start=1):
        if p.dealt is None:
            raise SelectionError(f"problem {k} ({p.describe()}) has no verification cards: give them, e.g. "
                                 "'A 4 447 B 9 646 C 11 566 D 14 322'")
        for cards, dealt in zip(p.cards, p.dealt):
            for n in cards:
                criteria.setdefault(n, p.cards_library.criteria_card(n))
            verification.setdefault(dealt.index, dealt)
    names = titles or [problem_title(k, p) for k, p in enumerate(problems, start=1)]
    return Selection(tuple(verification.values()), tuple(criteria.values()), tuple(problems), tuple(names))


