"""Deduction and the exact optimal strategy for a problem, under the real round structure.

A round is one proposal followed by up to three questions, each chosen after the earlier answers; the player may end
a round early; the game ends as soon as the code is known. The *expected* objective minimises (rounds, questions)
summed over the hidden assignments, lexicographically; the *worst* objective, the worst pair.

``Solver`` asks the compiled engine (``engine.py``), the one optimising search, or where it is not built the
reference solver (``reference.py``): both answer the same calls with the same values. Held to a time or step limit,
it plays on with the best strategy the search finished, or the greedy strategy (``greedy.py``), and says so.

>>> from tmphys.game.problems import parse_problem
>>> s = Solver(Deduction(parse_problem("3 7 10 14")), "expected")
>>> s.optimum()
(Fraction(9, 7), Fraction(20, 7))
"""

from __future__ import annotations

import contextlib
import time
import warnings
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from tmphys.game.codes import Code
from tmphys.game.criteria import VerificationCard
from tmphys.game.problems import Problem
from tmphys.solve.deduction import QUESTIONS_PER_ROUND, ZERO, Cost, Deduction
from tmphys.solve.engine import BUILD_HINT, DEFAULT_CONFIG, EngineConfig, engine_for, memo_share
from tmphys.solve.greedy import Greedy, restrict
from tmphys.solve.reference import ReferenceSearch
from tmphys.solve.strategy import Node, Question, Round, Solved, strategy_json, strategy_text
from tmphys.text import quote

__all__ = ["OBJECTIVES", "QUESTIONS_PER_ROUND", "AskingMachine", "Deduction", "RoundRecord", "SearchStopped",
           "Solver", "play", "tree_text"]

OBJECTIVES: tuple[str, ...] = ("expected", "worst")
#: Past the time limit, a move the search found but did not search in the form the table meets it gets a search of
#: this many seconds (mostly memoised), or of this many steps when the search is held to a budget of steps.
FOUND_SECONDS = 0.5
FOUND_STEPS = 20_000


class SearchStopped(Exception):
    """The exact search ran past its limit (nothing wrong was memoised: only finished values are kept)."""


class AskingMachine(Protocol):
    """Anything that answers a question the physical way: does this code pass this verification card?"""

    def ask(self, code: Code, card: VerificationCard) -> bool: ...


class EngineMissingWarning(RuntimeWarning):
    """The compiled search is not built: the reference solver searches instead, much slower on big problems."""


#: What every command says, once, when the compiled search is not built.
ENGINE_MISSING = f"tmphys: the compiled search is not built, so the slower reference solver searches; {BUILD_HINT}"


#: The solvers of this process whose engines hold a memo: the memos share ``EngineConfig.memo_bytes``.
_LIVE_SOLVERS: weakref.WeakSet[Solver] = weakref.WeakSet()


