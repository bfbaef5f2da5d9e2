"""Which cards a build prints: the full set, or the cards some problems use (``tmphys build --for``).

>>> selection = for_problems([parse_problem("#A46 NXF")])   # doctest: +SKIP
>>> [v.ids["green"] for v in selection.verification]        # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass

from tmphys.files import NotAFileError, describe, read_regular
from tmphys.game.criteria import CriteriaCard, Library, VerificationCard, library
from tmphys.game.problems import COMMENT, Problem, ProblemError, parse_problem
from tmphys.text import plural, quote

#: The most a file given to ``--for`` is read of, in bytes: a larger one is refused, unread.
MAX_FOR_BYTES = 1_000_000
#: The most different problems one build prints the cards of (a problem given twice is one).
MAX_FOR_PROBLEMS = 1_000
#: What a file given to ``--for`` is, when it is not a text file of problems.
NOT_PROBLEMS = "not a text file of problems (one problem a line, or a booklet's --json)"


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




def _key(problem: Problem) -> tuple[object, ...]:
    """What makes two problems the same for a build: the same mode, criteria cards and dealt cards."""
    return problem.mode, problem.cards, None if problem.dealt is None else tuple(d.index for d in problem.dealt)


def chosen_problems(values: Sequence[str], criteria: Library | None = None) -> Selection:
    """The cards of the problems ``--for`` names: each value a problem's text, or a file of them (``problem_lines``),
    read in ``criteria`` (users' cards with the published).
    A problem given more than once counts once; more than ``MAX_FOR_PROBLEMS`` different ones, a line that is not
    a problem (quoted, cut short) or a problem without verification cards raise SelectionError, in one line."""
    problems: list[Problem] = []
    titles: list[str] = []
    seen: set[tuple[object, ...]] = set()
    parsed: dict[str, Problem] = {}  # each line's problem: a file of 20,000 copies of a line is parsed once
    for value in values:
        for number, title, line in problem_lines(value):
            where = f"--for {quote(value)}" + ("" if number is None else f", line {number:,}")
            problem = parsed.get(line)
            if problem is None:
                try:
                    problem = parsed[line] = parse_problem(line, criteria=criteria)
                except ProblemError as e:
                    if number is None:
                        raise SelectionError(f"{where}: {e}") from None
                    raise SelectionError(f"{where}: not a problem: {quote(line)}") from None
            if _key(problem) in seen:
                continue
            if problem.dealt is None:
                raise SelectionError(f"{where}: {(title or problem_title(len(problems) + 1, problem)).lower()} "
                                     "names no verification cards (criteria cards only): give them, e.g. "
                                     "'A 4 447 B 9 646 C 11 566 D 14 322'")
            if len(seen) == MAX_FOR_PROBLEMS:
                raise SelectionError(f"--for: more than {plural(f'{MAX_FOR_PROBLEMS:,}', 'different problem')}, "
                                     "the most one build prints the cards of")
            seen.add(_key(problem))
            problems.append(problem)
            titles.append(title or problem_title(len(problems), problem))
    return for_problems(problems, titles)


def problem_lines(value: str) -> list[tuple[int | None, str | None, str]]:
    """The problems one ``--for`` value gives, each (its line number in the file or None, its title or None, its
    text): the value itself, or when it names a file, a booklet's ``--json`` (its problems, titled by their number)
    or one problem a line. A file is read only up to ``MAX_FOR_BYTES``; anything but a regular file of text (a
    folder, a named pipe, a binary file, a PDF) raises SelectionError, unread."""
    try:
        os.stat(value)
    except (OSError, ValueError):  # no such file: the value is a problem's text
        return [(None, None, value)]
    where = f"--for {quote(value)}"
    try:
        raw = read_regular(value, MAX_FOR_BYTES)
    except NotAFileError:
        raise SelectionError(f"{where}: {NOT_PROBLEMS}") from None
    except OSError as e:
        raise SelectionError(f"{where}: cannot read it: {describe(e)}") from None
    if len(raw) > MAX_FOR_BYTES:
        raise SelectionError(f"{where}: larger than {MAX_FOR_BYTES // 1_000_000} MB, the most a file of problems may "
                             "hold")
    try:
        if b"\x00" in raw or raw.startswith(b"%PDF"):
            raise UnicodeError
        data = raw.decode("utf-8-sig")
    except UnicodeError:
        raise SelectionError(f"{where}: {NOT_PROBLEMS}") from None
    if value.lower().endswith(".json") or data.lstrip().startswith("{"):
        try:
            found = json.loads(data)["problems"]
            out: list[tuple[int | None, str | None, str]] = [(None, f"Problem {p['number']}", str(p["line"]))
                                                             for p in found]
        except (ValueError, KeyError, TypeError):
            raise SelectionError(f"{where}: not a booklet's --json: want an object whose \"problems\" each have a "
                                 "number and a line") from None
    else:
        out = [(k, None, line) for k, line in enumerate(data.splitlines(), start=1)
               if COMMENT.sub("", line).strip()]
    if not out:
        raise SelectionError(f"{where}: the file holds no problem")
    return out
