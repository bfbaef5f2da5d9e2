"""What ``tmphys solve`` reports: the result of a solved problem as data (its ``--json``), and the same in words.

The command line parses, calls and prints; the report's assembly and its wording live here, beside the strategy's
own text (``strategy.strategy_text``) and the chart's words (``print.chart``), so the words a solve prints are one
module's.

>>> lines = report_lines(result, solver.tree, ReportContext("expected", None, 60.0, 1.2))   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tmphys.game.codes import Code
from tmphys.game.problems import Problem
from tmphys.print.chart import WORST_MEANS, both_worsts
from tmphys.solve.deduction import Deduction
from tmphys.solve.solver import OBJECTIVES, Solver, play
from tmphys.text import path_text, plural, shapes

#: ``tmphys solve`` lists the possible codes in full up to this many; beyond, the count and the first
#: ``CODES_SHOWN``.
CODES_LISTED = 20
CODES_SHOWN = 10
#: Where a strategy played past the time limit comes from, in words.
_FROM = {"search": "the best the search finished", "greedy": "greedy"}


def codes_possible(codes: list[Code], every: bool = False) -> str:
    """"N codes possible: …", every code up to ``CODES_LISTED`` of them (or with ``every``), else the first
    ``CODES_SHOWN`` and "…"."""
    shown = codes if every or len(codes) <= CODES_LISTED else codes[:CODES_SHOWN]
    more = " …" if len(shown) < len(codes) else ""
    return f"{plural(len(codes), 'code')} possible: {' '.join(map(str, shown))}{more}"


def not_proven(optimal: dict[str, dict[str, Any]], stopped: str, more: str = "--time-limit 600",
               played: str = "expected") -> list[str]:
    """At most two lines when an optimum was not proven within the search's limit (``stopped`` says where the search
    stopped, e.g. "at the 10 s limit (9.2 s in all)"): for each objective not proven, the best strategy found and
    its value (the one ``played`` is marked so) and the proven lower bound; then how to get the proof (``more``: the
    option that gives the search longer). None when both are proven."""
    parts = []
    for o in OBJECTIVES:
        v = optimal[o]
        if v["exact"]:
            continue
        lo = v["lower_bound"]
        mark = " (played)" if o == played else ""
        if o == "expected":
            where = _FROM.get(v.get("strategy"), "")
            found = (f"{v['rounds']:.2f} rounds, {v['questions']:.2f} questions on average ({where})"
                     if v["rounds"] is not None else "the greedy strategy's (its value not worked out)")
            low = f"{lo['rounds']:.2f} rounds, {lo['questions']:.2f} questions on average"
        else:
            found = (f"{plural(v['rounds'], 'round')}, {plural(v['questions'], 'question')} at worst"
                     if v["rounds"] is not None else "the greedy strategy's (its value not worked out)")
            low = f"{plural(lo['rounds'], 'round')}, {plural(lo['questions'], 'question')} at worst"
        parts.append(f"{o} case: best strategy found{mark}: {found}; the optimum is at least {low}")
    if not parts:
        return []
    return [f"Not proven optimal: search stopped {stopped}; {'. '.join(parts)}.",
            f"For the proof, give the search longer: {more}."]


def solve_result(problem: Problem, deduction: Deduction, optimal: dict[str, dict[str, Any]], objective: str,
                 solver: Solver, machine: Any, layout: str) -> dict[str, Any]:
    """The solved problem as ``solve --json`` gives it; with a ``machine`` (the verification cards dealt), the game
    played through it with ``solver``'s strategy."""
    result: dict[str, Any] = {
        "problem": problem.describe(), "mode": problem.mode, "objective": objective,
        "assignments": deduction.weight(deduction.universe),
        "possible_codes": [str(c) for c in deduction.codes(deduction.universe)],
        "code": None, "rounds": None, "questions": None, "played": [], "optimal": optimal,
    }
    if machine is not None:
        code, rounds = play(problem, machine, objective, solver)
        result["played_optimally"] = not solver.stopped
        result.update(code=str(code), rounds=len(rounds), questions=sum(len(r.answers) for r in rounds),
                      played=[{"proposal": str(r.proposal),
                               "answers": [{"verifier": v, "passed": ok} for v, ok in r.answers]}
                              for r in rounds], layout=layout)
    return result


