"""The ``tmphys generate`` command: new problems for a table game or a puzzle book, reproducibly from a seed."""

from __future__ import annotations

import contextlib
import itertools
import random
import secrets
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import click

from tmphys.cli.criteria import criteria_option
from tmphys.cli.memory import command_memory, memory_option
from tmphys.cli.numbers import DECIMAL, SCHEDULER, AsciiIntRange
from tmphys.cli.progress import at_terminal, progress_line, rating_text
from tmphys.cli.solve import _seconds, one_budget
from tmphys.game.criteria import ID_COLOURS, Library
from tmphys.game.generate import DIFFICULTIES, GENERATE_VERIFIERS, game_key, generate, problem_text
from tmphys.game.problems import MODES, Problem, ProblemError
from tmphys.solve.budget import RatingPlan, rating_plan
from tmphys.solve.progress import SharedSteps
from tmphys.solve.runner import default_workers, rate_all, rating_steps
from tmphys.text import fraction_text, json_text, plural

#: The largest seed ``--seed`` takes, and the range a seed drawn for the user comes from.
MAX_SEED = 2**32 - 1


def draw_options(f: Any) -> Any:
    """``--mode``, ``--verifiers`` and ``--difficulty``: how problems are drawn (``generate`` and ``booklet``)."""
    f = click.option("--difficulty", type=click.Choice(list(DIFFICULTIES)), default="standard", show_default=True,
                     help="Criteria cards dealt from: easy 1-17, standard 1-22, hard 1-48 (as the problem book).")(f)
    f = click.option("--verifiers", type=AsciiIntRange(min(GENERATE_VERIFIERS), max(GENERATE_VERIFIERS)),
                     default=4, show_default=True, help="Verifiers a problem has.")(f)
    return click.option("--mode", type=click.Choice(MODES), default="classic", show_default=True,
                        help="Classic, Extreme (two criteria cards a verifier) or Nightmare (pairing unknown).")(f)


def criteria_options(f: Any) -> Any:
    """``--criteria FILE`` and ``--only-criteria``: users' cards dealt with the published ones, or alone."""
    f = click.option("--only-criteria", is_flag=True,
                     help="Deal from the --criteria files' cards alone, not with the published 48.")(f)
    return criteria_option(f)


def only_files(criteria: Library | None, only: bool) -> None:
    """``--only-criteria`` needs ``--criteria``: a usage error otherwise."""
    if only and criteria is None:
        raise click.UsageError("--only-criteria deals from criteria files' cards alone: give them with --criteria")


def band_text(difficulty: str, criteria: Library | None, only: bool) -> str:
    """The cards a difficulty deals from, in words: "criteria cards 1-22", "+ 6 of criteria files", "…alone"."""
    users = 0 if criteria is None else len(criteria.user_cards)
    if only:
        return f"the {plural(users, 'criteria card')} of the criteria files"
    more = f" and the {plural(users, 'card')} of the criteria files" if users else ""
    return f"criteria cards 1-{DIFFICULTIES[difficulty]}{more}"


def rating_place_options(when: str = "") -> Any:
    """``--workers``, ``--scheduler`` and ``--memory``: where many problems are rated, within what memory
    (``generate --rate`` and ``booklet``); ``when`` opens each help text (``"With --rate: "``)."""
    def add(f: Any) -> Any:
        f = memory_option(when)(f)
        f = click.option("--scheduler", type=SCHEDULER, default=None, metavar="ADDRESS",
                         help=f"{when}{'r' if when else 'R'}ate on the Dask cluster whose scheduler is at ADDRESS "
                              "(tcp://host:8786; pip install 'tmphys[cluster]').")(f)
        return click.option("--workers", type=AsciiIntRange(1, 1024), default=None, metavar="N",
                            help=f"{when}{'p' if when else 'P'}rocesses rating problems side by side (default: "
                                 "every core).")(f)
    return add


def rating_place(memory: int | None, workers: int | None, scheduler: str | None, count: int) -> RatingPlan:
    """Where ``count`` problems are rated, within the command's memory (``--memory``): the workers that fit and
    each one's share (``budget.rating_plan``), said on stderr in one line when fewer than asked for or every core
    (a Dask cluster's workers keep to their own limits)."""
    budget = command_memory(memory)
    plan = rating_plan(budget, default_workers() if workers is None else workers, count)
    if plan.note and scheduler is None:
        click.echo(plan.note, err=True)
    return plan


