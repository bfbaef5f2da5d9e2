"""The ``solve``, ``play`` and ``prove`` commands: the solver at the command line and at a real table.

A PROBLEM is given as arguments (quoted as one string or as several words, the same thing):
the app's text ``A 4 447 B 9 646 C 11 566 D 14 322``, a problem-book line
``"1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"``, or criteria cards only (``--cards 3 7 10 14``,
``--cards 13/17 15/45 27/22 20/8``, ``--nightmare --cards 3 7 10 14``).
"""

from __future__ import annotations

import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from .codes import Code, CodeError
from .problems import Problem, ProblemError, parse_problem
from .solver import OBJECTIVES, QUESTIONS_PER_ROUND, Deduction, SearchStopped, Solver, play, tree_text

#: Default time limit (seconds) for the exact search, per command (solve) or per move (play).
DEFAULT_TIME_LIMIT = 60.0
#: ``tmphys solve``: how long each objective's search first runs in this process before, if neither is done,
#: the other goes on in a second process (starting one takes about 0.3 s; most problems are done by then).
SOLO_SECONDS = 0.5

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


def _problem(words: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool) -> Problem:
    """Read and validate PROBLEM; every failure becomes one usage line."""
    if not words:
        raise click.UsageError("give a PROBLEM, e.g. 'A 4 447 B 9 646 C 11 566 D 14 322' or --cards 3 7 10 14")
    try:
        return parse_problem(list(words), nightmare=nightmare, extreme=extreme, cards_only=cards)
    except ProblemError as e:
        raise click.UsageError(f"problem: {e}") from None


def _machine(layout: str) -> Any:
    """The machine on a layout (name or path)."""
    from .machine import Machine

    try:
        return Machine(layout)
    except Exception as e:  # a missing or broken layout file is a usage error
        raise click.UsageError(f"layout {layout!r}: {e}") from None


def _problem_options(f: Any) -> Any:
    f = click.option("--extreme", is_flag=True, help="Cards-only Extreme given as plain numbers, in pairs.")(f)
    f = click.option("--nightmare", is_flag=True, help="Nightmare: the criteria cards' pairing is unknown.")(f)
    f = click.option("--cards", "cards", is_flag=True,
                     help="PROBLEM is criteria cards only (no verification cards).")(f)
    return click.argument("problem", nargs=-1)(f)


def _shapes(code: Code | str) -> str:
    s = str(code)
    return f"▲{s[0]} ■{s[1]} ●{s[2]} ({s})"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _value(objective: str, r: Fraction, q: Fraction) -> dict[str, Any]:
    if objective == "worst":
        return {"rounds": int(r), "questions": int(q)}
    return {"rounds": float(r), "questions": float(q), "rounds_fraction": _fraction(r),
            "questions_fraction": _fraction(q)}


def optimal_values(problem: Problem, solvers: dict[str, Solver], first: str, seconds: float,
                   upper_seconds: float) -> dict[str, dict[str, Any]]:
    """Both optima of a problem's card set within ``seconds``, JSON-ready, each with ``exact``; on two cores when
    both searches are long.

    Worst as ints, expected as floats plus exact fractions. When the time limit stops a search, the entry is the
    greedy strategy's value (``exact: false``; null when it could not be evaluated within ``upper_seconds``) with
    the proven ``lower_bound`` (lexicographic). Each objective's search first gets ``SOLO_SECONDS`` here, which
    settles most problems; if neither is done and more time is left, the other objective's search starts afresh
    in a second process while ``first`` goes on here (the wall time of the slower search instead of the sum of
    both). Where a second process cannot be started, the searches go on one after the other.
    """
    until = time.time() + seconds
    solo = time.monotonic() + min(SOLO_SECONDS, seconds)
    done: dict[str, dict[str, Any]] = {}
    for o in (first, *(o for o in OBJECTIVES if o != first)):
        solvers[o].deadline, solvers[o].stopped = solo, False
        proven = _proven(solvers[o])
        if proven is not None:
            done[o] = proven
    for s in solvers.values():
        s.set_time_limit(max(0.0, until - time.time()))
        s.stopped = False
    other = next(o for o in OBJECTIVES if o != first)
    if first not in done and other not in done and until - time.time() > SOLO_SECONDS:
        try:
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                apart = pool.submit(_optimal_value_apart, problem, other, until, upper_seconds)
                done[first] = _optimal_value(solvers[first], upper_seconds)
                done[other] = apart.result()
        except (OSError, BrokenProcessPool):  # no second process here: one after the other
            pass
    for o in OBJECTIVES:
        if o not in done:
            done[o] = _optimal_value(solvers[o], upper_seconds)
    return {o: done[o] for o in OBJECTIVES}