class Solver:
    """The exact optimal strategy of a problem for one objective ('expected' or 'worst').

    ``native``: search with the compiled engine where it is built (else, and with False, the reference solver).
    """

    def __init__(self, deduction: Deduction, objective: str = "expected", native: bool = True,
                 config: EngineConfig = DEFAULT_CONFIG) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {quote(objective)}")
        self.d = deduction
        self.objective = objective
        self.expected = objective == "expected"
        self.config = config
        engine = engine_for(deduction, self.expected, config) if native else None
        if native and engine is None:
            warnings.warn(ENGINE_MISSING, EngineMissingWarning, stacklevel=2)
        self.search: Any = engine if engine is not None else ReferenceSearch(deduction, self.expected)
        self.native = engine is not None
        if self.native:
            _LIVE_SOLVERS.add(self)
        # the greedy strategy counts its steps against this solver's limits through a weak reference: no cycle, so a
        # solver no longer used is freed at once with its engine's memo (which the live solvers' memos share room with)
        me = weakref.ref(self)
        self.greedy = Greedy(deduction, self.expected, lambda: Solver._greedy_tick(me()),  # type: ignore[arg-type]
                             config.greedy_bytes)
        self.deadline: float | None = None
        self.stopped = False
        self.halted = False  # stopped where it is for good: the player's Ctrl-C (``halt``)
        self._seconds: float | None = None  # the last time limit given
        self._ticks = 0  # the greedy strategy's steps
        self._step_limit: int | None = None  # in the greedy strategy's steps
        self._search_step_limit: int | None = None  # in the search's steps
        #: where the last move past the limit came from, and where ``bounds``'s upper bound did: "search" or "greedy"
        self.fallback: str | None = None
        self.upper_from: str | None = None

    # -- limits ---------------------------------------------------------------------------------------------
    def set_time_limit(self, seconds: float | None) -> None:
        """Let the exact search run at most this many seconds from now (None: no limit)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._seconds = seconds

    def halt(self) -> None:
        """Stop the search where it is, now and for good (the player asked, with Ctrl-C): every search from here
        stops at once, as at a limit, and what the search found stays to be played and reported. Safe from a signal
        handler run during a search."""
        self.halted = self.stopped = True
        self.search.set_deadline(time.monotonic())

    def set_step_limit(self, steps: int | None) -> None:
        """Let the exact search take at most this many more steps (None: no limit): a budget of work that stops it
        at the same point on any machine, where a time limit depends on the machine and its load."""
        steps = None if steps is None else max(0, steps) + 1  # a search stops at the step that reaches its limit
        self._search_step_limit = None if steps is None else self.search.steps() + steps
        self.search.set_step_limit(self._search_step_limit)
        self._step_limit = None if steps is None else self._ticks + steps

    @contextlib.contextmanager
    def _held_to(self, seconds: float | None, steps: int | None) -> Iterator[None]:
        """Within the block the limits are these (a time, or a budget of steps); after it, as before."""
        saved = self.deadline, self._seconds, self.stopped, self._step_limit, self._search_step_limit
        self.set_time_limit(seconds)
        self.set_step_limit(steps)
        try:
            yield
        finally:
            self.deadline, self._seconds, self.stopped, self._step_limit, self._search_step_limit = saved
            self.search.set_step_limit(self._search_step_limit)

    @property
    def by_steps(self) -> bool:
        """Whether the search is held to a budget of steps rather than to time."""
        return self._step_limit is not None

    def _greedy_tick(self) -> None:
        self._ticks += 1
        if self.halted:
            self.stopped = True
            raise SearchStopped
        if self._step_limit is not None and self._ticks >= self._step_limit:
            self.stopped = True
            raise SearchStopped
        if not self._ticks & 15 and self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped = True
            raise SearchStopped

    def _out_of_time(self) -> bool:
        if self.halted or self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped = True
        return self.stopped

    def _run(self, search: Callable[..., tuple[int, int, int] | None], state: int, *args: int) -> tuple[Cost, int]:
        """One search call on a state under this solver's limits: (exact value, best move)."""
        if self.halted:
            self.stopped = True
            raise SearchStopped
        self.search.set_deadline(self.deadline)
        if self.native:
            live = [s.search for s in list(_LIVE_SOLVERS) if s is not self]
            self.search.set_memo_limit(memo_share(self.search, live, self.config))
        found = search(self.d.members(state).astype(np.uint32), *args)
        if found is None:
            self.stopped = True
            raise SearchStopped
        return (found[0], found[1]), found[2]

    # -- values ---------------------------------------------------------------------------------------------
    def round_value(self, state: int) -> Cost:
        """Optimal cost to finish from the start of a round in this state (``SearchStopped`` past the limit)."""
        if self.d.known(state):
            return ZERO
        return self._run(self.search.round_value, state)[0]

    def greedy_value(self, state: int) -> Cost:
        """The exact cost of the greedy strategy from a round start (an upper bound on the optimum)."""
        return self.greedy.value(state)

    def optimum(self) -> tuple[Fraction, Fraction]:
        """The optimal (rounds, questions) from the start: means for 'expected', worst pair for 'worst'.

        Raises ``SearchStopped`` when the limit passes first (see ``bounds``)."""
        return self.scale(self.round_value(self.d.universe))

    def scale(self, cost: Cost) -> tuple[Fraction, Fraction]:
        """A cost as (rounds, questions): the means over the assignments (expected), or as it is (worst)."""
        if self.expected:
            w = self.d.weight(self.d.universe)
            return Fraction(cost[0], w), Fraction(cost[1], w)
        return Fraction(cost[0]), Fraction(cost[1])

    def bounds(self, seconds: float | None = None, steps: int | None = None
               ) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction] | None]:
        """The best known (lower, upper) bounds on the optimum, lexicographic; equal once it is proven.

        The upper bound is the cost of a strategy known in full: the optimum, or else the better of the best the
        search found and the greedy strategy, evaluated within ``seconds`` or ``steps``; None when neither is
        known. ``upper_from`` says which it is: "search" or "greedy".
        """
        u = self.d.universe
        if self.d.known(u):
            return self.scale(ZERO), self.scale(ZERO)
        r, q, exact = self.search.floor(self.d.members(u).astype(np.uint32))
        if exact:
            return self.scale((r, q)), self.scale((r, q))
        low = self.scale((r, q))
        _, found, _ = self._known_move(u)
        greedy: Cost | None = None
        with self._held_to(seconds, steps), contextlib.suppress(SearchStopped):
            greedy = self.greedy.value(u)
        if found is not None and (greedy is None or found <= greedy):
            self.upper_from = "search"
            return low, self.scale(found)
        self.upper_from = "greedy" if greedy is not None else None
        return low, None if greedy is None else self.scale(greedy)

    # -- moves ----------------------------------------------------------------------------------------------
    def _known_move(self, state: int, proposal: int | None = None, left: int = 0) -> tuple[Cost, Cost | None, int]:
        """What the search knows of a round start (``proposal`` None) or of a state inside a round, without
        searching: the learnt lower bound, the least value a known move reaches (None if none) and that move (a
        proposal, or the split ``y`` to ask; -1: none)."""
        idx = self.d.members(state).astype(np.uint32)
        low, up, move = self.search.known_move(idx) if proposal is None else \
            self.search.known_move(idx, proposal, left)
        if proposal is not None and move >= 0:  # the search names the verifier: its split
            move = min(m := state & self.d.passes[move][proposal], state ^ m)
        return tuple(low), None if up is None else tuple(up), move

    def best_proposal(self, state: int) -> Code | None:
        """The proposal to open the next round with, or None when the code is already known.

        Optimal when the search finishes within its limit; otherwise (``stopped`` set) the best proposal the search
        finished, or the greedy strategy's where that one's value is known to be lower or the search found none.
        """
        if self.d.known(state):
            return None
        hit = None
        if not self._out_of_time():
            with contextlib.suppress(SearchStopped):
                hit = self._run(self.search.round_value, state)
        if hit is not None:
            return Code.from_index(hit[1])
        _, found, p = self._known_move(state)
        greedy = self.greedy.known_value(state)
        better = found is not None and p >= 0 and (greedy is None or found <= greedy)
        self.fallback = "search" if better else "greedy"
        return Code.from_index(p if better else self.greedy.proposal(state))

    def best_question(self, state: int, proposal: Code, left: int, opened: int | None = None) -> int | None:
        """The verifier to ask next with this proposal, or None to end the round (or the game).

        ``opened`` is the state at the start of the round: ending the round is right when a new round is at least
        as good. Past the limit, what the search found decides where it knows a move, else the greedy strategy.
        """
        if self.d.known(state) or left == 0:
            return None
        opened = state if opened is None else opened
        sub = restrict(self.d.splits(opened, proposal.index), state)
        if not sub:
            return None
        if not self._out_of_time():
            try:
                go_on, v = self._run(self.search.inside_value, state, proposal.index, left)
                if opened != state and self.round_value(state) < go_on:
                    return None
                return v
            except SearchStopped:
                pass
        y = self._found_question(state, proposal, left, opened)
        self.fallback = "search" if y is not None else "greedy"
        if y == 0:
            return None
        if y is None:
            y = self.greedy.question(state, sub, left)
        return self._verifier_for(state, proposal, y)

    def _found_question(self, state: int, proposal: Code, left: int, opened: int) -> int | None:
        """Past the limit: the split to ask next as the strategies the search found have it, 0 to end the round,
        None when the search knows no move here."""
        low, go_on, y = self._known_move(state, proposal.index, left)
        _, whole, chosen = self._known_move(opened)
        if go_on is None and chosen == proposal.index and whole is not None:
            # the round's proposal is the one the search found, but these questions were searched in another form
            # (Nightmare: the round start's canonical one) or not at all: a short search gets them
            grace = min(FOUND_SECONDS, self._seconds or FOUND_SECONDS)
            limits = (None, FOUND_STEPS) if self.by_steps else (grace, None)
            with self._held_to(*limits), contextlib.suppress(SearchStopped):
                self._run(self.search.inside_value, state, proposal.index, left)
            low, go_on, y = self._known_move(state, proposal.index, left)
        if opened != state:
            _, new_round, _ = self._known_move(state)
            # a new round's known strategy beats going on (the search, on a tie, goes on)
            if new_round is not None and (new_round < go_on if go_on is not None else new_round <= low):
                return 0
        return y if go_on is not None and y > 0 else None

    def _verifier_for(self, state: int, proposal: Code, y: int) -> int:
        """The verifier whose answer to the proposal splits the state into ``y`` and the rest."""
        for v, row in enumerate(self.d.passes):
            m = state & row[proposal.index]
            if m and m != state and min(m, state ^ m) == y:
                return v
        raise RuntimeError("no verifier gives the chosen split")

    # -- the whole strategy ---------------------------------------------------------------------------------
    def strategy(self, state: int | None = None, round_no: int = 1) -> Node:
        """The optimal strategy from a round start, as a typed tree (see ``strategy.py``)."""
        state = self.d.universe if state is None else state
        if self.d.known(state):
            return self._solved(state)
        proposal = self.best_proposal(state)
        assert proposal is not None
        return Round(round_no, str(proposal), len(self.d.codes(state)), self.d.weight(state),
                     self._questions(state, state, proposal, QUESTIONS_PER_ROUND, round_no))

    def tree(self) -> dict[str, Any]:
        """The optimal strategy as JSON (``strategy_json``)."""
        return strategy_json(self.strategy())

    def _solved(self, state: int) -> Solved:
        return Solved(str(self.d.codes(state)[0]), self.d.weight(state))

    def _questions(self, state: int, opened: int, proposal: Code, left: int, round_no: int) -> Node:
        v = self.best_question(state, proposal, left, opened)
        if v is None:
            return self._solved(state) if self.d.known(state) else self.strategy(state, round_no + 1)
        yes = self.d.answer(state, v, proposal, True)
        no = self.d.answer(state, v, proposal, False)
        return Question(self.d.problem.verifiers[v], self._questions(yes, opened, proposal, left - 1, round_no),
                        self._questions(no, opened, proposal, left - 1, round_no))


