"""A greedy strategy, evaluated exactly: the upper bound reported and the moves played past a time limit.

Each round it tries the ``GREEDY_WIDTH`` best-ranked proposals (by ``Deduction.round_bounds``); inside a round it
asks the verifier whose answers have the best bound, the most even split, and asks on while an answer still divides
the state. Its value is exact for the strategy it plays, so it bounds the optimum from above.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tmphys.solve.deduction import (
    INF,
    QUESTIONS_PER_ROUND,
    ZERO,
    Cost,
    Deduction,
    Splits,
    huffman_pair,
    worst_floor,
    worst_floor_at_depth,
)

#: How many of the best-ranked proposals the greedy strategy tries in each round.
GREEDY_WIDTH = 3
#: Memo tables forget their older half when they grow past about this many bytes together (a fifth each).
MEMO_BYTES = 1_250_000_000


class Greedy:
    """The greedy strategy of one problem for one objective. ``tick`` is called at every step (it raises to stop)."""

    def __init__(self, d: Deduction, expected: bool, tick: Callable[[], None] = lambda: None,
                 memo_bytes: int = MEMO_BYTES) -> None:
        self.d = d
        self.expected = expected
        self.tick = tick
        self._round: dict[int, tuple[Cost, int]] = {}
        self._inside: dict[tuple[int, Splits, int], tuple[Cost, int]] = {}
        self._ranked: dict[int, list[tuple[Cost, int, int]]] = {}
        self._lb: dict[int, Cost] = {}
        self._canonical: dict[int, int] = {}
        state_bytes = len(d.hidden) // 8 + 60
        self._limits = {id(t): max(1_000, memo_bytes // 5 // size) for t, size in (
            (self._round, 2 * state_bytes + 100), (self._inside, 8 * state_bytes + 200),
            (self._ranked, state_bytes + 8_000), (self._lb, state_bytes + 100), (self._canonical, 2 * state_bytes))}

    # -- the strategy -------------------------------------------------------------------------------------------
    def value(self, state: int) -> Cost:
        """The exact cost of the greedy strategy from a round start (an upper bound on the optimum)."""
        return self._round_value(state)[0]

    def known_value(self, state: int) -> Cost | None:
        """The greedy strategy's value from this round start if it was worked out already, else None."""
        hit = self._round.get(self._canon(state))
        return None if hit is None else hit[0]

    def proposal(self, state: int) -> int:
        """The greedy strategy's proposal: from its evaluation when done, else the best-ranked proposal."""
        state = self._canon(state)
        hit = self._round.get(state)
        return hit[1] if hit is not None else self._ranked_proposals(state)[0][2]

    def question(self, state: int, splits: Splits, left: int) -> int:
        """The greedy strategy's next split inside a round: best bound on the answers, then most even; in
        Nightmare, the first question of the best tree of the questions left (``Deduction.split_choice``)."""
        hit = self._inside.get((state, splits, left))
        if hit is not None:
            return hit[1]
        if self.d.problem.mode == "nightmare":
            return self.d.split_choice(state, splits, left, self.expected)
        return min((add(la, lb) if self.expected else max(la, lb), abs(self.d.weight(y) * 2 - self.d.weight(state)), y)
                   for y, la, lb in self._child_bounds(state, splits, left))[2]

    def _round_value(self, state: int) -> tuple[Cost, int]:
        if self.d.known(state):
            return ZERO, -1
        state = self._canon(state)
        hit = self._round.get(state)
        if hit is None:
            self.tick()
            cost = self.round_cost(state)
            for _, _, p in self._ranked_proposals(state)[:GREEDY_WIDTH]:
                val = add(cost, self._inside_value(state, self.d.splits(state, p), QUESTIONS_PER_ROUND)[0])
                if hit is None or val < hit[0]:
                    hit = (val, p)
            assert hit is not None
            self._store(self._round, state, hit)
        return hit

    def _after(self, state: int, splits: Splits, left: int) -> Cost:
        if self.d.known(state):
            return ZERO
        sub = restrict(splits, state) if left else ()
        if not sub:
            return self._round_value(state)[0]
        return self._inside_value(state, sub, left)[0]

    def _inside_value(self, state: int, splits: Splits, left: int) -> tuple[Cost, int]:
        key = (state, splits, left)
        hit = self._inside.get(key)
        if hit is None:
            q = self.question_cost(state)
            y = self.question(state, splits, left)
            a, b = self._after(y, splits, left - 1), self._after(state ^ y, splits, left - 1)
            hit = (add(q, add(a, b) if self.expected else max(a, b)), y)
            self._store(self._inside, key, hit)
        return hit

    # -- costs and bounds ---------------------------------------------------------------------------------------
    def round_cost(self, state: int) -> Cost:
        """One more round: a round for each assignment (expected), or one (worst)."""
        return (self.d.weight(state), 0) if self.expected else (1, 0)

    def question_cost(self, state: int) -> Cost:
        """One more question: a question for each assignment (expected), or one (worst)."""
        return (0, self.d.weight(state)) if self.expected else (0, 1)

    def lower_bound(self, state: int) -> Cost:
        """A cheap lower bound on finishing from a round start: Huffman lengths of the code groups (expected), or
        ``worst_floor`` of the number of codes (worst)."""
        lb = self._lb.get(state)
        if lb is None:
            if not self.expected:
                lb = worst_floor(self.d.code_count(state), 0)
            else:
                w = self.d.code_weights(state)
                lb = huffman_pair(tuple(sorted(w))) if len(w) > 1 else ZERO
            self._store(self._lb, state, lb)
        return lb

    def _ranked_proposals(self, state: int) -> list[tuple[Cost, int, int]]:
        """Distinct proposals as (lower bound, tie-break, proposal), most promising first."""
        ranked = self._ranked.get(state)
        if ranked is None:
            idx = self.d.members(state)
            live = self.d.distinct_proposals(idx, self.d.automorphisms(state, idx))
            if not len(live):
                raise RuntimeError("no proposal tells the remaining assignments apart")
            r0, q0 = self.lower_bound(state)
            rounds, questions, order = self.d.round_bounds(idx, live, self.expected)
            if self.expected:  # the state's bound holds for rounds and questions apart
                questions = np.where(rounds < r0, q0, np.maximum(questions, q0))
                rounds = np.maximum(rounds, r0)
            else:  # ... lexicographically only
                below = (rounds < r0) | ((rounds == r0) & (questions < q0))
                rounds, questions = np.where(below, r0, rounds), np.where(below, q0, questions)
            key = np.lexsort((live, order, questions, rounds))
            ranked = list(zip(zip(rounds[key].tolist(), questions[key].tolist()), order[key].tolist(),
                              live[key].tolist()))
            self._store(self._ranked, state, ranked)
        return ranked

    def _child_bounds(self, state: int, splits: Splits, left: int) -> list[tuple[int, Cost, Cost]]:
        """For each split: (split, lower bound on the cost after a pass, after a fail): a new round, or going on
        with this proposal, where parts its splits cannot tell apart need another round."""
        d = self.d
        parts = [c for c in cells(state, splits) if not d.known(c)]  # the parts still holding several codes
        stuck = [(c, d.weight(c)) for c in parts] if self.expected else []
        anywhere = functools.reduce(operator.or_, parts, 0)
        out = []
        for y in splits:
            sides = []
            for side in (y, state ^ y):
                if d.known(side):
                    sides.append(ZERO)
                elif left - 1 == 0:
                    sides.append(self.lower_bound(side))
                elif self.expected:
                    new_round = self.lower_bound(side)
                    going_on = (sum(w for c, w in stuck if c & side), self.lower_bound(side)[1])
                    if going_on < new_round:
                        tree = self._tree_floor(side, splits, left - 1, True)
                        going_on = (max(tree[0], going_on[0]), max(tree[1], going_on[1]))
                    sides.append(min(new_round, going_on))
                else:
                    going_on = worst_floor_at_depth(self.lower_bound(side)[1], left - 1)
                    if going_on[0] == 0 and side & anywhere:
                        going_on = (1, 1)  # some assignments need another round
                    sides.append(max(going_on, self._tree_floor(side, splits, left - 1, False)))
            out.append((y, sides[0], sides[1]))
        return out

    def _tree_floor(self, state: int, splits: Splits, left: int, ask: bool,
                    seen: dict[tuple[int, int], Cost] | None = None) -> Cost:
        """A lower bound on ``left`` more questions to this round's proposal from ``state`` (``ask``: at least one),
        then another round and a question for a part of two codes or more (expected), or its codes' floor
        (worst)."""
        d = self.d
        if d.known(state):
            return ZERO
        seen = {} if seen is None else seen
        if not ask and (hit := seen.get((state, left))) is not None:
            return hit
        w = d.weight(state) if self.expected else 1
        best = INF if ask else (w, w) if self.expected else worst_floor(d.code_count(state), 0)
        for y in splits if left else ():
            a = state & y
            if not a or a == state:
                continue
            fa = self._tree_floor(a, splits, left - 1, False, seen)
            fb = self._tree_floor(state ^ a, splits, left - 1, False, seen)
            best = min(best, add((0, w), add(fa, fb) if self.expected else max(fa, fb)))
        if not ask:
            seen[state, left] = best
        return best

    # -- memo ---------------------------------------------------------------------------------------------------
    def _canon(self, state: int) -> int:
        """The state's canonical form (``Deduction.canonical``): round starts are memoised under it."""
        if not self.d.symmetric:
            return state
        hit = self._canonical.get(state)
        if hit is None:
            hit = self.d.canonical(state)
            self._store(self._canonical, state, hit)
        return hit

    def _store(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        """Memoise, keeping the table under its size limit by forgetting its older half when full."""
        if len(table) >= self._limits[id(table)]:
            for old in list(itertools.islice(table, len(table) // 2)):
                del table[old]
        table[key] = value


def add(a: Cost, b: Cost) -> Cost:
    """The sum of two costs."""
    return (a[0] + b[0], a[1] + b[1])


def cells(state: int, splits: Splits) -> list[int]:
    """The parts of ``state`` that a proposal's splits cannot tell apart (every answer known)."""
    parts = [state]
    for y in splits:
        nxt = []
        for part in parts:
            m = part & y
            if m and m != part:
                nxt += [m, part ^ m]
            else:
                nxt.append(part)
        parts = nxt
    return parts


def restrict(splits: Splits, state: int) -> Splits:
    """The splits that still divide a smaller state, canonical, distinct, in the order of their first verifier."""
    out: dict[int, None] = {}
    for y in splits:
        m = y & state
        if m and m != state:
            out.setdefault(min(m, state ^ m))
    return tuple(out)