def _proven(solver: Solver) -> dict[str, Any] | None:
    """One objective's entry of ``optimal_values`` when its search finishes within the solver's time limit."""
    try:
        r, q = solver.optimum()
    except SearchStopped:
        return None
    return {**_value(solver.objective, r, q), "exact": True}


def _optimal_value(solver: Solver, upper_seconds: float) -> dict[str, Any]:
    """One objective's entry of ``optimal_values``: the optimum, or what the search found before its time limit."""
    proven = _proven(solver)
    if proven is not None:
        return proven
    o = solver.objective
    (lr, lq), upper = solver.bounds(upper_seconds)
    if upper is None:
        found: dict[str, Any] = {"rounds": None, "questions": None}
        if o == "expected":
            found.update(rounds_fraction="?", questions_fraction="?")
        return {**found, "exact": False, "lower_bound": _value(o, lr, lq)}
    ur, uq = upper
    return {**_value(o, ur, uq), "exact": ur == lr and uq == lq, "lower_bound": _value(o, lr, lq)}


def _optimal_value_apart(problem: Problem, objective: str, until: float, upper_seconds: float) -> dict[str, Any]:
    """``_optimal_value`` in a process of its own, searching until the wall-clock time ``until``."""
    solver = Solver(Deduction(problem), objective)
    solver.set_time_limit(max(0.0, until - time.time()))
    return _optimal_value(solver, upper_seconds)


def _not_proven(optimal: dict[str, dict[str, Any]], limit: float) -> list[str]:
    """The honest lines for objectives whose optimum was not proven in time."""
    lines = []
    for o in OBJECTIVES:
        v = optimal[o]
        if v["exact"]:
            continue
        lo = v["lower_bound"]
        if o == "expected":
            found = f"{v['rounds_fraction']} rounds, {v['questions_fraction']} questions on average (greedy)"
            low = f"{lo['rounds']:.3f} rounds, {lo['questions']:.3f} questions on average"
        else:
            found = f"{_count(v['rounds'] or 0, 'round')}, {_count(v['questions'] or 0, 'question')} at worst (greedy)"
            low = f"{_count(lo['rounds'], 'round')}, {_count(lo['questions'], 'question')} at worst"
        if v["rounds"] is None:
            found = "the greedy strategy (its value was not worked out in time)"
        lines.append(f"Not proven optimal ({o}): search stopped after {limit:g} s; best strategy found: {found}; "
                     f"the optimum is at least {low}.")
    return lines


def _time_limit_option(default: float, per: str) -> Any:
    return click.option("--time-limit", type=click.FloatRange(min=0), default=default, show_default=True,
                        metavar="SECONDS",
                        help=f"Stop the exact search after this long ({per}) and play on with the best "
                             "strategy found (greedy), saying so.")


@click.command(help="Solve a problem optimally; with verification cards, play it through the machine."
               + _PROBLEM_HELP.format(cmd="solve"))
@_problem_options
@click.option("--objective", type=click.Choice(OBJECTIVES), default="expected", show_default=True,
              help="Best on average over the hidden assignments, or best in the worst case.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the machine stacks on.")
@click.option("--tree", type=click.Choice(["text", "json"]), default=None,
              help="Also print the whole optimal decision tree.")