def tree_text(tree: dict[str, Any] | Node) -> str:
    """A strategy (typed, or as JSON) as indented text."""
    from tmphys.solve.strategy import strategy_from_json

    return strategy_text(strategy_from_json(tree) if isinstance(tree, dict) else tree)


@dataclass
class RoundRecord:
    """One round played: the proposal, the (verifier, passed) answers seen, and whether every move of the round
    came from the exact search (not from a strategy played on past a limit)."""

    proposal: Code
    answers: list[tuple[str, bool]]
    exact: bool = True


def play(problem: Problem, machine: AskingMachine, objective: str = "expected",
         solver: Solver | None = None, round_seconds: float | None = None) -> tuple[Code, list[RoundRecord]]:
    """Play the dealt problem through a machine, optimally; return the code found and the rounds played.

    ``round_seconds``: give the exact search this long afresh at the start of every round (as ``tmphys play``
    does per move). None: keep the solver's own time limit.
    """
    if problem.dealt is None:
        raise ValueError("playing needs the dealt verification cards")
    solver = solver or Solver(Deduction(problem), objective)
    d = solver.d
    state = d.universe
    rounds: list[RoundRecord] = []
    while not d.known(state):
        if round_seconds is not None:
            solver.stopped = False
            solver.set_time_limit(round_seconds)
        proposal = solver.best_proposal(state)
        assert proposal is not None
        record = RoundRecord(proposal, [])
        opened, left = state, QUESTIONS_PER_ROUND
        while (v := solver.best_question(state, proposal, left, opened)) is not None:
            passed = bool(machine.ask(proposal, problem.dealt[v]))
            record.answers.append((problem.verifiers[v], passed))
            state = d.answer(state, v, proposal, passed)
            left -= 1
            if not state:
                raise RuntimeError("the machine's answers contradict every hidden assignment")
        record.exact = not solver.stopped
        rounds.append(record)
    return d.codes(state)[0], rounds
