"""The ``solve``, ``play`` and ``prove`` commands: the solver at the command line and at a real table.

A PROBLEM is given as arguments (quoted as one string or as several words, the same thing):
the app's text ``A 4 447 B 9 646 C 11 566 D 14 322``, a problem-book line
``"1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"``, or criteria cards only (``--cards 3 7 10 14``,
``--cards 13/17 15/45 27/22 20/8``, ``--nightmare --cards 3 7 10 14``).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from tmphys.cli.cards import output_file, picture_files
from tmphys.cli.criteria import criteria_option
from tmphys.cli.memory import command_memory, memory_option
from tmphys.cli.numbers import DECIMAL, AsciiIntRange
from tmphys.cli.progress import bounds_text, progress_line, search_text, seconds_text
from tmphys.cli.typed import typed_line
from tmphys.game.codes import Code, CodeError
from tmphys.game.criteria import Library
from tmphys.game.problems import Problem, ProblemError, parse_problem
from tmphys.solve.budget import Share, TimeLimitReached, solve_plan, wall_clock_limit
from tmphys.solve.progress import search_progress
from tmphys.solve.report import ReportContext, codes_possible, report_lines, solve_result
from tmphys.solve.runner import ctrl_c_stops, optimal_value, optimal_values
from tmphys.solve.solver import OBJECTIVES, Deduction, Solver, tree_text
from tmphys.solve.table import Refused, TableGame
from tmphys.text import PATH_LIMIT, json_text, path_text, plural, quote, shapes

#: Default time limit (seconds) for the exact search, per command (solve) or per move (play).
DEFAULT_TIME_LIMIT = 60.0
#: With ``--steps N``: the steps the greedy strategy's value gets to be worked out in: a twentieth of N, but at least
#: this many, or N where N is less (a small budget is a quick look, not twenty thousand greedy steps in Python).
UPPER_STEPS = 20_000
#: ``tmphys play``'s exit status when its input ends before the code is known (Ctrl-C stays 130).
EXIT_END_OF_INPUT = 1
#: Exit status of a command whose whole run passed its ``--time-limit`` (``prove``), as ``timeout`` reports one.
TIME_LIMIT_REACHED = 124

_PROBLEM_HELP = """
PROBLEM is the app's text, a problem-book line, or criteria cards; as one quoted string or as several words:

\b
  tmphys {cmd} A 4 447 B 9 646 C 11 566 D 14 322     (app: card then ID, per verifier)
  tmphys {cmd} "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"   (problem book)
  tmphys {cmd} --cards 3 7 10 14                      (Classic, criteria cards only)
  tmphys {cmd} --cards 13/17 15/45 27/22 20/8         (Extreme: two cards per verifier)
  tmphys {cmd} --nightmare --cards 3 7 10 14          (Nightmare: pairing unknown)

Verification card IDs may be written 447, ◊447, G447, O577, B416 or P585.
"""


_PROVE_HELP = """
PROBLEM must name the verification cards: the app's text or a problem-book line, as one quoted string or as
several words:

\b
  tmphys prove 241 A 4 447 B 9 646 C 11 566 D 14 322      (app: card then ID, per verifier)
  tmphys prove 515 "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"   (problem book)
  tmphys prove 111 A 13 17 O496 B 15 45 O369 C 27 22 O338 D 20 8 O750   (Extreme: two cards, then the ID)
  tmphys prove 411 --nightmare 17 34 36 44 O439 O232 O550 O484   (Nightmare: pairing unknown)
  tmphys prove 411 "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"   (Nightmare, problem book)