@dataclass(frozen=True)
class ReportContext:
    """How the search was held (``steps`` or ``time_limit``), how long it took, and what was played."""

    objective: str
    steps: int | None
    time_limit: float
    elapsed: float
    stopped: bool = False            # the played objective's search stopped at its limit during the play
    layout: str = "classic"
    interrupted: bool = False        # the player stopped the searches (Ctrl-C) before their limit


def report_lines(result: dict[str, Any], tree: Callable[[], dict], context: ReportContext) -> list[str]:
    """``tmphys solve``'s report in words, line by line: the problem, its assignments and codes, both optima (or the
    best found and the bounds), the longest game (from the strategy ``tree`` gives, asked for only then), the play
    through the machine."""
    optimal, objective = result["optimal"], context.objective
    codes = [Code.parse(c) for c in result["possible_codes"]]
    lines = [f"Problem: {result['problem']}",
             f"{plural(result['assignments'], 'hidden assignment')}; {codes_possible(codes)}"]
    e, w = optimal["expected"], optimal["worst"]
    word = "Optimal" if e["exact"] and w["exact"] else "Best found"
    unknown = "no strategy's value worked out " + ("before Ctrl-C" if context.interrupted else "within the limit")
    mean = (f"on average {plural(e['rounds_fraction'], 'round')}, {plural(e['questions_fraction'], 'question')} "
            f"({e['rounds']:.3f}, {e['questions']:.3f}){'' if e['exact'] else ' (not proven)'}"
            if e["rounds"] is not None else f"on average: {unknown}")
    figures = f"{plural(w['rounds'], 'round')}, {plural(w['questions'], 'question')}" if w["rounds"] is not None else ""
    worst = (f"worst case: {unknown}" if w["rounds"] is None else f"the best worst case {figures}" if w["exact"]
             else f"worst case {figures} (not proven)")
    lines.append(f"{word}: {mean}; {worst}.")
    if objective == "expected" and e["exact"] and w["exact"]:
        longer = both_worsts(tree(), objective, optimal)
        if longer:
            lines.append(f"{longer} (--objective worst plays the best worst case.)")
    lines.append(WORST_MEANS)
    steps = context.steps
    stopped = (f"when you pressed Ctrl-C ({context.elapsed:.1f} s in all)" if context.interrupted else
               f"after its {plural(f'{steps:,}', 'step')}" if steps else
               f"at the {context.time_limit:g} s limit ({context.elapsed:.1f} s in all)")
    more = f"--steps {10 * steps:,}".replace(",", "") if steps else \
        f"--time-limit {max(600.0, 10 * context.time_limit):g}"
    unproven = not_proven(optimal, stopped, more, objective)
    lines += unproven
    if context.stopped and not unproven:  # proven, but the play met states the proof did not search
        lines.append(f"The {objective} search stopped at its limit: moves come from the exact search where it "
                     "finished and elsewhere from the best strategy it found, or the greedy strategy; this play is "
                     "not proven optimal.")
    if result["code"] is not None:
        for i, r in enumerate(result["played"], start=1):
            marks = ", ".join(f"{a['verifier']} {'✓' if a['passed'] else '✗'}" for a in r["answers"])
            lines.append(f"Round {i}: propose {shapes(r['proposal'])}; ask {marks}")
        lines.append(f"Code found: {shapes(result['code'])} in {plural(result['rounds'], 'round')}, "
                     f"{plural(result['questions'], 'question')} (machine on layout {path_text(context.layout)}).")
    else:
        lines.append("No verification cards given: nothing to play; the strategy above holds for any deal. To see it, "
                     "add --tree (round by round), --chart plan.pdf (to print) or --html game.html (for the table).")
    return lines


__all__ = ["CODES_LISTED", "CODES_SHOWN", "ReportContext", "codes_possible", "not_proven", "report_lines",
           "solve_result"]