@click.option("--chart", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a one-page printable strategy chart (PDF).")
@_time_limit_option(DEFAULT_TIME_LIMIT, "in all")
def solve(problem: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, objective: str,
          as_json: bool, layout: str, tree: str | None, chart: Path | None, time_limit: float) -> None:
    """Solve PROBLEM: optimal values, the play through the machine, the decision tree, the chart."""
    prob = _problem(problem, cards, nightmare, extreme)
    if chart is not None and chart.suffix.lower() != ".pdf":
        raise click.UsageError(f"--chart wants a .pdf file, not {chart.name!r}")
    started = time.monotonic()
    deduction = Deduction(prob)
    solvers = {o: Solver(deduction, o) for o in OBJECTIVES}
    solver = solvers[objective]
    # the exact search gets most of the time; working out the greedy strategy's value, if needed, the rest
    optimal = optimal_values(prob, solvers, objective, 0.85 * time_limit, upper_seconds=max(0.5, 0.05 * time_limit))
    result: dict[str, Any] = {
        "problem": prob.describe(), "mode": prob.mode, "objective": objective,
        "assignments": deduction.weight(deduction.universe),
        "possible_codes": [str(c) for c in deduction.codes(deduction.universe)],
        "code": None, "rounds": None, "questions": None, "played": [], "optimal": optimal,
    }
    if prob.dealt is not None:
        machine = _machine(layout)
        code, rounds = play(prob, machine, objective, solver)
        result["played_optimally"] = not solver.stopped
        result.update(code=str(code), rounds=len(rounds), questions=sum(len(r.answers) for r in rounds),
                      played=[{"proposal": str(r.proposal),
                               "answers": [{"verifier": v, "passed": ok} for v, ok in r.answers]}
                              for r in rounds], layout=layout)
    decision_tree = solver.tree() if (tree or chart) else None
    if chart is not None:
        from .chart import write_chart

        write_chart(chart, prob, decision_tree, objective, optimal)
    if as_json:
        if tree:
            result["tree"] = decision_tree
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
        return
    click.echo(f"Problem: {prob.describe()}")
    click.echo(f"{result['assignments']} hidden assignments, {len(result['possible_codes'])} codes possible.")
    e, w = optimal["expected"], optimal["worst"]
    word = "Optimal" if e["exact"] and w["exact"] else "Best found"
    mean = (f"on average {e['rounds_fraction']} rounds, {e['questions_fraction']} questions "
            f"({e['rounds']:.3f}, {e['questions']:.3f})" if e["rounds"] is not None else "on average ?")
    worst = (f"worst case {_count(w['rounds'], 'round')}, {_count(w['questions'], 'question')}"
             if w["rounds"] is not None else "worst case ?")
    click.echo(f"{word}: {mean}{'' if e['exact'] else ' (not proven)'}; "
               f"{worst}{'' if w['exact'] else ' (not proven)'}.")
    for line in _not_proven(optimal, round(time.monotonic() - started, 1)):
        click.echo(line)
    if solver.stopped:
        click.echo(f"The {objective} search stopped at the time limit: moves come from the exact search where "
                   "it finished and from the greedy strategy elsewhere; this play is not proven optimal.")
    if prob.dealt is not None:
        for i, r in enumerate(result["played"], start=1):
            marks = ", ".join(f"{a['verifier']} {'✓' if a['passed'] else '✗'}" for a in r["answers"])
            click.echo(f"Round {i}: propose {_shapes(r['proposal'])}; ask {marks}")
        click.echo(f"Code found: {_shapes(result['code'])} in {_count(result['rounds'], 'round')}, "
                   f"{_count(result['questions'], 'question')} (machine on layout {layout}).")
    else:
        click.echo("No verification cards given: nothing to play; the strategy above holds for any deal.")
    if tree == "text":
        click.echo(tree_text(decision_tree or {}))
    elif tree == "json":
        click.echo(json.dumps(decision_tree, indent=2, ensure_ascii=False))
    if chart is not None:
        click.echo(f"Wrote {chart}")


_ANSWERS = {"y": True, "yes": True, "✓": True, "✔": True, "v": True, "ok": True, "pass": True, "p": True,
            "n": False, "no": False, "✗": False, "✘": False, "x": False, "fail": False, "f": False}


@click.command(help="Play a real table game: it proposes, you type what each stack showed."
               + _PROBLEM_HELP.format(cmd="play")
               + "\nAnswers: y/✓ (pass) or n/✗ (fail); 'A y' reports verifier A instead; "
                 "'end' ends the round; 'quit' stops.")
@_problem_options
@click.option("--objective", type=click.Choice(OBJECTIVES), default="expected", show_default=True,
              help="Best on average, or best in the worst case.")
@_time_limit_option(30.0, "per move")
def play_cmd(problem: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, objective: str,
             time_limit: float) -> None:
    """Interactive play: propose, read what the person saw, narrow the assignments, until the code is known."""
    prob = _problem(problem, cards, nightmare, extreme)
    d = Deduction(prob)
    solver = Solver(d, objective)

    def timed(move: Any, *args: Any) -> Any:
        """One move within the time limit; say so when it is the greedy strategy's, not a proven best."""
        solver.stopped = False
        solver.set_time_limit(time_limit)
        out = move(*args)
        if solver.stopped:
            click.echo(f"  (search stopped after {time_limit:g} s: this move is the greedy strategy's, "
                       "not proven optimal)")
        return out
    state = d.universe
    round_no = questions = 0
    click.echo(f"Problem: {prob.describe()}")
    while not d.known(state):
        round_no += 1
        proposal = timed(solver.best_proposal, state)
        assert proposal is not None
        codes = d.codes(state)
        click.echo(f"\nRound {round_no}: {len(codes)} codes possible: {' '.join(map(str, codes))}")
        click.echo(f"Propose {_shapes(proposal)}.")
        opened, left = state, QUESTIONS_PER_ROUND
        while left and not d.known(state):
            best = timed(solver.best_question, state, proposal, left, opened)
            if best is None:
                click.echo("  Best now: end the round (a new proposal tells more).")
                break
            text = click.prompt(f"  Next best move: ask {prob.verifiers[best]}. What did the stack show",
                                default="", show_default=False).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                click.echo("Stopped.")
                return
            if low in ("end", "e"):
                break
            verifier, word = best, low
            parts = text.split()
            if len(parts) == 2 and parts[0].upper() in prob.verifiers and len(parts[0]) == 1:
                verifier, word = prob.verifiers.index(parts[0].upper()), parts[1].lower()
            if word not in _ANSWERS:
                click.echo("  Type y/✓ or n/✗ (or 'A y' for verifier A, 'end', 'quit').")
                continue
            after = d.answer(state, verifier, proposal, _ANSWERS[word])
            if not after:
                click.echo(f"  Contradiction: verifier {prob.verifiers[verifier]} "
                           f"{'✓' if _ANSWERS[word] else '✗'} on {proposal} contradicts every possible hidden "
                           f"assignment with the answers so far. Check the stack and try that answer again.")
                continue
            state, left, questions = after, left - 1, questions + 1
            click.echo(f"  {prob.verifiers[verifier]} {'✓' if _ANSWERS[word] else '✗'} — "
                       f"{len(d.codes(state))} codes possible: {' '.join(map(str, d.codes(state)))}")
    code = d.codes(state)[0]
    click.echo(f"\nThe code is {_shapes(code)}: {_count(round_no, 'round')}, {_count(questions, 'question')}.")


play_cmd.name = "play"


@click.command(help="Show the stacks that prove CODE passes every verifier of PROBLEM (needs the verification "
               "cards)." + _PROBLEM_HELP.format(cmd="prove 241").replace("--cards", "…"))
@click.argument("code")
@_problem_options
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the machine stacks on.")
def prove(code: str, problem: tuple[str, ...], cards: bool, nightmare: bool, extreme: bool, layout: str) -> None:
    """Stack CODE over each dealt verification card through the machine and show what each stack shows."""
    try:
        proposal = Code.parse(code)
    except CodeError as e:
        raise click.UsageError(str(e)) from None
    prob = _problem(problem, cards, nightmare, extreme)
    if prob.dealt is None:
        raise click.UsageError("prove needs the verification cards (e.g. A 4 447 B 9 646 …), not only "
                               "criteria cards")
    from .stack import read_stack

    machine = _machine(layout)
    click.echo(f"Proving {_shapes(proposal)} on layout {layout}: stack ▲{proposal.blue} ■{proposal.yellow} "
               f"●{proposal.purple} over each verification card.")
    failed = []
    for letter, card in zip(prob.verifiers, prob.dealt):
        passed = machine.ask(proposal, card)
        cells = read_stack(machine.deck, proposal, card).open_cells
        click.echo(f"  {letter} {card.label(prob.colour)}: open cell {','.join(map(str, cells))} shows "
                   f"{'✓ pass' if passed else '✗ fail'}")
        if not passed:
            failed.append(letter)
    if failed:
        click.echo(f"{proposal} fails verifier{'s' if len(failed) > 1 else ''} {' '.join(failed)}: not the code.")
        raise SystemExit(1)
    click.echo(f"{proposal} passes every verifier: it is the code.")
