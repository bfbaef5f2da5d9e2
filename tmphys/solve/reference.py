"""The reference solver: the rules of a round as a few functions over sets of hidden assignments, exactly.

It states what the compiled engine optimises, in the fewest lines: the tests' oracle on small and medium problems,
and the search where the engine is not built. A *state* is the set of hidden assignments still consistent with the
answers (a bitset over the problem's classes, ``Deduction``). Costs are (rounds, questions), compared
lexicographically: in the expected case integer totals over the assignments (a round costs one round for every
assignment still possible, a question one question for each), in the worst case the worst pair.

- ``_round(S)``: from the start of a round, the best proposal's cost: the round, then its questions.
- ``_ask(S, p, left)``: with proposal p, ask one more verifier now: the question, then after each answer either
  a new round or, with questions left, another question.
- The game ends when the code is known (``Deduction.known``).

Proposals that split every verifier's answers alike are one move (``Deduction.distinct_proposals``). Proposals are
tried best bound first (``Deduction.round_bounds``); every search takes a budget, the best found so far, and stops
as soon as its bound reaches it. It answers the engine's calls (``round_value``, ``inside_value``, ``floor``,
``known_move``, limits), so ``Solver`` uses either one the same way.

>>> from tmphys.game.problems import parse_problem
>>> search = ReferenceSearch(Deduction(parse_problem("3 7 10 14")), expected=True)
>>> search.value(search.d.universe)
(9, 20)
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

from tmphys.solve.deduction import INF, QUESTIONS_PER_ROUND, ZERO, Cost, Deduction, huffman_pair, worst_floor


class Stopped(Exception):
    """The search ran past its time or step limit."""


class ReferenceSearch:
    """The exact optimum of one problem for one objective, by the rules; the engine's interface over bitsets."""

    def __init__(self, d: Deduction, expected: bool) -> None:
        self.d = d
        self.expected = expected
        self._rounds: dict[int, tuple[Cost, int]] = {}  # round start -> (value, best proposal)
        self._asks: dict[tuple[int, int, int], tuple[Cost, int]] = {}  # (state, proposal, left) -> (value, verifier)
        self._round_floors: dict[int, Cost] = {}  # lower bounds learnt where a search reached its budget
        self._ask_floors: dict[tuple[int, int, int], Cost] = {}
        self._steps = 0
        self._deadline: float | None = None
        self._step_limit: int | None = None

    # -- the rules ----------------------------------------------------------------------------------------------
    def round_cost(self, state: int) -> Cost:
        """One more round: a round for each assignment still possible (expected), or one (worst)."""
        return (self.d.weight(state), 0) if self.expected else (1, 0)

    def question_cost(self, state: int) -> Cost:
        """One more question: a question for each assignment still possible (expected), or one (worst)."""
        return (0, self.d.weight(state)) if self.expected else (0, 1)

    def both(self, a: Cost, b: Cost) -> Cost:
        """The cost of two answers' futures together: their sum over the assignments, or the worse one."""
        return (a[0] + b[0], a[1] + b[1]) if self.expected else max(a, b)

    def lower_bound(self, state: int) -> Cost:
        """A bound no strategy beats: Huffman lengths of the codes (8 outcomes a round, 2 a question), or in the
        worst case the rounds and questions that telling k codes apart takes at least."""
        if self.d.known(state):
            return ZERO
        if self.expected:
            return huffman_pair(tuple(sorted(self.d.code_weights(state))))
        return worst_floor(self.d.code_count(state), 0)

    def after_bound(self, state: int, left: int) -> Cost:
        """A bound on the cost after an answer with ``left`` questions left in the round: a new round's bound, or
        (going on) the questions that telling the codes apart takes at least."""
        if self.d.known(state) or left == 0:
            return self.lower_bound(state)
        if self.expected:
            return 0, huffman_pair(tuple(sorted(self.d.code_weights(state))))[1]
        return worst_floor(self.d.code_count(state), left)

    def value(self, state: int) -> Cost:
        """The optimal cost from the start of a round in this state."""
        return self._round(state, INF)[0]

    # Each search below takes a budget: it returns the exact value when that is under the budget, and otherwise a
    # lower bound at least the budget. Only exact values are memoised as values; the bounds learnt, as floors.
    def _round(self, state: int, budget: Cost) -> tuple[Cost, int]:
        """(cost, best proposal) from a round start; the proposal -1 when the code is known or the budget is
        reached."""
        if self.d.known(state):
            return ZERO, -1
        # Nightmare: relabelling the verifiers leaves a round start's value and best proposal as they are
        key = self.d.canonical(state)
        if key in self._rounds:
            return self._rounds[key]
        low = max(self.lower_bound(state), self._round_floors.get(key, ZERO))
        if low >= budget:
            return low, -1
        self._tick()
        cost = self.round_cost(state)
        best, move, floor = budget, -1, INF
        for bound, p in self._ranked(state):
            if add(cost, bound) >= best:  # this proposal and every later one: their bounds reach the best
                floor = min(floor, add(cost, bound))
                break
            v = add(cost, self._ask(state, p, QUESTIONS_PER_ROUND, sub(best, cost))[0])
            if v < best:
                best, move = v, p
            else:
                floor = min(floor, v)
        if move >= 0:
            self._rounds[key] = (best, move)
            return best, move
        self._round_floors[key] = max(low, floor)
        return max(low, floor), -1

    def _ask(self, state: int, p: int, left: int, budget: Cost) -> tuple[Cost, int]:
        """(cost, verifier) of asking one more verifier about proposal p now, ``left`` questions left; the verifier
        -1 when the budget is reached."""
        key = (state, p, left)
        if key in self._asks:
            return self._asks[key]
        low = self._ask_floors.get(key, ZERO)
        if low >= budget:
            return low, -1
        self._tick()
        q = self.question_cost(state)
        best, move, floor = budget, -1, INF
        # the most even split first; each answer is searched with the room the other's bound leaves
        for v, passed in sorted(self._questions(state, p),
                                key=lambda x: abs(2 * self.d.weight(x[1]) - self.d.weight(state))):
            failed = state & ~passed
            a_low, b_low = self.after_bound(passed, left - 1), self.after_bound(failed, left - 1)
            total = add(q, self.both(a_low, b_low))
            if total < best:
                a = self._after(passed, p, left - 1, sub(sub(best, q), b_low if self.expected else ZERO))
                total = add(q, self.both(a, b_low))
                if total < best:
                    b = self._after(failed, p, left - 1, sub(sub(best, q), a if self.expected else ZERO))
                    total = add(q, self.both(a, b))
            if total < best:
                best, move = total, v
            else:
                floor = min(floor, total)
        if move >= 0:
            self._asks[key] = (best, move)
            return best, move
        self._ask_floors[key] = max(low, floor)
        return max(low, floor), -1

    def _after(self, state: int, p: int, left: int, budget: Cost) -> Cost:
        """After an answer: nothing once the code is known; else a new round, or another question if one is left
        and tells something (whichever is better)."""
        if self.d.known(state):
            return ZERO
        new_round = self._round(state, budget)[0]
        if left and any(True for _ in self._questions(state, p)):
            return min(new_round, self._ask(state, p, left, min(budget, new_round))[0])
        return new_round

    def _questions(self, state: int, p: int) -> Iterable[tuple[int, int]]:
        """The verifiers whose answer to p divides the state, each with the side that passes; one per split."""
        seen = set()
        for v, row in enumerate(self.d.passes):
            passed = state & row[p]
            if passed and passed != state and min(passed, state ^ passed) not in seen:
                seen.add(min(passed, state ^ passed))
                yield v, passed

    def _ranked(self, state: int) -> list[tuple[Cost, int]]:
        """The distinct proposals with a lower bound on their questions' cost, best first: the best question tree of
        each proposal where every node left with two codes or more costs a round and a question more for each
        assignment (``Deduction.round_bounds``), less this round."""
        idx = self.d.members(state)
        live = self.d.distinct_proposals(idx)
        rounds, questions, _ = self.d.round_bounds(idx, live, self.expected)
        this = self.round_cost(state)
        return sorted(((r - this[0], q - this[1]), p)
                      for r, q, p in zip(rounds.tolist(), questions.tolist(), live.tolist()))

    # -- limits -------------------------------------------------------------------------------------------------
    def _tick(self) -> None:
        self._steps += 1
        if self._step_limit is not None and self._steps >= self._step_limit:
            raise Stopped
        if self._deadline is not None and not self._steps & 63 and time.monotonic() > self._deadline:
            raise Stopped

    # -- the engine's interface (classes as index arrays; None when stopped) ------------------------------------
    def set_deadline(self, deadline: float | None) -> None:
        """Stop searching once ``time.monotonic()`` passes this (None: no limit)."""
        self._deadline = deadline

    def set_step_limit(self, steps: int | None) -> None:
        """Stop searching once this many steps have been taken in all (None: no limit)."""
        self._step_limit = steps

    def steps(self) -> int:
        """The steps taken so far (round starts and questions searched)."""
        return self._steps

    def set_memo_limit(self, n: int) -> None:
        """Memory is not bounded here: the reference solver is for problems small enough to hold."""

    def memo_held(self) -> int:
        """Roughly the bytes the memo holds."""
        return 100 * (len(self._rounds) + len(self._asks))

    def stats(self) -> dict[str, int]:
        """Steps taken and memo entries."""
        return {"steps": self._steps, "memo_entries": len(self._rounds) + len(self._asks)}

    def round_value(self, classes: np.ndarray) -> tuple[int, int, int] | None:
        """(rounds, questions, proposal) from a round start, or None when stopped."""
        try:
            (r, q), p = self._round(self.d.state_of(classes), INF)
        except Stopped:
            return None
        return r, q, p

    def inside_value(self, classes: np.ndarray, proposal: int, left: int) -> tuple[int, int, int] | None:
        """(rounds, questions, verifier) of asking one more verifier about ``proposal`` now, or None when stopped."""
        try:
            (r, q), v = self._ask(self.d.state_of(classes), proposal, left, INF)
        except Stopped:
            return None
        return r, q, v

    def floor(self, classes: np.ndarray) -> tuple[int, int, bool]:
        """(rounds, questions, exact): the best lower bound known on a round start, without searching."""
        state = self.d.state_of(classes)
        if (hit := self._rounds.get(self.d.canonical(state))) is not None:
            return (*hit[0], True)
        low = max(self.lower_bound(state), self._round_floors.get(self.d.canonical(state), ZERO))
        return (*low, self.d.known(state))

    def known_move(self, classes: np.ndarray, proposal: int = -1, left: int = 0
                   ) -> tuple[Cost, Cost | None, int]:
        """(lower bound, value of the known move or None, the move or -1): what the memo knows, without searching."""
        state = self.d.state_of(classes)
        if self.d.known(state):
            return ZERO, ZERO, -1
        hit = self._rounds.get(self.d.canonical(state)) if left == 0 else self._asks.get((state, proposal, left))
        if hit is None:
            return (self.lower_bound(state) if left == 0 else ZERO), None, -1
        return hit[0], hit[0], hit[1]


def add(a: Cost, b: Cost) -> Cost:
    """The sum of two costs."""
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Cost, b: Cost) -> Cost:
    """The difference of two costs (budgets: lexicographic order is kept under adding the same cost)."""
    return (a[0] - b[0], a[1] - b[1])