def _one_by_one(first: Problem, count: int, draw: Callable[[], Problem]) -> Iterator[Problem]:
    """``count`` different problems, one at a time as ``draw`` draws each (the same ones ``generate`` draws in one
    batch, from the same random numbers): each is printed, then let go, so a long run prints as it goes in memory that
    does not grow with ``--count``."""
    seen = {game_key(first)}
    yield first
    made = 1
    while made < count:
        try:
            problem = draw()
        except ProblemError as e:
            raise click.ClickException(f"after {plural(made, 'problem')}: {e}") from None
        key = game_key(problem)
        if key in seen:  # the batch skips a repeat and draws on: so do we
            continue
        seen.add(key)
        made += 1
        yield problem


def _entry(problem: Problem, answer: bool, rated: bool, rating: tuple[Fraction, Fraction] | None) -> dict[str, Any]:
    """One problem as JSON: its line, cards, verification cards, what the player faces, and the extras asked for."""
    assert problem.dealt is not None
    entry: dict[str, Any] = {
        "text": problem_text(problem),
        "mode": problem.mode,
        "criteria_cards": [list(cs) for cs in problem.cards],
        "verification_cards": [d.label(problem.colour) for d in problem.dealt],
        "colour": problem.colour,
        "hidden_assignments": sum(h.weight for h in problem.hidden),
        "possible_codes": len({h.code for h in problem.hidden}),
    }
    if answer:
        entry["code"] = str(problem.solution())
    if rated:
        entry["optimal_expected"] = None if rating is None else {
            "rounds": float(rating[0]), "questions": float(rating[1]),
            "rounds_fraction": fraction_text(rating[0]), "questions_fraction": fraction_text(rating[1])}
    return entry


#: Problems rated at once per worker (``--rate``): enough to keep every worker busy, few enough to print as it goes.
RATE_BATCH = 16


def _rated(problems: Iterator[Problem], with_rating: bool, seconds: float | None, steps: int | None,
           plan: RatingPlan | None, scheduler: str | None, progress: Any = None,
           steps_seen: SharedSteps | None = None) -> Iterator[tuple[Problem, tuple[Fraction, Fraction] | None]]:
    """Each problem with its rating (``rate``'s: None when not proven within the budget), in order; rated in batches on
    ``plan``'s workers or a Dask ``scheduler`` (``rate_all``), the same ratings as one by one with ``--steps``."""
    if not with_rating or plan is None:
        yield from ((p, None) for p in problems)
        return
    size = RATE_BATCH * plan.workers if scheduler is None else 16 * RATE_BATCH
    batch: list[Problem] = []
    for p in itertools.chain(problems, [None]):
        if p is not None:
            batch.append(p)
        if batch and (p is None or len(batch) >= size):
            try:
                ratings = rate_all(batch, steps, seconds, plan.workers, scheduler, progress, bounds=False,
                                   share=plan.share, steps_seen=steps_seen)
            except RuntimeError as e:
                raise click.ClickException(str(e)) from None
            for q, r in zip(batch, ratings):
                yield q, None if not r["exact"] else (Fraction(r["rounds_fraction"]), Fraction(r["questions_fraction"]))
            batch = []


@click.command(help="Generate problems: criteria cards and verification cards that make a valid game (exactly one "
                    "code, no redundant verifier), drawn as the problem book's are, reproducibly from a seed. Each "
                    "problem is one line on stdout that solve, play and prove read back:\n\n"
                    "\b\n"
                    "  tmphys generate --seed 7\n"
                    "  tmphys generate --mode nightmare --verifiers 5 --difficulty hard --count 10 --rate\n"
                    "  tmphys play $(tmphys generate --seed 7)")
@draw_options
@click.option("--colour", type=click.Choice(ID_COLOURS), default=None,
              help="Colour of the verification card IDs (default: drawn for each problem).")
@click.option("--count", type=AsciiIntRange(1, 10_000), default=1, show_default=True,
              help="How many different problems.")
@click.option("--seed", type=AsciiIntRange(0, MAX_SEED), default=None,
              help="Seed of the draws: the same seed gives the same problems (default: drawn, and printed).")
