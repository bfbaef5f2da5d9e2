"""``tmphys booklet``: a printable booklet of generated problems, rated, easiest first, answers at the end.

>>> tmphys booklet --mode classic --difficulty easy --count 20 --seed 1 --out booklet.pdf   # doctest: +SKIP
"""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Any

import click

from tmphys.art.params import PAPERS
from tmphys.cli.cards import path_problem
from tmphys.cli.generate import MAX_SEED, criteria_options, draw_options, only_files, rating_place, rating_place_options
from tmphys.cli.language import lang_option
from tmphys.cli.numbers import DECIMAL, AsciiIntRange
from tmphys.cli.progress import at_terminal, progress_line, rating_text
from tmphys.cli.solve import some_seconds
from tmphys.files import check_writable, describe, write_atomic
from tmphys.game.criteria import Library
from tmphys.game.generate import generate, problem_text
from tmphys.game.problems import Problem, ProblemError, parse_problem
from tmphys.solve.runner import rate_all, rating_steps
from tmphys.text import json_text, path_text

#: Most problems a booklet holds.
MAX_COUNT = 500
#: The default search budget per problem: settles every Classic, Extreme and Nightmare problem of 4 verifiers
#: measured in a fraction of a second; a harder one is printed with its bounds.
DEFAULT_STEPS = 1_000_000


def cards_target(text: str, layout_name: str, paper: str, lang: str = "en",
                 criteria: Library | None = None) -> tuple[Any, Path]:
    """``--cards DIR`` checked before any rating: the build's plan and the folder it may replace (usage errors)."""
    from tmphys.print.build import BuildOptions, plan
    from tmphys.print.folder import BuildError, check_target

    if not text.strip():
        raise click.UsageError("--cards is empty: give the folder to write the cards into")
    target = Path(text)
    try:
        the_plan = plan(BuildOptions(layout=layout_name, paper=paper.lower(), lang=lang, criteria=criteria))
        check_target(target)
        check_writable(target, directory=True)
    except BuildError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise click.UsageError(path_problem("--cards", text, e)) from None
    return the_plan, target


def write_cards(card_plan: tuple[Any, Path], entries: list[dict[str, Any]]) -> None:
    """Write the cards of the booklet's problems (``entries``) into the ``--cards`` folder, as ``build --for``."""
    from tmphys.print.build import game_files
    from tmphys.print.folder import BuildError, write_tree
    from tmphys.print.selection import for_problems

    the_plan, target = card_plan
    problems = [parse_problem(e["line"], criteria=the_plan.options.criteria) for e in entries]
    selection = for_problems(problems, [f"Problem {e['number']}" for e in entries])
    files = game_files(the_plan, selection)
    try:
        write_tree(files, target)
    except BuildError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write {path_text(target)}/: {describe(e)}") from None
    click.echo(f"wrote {path_text(target)}/ (the cards of the {len(entries)} problems, {the_plan.paper.name}, layout "
               f"{the_plan.layout.label}; index.pdf says where each card is)", err=True)


def _sort_key(entry: tuple[int, dict[str, Any]]) -> tuple:
    """Easiest first: by rounds then questions (a bound by its value; one not rated at all last), then drawn order."""
    k, r = entry
    if r.get("rounds") is None:
        return (1, 0.0, 0.0, k)
    return (0, r["rounds"], r["questions"], k)