Verification card IDs may be written 447, ◊447, G447, O577, B416 or P585.
"""


def _problem(words: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, criteria: Library | None = None,
             example: str = "'A 4 447 B 9 646 C 11 566 D 14 322' or --cards 3 7 10 14") -> Problem:
    """Read and validate PROBLEM; every failure becomes one usage line."""
    if not words:
        raise click.UsageError(f"give a PROBLEM, e.g. {example}")
    try:
        return parse_problem(list(words), nightmare=nightmare, extreme=extreme, cards_only=cards, criteria=criteria)
    except ProblemError as e:
        hint = "; a card of your own? give its file with --criteria FILE" \
            if criteria is None and str(e).startswith("no criteria card") else ""
        raise click.UsageError(f"problem: {e}{hint}") from None


def _machine(layout: str, criteria: Library | None = None) -> Any:
    """The machine on a layout (name or path), with the verification cards of ``criteria``."""
    from tmphys.cards.layout import LayoutError
    from tmphys.cards.machine import Machine

    try:
        return Machine(layout, criteria)
    except LayoutError as e:  # a missing or broken layout file is a usage error; the message names the layout
        raise click.UsageError(str(e)) from None
    except Exception as e:
        raise click.UsageError(f"layout {quote(layout)}: {e}") from None


def _problem_options(f: Any) -> Any:
    f = criteria_option(f)
    f = click.option("--extreme", is_flag=True, help="Cards-only Extreme given as plain numbers, in pairs.")(f)
    f = click.option("--nightmare", is_flag=True, help="Nightmare: the criteria cards' pairing is unknown.")(f)
    f = click.option("--cards", "cards", is_flag=True,
                     help="PROBLEM is criteria cards only (no verification cards).")(f)
    return click.argument("problem", nargs=-1)(f)


def greedy_steps(steps: int) -> int:
    """The steps ``solve --steps N`` gives the greedy strategy's value, e.g. ``greedy_steps(1_000) == 1_000``."""
    return max(steps // 20, min(UPPER_STEPS, steps))


def _seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--time-limit``: a finite number of seconds above zero."""
    if not math.isfinite(value) or value <= 0:
        raise click.BadParameter(f"want a number of seconds above 0, not {value:g}", ctx, param)
    return value


def some_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """An optional ``--time-limit``: none, or a finite number of seconds above zero."""
    return None if value is None else _seconds(ctx, param, value)


def one_budget(steps: int | None) -> bool:
    """Whether the command line gave ``--time-limit``; refused (usage error) beside ``--steps``: a search is held to
    a time or to a budget of steps, not both."""
    given = click.get_current_context().get_parameter_source("time_limit") is click.core.ParameterSource.COMMANDLINE
    if given and steps is not None:
        raise click.UsageError("give --time-limit or --steps, not both")
    return given


def _time_limit_option(default: float, per: str) -> Any:
    return click.option("--time-limit", type=DECIMAL, callback=_seconds, default=default, show_default=True,
                        metavar="SECONDS",
                        help=f"Stop the exact search after this long ({per}; above 0) and play on with the best "
                             "strategy found (the search's own, or greedy), saying so.")


@click.command(help="Solve a problem optimally; with verification cards, play it through the machine."
               + _PROBLEM_HELP.format(cmd="solve"))
@_problem_options
@click.option("--objective", type=click.Choice(OBJECTIVES), default="expected", show_default=True,
              help="Best on average over the hidden assignments, or best in the worst case.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the machine stacks on.")
@click.option("--tree", type=click.Choice(["text", "json"]), default=None,
              help="Also print the whole optimal decision tree (json: stdout holds the tree alone, the report "
                   "goes to stderr; with --json, the tree is the JSON's \"tree\" either way).")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a printable strategy chart (PDF): one page, more when the tree is too big to read on "
                   "one.")
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Write a self-contained page for a game at the table: a note sheet, the codes and criteria still "
                   "possible, and the solved strategy's next move (works offline).")
@_time_limit_option(DEFAULT_TIME_LIMIT, "in all")
@click.option("--steps", type=AsciiIntRange(1, 10**12), default=None, metavar="N",
              help="Instead of a time limit, give each objective's exact search N steps (and the play, the greedy "
                   "strategy's value, each short search on the side their own budgets): the same output on any "
                   "machine with the compiled search, however loaded.")
@memory_option()
def solve(problem: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, objective: str,
          as_json: bool, layout: str, tree: str | None, chart: Path | None, time_limit: float,
          steps: int | None, html: Path | None = None, memory: int | None = None,
          criteria: Library | None = None) -> None:
    """Solve PROBLEM: optimal values, the play through the machine, the decision tree, the chart, the page."""
    one_budget(steps)
    prob = _problem(problem, cards, nightmare, extreme, criteria)
    if html is not None:
        html = output_file(str(html), "--html")
    if chart is not None:
        if chart.suffix.lower() != ".pdf":
            raise click.UsageError(f"--chart wants a .pdf file, not {quote(chart.name)}")
        chart = output_file(str(chart), "--chart")
    machine = _machine(layout, criteria)  # refused here when unknown, even with no verification cards to stack
    if prob.dealt is None:
        machine = None
    # with a time limit, the second objective may go on in a second process: the budget is split between the two
    # (with less than a search needs in each half, it goes on in this process, after the first)
    started = time.monotonic()
    deduction = Deduction(prob)
    plan = solve_plan(command_memory(memory), apart=not steps, assignments=len(deduction.hidden))
    solvers = {o: Solver(deduction, o, config=plan.here.config()) for o in OBJECTIVES}
    solver = solvers[objective]

    def describe(seconds: float) -> str:
        """The progress line: the problem, the time, the steps of the searches here (and the bound so far)."""
        total = sum(search_progress(s).steps for s in solvers.values())
        budget = f" (at most {steps:,} a search)" if steps else f" of {time_limit:g} s"
        now = search_progress(solver)
        return (f"searching {seconds_text(seconds)}{'' if steps else budget}, "
                f"{search_text(replace(now, steps=total), objective)}{budget if steps else ''}: "
                f"{prob.describe()}{bounds_text(now, objective)}")

    # at a terminal, from a couple of seconds on; the first Ctrl-C stops the searches and keeps what they found
    with progress_line(describe), ctrl_c_stops(list(solvers.values())) as interrupted:
        if steps:  # a budget of work: each search on its own, one after the other, so nothing depends on time
            for s in solvers.values():
                s.set_step_limit(steps)
            optimal = {o: optimal_value(solvers[o], None, upper_steps=greedy_steps(steps))
                       for o in OBJECTIVES}
        else:
            # the exact search gets most of the time; working out the greedy strategy's value, if needed, the rest
            optimal = optimal_values(prob, solvers, objective, 0.85 * time_limit,
                                     upper_seconds=min(max(0.5, 0.05 * time_limit), 0.1 * time_limit),
                                     apart_config=None if plan.apart is None else plan.apart.config())
        if steps and optimal[objective]["exact"]:
            # proven: the play and the tree meet states the proof did not search in their form (Nightmare's rounds that
            # open in another than the canonical form), and get a budget of their own for them
            solver.set_step_limit(steps)
            solver.stopped = False
        result = solve_result(prob, deduction, optimal, objective, solver, machine, layout)
        decision_tree = solver.tree() if (tree or chart or html) else None
    if html is not None:
        from tmphys.files import write_atomic
        from tmphys.web.companion_page import companion_html

        try:
            write_atomic(html, companion_html(prob, decision_tree or {}, objective))
        except OSError as e:
            raise click.ClickException(f"cannot write --html {quote(html, PATH_LIMIT)}: {e.strerror or e}") from None
    if chart is not None:
        from tmphys.print.chart import write_chart

        try:
            write_chart(chart, prob, decision_tree, objective, optimal)
        except OSError as e:
            raise click.ClickException(f"cannot write --chart {quote(chart, PATH_LIMIT)}: {e.strerror or e}") from None
    if as_json:
        if tree:
            result["tree"] = decision_tree
        if interrupted():
            result["interrupted"] = True  # by Ctrl-C: the figures not proven are what the searches had found
        click.echo(json_text(result))
        return
    # with --tree json, stdout is the tree alone (it parses as JSON); the report goes to stderr
    def say(line: str) -> None:
        click.echo(line, err=tree == "json")

    context = ReportContext(objective, steps, time_limit, time.monotonic() - started, solver.stopped, layout,
                            interrupted())
    for line in report_lines(result, lambda: decision_tree or solver.tree(), context):
        say(line)
    if tree == "text":
        say(tree_text(decision_tree or {}))
    elif tree == "json":
        click.echo(json_text(decision_tree))
    if chart is not None:
        say(f"Wrote {path_text(chart)}")
    if html is not None:
        say(f"Wrote {path_text(html)}")


_ANSWERS = {"y": True, "yes": True, "✓": True, "✔": True, "v": True, "ok": True, "pass": True, "p": True,
            "n": False, "no": False, "✗": False, "✘": False, "x": False, "fail": False, "f": False}


@click.command(help="Play a real table game: it proposes, you type what each stack showed."
               + _PROBLEM_HELP.format(cmd="play")
               + "\nAnswers: y/✓ (pass) or n/✗ (fail); 'A y' reports verifier A instead; 'end' ends the round "
                 "(after at least one question); 'undo' takes back the last answer, end of round or proposal; "
                 "'propose 123' proposes your own code instead (before the round's first question); 'quit' stops. "
                 "Each verifier is asked at most once a round. "
                 f"Exit status 0 when the code is found or at 'quit', {EXIT_END_OF_INPUT} when the input ends "
                 "first, 130 on Ctrl-C.")
@_problem_options
@click.option("--objective", type=click.Choice(OBJECTIVES), default="expected", show_default=True,
              help="Best on average, or best in the worst case.")
@_time_limit_option(30.0, "per move")
@click.option("--steps", type=AsciiIntRange(1, 10**12), default=None, metavar="N",
              help="Instead of a time limit, give each move's search N steps: the same answers then get the same "
                   "moves on any machine, however loaded.")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout of the stacks at the table (with verification cards: an answer a stack cannot show is "
                   "refused).")
@memory_option()
def play_cmd(problem: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, objective: str,
             time_limit: float, steps: int | None, layout: str, memory: int | None = None,
             criteria: Library | None = None) -> None:
    """Interactive play: propose, read what the person saw, narrow the assignments, until the code is known."""
    one_budget(steps)
    prob = _problem(problem, cards, nightmare, extreme, criteria)
    machine = _machine(layout, criteria)
    budget = command_memory(memory)
    d = Deduction(prob)
    solver = Solver(d, objective, config=Share(budget, assignments=len(d.hidden)).config())
    limit = f"after its {plural(f'{steps:,}', 'step')}" if steps else f"at the {time_limit:g} s limit"

    def timed(what: str, move: Any, *args: Any) -> tuple[Any, str]:
        """One move within the time limit (or its steps), and the line that says when it is not a proven best
        (the best strategy the search found, or the greedy strategy's), to print after the move's own."""
        solver.stopped, solver.fallback = False, None
        if steps:
            solver.set_time_limit(None)
            solver.set_step_limit(steps)
        else:
            solver.set_time_limit(time_limit)
        out = move(*args)
        if not solver.stopped:
            return out, ""
        whose = ("from the best strategy the search found" if solver.fallback == "search"
                 else "the greedy strategy's")
        return out, f"  (search stopped {limit}: {what} is {whose}, not proven optimal)"
    # with its verification cards known, an answer the card cannot show is a misread stack, refused
    game = TableGame(prob, d, machine if prob.dealt is not None else None)
    letters = ", ".join(prob.verifiers)
    budget = plural(f"{steps:,}", "step") if steps else f"up to {time_limit:g} s"

    def thinking() -> None:
        """At a terminal, a word on stderr before a move that may take a while (a search of up to the limit)."""
        if sys.stderr is not None and sys.stderr.isatty():
            click.echo(f"  (thinking: {budget}…)", err=True)

    click.echo(f"Problem: {prob.describe()}")
    while not game.known:
        if game.needs_proposal:
            thinking()
            proposal, unproven = timed("this proposal", solver.best_proposal, game.now.state)
            assert proposal is not None
            game.open_round(proposal)
            click.echo(f"\nRound {game.now.round_no}: {codes_possible(game.codes, every=True)}")
            click.echo(f"Propose {shapes(proposal)}.")
            if unproven:
                click.echo(unproven)
        now = game.now
        assert now.proposal is not None
        thinking()
        best, unproven = timed("the next move", solver.best_question, now.state, now.proposal, now.left, now.opened)
        if unproven:
            click.echo(unproven)
        if best is None:
            click.echo(f"  Best now: end round {now.round_no} here (a new proposal tells more).")
            game.now = replace(now, proposal=None)
            continue
        while True:  # a line that cannot be read is refused, and asked for again
            try:
                text = typed_line(f"  Next best move: ask {prob.verifiers[best]}. What did the stack show")
                break
            except Refused as e:
                click.echo(f"  {e}")
        if text is None:
            click.echo()
            click.echo("tmphys: end of input: game stopped", err=True)
            raise SystemExit(EXIT_END_OF_INPUT)
        low = text.lower()
        parts = low.split()
        if low in ("q", "quit", "exit"):
            click.echo("Stopped.")
            return
        try:
            if low in ("undo", "u"):
                what = game.undo()
                click.echo(f"  Took back {what}. {_where(game)}")
            elif parts and parts[0] == "propose":
                chosen = game.parse_proposal(parts[1:])
                game.propose_instead(chosen)
                click.echo(f"  Propose {shapes(chosen)} instead.")
            elif low in ("end", "e"):
                game.end_round(best)
            else:
                verifier, word = best, low
                if len(parts) == 2 and len(parts[0]) == 1 and parts[0].isalpha():
                    letter = parts[0].upper()
                    if letter not in prob.verifiers:
                        raise Refused(f"There is no verifier {letter}: this problem has verifiers {letters}.")
                    verifier, word = prob.verifiers.index(letter), parts[1]
                if word not in _ANSWERS:
                    raise Refused(f"Type y/✓ or n/✗ (or '{prob.verifiers[0]} y' for verifier {prob.verifiers[0]}, "
                                  "'end', 'undo', 'propose CODE', 'quit').")
                mark = game.answer(verifier, _ANSWERS[word])
                click.echo(f"  {mark} — {codes_possible(game.codes, every=True)}")
                if game.now.left == 0 and not game.known:
                    click.echo(f"  Round {game.now.round_no} over: its three questions are asked.")
        except Refused as e:
            click.echo(f"  {e}")
    click.echo(f"\nThe code is {shapes(game.codes[0])}: {plural(game.now.round_no, 'round')}, "
               f"{plural(game.now.questions, 'question')}.")


def _where(game: TableGame) -> str:
    """Where the game is back to after 'undo', in one line."""
    now, verifiers = game.now, game.problem.verifiers
    asked = ", ".join(f"{verifiers[v]} {'✓' if ok else '✗'}" for v, ok in now.asked.items())
    proposal = "no proposal yet" if now.proposal is None else f"proposal {shapes(now.proposal)}"
    return (f"Round {now.round_no}, {proposal}; asked: {asked or 'nothing yet'} — "
            f"{codes_possible(game.codes, every=True)}")


play_cmd.name = "play"


def _refuse_cards(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """``prove --cards``: refused in one line (prove stacks the code over the verification cards)."""
    if value:
        raise click.UsageError("prove needs the verification cards (e.g. A 4 447 B 9 646 C 11 566 D 14 322): "
                               "--cards gives criteria cards only", ctx)
    return value


def _prove_picture(paths: dict[str, Path], deck: Any, proposal: Code, prob: Problem) -> None:
    """Write every verifier's stack side by side, each captioned with its letter, card and mark, its open cell
    ringed, one legend under the row (``png``/``svg`` by kind)."""
    from tmphys.cards.stack import read_stack
    from tmphys.files import write_atomic
    from tmphys.print.stack_picture import picture_png, picture_svg, side_by_side, stack_picture

    stacks = []
    for letter, card in zip(prob.verifiers, prob.dealt or ()):
        view = read_stack(deck, proposal, card)
        caption = f"{letter} {card.label(prob.colour)}: {'✓ pass' if view.mark == 'pass' else '✗ fail'}"
        stacks.append(stack_picture(deck, proposal, card, caption=caption, ring=view.open_cells,
                                    label=card.label(prob.colour), with_key=False))
    labels = " ".join(card.label(prob.colour) for card in prob.dealt or ())
    picture = side_by_side(stacks, f"tmphys {deck.layout.name}: {proposal} over verification cards {labels}")
    for kind, path in paths.items():
        try:
            write_atomic(path, picture_png(picture) if kind == "png" else picture_svg(picture))
        except OSError as e:
            raise click.ClickException(f"cannot write --{kind} {quote(path, PATH_LIMIT)}: {e.strerror or e}") from None


@click.command(help="Show the stacks that prove CODE passes every verifier of PROBLEM." + _PROVE_HELP)
@click.argument("code")
@click.argument("problem", nargs=-1)
@click.option("--nightmare", is_flag=True, help="Nightmare: the criteria cards' pairing is unknown.")
@click.option("--cards", is_flag=True, hidden=True, expose_value=False, callback=_refuse_cards)
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the machine stacks on.")
@click.option("--png", "png_text", default=None, metavar="FILE",
              help="Also draw each verifier's stack, side by side, as a PNG picture.")
@click.option("--svg", "svg_text", default=None, metavar="FILE",
              help="Also draw each verifier's stack, side by side, as an SVG picture (mm).")
@click.option("--time-limit", type=DECIMAL, callback=some_seconds, default=None, metavar="SECONDS",
              help="Stop after this long (above 0), the whole run: one line and exit status "
                   f"{TIME_LIMIT_REACHED}, no picture written (stacking takes well under a second; a picture more).")
@criteria_option
def prove(code: str, problem: tuple[str, ...], nightmare: bool, layout: str, png_text: str | None = None,
          svg_text: str | None = None, time_limit: float | None = None, criteria: Library | None = None) -> None:
    """Stack CODE over each dealt verification card through the machine and show what each stack shows."""
    try:
        with wall_clock_limit(time_limit):
            _prove(code, problem, nightmare, layout, png_text, svg_text, criteria)
    except TimeLimitReached:
        stop = click.ClickException(f"prove stopped at its --time-limit of {time_limit:g} s")
        stop.exit_code = TIME_LIMIT_REACHED
        raise stop from None


def _prove(code: str, problem: tuple[str, ...], nightmare: bool, layout: str, png_text: str | None,
           svg_text: str | None, criteria: Library | None) -> None:
    try:
        proposal = Code.parse(code)
    except CodeError as e:
        raise click.UsageError(str(e)) from None
    prob = _problem(problem, False, nightmare, False, criteria,
                    example="'A 4 447 B 9 646 C 11 566 D 14 322' (criteria card then verification card, per verifier)")
    if prob.dealt is None:
        raise click.UsageError("prove needs the verification cards (e.g. A 4 447 B 9 646 C 11 566 D 14 322), not "
                               "only criteria cards")
    from tmphys.cards.stack import read_stack

    pictures = picture_files(png_text, svg_text)
    machine = _machine(layout, criteria)
    click.echo(f"Proving {shapes(proposal)} on layout {path_text(layout)}: stack ▲{proposal.blue} ■{proposal.yellow} "
               f"●{proposal.purple} over each verification card.")
    failed = []
    for letter, card in zip(prob.verifiers, prob.dealt):
        passed = machine.ask(proposal, card)
        cells = read_stack(machine.deck, proposal, card).open_cells
        click.echo(f"  {letter} {card.label(prob.colour)}: open cell {','.join(map(str, cells))} shows "
                   f"{'✓ pass' if passed else '✗ fail'}")
        if not passed:
            failed.append(letter)
    if pictures:
        _prove_picture(pictures, machine.deck, proposal, prob)
    if failed:
        click.echo(f"{proposal} fails {'verifiers' if len(failed) > 1 else 'verifier'} {' '.join(failed)}: "
                   "not the code.")
        raise SystemExit(1)
    click.echo(f"{proposal} passes every verifier: it is the code.")