@click.option("--min-codes", type=AsciiIntRange(1, 125), default=2, show_default=True,
              help="The fewest codes a problem leaves possible before any question (1: also problems whose criteria "
                   "cards alone fix the code).")
@click.option("--answer", is_flag=True, help="Also give each problem's code.")
@click.option("--rate", "with_rating", is_flag=True,
              help="Also give each problem's difficulty: the optimal rounds and questions on average.")
@click.option("--time-limit", type=DECIMAL, callback=_seconds, default=10.0, show_default=True, metavar="SECONDS",
              help="With --rate: the exact search's time per problem (above 0); a problem not rated in time says so.")
@click.option("--steps", type=AsciiIntRange(1, 10**12), default=None, metavar="N",
              help="With --rate: give the exact search N steps per problem instead of a time, so the ratings are the "
                   "same on any machine, however loaded.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@rating_place_options("With --rate: ")
@criteria_options
def generate_cmd(mode: str, verifiers: int, difficulty: str, colour: str | None, count: int, seed: int | None,
                 min_codes: int, answer: bool, with_rating: bool, time_limit: float, steps: int | None,
                 as_json: bool, workers: int | None = None, scheduler: str | None = None,
                 memory: int | None = None, criteria: Library | None = None, only_criteria: bool = False) -> None:
    """Draw the problems, then write them: lines (the header, with the seed, on stderr) or one JSON object."""
    given = one_budget(steps)
    only_files(criteria, only_criteria)
    if not with_rating and (given or steps is not None):
        raise click.UsageError(f"{'--steps' if steps is not None else '--time-limit'} is what each problem's rating "
                               "may take: give it with --rate")
    if not with_rating and (workers is not None or scheduler is not None):
        raise click.UsageError(f"{'--workers' if workers is not None else '--scheduler'} is where the ratings are "
                               "made: give it with --rate")
    if not with_rating and memory is not None:
        raise click.UsageError("--memory is what the ratings may take: give it with --rate")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    rng = random.Random(seed)

    def draw() -> Problem:
        return generate(mode, verifiers, difficulty, rng, count=1, colour=colour, min_codes=min_codes,
                        criteria=criteria, only_files=only_criteria)[0]

    try:  # the first problem now: a band that yields none is a usage error before anything is printed
        first = draw()
    except ProblemError as e:
        raise click.UsageError(str(e)) from None
    dealt_from = band_text(difficulty, criteria, only_criteria)
    header = (f"{mode.capitalize()}, {verifiers} verifiers, {difficulty} ({dealt_from}), seed {seed}"
              f"{'' if count == 1 else f', {count} problems'}")
    if not as_json:
        click.echo(f"# {header}", err=True)
    plan = rating_place(memory, workers, scheduler, count) if with_rating else None
    entries = []
    bar = click.progressbar(length=count, label="generating", file=sys.stderr) \
        if count > 1 and at_terminal() and not with_rating else None
    done = [0]  # ratings made; at a terminal, a progress line shows them, with their steps, as they go
    seen = rating_steps(plan.workers) if plan is not None and at_terminal() and scheduler is None \
        else None

    def rated(n: int) -> None:
        done[0] += n

    line = progress_line(rating_text(f"generate ({header})", done, count, seen and seen.total)) if with_rating \
        else contextlib.nullcontext(click.echo)
    with line as echo:
        for p, rating in _rated(_one_by_one(first, count, draw),
                                with_rating, None if steps else time_limit, steps, plan, scheduler, rated, seen):
            if bar is not None:
                bar.update(1)
            entries.append(_entry(p, answer, with_rating, rating))
            if as_json:
                continue
            notes = []
            if answer:
                notes.append(f"code {entries[-1]['code']}")
            if with_rating:
                r = entries[-1]["optimal_expected"]
                budget = plural(f"{steps:,}", "step") if steps else "the time limit"
                notes.append(f"not rated within {budget}" if r is None else
                             f"optimal {r['rounds']:.2f} rounds, {r['questions']:.2f} questions on average")
            echo(entries[-1]["text"] + (f"  # {'; '.join(notes)}" if notes else ""))
    if as_json:
        click.echo(json_text({"seed": seed, "mode": mode, "verifiers": verifiers, "difficulty": difficulty,
                               "problems": entries}))