def rated_problems(problems: list[Problem], ratings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The problems with their ratings, easiest first, numbered 1.. in that order (JSON-ready)."""
    order = sorted(enumerate(ratings), key=_sort_key)
    out = []
    for number, (k, r) in enumerate(order, start=1):
        p = problems[k]
        assert p.dealt is not None
        rating = {"rounds": r["rounds"], "questions": r["questions"], "exact": bool(r["exact"])}
        if r.get("rounds_fraction") is not None:
            rating.update(rounds_fraction=r["rounds_fraction"], questions_fraction=r["questions_fraction"])
        if not r["exact"] and r.get("lower_bound"):
            rating["lower_bound"] = r["lower_bound"]
        out.append({"number": number, "line": problem_text(p), "answer": str(p.solution()), "mode": p.mode,
                    "criteria_cards": [list(cs) for cs in p.cards],
                    "verification_cards": [str(d.ids[p.colour]) for d in p.dealt], "colour": p.colour,
                    "rating": rating})
    return out


@click.command(help="Write a printable booklet of generated problems (PDF), each with its criteria cards per "
                    "verifier, the verification cards to deal, and its rating: the optimal rounds and questions on "
                    "average over its card set, proven within the --steps budget (else a bound). Easiest first; "
                    "the answers at the end, upside down. The same seed and --steps give the same bytes (without "
                    "--time-limit).\n\n"
                    "\b\n"
                    "  tmphys booklet --mode classic --difficulty easy --count 20 --seed 1 --out booklet.pdf\n"
                    "  tmphys booklet --mode nightmare --verifiers 5 --count 10 --seed 7 --json")
@draw_options
@click.option("--count", type=AsciiIntRange(1, MAX_COUNT), default=20, show_default=True, help="Problems.")
@click.option("--seed", type=AsciiIntRange(0, MAX_SEED), default=None,
              help="Seed of the draws: the same seed gives the same booklet (default: drawn, and printed).")
@click.option("--steps", type=AsciiIntRange(1, 10**12), default=DEFAULT_STEPS, show_default=True, metavar="N",
              help="Search steps each problem's rating may take: a budget, not a time, so the booklet is the same "
                   "on any machine.")
@click.option("--time-limit", type=DECIMAL, callback=some_seconds, default=None, metavar="SECONDS",
              help="Also stop each problem's rating after this long (above 0), its bound given when it stops: a "
                   "bound on each problem, not on the whole run, and the booklet then depends on the machine.")
@click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="a4", show_default=True,
              help="Page size.")
@click.option("--out", "out_text", type=click.Path(dir_okay=False), default=None, metavar="FILE.pdf",
              help="The PDF to write.")
@click.option("--json", "as_json", is_flag=True, help="Also print the problems as one JSON object on stdout.")
@click.option("--cards", "cards_text", default=None, metavar="DIR",
              help="Also write the cards these problems use into DIR, as 'tmphys build --for' does: their "
                   "verification and criteria cards and one set of punch cards, with backs, cut files and an index.")
@click.option("--layout", "layout_name", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout of the --cards.")
@rating_place_options()
@lang_option("the booklet and the --cards")
@criteria_options
def booklet(mode: str, verifiers: int, difficulty: str, count: int, seed: int | None, steps: int, paper: str,
            out_text: str | None, as_json: bool, workers: int | None, scheduler: str | None,
            cards_text: str | None = None, layout_name: str = "classic", memory: int | None = None,
            lang: str = "en", time_limit: float | None = None, criteria: Library | None = None,
            only_criteria: bool = False) -> None:
    """Draw, rate, order and write the booklet."""
    if out_text is None and not as_json and cards_text is None:
        raise click.UsageError("give --out FILE.pdf to write the booklet (or --json for the problems, --cards DIR "
                               "for their cards)")
    only_files(criteria, only_criteria)
    card_plan = cards_target(cards_text, layout_name, paper, lang, criteria) if cards_text is not None else None
    out = Path(out_text) if out_text is not None else None
    if out is not None:
        if not out_text.strip():
            raise click.UsageError("--out is empty: give the PDF to write")
        try:
            check_writable(out)
        except OSError as e:
            raise click.UsageError(path_problem("--out", out_text, e)) from None
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    try:
        problems = generate(mode, verifiers, difficulty, random.Random(seed), count=count, criteria=criteria,
                            only_files=only_criteria)
    except ProblemError as e:
        raise click.UsageError(str(e)) from None
    heading = f"{mode.capitalize()}, {verifiers} verifiers, {difficulty}, seed {seed}, {count} problems"
    click.echo(f"# {heading}", err=True)
    plan = rating_place(memory, workers, scheduler, count)
    done = [0]
    seen = rating_steps(plan.workers) if at_terminal() and scheduler is None else None

    def rated(n: int) -> None:
        done[0] += n

    try:  # at a terminal, a line that shows the ratings and their steps as they go (from a couple of seconds on)
        with progress_line(rating_text(f"booklet ({heading})", done, count, seen and seen.total)):
            ratings = rate_all(problems, steps, time_limit, workers=plan.workers, scheduler=scheduler, progress=rated,
                               share=plan.share, steps_seen=seen)
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    entries = rated_problems(problems, ratings)
    if out is not None:
        from tmphys.lang.i18n import language
        from tmphys.print.booklet import BookletProblem, booklet_heading, booklet_pdf

        printed = [BookletProblem(e["number"], e["mode"], e["line"], e["answer"],
                                  tuple(tuple(cs) for cs in e["criteria_cards"]), tuple(e["verification_cards"]),
                                  e["colour"], e["rating"]) for e in entries]
        with language(lang):
            data = booklet_pdf(printed, booklet_heading(mode, verifiers, difficulty, seed, count),
                               PAPERS[paper.lower()], steps)
        try:
            write_atomic(out, data)
        except OSError as e:
            raise click.ClickException(f"cannot write {path_text(out)}: {describe(e)}") from None
        click.echo(f"wrote {path_text(out)} ({count} problems, {paper.lower()})", err=True)
    if card_plan is not None:
        write_cards(card_plan, entries)
    if as_json:
        click.echo(json_text({"seed": seed, "mode": mode, "verifiers": verifiers, "difficulty": difficulty,
                               "steps": steps, "problems": entries}))
