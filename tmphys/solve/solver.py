"""Deduction and the exact optimal strategy for a problem, under the real round structure.

State: the hidden-assignment classes still consistent with every answer, as a Python int bitset (bit k is
``problem.hidden[k]``). A round is one proposal followed by up to three questions, each chosen after the
earlier answers; the player may end a round early; the game ends as soon as the code is known.

Costs are pairs (rounds, questions) compared lexicographically. For the *expected* objective they are integer
totals over the hidden assignments (each weighted by how many assignments its class stands for), so there are
no floating-point ties; for the *worst* objective they are the worst pair over the assignments.

Search: ``round_value(S)`` tries proposals in order of a lower bound and stops once the bound reaches the best
value found. The bound is the best question tree of each proposal, found for all proposals at once by dynamic
programming over the answers (``Deduction.round_bounds``); it is exact when the proposal can end the game in this
round, so such states need no search. The proposals that can are found first, cheaply (all answers known, each
cell holds one code); when there are none, every proposal takes another round, which settles most of the worst
case's tests without ranking the proposals. Proposals that split every verifier's answers the same way are one
move (deduplicated by split signature), and so are a proposal and its image under a code symmetry of the
problem (a permutation of ▲■●, perhaps with every digit d read as 6 - d, that maps its hidden assignments onto
themselves) in a state it maps onto itself, such as the start. Exact values and learnt bounds are memoised per
state. The worst case is found by tests "is the value its lower bound?", each failed test raising the bound. In
the expected case, round starts near the start rank their proposals a round deeper (``Solver._deep_bound``):
there the one-round bound is furthest below; at the start itself, two rounds deeper (``Solver._deep_floor``).

>>> from tmphys.game.problems import parse_problem
>>> s = Solver(Deduction(parse_problem("3 7 10 14")), "expected")
>>> s.optimum()
(Fraction(9, 7), Fraction(20, 7))
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import heapq
import itertools
import math
import operator
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from tmphys.game.codes import ALL_CODES, Code
from tmphys.game.criteria import VerificationCard
from tmphys.game.problems import Problem

try:  # the compiled search (tmphys/_engine.c), built by ``pip install``
    from tmphys.solve import _engine
except ImportError:  # a source checkout never built: the same search runs in Python
    _engine = None

OBJECTIVES: tuple[str, ...] = ("expected", "worst")
QUESTIONS_PER_ROUND = 3
Cost = tuple[int, int]
ZERO: Cost = (0, 0)
_INF: Cost = (1 << 60, 1 << 60)
#: Costs packed into one integer for the vectorised bounds: rounds * _SCALE + questions.
_SCALE = 1 << 24
#: Splits of a state: the canonical sides of the verifiers' answers (without the state's last class), distinct,
#: non-trivial, in the order of their first verifier (as the engine takes them).
Splits = tuple[int, ...]


class SearchStopped(Exception):
    """The exact search ran past its time limit (nothing wrong was memoised: only finished values are kept)."""


class _GoDeeper(Exception):
    """The plain expected-case search ran long: it starts over with deep bounds, keeping what it memoised."""


#: Memo tables forget their older half when they grow past about this many bytes each (exactness unaffected).
MEMO_BYTES = 250_000_000
#: Nightmare problems with up to this many classes keep a table per relabelling of the verifiers (6
#: verifiers: 720 tables of 4 bytes a class); bigger ones relabel only the classes of each state at hand.
RELABEL_TABLE_CLASSES = 1 << 14
#: Expected case: round starts that still hold at least this share of the problem's codes (the start and those
#: near it) get their proposals' bounds a round deeper (``Solver._deep_bound``) and are searched in that order.
#: With the compiled search's bounds of all proposals at once (``expected_bounds`` in _engine.c), on 46 Nightmare 4V
#: problems at 60 s (every 25th and six hard ones): 0.9 434 s in all, 43 proven; 0.5 186 s, 45; 0.3 213 s, 45
#: (#251 54 -> 10 s, #561 not in 60 s -> 18 s). Extreme 4V and the 5-verifier sets: the same at 0.9 and 0.5.
DEEP_BOUND_SHARE = 0.5
#: ... on problems with at most this many verifiers (with 6, a deep bound handles 64 answer cells and 160 deepest
#: nodes, against 16 and 32 with 4: on 12 Extreme 6-verifier problems, 10 proven at 20 s without, 1 with).
DEEP_BOUND_VERIFIERS = 5
#: ... once the plain search has taken this many steps (round starts and questions searched) without finishing:
#: easy problems do not pay for the deep bounds, hard ones get them after about a second. Sooner (4,000 steps)
#: made Extreme 4V problems that take about a second slower: 47 of 100 had both optima proven within 1 s, 63
#: without deep bounds, 62 with this limit.
DEEP_AFTER_STEPS = 15_000
#: ... and once the search with them has taken this many more steps without finishing, it starts over (keeping its
#: memo) with deep bounds at every round start holding at least this share of the codes: a hard problem's
#: third-round starts then rule most of their proposals out before searching them. Nightmare 4V, alone on one core:
#: #341 64 -> 34 s (10.3 million steps -> 0.57 million), #342 proven in 44 s (not in 60 before); ten that take 1-15 s
#: (#24, 26, 32, 35, 49, 54, 251, 252, 499, 561) 52.6 s in all either way (2.3 times fewer steps, each dearer).
DEEP_WIDER_AFTER_STEPS = 50_000
DEEP_WIDER_SHARE = 0.15
#: ... on problems with at most this many verifiers (with 5, a deep bound's 80 deepest nodes of 4 answer cells each
#: cost more than they save down there: Nightmare 5V #3 proven in 30 s without, not with).
DEEP_WIDER_VERIFIERS = 4
#: ... and round starts holding at least this share of the codes (in effect the start) take their deep bounds a round
#: deeper still: a deepest node gets the least of its own proposals' deep bounds (``Solver._deep_floor``), where the
#: least one-round bound was 0.3-0.5 rounds an assignment below its value. The runner-up start proposals are then
#: mostly ruled out unsearched. Nightmare 4V, alone on one core (with the start's ranking taken only as far as needed,
#: ``_round``): #113 83 -> 8.7 s, #333 106 -> 11 s, #126 141 -> 18 s, #561 9.9 -> 4.5 s (201,145 steps -> 23,241);
#: #646 and #7 (whose runner-ups come within 0.001 rounds an assignment of the optimum) as before. At 0.5 and 0.25
#: (second-round starts too) it cost more than it saved (#113 11 and 13 s).
DEEPER_BOUND_SHARE = 0.9
#: ... on Nightmare problems with at most this many verifiers (a 5-verifier deep floor takes 80 deepest nodes' bounds
#: a proposal: not measured to pay). Not in Extreme, where the plain search of a 4-verifier problem takes a second at
#: most and the start's deepest nodes are distinct states (no relabelling maps one onto another), each a deep floor of
#: its own: #19 0.78 -> 11 s, #582 0.65 -> 9.5 s. Turned on later (50,000 steps after the widening) it came too late
#: for the start, whose deep bounds were memoised by then: #113 88 s, #561 36 s, #341 45 s.
DEEPER_BOUND_VERIFIERS = 4
#: Worst case: with up to this many verifiers (16 answer cells), which question-tree nodes hold a code is looked up
#: by the code's cell mask in one table (2**16 masks x 65 nodes, 4 MB) rather than found as unions of code bitsets:
#: 0.3 -> 0.07 ms a state on Nightmare 4V (#26's worst case 21 -> 17 s). With 5 a table would have 2**32 rows, and
#: tables of 16-cell chunks took most of a second to build with 6, where the bitsets stay.
NODE_TABLE_VERIFIERS = 4
#: Memory the compiled searches of one process may hold together (``_engine``): before each search, a solver's
#: memo may take what the other live solvers' memos leave of it (``Solver._memo_share``); when full, it keeps its
#: biggest states' entries and forgets the rest. The hardest problems need room: Nightmare 4V #495's expected case
#: took 1,053 s with 600 MB a memo (forgotten 29 times), 364 s with 4 GB (2.5 GB used); #880 73 -> 49 s and #646
#: 118 -> 44 s (1.5 and 1.1 GB used). With 600 MB for each of the two memos of a process that searches both objectives,
#: a benchmark worker peaked at 1.4 GB (at 1.2 GB each, 2.2 GB).
ENGINE_MEMO_BYTES = 1_400_000_000
#: ... of which a memo gets at least this much, whatever the others hold.
ENGINE_MEMO_LEAST = 200_000_000
#: Nightmare: memory the compiled search's relabelling tables may take, one per order of the verifiers it uses, built
#: when first needed (all 720 orders of 6 verifiers, up front, had cost 0.1-0.8 s a problem); past it, classes are
#: relabelled by looking each up (with 6 verifiers about 15x slower in the worst case's search).
ENGINE_TABLE_BYTES = 256_000_000
#: Past the time limit, the play follows the strategy the search found; where that strategy's questions were not
#: searched in the form the table meets them, a search of this many seconds finds them (mostly memoised); of this
#: many steps when the search is held to a budget of steps.
FOUND_SECONDS = 0.5
FOUND_STEPS = 20_000
#: How many of the best-ranked proposals the greedy strategy tries in each round.
GREEDY_WIDTH = 3
#: Expected case: the share of a question's room (its budget less both answers' bounds) the first answer is first
#: searched with (``_probe``). Measured on Nightmare 4V #1 / #430 and Extreme 4V #251 / #11: 8.7 / 2.2 / 6.0 /
#: 4.0 s with the whole room, 3.6 / 0.7 / 2.6 / 3.8 s at 0.25 (0.5: 8.2 / 1.8 / 3.3 / 3.6 s; 0.1: 4.0 / 1.9 /
#: 2.6 / 2.0 s); Nightmare 4V #499 proven in 87 s (0.5: 98 s; whole room: not in 150 s)
PROBE_SHARE = 0.25


class AskingMachine(Protocol):
    """Anything that answers a question the physical way: does this code pass this verification card?"""

    def ask(self, code: Code, card: VerificationCard) -> bool: ...


class Deduction:
    """What the answers so far allow: the consistent hidden assignments and the possible codes."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.hidden = problem.hidden
        self.n_verifiers = len(problem.cards)
        self.universe: int = (1 << len(self.hidden)) - 1
        self.code_of: list[int] = [h.code.index for h in self.hidden]
        # numpy views for the proposals' bounds: passes as (verifier, code, class), weight and code per class
        self.table = np.stack([np.array([h.criteria[v].table for h in self.hidden], dtype=bool).reshape(-1, 125).T
                               for v in range(self.n_verifiers)])
        # passes[v][c]: the classes in which verifier v passes code c
        self.passes: list[list[int]] = [[_bitset(row) for row in self.table[v]] for v in range(self.n_verifiers)]
        code = np.array(self.code_of, dtype=np.int64)
        weight = np.array([h.weight for h in self.hidden], dtype=np.int64)
        self.groups: list[tuple[int, int]] = [(int(c), _bitset(code == c)) for c in np.unique(code)]
        # the classes come in code order, so each code's group is a run of bits: a state knows its code when
        # no bit lies below the run of its highest bit's code, and its codes are counted by smearing each run's
        # bits down onto the run's first bit (``code_count``)
        if (np.diff(code) < 0).any():
            raise ValueError("the hidden assignments must come in code order")
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        ends = np.r_[starts[1:], len(code)]
        below = [(1 << int(s)) - 1 for s in starts]
        self._below_run = [below[g] for g in np.repeat(np.arange(len(starts)), ends - starts).tolist()]
        self._run_firsts = sum(1 << int(s) for s in starts)
        run_end = np.repeat(ends, ends - starts)
        self._smear: list[tuple[int, int]] = []
        step = 1
        while step < int((ends - starts).max()):
            self._smear.append((step, _bitset(np.arange(len(code)) + step < run_end)))
            step *= 2
        self._buckets = [(int(w), _bitset(weight == w)) for w in np.unique(weight)]
        self._unit = len(self._buckets) == 1 and self._buckets[0][0] == 1
        self.class_weight = weight
        self._weights: list[int] = [h.weight for h in self.hidden]
        # pattern[c, k], bit v: verifier v passes code c in class k; stored class by class, so a state's
        # classes (``pattern[:, idx]``) are gathered as whole rows
        by_class = np.zeros((len(self.hidden), 125), dtype=np.uint8)
        for v in range(self.n_verifiers):
            by_class |= self.table[v].T.astype(np.uint8) << v
        self.pattern = by_class.T
        self.code_of_class = np.array(self.code_of, dtype=np.int64)
        self._node_cells, self._node_levels = _question_nodes(self.n_verifiers, QUESTIONS_PER_ROUND)
        # the deepest nodes (every question of the round asked), each as the answer cells it holds
        inner = np.concatenate([ids for ids, _, _ in self._node_levels])
        self._deepest = np.setdiff1d(np.arange(self._node_cells.shape[1]), inner)
        self._deepest_cells = np.array([np.flatnonzero(self._node_cells[:, j]) for j in self._deepest])
        self._deepest_matrix = np.ascontiguousarray(self._node_cells[:, self._deepest].T)  # (deepest node, cell)
        rng = np.random.default_rng(20240611)
        hashes = rng.integers(1, 2**63, size=(2, len(self.hidden)), dtype=np.uint64)
        # 26-bit hashes of the classes: sums over up to 2**27 classes stay exact in float64
        self._split_hash = ((hashes.T >> np.uint64(37)) | np.uint64(1)).astype(np.float64)
        # Nightmare: relabelling the verifiers maps the valid assignments onto themselves (the pairing of
        # criteria cards to verifiers is hidden), so states that differ only by such a relabelling are worth
        # the same; each is searched once, as its canonical form (``canonical``)
        self.symmetric = problem.mode == "nightmare" and self.n_verifiers > 1
        masks = sorted({m for h in self.hidden for m in h.masks})
        number = {m: i for i, m in enumerate(masks)}
        # each class as the tuple of its verifiers' criteria (numbered), and as one integer key in base
        # len(masks), so a class with given criteria is found by binary search (the keys are distinct)
        self._mask_ids = np.array([[number[m] for m in h.masks] for h in self.hidden], dtype=np.int64)
        self._digit = len(masks) ** np.arange(self.n_verifiers, dtype=np.int64)
        keys = self._mask_ids @ self._digit
        self._key_order = np.argsort(keys)
        self._sorted_keys = keys[self._key_order]
        #: the problem's code symmetries, as (code map, class map): see ``_code_symmetries``
        self.code_maps = self._code_symmetries(masks)
        if self.symmetric:
            mask_hash = rng.integers(1, 2**63, size=len(masks), dtype=np.uint64)
            self._position_hash = mask_hash[self._mask_ids]
            self._relabel: dict[tuple[int, ...], np.ndarray] = {}

    def engine(self, expected: bool) -> Any:
        """The compiled search for this problem and objective (``_engine.Engine``): the search of ``Solver``
        without the interpreter, with the same values. None where it cannot run: the extension is not built (a
        source checkout without ``pip install``). Nightmare problems give it their classes' criteria, by which it
        relabels them (as ``_relabelled`` does), keeping a table per order of the verifiers it uses, up to
        ``ENGINE_TABLE_BYTES``."""
        if _engine is None:
            return None
        k, n = len(self.hidden), self.n_verifiers
        hashes = np.random.default_rng(20240611).integers(1, 2**63, size=(2, k), dtype=np.uint64)
        positions = b""
        keys: dict[str, Any] = {}
        if self.symmetric:
            positions = np.ascontiguousarray(self._position_hash, dtype=np.uint64)
            keys = {"mask_ids": self._mask_ids.astype(np.int32), "sorted_keys": self._sorted_keys.astype(np.int64),
                    "key_order": self._key_order.astype(np.int32), "digits": self._digit.astype(np.int64),
                    "table_bytes": ENGINE_TABLE_BYTES}
        maps = self.code_maps
        return _engine.Engine(
            np.ascontiguousarray(self.pattern.T), np.array(self.code_of, dtype=np.int32),
            self.class_weight.astype(np.int64), n, expected, hashes, positions,
            np.array([m for m, _ in maps], dtype=np.int32).reshape(-1),
            np.array([c for _, c in maps], dtype=np.int32).reshape(-1), ENGINE_MEMO_BYTES,
            DEEP_AFTER_STEPS, DEEP_BOUND_SHARE, DEEP_BOUND_VERIFIERS, PROBE_SHARE,
            DEEP_WIDER_AFTER_STEPS, DEEP_WIDER_SHARE if n <= DEEP_WIDER_VERIFIERS else DEEP_BOUND_SHARE,
            deeper_share=DEEPER_BOUND_SHARE, deeper_verifiers=DEEPER_BOUND_VERIFIERS, **keys)

    def _code_symmetries(self, masks: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The maps of codes that send the problem's hidden assignments onto themselves: permutations of a
        code's three colours (criteria about ▲ and ■ alike, say), each alone or with every digit d read as 6 - d
        (criteria closed under turning the scale round: ▲ < 3 and ▲ > 3, ascending and descending); each as
        where it sends every code and every class.

        Every answer is kept: a class passes a proposal exactly when its image passes the image proposal, so
        in a state that such a map sends onto itself, a proposal and its image are worth the same. ``masks``:
        the problem's criteria as bitsets of the codes they pass, in the order they are numbered.
        """
        plain = np.array([c.digits for c in ALL_CODES], dtype=np.int64) - 1
        raw = np.frombuffer(b"".join(m.to_bytes(16, "little") for m in masks), dtype=np.uint8).reshape(-1, 16)
        passes = np.unpackbits(raw, axis=1, bitorder="little")[:, :125].astype(bool)  # (criterion, code)
        packed = {row.tobytes(): i for i, row in enumerate(np.packbits(passes, axis=1))}
        out = []
        for digits, perm in itertools.product((plain, 4 - plain), itertools.permutations(range(3))):
            if digits is plain and perm == (0, 1, 2):
                continue
            code_map = digits[:, perm] @ np.array([25, 5, 1])
            images = np.zeros_like(passes)
            images[:, code_map] = passes  # each criterion's image: the images of the codes it passes
            image = [packed.get(row.tobytes(), -1) for row in np.packbits(images, axis=1)]
            if -1 in image:
                continue
            keys = np.array(image, dtype=np.int64)[self._mask_ids] @ self._digit
            at = np.minimum(np.searchsorted(self._sorted_keys, keys), len(keys) - 1)
            if (self._sorted_keys[at] != keys).any():
                continue
            class_map = self._key_order[at]
            if (self.class_weight[class_map] != self.class_weight).any():
                continue
            out.append((code_map, class_map))
        return out

    def automorphisms(self, state: int, idx: np.ndarray) -> list[np.ndarray]:
        """The code maps of the code symmetries that send this state onto itself (Nightmare: onto a
        relabelling of it), where a proposal and its image are worth the same. ``idx``: ``members(state)``."""
        out = []
        if not self.code_maps:
            return out
        per_code = np.bincount(self.code_of_class[idx], weights=self.class_weight[idx], minlength=125)
        form = None
        for code_map, class_map in self.code_maps:
            if (per_code[code_map] != per_code).any():
                continue  # the codes' weights already differ
            image = np.sort(class_map[idx])
            if self.symmetric:
                form = self.canonical(state) if form is None else form
                if self.canonical(self.state_of(image)) != form:
                    continue
            elif not np.array_equal(image, idx):
                continue
            out.append(code_map)
        return out

    def state_of(self, idx: np.ndarray) -> int:
        """The state holding these classes (the inverse of ``members``)."""
        bits = np.zeros(((len(self.hidden) + 7) // 8) * 8, dtype=np.uint8)
        bits[idx] = 1
        return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")

    def members(self, state: int) -> np.ndarray:
        """The class indices in a state, ascending."""
        return np.flatnonzero(self._flags(state))

    def _flags(self, state: int) -> np.ndarray:
        """A state as one 0/1 flag per class (and padding to a whole byte)."""
        raw = np.frombuffer(state.to_bytes((len(self.hidden) + 7) // 8, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")

    def canonical(self, state: int) -> int:
        """The canonical form of a state under relabelling the verifiers (Nightmare; otherwise the state).

        Each verifier position gets an order-free hash of the criteria it holds across the state's
        assignments; the relabellings that sort those hashes (all orders of tied positions) are tried and the
        smallest resulting bitset is the canonical form, so two states related by a relabelling get the same.
        """
        if not self.symmetric or not state or state == self.universe:
            return state
        idx = self.members(state)
        ids = self._mask_ids[idx]
        h = self._position_hash[idx].sum(axis=0, dtype=np.uint64).tolist()
        order = sorted(range(self.n_verifiers), key=h.__getitem__)
        ties = [list(g) for _, g in itertools.groupby(order, key=h.__getitem__)]
        best = None
        for parts in itertools.product(*(itertools.permutations(t) for t in ties)):
            perm = tuple(v for part in parts for v in part)
            if perm == tuple(range(self.n_verifiers)):
                image = state
            else:
                image = self.state_of(self._relabelled(idx, ids, perm))
            if best is None or image < best:
                best = image
        assert best is not None
        return best

    def _relabelled(self, idx: np.ndarray, ids: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
        """Where the classes ``idx`` (their criteria ``ids``) go when new position i takes old position
        ``perm[i]``: from a table per relabelling when there are few classes, else looked up for these alone."""
        if len(self.hidden) > RELABEL_TABLE_CLASSES:
            return self._key_order[np.searchsorted(self._sorted_keys, ids[:, list(perm)] @ self._digit)]
        table = self._relabel.get(perm)
        if table is None:
            keys = self._mask_ids[:, list(perm)] @ self._digit
            table = self._key_order[np.searchsorted(self._sorted_keys, keys)].astype(np.int32)
            self._relabel[perm] = table
        return table[idx]

    def distinct_proposals(self, idx: np.ndarray, twins: list[np.ndarray] | None = None) -> np.ndarray:
        """One proposal per distinct set of questions it offers on this state, leaving out proposals whose
        answers divide nothing (ascending; the first proposal of each kind); with ``twins`` (code maps from
        ``automorphisms``), one per set of kinds those maps send onto each other (the first).

        Two proposals offer the same questions when their verifiers' answers split the state the same ways.
        The signature adds up, over the verifiers, a 64-bit hash of each verifier's canonical split and its
        square, so it does not depend on the verifiers' order; a trivial split hashes to 0. ``idx``: the
        state's classes (``members``).
        """
        a = self.table[:, :, idx]  # (n, 125, m)
        canon = (a ^ a[:, :, :1]).astype(np.float64)
        # each split's two 26-bit-hash sums, exact in float64 (so a matrix product does them), made one
        # 64-bit hash per split, 0 for a trivial one
        sums = (canon @ self._split_hash[idx]).astype(np.uint64)  # (n, 125, 2)
        h = sums[:, :, 0] + sums[:, :, 1] * np.uint64(0x9E3779B97F4A7C15)
        h1 = h.sum(axis=0, dtype=np.uint64)
        h2 = (h * h).sum(axis=0, dtype=np.uint64)
        keys = h1 ^ (h2 * np.uint64(0xC2B2AE3D27D4EB4F))  # one 64-bit key per proposal
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        live = np.sort(first)
        live = live[keys[live] != 0]
        if twins:
            rep = first[inverse.ravel()]  # each proposal's kind, as the kind's first proposal
            lowest = np.min([rep[m] for m in twins], axis=0)  # the first kind among each proposal's images
            live = live[live <= lowest[live]]
        return live

    def finishing_proposals(self, idx: np.ndarray) -> np.ndarray:
        """The proposals whose answers, all verifiers asked, leave one code in every cell (ascending): the only
        ones whose round can end the game. ``idx``: the state's classes (``members``)."""
        key = np.sort(self.pattern[:, idx].astype(np.int64) * 125 + self.code_of_class[idx], axis=1)
        cell = key // 125
        mixed = (cell[:, 1:] == cell[:, :-1]) & (key[:, 1:] != key[:, :-1])  # one cell, two codes
        return np.flatnonzero(~mixed.any(axis=1))

    def round_bounds(self, idx: np.ndarray, proposals: np.ndarray, expected: bool
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Lower bounds (rounds, questions) on finishing from a round start with each of these proposals, exact
        when the proposal can finish the game in this round; and a tie-break, smaller is more promising: the
        weight of the proposal's biggest cell (worst case: the fewest codes its worst node can be held to, then the
        most codes a cell holds: no weights read, as the compiled search fills its cells without them).

        The answers to a proposal put every assignment in one of ``2**n`` cells. Inside the round the player
        asks up to three verifiers, each chosen after the earlier answers: a node is the set of verifiers
        asked with their answers. The best such tree is found for all proposals at once by dynamic
        programming over the nodes, where a node holding a single code costs nothing more and any other node
        still needs at least one more round and one more question for each of its assignments (worst case: the
        floor of telling the node's codes apart, ``_worst_floor``). ``idx``: the state's classes (``members``).
        """
        sub = self.pattern[:, idx][proposals]  # (rows, m): verifier v's answer in bit v
        big = float(_SCALE)
        # what a node still needs when the round stops there: nothing with one code left, else at least one
        # more round and one more question for each assignment
        if expected:
            cell_weight, wt, mixed = self._node_weights(idx, sub, self._node_cells)
            value = np.where(mixed, wt * big + wt, 0.0)
            for ids, yes, no in self._node_levels:
                ask = value[:, yes] + value[:, no] + wt[:, ids, None]
                value[:, ids] = np.minimum(value[:, ids], ask.min(axis=2))
            total = value[:, 0] + wt[:, 0] * big
            order = cell_weight.max(axis=1)
        else:
            # worst case: a node with k codes needs the rounds and questions of _worst_floor(k, 0); the codes
            # in each node are counted from which of the state's codes each answer cell holds
            occupied = self._code_cells(idx, sub)  # (rows, codes): each code's cells
            cells = np.arange(1 << self.n_verifiers, dtype=occupied.dtype)
            most = ((occupied[:, :, None] >> cells) & 1).sum(axis=1, dtype=np.int64).max(axis=1)
            total, least = self._worst_tree_bounds(self._node_code_counts(idx, sub, occupied), True)
            order = least * big + most
        total = np.rint(total).astype(np.int64)
        return total // _SCALE, total % _SCALE, np.rint(order).astype(np.int64)

    def deepest_floors(self, idx: np.ndarray, proposal: int, nexts: np.ndarray) -> np.ndarray:
        """Expected case: for each deepest question-tree node of ``proposal`` on this state (classes ``idx``;
        every question of the round asked), the least bound of ``round_bounds`` over the proposals ``nexts``
        for a new round started from the node's assignments, as rounds * _SCALE + questions (0 where one code
        or none is left). With ``nexts`` the state's distinct proposals (``distinct_proposals`` without
        twins) it is the least over all 125: two proposals that split the state alike split its parts alike.

        All nodes at once: one count over the classes gives the weights and code moments of every (answer
        cell, next proposal, next cell); a node's are the sums over its cells, and the next round's question
        tree is then solved for every (node, next proposal) as in ``round_bounds``.
        """
        cells = 1 << self.n_verifiers
        nq = len(nexts)
        w = self.class_weight[idx].astype(np.float64)
        c = self.code_of_class[idx].astype(np.float64)
        here = self.pattern[proposal, idx].astype(np.int64)
        sub = self.pattern[:, idx][nexts].astype(np.int64)
        # (moment, next proposal, cell here, next cell): a node's sums over its cells, and each next question-tree
        # node's over its next cells, are products with 0/1 matrices (exact: integers far below 2**53)
        flat = ((np.arange(nq, dtype=np.int64)[:, None] * cells + here[None, :]) * cells + sub).ravel()
        moments = np.stack([np.bincount(flat, weights=np.broadcast_to(x, sub.shape).ravel(),
                                        minlength=nq * cells * cells).reshape(nq, cells, cells)
                            for x in (w, w * c, w * c * c)])
        node = self._deepest_matrix @ moments  # (moment, next proposal, node, next cell)
        at = node[:, 0].sum(axis=2)  # each node's own weight and moments
        sel = np.flatnonzero(at[0] * at[2] != at[1] * at[1])
        out = np.zeros(len(self._deepest))
        if not len(sel):
            return out
        # rows (next proposal, node), columns the next round's question-tree nodes
        rows = nq * len(sel)
        wt, s1, s2 = (node[:, :, sel].reshape(3 * rows, cells) @ self._node_cells).reshape(3, rows, -1)
        value = (wt * float(_SCALE + 1)) * (wt * s2 != s1 * s1)  # a round and a question each, if mixed
        for ids, yes, no in self._node_levels:
            ask = value[:, yes] + value[:, no] + wt[:, ids, None]
            value[:, ids] = np.minimum(value[:, ids], ask.min(axis=2))
        out[sel] = (value[:, 0] + wt[:, 0] * float(_SCALE)).reshape(nq, len(sel)).min(axis=0)
        return out

    def _tree_sums(self, per_cell: np.ndarray, axis: int, op: np.ufunc = np.add) -> np.ndarray:
        """Each question-tree node's total of its answer cells along ``axis`` (cells -> nodes), by ``op`` (sums,
        or unions of bitsets): the deepest nodes from their cells, every other node from the two answers to any
        question asked there."""
        shape = list(per_cell.shape)
        shape[axis] = self._node_cells.shape[1]
        out = np.zeros(shape, dtype=per_cell.dtype)
        at = (slice(None),) * axis
        out[at + (self._deepest,)] = op.reduce(np.take(per_cell, self._deepest_cells, axis=axis), axis=axis + 1)
        for ids, yes, no in self._node_levels:
            out[at + (ids,)] = op(np.take(out, yes[:, 0], axis=axis), np.take(out, no[:, 0], axis=axis))
        return out

    def _cell_weights(self, idx: np.ndarray, sub: np.ndarray) -> np.ndarray:
        """For each row of answer patterns ``sub`` (rows, classes ``idx``): the weight in each answer cell
        (a plain count when every class weighs 1)."""
        weight = None if self._unit else self.class_weight[idx].astype(np.float64)
        return _per_cell(sub, 1 << self.n_verifiers, weight)[0]

    def _code_cells(self, idx: np.ndarray, sub: np.ndarray) -> np.ndarray:
        """For each row of answer patterns ``sub`` (rows, classes ``idx``): the answer cells each of the state's
        codes occupies, one bitmask a code (rows, codes). The classes come in code order, so each code's mask is
        one OR-reduction of the one-bit masks of its classes' cells."""
        codes = self.code_of_class[idx]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        dtype = np.dtype(f"<u{max(2, (1 << self.n_verifiers) // 8)}")
        return np.bitwise_or.reduceat(np.left_shift(1, sub, dtype=dtype), starts, axis=1)

    def _node_code_counts(self, idx: np.ndarray, sub: np.ndarray, occupied: np.ndarray | None = None
                          ) -> np.ndarray:
        """How many codes each question-tree node holds (rows, nodes), for each row of answer patterns ``sub``
        (rows, classes ``idx``), from each code's cells (``_code_cells``, found here unless given). Up to
        ``NODE_TABLE_VERIFIERS``, each code's cell mask looks up the nodes it is in (``_node_table``) and those
        are counted over the codes; with more verifiers, each cell's codes become
        a bitset of 64-bit words (the code masks turned inside out), a node's codes the union of its cells'
        (``_tree_sums`` by OR), counted by popcount."""
        if occupied is None:
            occupied = self._code_cells(idx, sub)  # (rows, codes)
        if self.n_verifiers <= NODE_TABLE_VERIFIERS:
            return np.take(_node_table(self.n_verifiers), occupied.T, axis=0).sum(axis=0, dtype=np.uint8)
        rows, codes = occupied.shape
        cells = 1 << self.n_verifiers
        held = np.unpackbits(occupied.view(np.uint8).reshape(rows, codes, -1), axis=2, bitorder="little")
        inside_out = np.zeros((rows, cells, (codes + 63) // 64 * 64), dtype=np.uint8)
        inside_out[:, :, :codes] = held[:, :, :cells].transpose(0, 2, 1)
        cell_codes = np.packbits(inside_out, axis=2, bitorder="little").view("<u8")  # (rows, cells, words)
        nodes = self._tree_sums(cell_codes, axis=1, op=np.bitwise_or)
        return np.bitwise_count(nodes).sum(axis=2, dtype=np.int64)

    def worst_round_floor(self, idx: np.ndarray) -> Cost:
        """The least worst-case bound of ``round_bounds`` over all 125 proposals, without ranking them: a lower
        bound on finishing from this round start that settles most of the worst case's states for less."""
        k = self._node_code_counts(idx, self.pattern[:, idx])
        least = int(np.rint(self._worst_tree_bounds(k, False)[0].min()))
        return least // _SCALE, least % _SCALE

    def _worst_tree_bounds(self, k: np.ndarray, tie_break: bool) -> tuple[np.ndarray, np.ndarray]:
        """The worst case's question-tree DP of ``round_bounds`` from how many codes each node holds (rows,
        nodes; integers): each proposal's bound as rounds * _SCALE + questions, this round counted, and with
        ``tie_break`` the fewest codes its worst node can be held to (else zeros)."""
        bound = self._worst_tree_dp(np.take(_worst_leaf_bounds(), k), 1.0) + float(_SCALE)
        return bound, self._worst_tree_dp(k.astype(np.float64), 0.0) if tie_break else np.zeros(len(k))

    def _worst_tree_dp(self, value: np.ndarray, step: float) -> np.ndarray:
        """The least, over each row's question trees, of the most any answer leads to (rows, nodes -> rows): a
        node is worth its value if the round stops there, else the worse of a question's two answers plus
        ``step``, for the best question."""
        for ids, yes, no in self._node_levels:
            ask = np.maximum(value[:, yes], value[:, no]).min(axis=2) + step
            value[:, ids] = np.minimum(value[:, ids], ask)
        return value[:, 0]

    def _node_weights(self, idx: np.ndarray, sub: np.ndarray, node_cells: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each row of answer patterns ``sub`` (rows, classes ``idx``): the weight in each answer cell, and
        in each question-tree node its weight and whether it holds more than one code (from the first two
        moments of the codes, exact in float64)."""
        rows, cells = len(sub), node_cells.shape[0]
        w = self.class_weight[idx].astype(np.float64)
        c = self.code_of_class[idx].astype(np.float64)
        per_cell = _per_cell(sub, cells, w, w * c, w * c * c)
        wt, s1, s2 = (per_cell.reshape(3 * rows, cells) @ node_cells).reshape(3, rows, -1)
        return per_cell[0], wt, wt * s2 != s1 * s1

    def split_choice(self, state: int, splits: Splits, left: int, expected: bool) -> int:
        """The split to ask next in the greedy strategy: the first question of the best tree of ``left``
        questions over these splits, by the same bound as ``round_bounds`` and then the least spread."""
        idx = self.members(state)
        sub = np.zeros(len(idx), dtype=np.int64)
        for j, y in enumerate(splits):  # bit j: the class is on split j's side
            sub |= self._flags(y)[idx].astype(np.int64) << j
        n = len(splits)
        node_cells, levels = _question_nodes(n, min(left, n))
        _, wt, mixed = self._node_weights(idx, sub[None, :], node_cells)
        big = float(_SCALE)
        value = np.where(mixed, wt * big + wt, 0.0) if expected else np.where(mixed, big + 1.0, 0.0)
        spread = _leaf_spread(wt, mixed)
        for ids, yes, no in levels[:-1]:
            ask = value[:, yes] + value[:, no] + wt[:, ids, None] if expected else \
                np.maximum(value[:, yes], value[:, no]) + 1.0
            _best_ties(value, spread, ids, ask, spread[:, yes] + spread[:, no])
        ids, yes, no = levels[-1]  # the root: always ask (the greedy strategy asks on)
        ask = value[:, yes] + value[:, no] if expected else np.maximum(value[:, yes], value[:, no])
        ask_spread = spread[:, yes] + spread[:, no]
        return splits[min(range(n), key=lambda i: (ask[0, 0, i], ask_spread[0, 0, i], i))]

    def weight(self, state: int) -> int:
        """How many hidden assignments a state stands for."""
        if self._unit:
            return state.bit_count()
        return sum(w * (state & m).bit_count() for w, m in self._buckets)

    def known(self, state: int) -> bool:
        """Whether every consistent assignment has the same code (the player knows it)."""
        return state != 0 and not state & self._below_run[state.bit_length() - 1]

    def code_weights(self, state: int) -> list[int]:
        """The weight of each possible code's group of assignments (in code order)."""
        if state.bit_count() * 4 < len(self.groups):
            by_code: dict[int, int] = {}
            s = state
            while s:
                low = s & -s
                k = low.bit_length() - 1
                by_code[self.code_of[k]] = by_code.get(self.code_of[k], 0) + self._weights[k]
                s ^= low
            return [by_code[c] for c in sorted(by_code)]
        return [self.weight(state & g) for _, g in self.groups if state & g]

    def code_count(self, state: int) -> int:
        """How many codes are still possible."""
        for step, inside in self._smear:  # each bit takes the OR of the next 2*step bits of its run
            state |= (state >> step) & inside
        return (state & self._run_firsts).bit_count()

    def codes(self, state: int) -> list[Code]:
        """The codes still possible."""
        return [Code.from_index(c) for c, g in self.groups if state & g]

    def answer(self, state: int, verifier: int, proposal: Code, passed: bool) -> int:
        """The state after verifier ``verifier`` said pass/fail to ``proposal``."""
        yes = state & self.passes[verifier][proposal.index]
        return yes if passed else state & ~yes

    def splits(self, state: int, proposal: int) -> Splits:
        """The distinct non-trivial ways the verifiers' answers to a proposal split a state (canonical: the side
        without the state's last assignment class), in the order of their first verifier."""
        out: dict[int, None] = {}
        for row in self.passes:
            y = state & row[proposal]
            if y and y != state:
                out.setdefault(min(y, state ^ y))
        return tuple(out)


@functools.cache
def _worst_leaf_bounds() -> np.ndarray:
    """``_worst_floor(k, 0)`` for every count of codes k (0 to 125), as rounds * _SCALE + questions: what a node
    of a round's question tree holding k codes still needs when the round stops there."""
    out = np.array([r * _SCALE + q for r, q in (_worst_floor(k, 0) for k in range(126))], dtype=np.float64)
    out.flags.writeable = False
    return out


@functools.cache
def _node_table(n: int) -> np.ndarray:
    """For each mask of the 2**n answer cells (n verifiers), whether each question-tree node holds one of those
    cells (masks, nodes), 0 or 1; read-only, shared (cached)."""
    cells = 1 << n
    node_masks = ((_question_nodes(n)[0] > 0) << np.arange(cells)[:, None]).sum(axis=0)  # each node's cells
    table = ((np.arange(1 << cells, dtype=np.int64)[:, None] & node_masks) != 0).astype(np.uint8)
    table.flags.writeable = False
    return table


def _per_cell(sub: np.ndarray, cells: int, *weights: np.ndarray | None) -> np.ndarray:
    """Sums of each per-class weight vector over the classes in each answer cell: (len(weights), rows, cells)
    for the answer patterns ``sub`` (rows, classes); a weight vector None counts the classes."""
    rows = len(sub)
    flat = (np.arange(rows, dtype=np.int64)[:, None] * cells + sub).ravel()
    return np.stack([np.bincount(flat, weights=None if x is None else np.broadcast_to(x, sub.shape).ravel(),
                                 minlength=rows * cells).astype(np.float64)
                     for x in weights]).reshape(len(weights), rows, cells)


def _bitset(flags: np.ndarray) -> int:
    """A bool array as a Python int bitset (bit k set when flags[k])."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


@functools.cache
def _question_nodes(n: int, depth: int = QUESTIONS_PER_ROUND
                    ) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """The nodes of a round's question tree with n verifiers: which verifiers were asked, with their answers.

    Returns the (2**n, nodes) 0/1 matrix of which answer patterns fall in each node (node 0: nothing asked)
    and, from the deepest asking level up, (node ids, their children on a pass, on a fail), one column per
    verifier not yet asked.
    """
    depth = min(depth, n)
    ids: dict[tuple[tuple[int, int], ...], int] = {}
    for k in range(depth + 1):
        for asked in itertools.combinations(range(n), k):
            for answers in itertools.product((0, 1), repeat=k):
                ids[tuple(zip(asked, answers))] = len(ids)
    cells = np.zeros((1 << n, len(ids)), dtype=np.float64)
    for node, j in ids.items():
        for x in range(1 << n):
            cells[x, j] = all((x >> v) & 1 == a for v, a in node)
    levels = []
    for k in range(depth - 1, -1, -1):
        level = [node for node in ids if len(node) == k]
        yes = [[ids[tuple(sorted(node + ((v, 1),)))] for v in range(n) if v not in dict(node)] for node in level]
        no = [[ids[tuple(sorted(node + ((v, 0),)))] for v in range(n) if v not in dict(node)] for node in level]
        levels.append((np.array([ids[node] for node in level]), np.array(yes), np.array(no)))
    for a in (cells, *(a for level in levels for a in level)):
        a.flags.writeable = False  # shared by every caller (cached)
    return cells, levels


def _leaf_spread(wt: np.ndarray, mixed: np.ndarray) -> np.ndarray:
    """How much is still unknown at a node where the round stops: sum of w*log2(w) over its assignments'
    weight when more than one code is left, else 0 (the smaller, the more the questions told apart)."""
    return np.where(mixed, wt * np.log2(np.maximum(wt, 1.0)), 0.0)


def _best_ties(value: np.ndarray, spread: np.ndarray, ids: np.ndarray, ask: np.ndarray, ask_spread: np.ndarray
               ) -> None:
    """One level of the question-tree DP: each node takes the least value (stop, or ask a verifier), and
    among the choices of that value the least spread (in place)."""
    best = np.minimum(value[:, ids], ask.min(axis=2))
    keep = np.where(value[:, ids] == best, spread[:, ids], np.inf)
    spread[:, ids] = np.minimum(keep, np.where(ask == best[:, :, None], ask_spread, np.inf).min(axis=2))
    value[:, ids] = best


@functools.lru_cache(maxsize=1 << 16)
def _huffman_pair(weights: tuple[int, ...]) -> Cost:
    """The expected case's state bound from its code weights (sorted): Huffman lengths with 8 outcomes a round
    and 2 a question. Cached: states met in a search share few distinct weight lists (Nightmare 4V #11: 332,000
    lookups, 15,000 lists)."""
    return _huffman(list(weights), 8), _huffman(list(weights), 2)


def _huffman(weights: list[int], arity: int) -> int:
    """Minimum total weighted depth of a tree with ``arity`` children per node over these leaf weights."""
    if len(weights) <= arity:
        return sum(weights) if len(weights) > 1 else 0
    heap = list(weights)
    while (len(heap) - 1) % (arity - 1):
        heap.append(0)
    heapq.heapify(heap)
    total = 0
    while len(heap) > 1:
        s = sum(heapq.heappop(heap) for _ in range(min(arity, len(heap))))
        total += s
        heapq.heappush(heap, s)
    return total


def _depth(k: int, arity: int) -> int:
    """Smallest d with arity**d >= k: the fewest levels that can tell k codes apart."""
    d = 0
    while arity**d < k:
        d += 1
    return d


def _worst_floor(k: int, left: int) -> Cost:
    """A lower bound on the worst case (further rounds, questions) of telling k codes apart with ``left``
    questions left in the current round (0 at a round start, whose round is then counted).

    Answers are binary, so some code is ``ceil(log2 k)`` questions deep (Kraft); ``r`` rounds ask at most
    ``left + 3r`` questions on any path, so at least the fewest r with ``k <= 2**(left + 3r)`` are needed; and
    if more than one round is needed, the paths that end within fewer rounds ask at most ``left + 3(r-1)``
    questions, too few to tell all k codes apart, so the deepest code is on a path that takes all r.
    """
    return _worst_floor_at_depth(_depth(k, 2), left)


def _worst_floor_at_depth(deep: int, left: int) -> Cost:
    """``_worst_floor`` given ``deep = ceil(log2 k)``, the deepest code's questions (0 for one code)."""
    return (max(0, -(-(deep - left) // QUESTIONS_PER_ROUND)), deep)


@dataclass(frozen=True)
class Move:
    """The solver's choice in one state: a proposal (start of round) or a verifier to ask, or stop."""

    proposal: Code | None = None
    verifier: int | None = None


#: The solvers of this process whose compiled searches hold a memo (``Solver._memo_share``).
_LIVE_SOLVERS: weakref.WeakSet[Solver] = weakref.WeakSet()


class Solver:
    """The exact optimal strategy of a problem for one objective ('expected' or 'worst').

    ``native``: search with the compiled engine (``Deduction.engine``) where it can run, else in Python; both
    give the same values (the Python search is the reference the tests hold the engine to). The greedy
    strategy, played past a time limit, is Python's either way.
    """

    def __init__(self, deduction: Deduction, objective: str = "expected", native: bool = True) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
        self.d = deduction
        self.objective = objective
        self.expected = objective == "expected"
        self.engine = deduction.engine(self.expected) if native else None
        if self.engine is not None:
            _LIVE_SOLVERS.add(self)
        self._rounds: dict[int, tuple[Cost, int]] = {}
        self._round_lb: dict[int, Cost] = {}
        # expected case: a round start's best proposal found so far, with its exact value (``_known_move``)
        self._incumbent: dict[int, tuple[Cost, int]] = {}
        self._ranked: dict[int, list[tuple[Cost, int, int]]] = {}
        self._inside_exact: dict[tuple[int, int, int], tuple[Cost, int]] = {}  # (state, proposal, left)
        self._inside_lb: dict[tuple[int, int, int], Cost] = {}
        self._lb: dict[int, Cost] = {}
        self._greedy_round: dict[int, tuple[Cost, int]] = {}
        self._greedy_inside: dict[tuple[int, Splits, int], tuple[Cost, int]] = {}
        self._canonical: dict[int, int] = {}
        self._floors: dict[int, Cost] = {}
        self._deep: dict[tuple[int, int], tuple[Cost, bool]] = {}  # (bound, whole: every deepest node taken)
        # the fewest codes a round start holds to get deep bounds (None: never, see DEEP_BOUND_VERIFIERS)
        codes = deduction.code_count(deduction.universe)
        self._deep_codes = math.ceil(DEEP_BOUND_SHARE * codes) if deduction.n_verifiers <= DEEP_BOUND_VERIFIERS \
            else None
        # ... and once widened (``_deepen``); no wider than the first
        self._wider_codes = self._deep_codes
        if self._deep_codes is not None and deduction.n_verifiers <= DEEP_WIDER_VERIFIERS:
            self._wider_codes = min(self._deep_codes, math.ceil(DEEP_WIDER_SHARE * codes))
        # ... and the fewest for them to go a round deeper still (``_deep_floor``; None: never)
        self._deeper_codes = math.ceil(DEEPER_BOUND_SHARE * codes) or 1 if self._deep_codes is not None \
            and deduction.symmetric and deduction.n_verifiers <= DEEPER_BOUND_VERIFIERS else None
        self._deeper_now = False  # a deeper bound is under way (the round starts it looks at take plain deep bounds)
        self.deep_floors = 0  # round starts whose deep floor a deeper bound took (as the engine's stats count them)
        self.deep = False  # whether the deep bounds are in use (``_deepen`` turns them on)
        self._deep_at = -1  # the step at which the plain search gives way to the deep bounds
        state_bytes = len(deduction.hidden) // 8 + 60  # a state int and its dict slot, roughly
        self._limits = {id(t): max(20_000, MEMO_BYTES // size) for t, size in (
            (self._rounds, 2 * state_bytes + 100), (self._round_lb, 2 * state_bytes + 100),
            (self._incumbent, 2 * state_bytes + 100),
            (self._ranked, state_bytes + 80 * 100), (self._lb, state_bytes + 100),
            (self._inside_exact, 8 * state_bytes + 200), (self._inside_lb, 8 * state_bytes + 200),
            (self._greedy_round, 2 * state_bytes + 100), (self._greedy_inside, 8 * state_bytes + 200),
            (self._canonical, 2 * state_bytes + 100), (self._floors, state_bytes + 100),
            (self._deep, state_bytes + 100))}
        self.deadline: float | None = None
        self.stopped = False
        self._ticks = 0
        self._seconds: float | None = None  # the last time limit given (``set_time_limit``)
        self._step_limit: int | None = None  # ``set_step_limit``, in this solver's steps and in the engine's
        self._engine_step_limit: int | None = None
        # where the last move past the time limit came from, and where ``bounds``'s upper bound did: "search" (what
        # the search found, ``_known_move``) or "greedy"
        self.fallback: str | None = None
        self.upper_from: str | None = None

    # -- time limit ----------------------------------------------------------------------------------
    def set_time_limit(self, seconds: float | None) -> None:
        """Let the exact search run at most this many seconds from now (None: no limit)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._seconds = seconds

    def set_step_limit(self, steps: int | None) -> None:
        """Let the exact search take at most this many more steps (None: no limit): a budget of work that stops it
        at the same point on any machine, where a time limit depends on the machine and its load. The compiled
        and the Python search count the same steps in the expected case."""
        steps = None if steps is None else max(0, steps) + 1  # both stop at the step that reaches their limit
        if self.engine is not None:
            self._engine_step_limit = None if steps is None else self.engine.steps() + steps
            self.engine.set_step_limit(self._engine_step_limit)
        self._step_limit = None if steps is None else self._ticks + steps

    @contextlib.contextmanager
    def _held_to(self, seconds: float | None, steps: int | None) -> Iterator[None]:
        """Within the block, the search's limits are these (a time, or a budget of steps when ``steps`` is given);
        after it, the limits and the ``stopped`` flag are as before (for a short search on the side)."""
        saved = self.deadline, self._seconds, self.stopped, self._step_limit, self._engine_step_limit
        self.set_time_limit(seconds)
        self.set_step_limit(steps)
        try:
            yield
        finally:
            self.deadline, self._seconds, self.stopped, self._step_limit, self._engine_step_limit = saved
            if self.engine is not None:
                self.engine.set_step_limit(self._engine_step_limit)

    @property
    def by_steps(self) -> bool:
        """Whether the search is held to a budget of steps (``set_step_limit``) rather than to time."""
        return self._step_limit is not None

    def _tick(self) -> None:
        self._ticks += 1
        if self._step_limit is not None and self._ticks >= self._step_limit:
            self.stopped = True
            raise SearchStopped
        if self._ticks == self._deep_at:
            raise _GoDeeper
        if not self._ticks & 15:
            self._check_time()

    def _check_time(self) -> None:
        """Stop the search (``SearchStopped``) once it is past its time limit."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped = True
            raise SearchStopped

    def _store(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        """Memoise, keeping the table under its size limit by forgetting its older half when full."""
        if len(table) >= self._limits[id(table)]:
            for old in list(itertools.islice(table, len(table) // 2)):
                del table[old]
        table[key] = value

    def _round_cost(self, state: int) -> Cost:
        """What one more round costs from this state: a round for each assignment (expected), or one (worst)."""
        return (self.d.weight(state), 0) if self.expected else (1, 0)

    def _question_cost(self, state: int) -> Cost:
        """What one more question costs from this state: one for each assignment (expected), or one (worst)."""
        return (0, self.d.weight(state)) if self.expected else (0, 1)

    def _canon(self, state: int) -> int:
        """The state's canonical form (``Deduction.canonical``): round starts are memoised under it."""
        if not self.d.symmetric:
            return state
        hit = self._canonical.get(state)
        if hit is None:
            hit = self.d.canonical(state)
            self._store(self._canonical, state, hit)
        return hit

    # -- a greedy strategy, evaluated exactly: the upper bound and the fallback -----------------------
    def greedy_value(self, state: int) -> Cost:
        """The exact cost of the greedy strategy from a round start (an upper bound on the optimum)."""
        return self._greedy_round_value(state)[0]

    def _greedy_round_value(self, state: int) -> tuple[Cost, int]:
        if self.d.known(state):
            return ZERO, -1
        state = self._canon(state)
        hit = self._greedy_round.get(state)
        if hit is None:
            self._tick()
            cost = self._round_cost(state)
            for _, _, p in self._ranked_proposals(state)[:GREEDY_WIDTH]:
                val = _add(cost, self._greedy_inside_value(state, self.d.splits(state, p), QUESTIONS_PER_ROUND)[0])
                if hit is None or val < hit[0]:
                    hit = (val, p)
            assert hit is not None
            self._store(self._greedy_round, state, hit)
        return hit

    def _greedy_proposal(self, state: int) -> int:
        """The greedy strategy's proposal: from its evaluation when done, else the best-ranked proposal."""
        state = self._canon(state)
        hit = self._greedy_round.get(state)
        return hit[1] if hit is not None else self._ranked_proposals(state)[0][2]

    def _greedy_question(self, state: int, splits: Splits, left: int) -> int:
        """The greedy strategy's next split inside a round: best bound on the answers, then most even; in
        Nightmare, the first question of the best tree of the questions left (``Deduction.split_choice``),
        which measured better there (the one-proposal greedy strategy's expected rounds over 40 Nightmare 4-verifier
        problems: 2.66 -> 2.54, 25 with 5 verifiers: 2.51 -> 2.48) and worse in Extreme (5, 6 verifiers: +0.04)."""
        hit = self._greedy_inside.get((state, splits, left))
        if hit is not None:
            return hit[1]
        if self.d.problem.mode == "nightmare":
            return self.d.split_choice(state, splits, left, self.expected)
        return min((_add(la, lb) if self.expected else max(la, lb), abs(self.d.weight(y) * 2 - self.d.weight(state)), y)
                   for y, la, lb in self._child_bounds(state, splits, left))[2]

    def _greedy_after(self, state: int, splits: Splits, left: int) -> Cost:
        if self.d.known(state):
            return ZERO
        sub = _restrict(splits, state) if left else ()
        if not sub:
            return self._greedy_round_value(state)[0]
        return self._greedy_inside_value(state, sub, left)[0]

    def _greedy_inside_value(self, state: int, splits: Splits, left: int) -> tuple[Cost, int]:
        """Greedy inside a round: ask the verifier whose answer has the best bound, the most even split.

        The greedy strategy asks on while some answer still divides the state (no early end of round).
        """
        key = (state, splits, left)
        hit = self._greedy_inside.get(key)
        if hit is None:
            q = self._question_cost(state)
            y = self._greedy_question(state, splits, left)
            a, b = self._greedy_after(y, splits, left - 1), self._greedy_after(state ^ y, splits, left - 1)
            hit = (_add(q, _add(a, b) if self.expected else max(a, b)), y)
            self._store(self._greedy_inside, key, hit)
        return hit

    # -- bounds ------------------------------------------------------------------------------------
    def lower_bound(self, state: int) -> Cost:
        """A lower bound on the cost of finishing from the start of a round.

        Expected case: Huffman lengths of the code groups (8 outcomes a round, 2 a question); worst case:
        ``_worst_floor`` of the number of codes. Cheap, for the states met inside a round; a state's proposals
        get the stronger ``Deduction.round_bounds`` when it is expanded.
        """
        lb = self._lb.get(state)
        if lb is None:
            if not self.expected:
                # the worst pair is the most questions among the assignments that take the most rounds
                lb = _worst_floor(self.d.code_count(state), 0)
            else:
                w = self.d.code_weights(state)
                lb = _huffman_pair(tuple(sorted(w))) if len(w) > 1 else ZERO
            self._store(self._lb, state, lb)
        return lb

    def _cheap_floor(self, state: int) -> Cost:
        """A round start's lower bound without searching it: the state bound, or what a deep bound of a round
        before found for it (``_raise_floor``), whichever is higher."""
        lb = self.lower_bound(state)
        deep = self._floors.get(state)
        return lb if deep is None or deep < lb else deep

    def _round_floor(self, state: int) -> Cost:
        """The best lower bound known on a round start's cost: exact if memoised, else what the search learnt."""
        raw = state
        if self.d.symmetric:
            # a state never searched is not put in canonical form just for a bound: its relabelled twins may
            # have been searched, but the cheap bound stands meanwhile
            form = self._canonical.get(state)
            if form is None:
                return self._cheap_floor(state)
            state = form
        hit = self._rounds.get(state)
        if hit is not None:
            return hit[0]
        lb = self._cheap_floor(raw)
        learnt = self._round_lb.get(state)
        return lb if learnt is None or learnt < lb else learnt

    # -- exact values (branch and bound with budgets) -------------------------------------------------
    # Every search function takes a budget: it returns the exact value when that is below the budget, and
    # otherwise some lower bound that is at least the budget ("fail high"). Exact values and lower bounds are
    # memoised separately, so a later search with a larger budget reuses what was learnt.

    def round_value(self, state: int) -> Cost:
        """Optimal cost to finish from the start of a round in this state."""
        if self.engine is not None:
            return self._native(self.engine.round_value, state)[0]
        return self._deepen(lambda budget: self._round(state, budget), self._round_floor(state))

    def _native(self, search: Callable[..., tuple[int, int, int] | None], state: int, *args: int) -> tuple[Cost, int]:
        """A search of the compiled engine on a state, under this solver's time limit: (exact value, best move)."""
        assert self.engine is not None
        self.engine.set_deadline(self.deadline)
        self.engine.set_memo_limit(self._memo_share())
        found = search(self.d.members(state).astype(np.uint32), *args)
        if found is None:
            self.stopped = True
            raise SearchStopped
        return (found[0], found[1]), found[2]

    def _memo_share(self) -> int:
        """The memory this solver's memo may take now: ``ENGINE_MEMO_BYTES`` less what the other live solvers' memos
        hold (a process searching both objectives, or several problems, keeps to it), ``ENGINE_MEMO_LEAST`` at least."""
        others = sum(s.engine.memo_held() for s in list(_LIVE_SOLVERS) if s is not self and s.engine is not None)
        return max(min(ENGINE_MEMO_LEAST, ENGINE_MEMO_BYTES), ENGINE_MEMO_BYTES - others)

    def _inside_value(self, state: int, proposal: int, splits: Splits, left: int) -> Cost:
        """Optimal cost inside a round (see ``_inside``)."""
        return self._deepen(lambda budget: self._inside(state, proposal, splits, left, budget),
                            self._inside_lb.get((state, proposal, left), ZERO))

    def _search_for(self, search: Callable[[Cost], Cost], steps: int) -> Cost | None:
        """An unbounded search stopped after this many more steps (``_GoDeeper``): its value, None if stopped."""
        self._deep_at = self._ticks + max(1, steps)
        try:
            return search(_INF)
        except _GoDeeper:
            return None
        finally:
            self._deep_at = -1

    def _deepen(self, search: Callable[[Cost], Cost], floor: Cost) -> Cost:
        """The exact value of a budgeted search.

        Worst case: by tests "is it the lower bound?", each failed one raising the bound by a question at
        least; a tight budget prunes hard, and what a test learnt is memoised for the next. Expected case:
        one unbounded search (its values are sums over the assignments, too many for one-step tests): the
        plain one first, then (past ``DEEP_AFTER_STEPS``) with deep bounds near the start, then (past
        ``DEEP_WIDER_AFTER_STEPS`` more) with deep bounds further down; each starts over, keeping the memo.
        """
        if self.expected:
            if not self.deep and self._deep_codes is not None:
                if (value := self._search_for(search, DEEP_AFTER_STEPS)) is not None:
                    return value
                self.deep = True
            if self._deep_codes is not None and self._wider_codes is not None \
                    and self._wider_codes < self._deep_codes:
                if (value := self._search_for(search, DEEP_WIDER_AFTER_STEPS)) is not None:
                    return value
                self._deep_codes = self._wider_codes
            return search(_INF)
        while True:
            budget = (floor[0], floor[1] + 1)
            value = search(budget)
            if value < budget:
                return value
            floor = max(floor, value)

    def _round(self, state: int, budget: Cost, known_floor: Cost = ZERO) -> Cost:
        """Cost from a round start (see ``_deepen`` for the budget); ``known_floor``: a lower bound the
        caller knows of, so the search stops as soon as a proposal reaches it."""
        if self.d.known(state):
            return ZERO
        floor = max(self._cheap_floor(state), known_floor)
        if floor >= budget:
            return floor  # settled by the cheap bound, before the state is put in canonical form
        state = self._canon(state)
        hit = self._rounds.get(state)
        if hit is not None:
            return hit[0]
        self._tick()
        floor = max(floor, self._round_lb.get(state, ZERO))
        if floor >= budget:
            return floor
        cost = self._round_cost(state)
        # a proposal that can end the game in this round beats every other, and its bound is its question tree's
        # exact cost; the few that can are found before ranking them all (unless ranked already, by the greedy
        # strategy). Any other proposal leaves a node with two codes or more: another round for its assignments
        # (two at least) and, on the worst path, a question in it
        later = (cost[0] + 2, 0) if self.expected else (2, 1)
        ranked = self._ranked.get(state)
        idx = self.d.members(state) if ranked is None else None  # the state's classes, for what follows
        finished, floor = self._finish_or_later(state, ranked, idx, floor, later)
        if finished is not None:
            return finished
        if floor >= budget:  # raised to ``later``
            self._store(self._round_lb, state, floor)
            return floor
        if ranked is None and not self.expected and known_floor > ZERO:
            # checking whether ending a round early helps (the one caller with a floor of its own), the least
            # bound over all proposals, found without ranking them, mostly settles it (on Nightmare 4V #333,
            # 35,000 of 36,000 checks; on other round starts it cost more than it saved)
            floor = max(floor, self.d.worst_round_floor(idx))
            if floor >= budget:
                self._store(self._round_lb, state, floor)
                return floor
        if ranked is None:
            ranked = self._ranked_proposals(state, idx)
        codes = self.d.code_count(state)
        deep = self.deep and self._deep_codes is not None and codes >= self._deep_codes
        lazy = deep and self._deeper_codes is not None and codes >= self._deeper_codes
        if deep:  # each proposal's bound raised a round deeper when it comes up (``_deepen_at``)
            ranked, deepened, nexts = list(ranked), {}, []
            idx = self.d.members(state) if idx is None else idx
        best, best_p, fail = _INF, -1, _INF
        i = 0
        while i < len(ranked):
            cap = min(best, budget)
            lb, _, p = ranked[i]
            if lb >= cap:
                fail = min(fail, lb)
                break
            if deep and (p not in deepened or deepened[p] == (1, False)):
                # where deep bounds go deeper (``_deep_floor``), a proposal's first one is taken only as far as the
                # bound of the next proposal deepened already: enough to rank it (taken further should it come first
                # again). deepened[p]: how often, and whether its deep bound is whole (kept here: the memo may forget)
                dcap = cap
                if lazy and p not in deepened:
                    dcap = next((min(cap, b) for b, _, q in ranked[i + 1:] if q in deepened), cap)
                self._deepen_at(state, ranked, i, dcap, idx, nexts)
                deepened[p] = (deepened.get(p, (0, False))[0] + 1, self._deep[(state, p)][1])
                continue
            i += 1
            sp = self.d.splits(state, p)
            inner = self._inside(state, p, sp, QUESTIONS_PER_ROUND, _sub(cap, cost))
            val = _add(cost, inner)
            if val < best:
                if self.expected and val < budget and val < self._incumbent.get(state, (_INF,))[0]:
                    self._store(self._incumbent, state, (val, p))  # exact: a strategy to play if stopped
                best, best_p = val, p
                if best <= floor:
                    break  # the state's lower bound is reached: nothing does better
        if best < budget:
            self._store(self._rounds, state, (best, best_p))
            self._round_lb.pop(state, None)
            return best
        low = max(floor, min(best, fail))
        self._store(self._round_lb, state, low)
        return low

    def _finish_or_later(self, state: int, ranked: list[tuple[Cost, int, int]] | None, idx: np.ndarray | None,
                         floor: Cost, later: Cost) -> tuple[Cost | None, Cost]:
        """A round start (canonical) settled in this round: (the exact cost of the best proposal that ends the game,
        memoised, or None; the floor, raised to ``later`` when none can). ``ranked``: its ranked proposals if known
        (the first one ends the game if any does), else it is looked for among ``idx``'s finishing proposals, while
        ``floor`` is under ``later``."""
        finish = None
        if ranked is not None:
            finish = (ranked[0][0], ranked[0][2]) if ranked[0][0][0] == self._round_cost(state)[0] else None
        elif floor < later:
            finish = self._finishing(state, idx)
            if finish is None:
                floor = later
        if finish is None:
            return None, floor
        self._store(self._rounds, state, finish)
        self._round_lb.pop(state, None)
        self._ranked.pop(state, None)
        return finish[0], floor

    def _proposal_bounds(self, state: int, idx: np.ndarray, proposals: np.ndarray
                         ) -> list[tuple[Cost, int, int]]:
        """(lower bound, tie-break, proposal) for each of these proposals (see ``Deduction.round_bounds``),
        sorted. The state's bound holds for rounds and questions apart (expected case): a proposal's bound
        of fewer rounds is raised to it, else its questions are; in the worst case it holds only
        lexicographically, so the two are joined by the lexicographic max."""
        r0, q0 = self.lower_bound(state)
        rounds, questions, order = self.d.round_bounds(idx, proposals, self.expected)
        if self.expected:
            questions = np.where(rounds < r0, q0, np.maximum(questions, q0))
            rounds = np.maximum(rounds, r0)
        else:  # the worst case's state bound holds lexicographically only
            below = (rounds < r0) | ((rounds == r0) & (questions < q0))
            rounds, questions = np.where(below, r0, rounds), np.where(below, q0, questions)
        key = np.lexsort((proposals, order, questions, rounds))
        return list(zip(zip(rounds[key].tolist(), questions[key].tolist()), order[key].tolist(),
                        proposals[key].tolist()))

    def _finishing(self, state: int, idx: np.ndarray) -> tuple[Cost, int] | None:
        """The best proposal that ends the game in this round, with its exact cost; None if none can.
        ``idx``: the state's classes (``members``)."""
        rows = self.d.finishing_proposals(idx)
        if not len(rows):
            return None
        rounds, questions, order = self.d.round_bounds(idx, rows, self.expected)
        best = np.lexsort((rows, order, questions, rounds))[0]  # as ``_proposal_bounds`` ranks them
        if rounds[best] != (self.d.weight(state) if self.expected else 1):
            return None
        return (int(rounds[best]), int(questions[best])), int(rows[best])

    def _ranked_proposals(self, state: int, idx: np.ndarray | None = None) -> list[tuple[Cost, int, int]]:
        """Distinct proposals (one per split signature) as (lower bound, tie-break, proposal), most
        promising first; ``self.d.splits(state, p)`` gives a proposal's splits when it is searched.
        ``idx``: the state's classes, when the caller has them.
        """
        ranked = self._ranked.get(state)
        if ranked is None:
            idx = self.d.members(state) if idx is None else idx
            live = self.d.distinct_proposals(idx, self.d.automorphisms(state, idx))
            if not len(live):
                raise RuntimeError("no proposal tells the remaining assignments apart")
            ranked = self._proposal_bounds(state, idx, live)
            self._store(self._ranked, state, ranked)
        return ranked

    def _deepen_at(self, state: int, ranked: list[tuple[Cost, int, int]], i: int, cap: Cost, idx: np.ndarray,
                   nexts: list) -> None:
        """``ranked[i]``, the first of the ranked proposals left to search, with its bound raised a round deeper
        (``_deep_bound``, memoised) and moved to its place among ``ranked[i:]`` again. The search deepens a proposal
        only when it comes up, so one whose ranked bound already reaches the best found (or the budget) is never
        deepened. On Nightmare 4V #1 the start's best ranked bound is 1.98 rounds an assignment, its best deep bound
        2.65, the optimum 2.78: 30 of its 53 proposals are ruled out by the deep bound alone, and the best is
        searched second, not eleventh.

        The time limit is checked before each deep bound: with 5 verifiers one takes up to 0.4 s and a start can
        need a hundred, with no search step between them (Extreme 5V #171 ran 8 s past a 1 s limit). ``nexts``:
        the state's distinct proposals, found on first need (a list of one array, empty until then)."""
        lb, order, p = ranked[i]
        known = self._deep.get((state, p))  # (bound, whole)
        if known is not None and (known[1] or known[0] >= cap):
            deep = known[0]
        else:
            self._check_time()
            if not nexts:
                nexts.append(self.d.distinct_proposals(idx))
            deep, whole = self._deep_bound(state, idx, p, nexts[0], cap)
            deep = max(lb, deep, ZERO if known is None else known[0])
            self._store(self._deep, (state, p), (deep, whole))
        del ranked[i]
        bisect.insort(ranked, (deep, order, p), lo=i)

    def _deep_bound(self, state: int, idx: np.ndarray, proposal: int, nexts: np.ndarray, cap: Cost
                    ) -> tuple[Cost, bool]:
        """Expected case: a lower bound on a proposal's cost from this round start, a round deeper than its
        ranked bound, and whether it is whole. Where the round stops at a deepest node of the question tree (every
        question asked), the node's assignments get the least next-round bound (``Deduction.deepest_floors``)
        instead of one round and one question each; stopping higher up costs at least the two answers' together (a
        strategy for the node serves each answer alone). The deepest nodes are taken heaviest first, each node's
        floor standing in until then, and the bound stops as soon as it reaches ``cap``: the proposal is ruled out
        (on Nightmare 4V #26 most deep bounds rule theirs out, and stopping there halves their cost). The nodes'
        bounds are kept for the search below (``_round_floor``). ``idx``: the state's classes; ``nexts``: its
        distinct proposals (``distinct_proposals``, no twins)."""
        d = self.d
        big = float(_SCALE)
        n_nodes = d._node_cells.shape[1]
        # each node's state: its answer cells' states (bitsets) are disjoint, so their sum is their union
        flags = np.zeros((1 << d.n_verifiers, ((len(d.hidden) + 7) // 8) * 8), dtype=np.uint8)
        flags[d.pattern[proposal, idx], idx] = 1
        cell_state = np.array([int.from_bytes(row.tobytes(), "little")
                               for row in np.packbits(flags, axis=1, bitorder="little")], dtype=object)
        node = d._tree_sums(cell_state, axis=0).tolist()
        own = np.zeros(n_nodes)  # each node's floor (0: empty or known)
        wt = np.zeros(n_nodes)
        floor_of: dict[int, Cost] = {}
        for j in range(n_nodes):
            if node[j] and not d.known(node[j]):
                floor_of[j] = self._round_floor(node[j])
                own[j], wt[j] = floor_of[j][0] * big + floor_of[j][1], d.weight(node[j])
        deepest = d._deepest.tolist()
        floors = d.deepest_floors(idx, proposal, nexts).tolist()
        todo = sorted((j for j in deepest if wt[j]), key=lambda j: -wt[j])  # heaviest first, stable
        start = d.weight(state) * big

        def tree(stop_at: np.ndarray) -> Cost:
            stop = np.zeros(n_nodes)  # at least the cost of ending the round at each node
            stop[deepest] = stop_at[deepest]
            for ids, yes, no in d._node_levels:
                both = (stop[yes] + stop[no]).max(axis=1)
                stop[ids] = np.where(wt[ids] > 0, np.maximum(both, own[ids]), stop[ids])
            for ids, yes, no in d._node_levels:  # then the best question tree over these, as in round_bounds
                stop[ids] = np.minimum(stop[ids], (stop[yes] + stop[no] + wt[ids, None]).min(axis=1))
            total = int(np.rint(stop[0] + start))
            return total // _SCALE, total % _SCALE

        stop_at = own.copy()
        total = tree(stop_at)
        done = 0
        by_node = dict(zip(deepest, floors))
        while done < len(todo) and total < cap:
            j = todo[done]
            f = round(by_node[j])
            lb = max((f // _SCALE, f % _SCALE), floor_of[j])
            self._raise_floor(node[j], lb)
            stop_at[j] = lb[0] * big + lb[1]
            total = tree(stop_at)
            done += 1
        if done < len(todo) or total >= cap or self._deeper_now or self._deeper_codes is None \
                or d.code_count(state) < self._deeper_codes:
            return total, done == len(todo)
        # a round deeper still: each deepest node's deep floor, heaviest first, until the bound reaches cap
        nodes = sorted((j for j in deepest if wt[j]), key=lambda j: -wt[j])
        whole = True
        self._deeper_now = True
        try:
            done = 0
            while done < len(nodes) and total < cap:
                j = nodes[done]
                at = int(stop_at[j])
                have = (at // _SCALE, at % _SCALE)
                # raising one node's bound raises the whole by as much at most: past what is missing, no need
                f, node_whole = self._deep_floor(node[j], _add(have, _sub(cap, total)))
                whole = whole and node_whole
                if f > have:
                    stop_at[j] = f[0] * big + f[1]
                    total = tree(stop_at)
                done += 1
        finally:
            self._deeper_now = False
        return total, done == len(nodes) and whole

    def _deep_floor(self, state: int, cap: Cost) -> tuple[Cost, bool]:
        """A round start's least bound over its proposals, each deep bound found as its proposal comes first
        (``_deepen_at``), kept as the state's learnt bound: a round deeper than the least one-round bound, with no
        search. It stops once the least reaches ``cap``; and whether it is the least of them all (not stopped)."""
        if self.d.known(state):
            return ZERO, True
        lb = self._cheap_floor(state)
        state = self._canon(state)
        self.deep_floors += 1
        hit = self._rounds.get(state)
        if hit is not None:
            return hit[0], True
        lb = max(lb, self._round_lb.get(state, ZERO))
        if lb >= cap:
            return lb, False
        idx = self.d.members(state)
        finished, lb = self._finish_or_later(state, self._ranked.get(state), idx, lb,
                                             (self._round_cost(state)[0] + 2, 0))
        if finished is not None:
            return finished, True
        if lb >= cap:  # raised to a round more for two assignments at least
            self._store(self._round_lb, state, lb)
            return lb, False
        ranked = list(self._ranked_proposals(state, idx))
        deepened: set[int] = set()
        nexts: list = []
        while ranked[0][0] < cap and ranked[0][2] not in deepened:
            deepened.add(ranked[0][2])
            self._deepen_at(state, ranked, 0, cap, idx, nexts)
        low = max(lb, ranked[0][0])
        self._store(self._round_lb, state, low)
        return low, low < cap

    def _raise_floor(self, state: int, lb: Cost) -> None:
        """Remember a lower bound on a round start's cost found outside its own search (``_deep_bound``)."""
        if self._floors.get(state, ZERO) < lb:
            self._store(self._floors, state, lb)

    def _child_bounds(self, state: int, splits: Splits, left: int) -> list[tuple[int, Cost, Cost]]:
        """For each split: (split, lower bound on the cost after a pass, after a fail).

        After an answer the player starts a new round (at least the side's round floor) or, with questions
        left, goes on with this proposal: then (expected case) the assignments in parts its splits cannot
        tell apart need another round, and so do those the questions left cannot tell apart (``_tree_floor``),
        and the questions are at least the Huffman bound; (worst case) at least ``_worst_floor`` of the side's
        codes with the questions left, and a round more if a part is stuck, or more by ``_tree_floor``.
        The floor is a lexicographic bound, so the two are joined by taking the smaller. The proposal's cells
        within the state are found once; each side of a split is a union of them.
        """
        d = self.d
        parts = [c for c in _cells(state, splits) if not d.known(c)]  # the parts still holding several codes
        stuck = [(c, d.weight(c)) for c in parts] if self.expected else []
        anywhere = functools.reduce(operator.or_, parts, 0)
        out = []
        for y in splits:
            sides = []
            for side in (y, state ^ y):
                if d.known(side):
                    sides.append(ZERO)
                elif left - 1 == 0:
                    sides.append(self._round_floor(side))
                elif self.expected:
                    # rounds: the stuck parts', or more by the question tree (looked at only where the round floor
                    # is the greater); questions: the Huffman bound, or more
                    new_round = self._round_floor(side)
                    going_on = (sum(w for c, w in stuck if c & side), self.lower_bound(side)[1])
                    if going_on < new_round:
                        tree = self._tree_floor(side, splits, left - 1, True)
                        going_on = (max(tree[0], going_on[0]), max(tree[1], going_on[1]))
                    sides.append(min(new_round, going_on))
                else:
                    # the side's state bound is _worst_floor(k, 0): its questions are ceil(log2 k). Going on is
                    # never bounded above a new round here (which pays a round more for as many questions), so
                    # the round floor is not looked up. Each part lies wholly on one side of every split
                    going_on = _worst_floor_at_depth(self.lower_bound(side)[1], left - 1)
                    if going_on[0] == 0 and side & anywhere:
                        going_on = (1, 1)  # some assignments need another round
                    sides.append(max(going_on, self._tree_floor(side, splits, left - 1, False)))
            out.append((y, sides[0], sides[1]))
        return out

    def _tree_floor(self, state: int, splits: Splits, left: int, ask: bool,
                    seen: dict[tuple[int, int], Cost] | None = None) -> Cost:
        """A lower bound on ``left`` more questions to this round's proposal from ``state`` (``ask``: at least one),
        then what a part of two codes or more costs where the tree stops: another round and a question (expected
        case), its codes' ``_worst_floor`` (worst case). ``round_bounds``'s dynamic program, from inside the round,
        where it counts which parts the questions left can still tell apart (``seen``: the nodes met, two
        questions in either order leading to the same one)."""
        d = self.d
        if d.known(state):
            return ZERO
        seen = {} if seen is None else seen
        if not ask and (hit := seen.get((state, left))) is not None:
            return hit
        w = d.weight(state) if self.expected else 1
        best = _INF if ask else (w, w) if self.expected else _worst_floor(d.code_count(state), 0)
        for y in splits if left else ():
            a = state & y
            if not a or a == state:
                continue
            fa = self._tree_floor(a, splits, left - 1, False, seen)
            fb = self._tree_floor(state ^ a, splits, left - 1, False, seen)
            best = min(best, _add((0, w), _add(fa, fb) if self.expected else max(fa, fb)))
        if not ask:
            seen[state, left] = best
        return best

    def _after(self, state: int, proposal: int, splits: Splits, left: int, budget: Cost) -> Cost:
        """Cost after an answer left ``state`` with ``left`` questions in this round (go on, or new round)."""
        if self.d.known(state):
            return ZERO
        sub = _restrict(splits, state) if left else ()
        if not sub:
            return self._round(state, budget)
        go_on = self._inside(state, proposal, sub, left, budget)
        # a new round here can save at most the questions going on would ask now: asking one and then playing
        # the best new round on each side costs one question more (each assignment's, in the expected case)
        # than that new round, and a side's best costs no more than the whole state's (together, no more)
        least = _sub(go_on, self._question_cost(state))
        if self.expected:
            least = max(least, self._parts_floor(state, sub))
        new_round = self._round(state, min(budget, go_on), least)
        return min(go_on, new_round)

    def _parts_floor(self, state: int, splits: Splits) -> Cost:
        """Expected case: a lower bound on a new round from ``state``. A strategy for the state serves each answer
        to any of these questions alone, so it costs at least the two answers' round-start floors together, an
        answer whose code is known still paying its round.

        Going on has just searched these answers, so their floors are mostly exact: on Nightmare 4V #499 this
        settles 95 % of the checks whether ending the round early helps (in the worst case the least bound over
        all proposals mostly settles them already, and this measured slower there)."""
        d = self.d
        best = ZERO
        for y in splits:
            a, b = y, state ^ y
            best = max(best, _add((d.weight(a), 0) if d.known(a) else self._round_floor(a),
                                  (d.weight(b), 0) if d.known(b) else self._round_floor(b)))
        return best

    def _inside(self, state: int, proposal: int, splits: Splits, left: int, budget: Cost) -> Cost:
        """Cost inside a round: the proposal (given by its splits) is fixed and ``left`` questions remain."""
        key = (state, proposal, left)  # the proposal's splits of the state are known from these
        hit = self._inside_exact.get(key)
        if hit is not None:
            return hit[0]
        floor = self._inside_lb.get(key, ZERO)
        if floor >= budget:
            return floor
        self._tick()
        q = self._question_cost(state)
        options = []
        total = self.d.weight(state)
        for i, (y, la, lb) in enumerate(self._child_bounds(state, splits, left)):
            bound = _add(q, _add(la, lb) if self.expected else max(la, lb))
            lean = self.d.weight(y) * 2 - total  # above 0: the pass side holds more assignments
            options.append((bound, abs(lean), i, y, la, lb, lean))  # ties: the first verifier's split first
        options.sort()
        if options:
            floor = max(floor, options[0][0])  # no option's bound is lower
        best, best_y, fail = _INF, -1, _INF
        for bound, _, _, y, la, lb, lean in options:
            cap = min(best, budget)
            if bound >= cap:
                fail = min(fail, bound)
                break
            room = _sub(cap, q)
            # expected case: the side with the lower bound first, so the other, costlier side is searched with
            # the budget its exact cost leaves (Nightmare 4V #11 18 -> 11 s, Extreme 4V #251 44 -> 25 s; the
            # other way round, 27 s and over 60 s); worst case: the side with the higher bound first, the
            # likelier to use up the budget alone (the other way round, 2x slower), and between equal bounds
            # the side with more assignments (Nightmare 4V #151 187,641 -> 61,065 steps, #501 601,529 -> 105,276,
            # #26 1,451,312 -> 335,169; the first side in split order, or the smaller, measured as slow)
            first, second, first_lb, second_lb = (y, state ^ y, la, lb) \
                if (la <= lb if self.expected else (la, lean) >= (lb, 0)) else (state ^ y, y, lb, la)
            if self.expected:
                # the first answer is searched with a share of the room first: where the two bounds are far
                # below the costs, a search given all the room would find its exact cost, while this one fails
                # high sooner with a raised bound, and the second answer, searched with the room that bound
                # leaves, often rules the question out with neither cost known; when the second's cost is
                # found instead, the first is searched again with the room it leaves
                a = b = None  # their costs, once known
                probe = _probe(room, first_lb, second_lb)
                if probe is not None:
                    a = self._after(first, proposal, splits, left - 1, probe)
                    if a >= probe:  # a raised bound: the second answer next, with the room it leaves
                        b = self._after(second, proposal, splits, left - 1, _sub(room, a))
                        if b >= _sub(room, a):
                            fail = min(fail, _add(q, _add(a, b)))
                            continue
                        a = None
                if a is None:
                    other = second_lb if b is None else b
                    a = self._after(first, proposal, splits, left - 1, _sub(room, other))
                    if a >= _sub(room, other):
                        fail = min(fail, _add(q, _add(a, other)))
                        continue
                if b is None:
                    b = self._after(second, proposal, splits, left - 1, _sub(room, a))
                val = _add(q, _add(a, b))
            else:
                a = self._after(first, proposal, splits, left - 1, room)
                if a >= room:
                    fail = min(fail, _add(q, a))
                    continue
                b = self._after(second, proposal, splits, left - 1, room)
                val = _add(q, max(a, b))
            if val < best:
                best, best_y = val, y
                if best <= floor:
                    break  # the lower bound is reached: nothing does better
            elif val >= cap:
                fail = min(fail, val)
        if best < budget:
            self._store(self._inside_exact, key, (best, best_y))
            return best
        low = max(floor, min(best, fail))
        self._store(self._inside_lb, key, low)
        return low

    def _inside_choice(self, state: int, proposal: int, splits: Splits, left: int) -> int:
        """The split (verifier answer) the optimal play asks next inside a round."""
        self._inside_value(state, proposal, splits, left)
        return self._inside_exact[(state, proposal, left)][1]

    # -- moves --------------------------------------------------------------------------------------
    def _out_of_time(self) -> bool:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped = True
        return self.stopped

    def _known_move(self, state: int, proposal: int | None = None, left: int = 0) -> tuple[Cost, Cost | None, int]:
        """What the search knows of a round start (``proposal`` None) or of a state inside a round, without
        searching: the value's learnt lower bound, the least value a move was found to reach (None if no move is
        known; the exact value once known) and that move (a proposal, or the split ``y`` to ask; -1: none).

        A search stopped part way plays on with what it found: in the expected case, a round start's best
        proposal searched to the end, whose strategy is known in full (in the worst case, the compiled search's
        moves under a budget); mostly nearer the optimum than the greedy strategy's (Nightmare 4V #113 and #126 at
        5 s: 3.53 and 3.54 rounds an assignment against 3.88 and 3.76), though not always early in a search."""
        if self.engine is not None:
            idx = self.d.members(state).astype(np.uint32)
            low, up, move = self.engine.known_move(idx) if proposal is None else \
                self.engine.known_move(idx, proposal, left)
            if proposal is not None and move >= 0:  # the engine names the verifier: its split
                move = min(m := state & self.d.passes[move][proposal], state ^ m)
            return tuple(low), None if up is None else tuple(up), move
        if self.d.known(state):
            return ZERO, ZERO, -1
        if proposal is None:
            state = self._canon(state)
            hit = self._rounds.get(state) or self._incumbent.get(state)
            low = self._rounds[state][0] if state in self._rounds else self._round_lb.get(state, ZERO)
        else:
            key = (state, proposal, left)
            hit = self._inside_exact.get(key)
            low = hit[0] if hit is not None else self._inside_lb.get(key, ZERO)
        return (low, None, -1) if hit is None else (low, hit[0], hit[1])

    def best_proposal(self, state: int) -> Code | None:
        """The proposal to open the next round with, or None when the code is already known.

        Optimal when the search finishes within the time limit; otherwise (and ``stopped`` is set) the best
        proposal the search found (``_known_move``), or the greedy strategy's where that one's value is known to be
        lower or the search found none (as ``bounds`` picks the better of the two).
        """
        if self.d.known(state):
            return None
        if self.engine is not None:
            hit = None
            if not self._out_of_time():
                try:
                    hit = self._native(self.engine.round_value, state)
                except SearchStopped:
                    hit = None
        else:
            hit = self._rounds.get(self._canon(state))
        if hit is None and self.engine is None and not self._out_of_time():
            try:
                self.round_value(state)
                hit = self._rounds.get(self._canon(state))
            except SearchStopped:
                hit = None
        if hit is None:
            _, found, p = self._known_move(state)
            greedy = self._greedy_round.get(self._canon(state))  # worked out by ``bounds`` (the start and on)
            better = found is not None and p >= 0 and (greedy is None or found <= greedy[0])
            self.fallback = "search" if better else "greedy"
            return Code.from_index(p if better else self._greedy_proposal(state))
        return Code.from_index(hit[1])

    def best_question(self, state: int, proposal: Code, left: int, opened: int | None = None) -> int | None:
        """The verifier to ask next with this proposal, or None to end the round (or the game).

        ``opened`` is the state at the start of the round: the splits on offer are the verifiers' answers to
        the proposal, and ending the round is right when a new round is at least as good. Past the time
        limit, what the search found decides where it knows a move (``_found_question``), else the greedy strategy.
        """
        if self.d.known(state) or left == 0:
            return None
        opened = state if opened is None else opened
        base = self.d.splits(opened, proposal.index)
        sub = _restrict(base, state)
        if not sub:
            return None
        y = None
        if not self._out_of_time():
            try:
                if self.engine is not None:
                    go_on, v = self._native(self.engine.inside_value, state, proposal.index, left)
                    if opened != state and self.round_value(state) < go_on:
                        return None
                    return v
                if opened != state:
                    go_on = self._inside_value(state, proposal.index, sub, left)
                    if self.round_value(state) < go_on:
                        return None
                y = self._inside_choice(state, proposal.index, sub, left)
            except SearchStopped:
                y = None
        if y is None:
            y = self._found_question(state, proposal, left, opened)
            self.fallback = "search" if y is not None else "greedy"
            if y == 0:
                return None
        if y is None:
            y = self._greedy_question(state, sub, left)
        return self._verifier_for(state, proposal, y)

    def _found_question(self, state: int, proposal: Code, left: int, opened: int) -> int | None:
        """Past the time limit: the split to ask next as the strategies the search found have it, 0 to end the round
        (a new round's known strategy beats going on), None when the search knows no move here."""
        low, go_on, y = self._known_move(state, proposal.index, left)
        _, whole, chosen = self._known_move(opened)
        if go_on is None and chosen == proposal.index and whole is not None:
            # the round's proposal is the one the search found, but these questions were searched in another form
            # (Nightmare: the round start's canonical one) or not at all (a proposal that ends the game takes its
            # value from its question tree's bound): a short search gets them, what follows being mostly memoised
            grace = min(FOUND_SECONDS, self._seconds or FOUND_SECONDS)  # no longer than the limit the move had
            limits = (None, FOUND_STEPS) if self.by_steps else (grace, None)
            with self._held_to(*limits), contextlib.suppress(SearchStopped):
                if self.engine is not None:
                    self._native(self.engine.inside_value, state, proposal.index, left)
                else:
                    self._inside_value(state, proposal.index, _restrict(self.d.splits(opened, proposal.index), state),
                                       left)
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

    def optimum(self) -> tuple[Fraction, Fraction]:
        """The optimal (rounds, questions) from the start: means for 'expected', worst pair for 'worst'.

        Raises ``SearchStopped`` when the time limit passes first (see ``bounds``).
        """
        return self._scale(self.round_value(self.d.universe))

    def _scale(self, cost: Cost) -> tuple[Fraction, Fraction]:
        if self.expected:
            w = self.d.weight(self.d.universe)
            return Fraction(cost[0], w), Fraction(cost[1], w)
        return Fraction(cost[0]), Fraction(cost[1])

    def bounds(self, seconds: float | None = None, steps: int | None = None
               ) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction] | None]:
        """The best known (lower, upper) bounds on the optimum, lexicographic; equal once it is proven.

        The upper bound is the cost of a strategy known in full: the optimum, or else the better of the best the
        search found (``_known_move``) and the greedy strategy, evaluated within ``seconds`` (None: no limit), or
        within ``steps`` steps when given; None when neither is known. ``upper_from`` says which it is: "search"
        or "greedy".
        """
        u = self.d.universe
        if self.d.known(u):
            return self._scale(ZERO), self._scale(ZERO)
        if self.engine is not None:
            r, q, exact = self.engine.floor(self.d.members(u).astype(np.uint32))
            if exact:
                return self._scale((r, q)), self._scale((r, q))
            low = self._scale((r, q))
        else:
            u = self._canon(u)
            hit = self._rounds.get(u)
            if hit is not None:
                return self._scale(hit[0]), self._scale(hit[0])
            low = self._scale(max(self.lower_bound(u), self._round_lb.get(u, ZERO), self._proposals_floor(u)))
        _, found, _ = self._known_move(self.d.universe)
        greedy: Cost | None = None
        with self._held_to(seconds, steps), contextlib.suppress(SearchStopped):
            greedy = self.greedy_value(u)
        if found is not None and (greedy is None or found <= greedy):
            self.upper_from = "search"
            return low, self._scale(found)
        self.upper_from = "greedy" if greedy is not None else None
        return low, None if greedy is None else self._scale(greedy)

    def _proposals_floor(self, state: int) -> Cost:
        """A round start's lower bound from what a search stopped part way learnt of its proposals: the least,
        over its ranked proposals, of each one's best bound (ranked, deep, or the cost of its round plus what the
        search of its questions learnt); ZERO when its proposals were never ranked."""
        ranked = self._ranked.get(state)
        if not ranked:
            return ZERO
        cost = self._round_cost(state)
        least = _INF
        for lb, _, p in ranked:
            key = (state, p, QUESTIONS_PER_ROUND)
            hit = self._inside_exact.get(key)
            inner = hit[0] if hit is not None else self._inside_lb.get(key, ZERO)
            least = min(least, max(lb, self._deep.get((state, p), (ZERO,))[0], _add(cost, inner)))
        return least

    # -- the whole decision tree ----------------------------------------------------------------------
    def tree(self, state: int | None = None, round_no: int = 1) -> dict[str, Any]:
        """The optimal strategy from a round start, as nested dicts (JSON-ready)."""
        state = self.d.universe if state is None else state
        if self.d.known(state):
            return self._leaf(state)
        proposal = self.best_proposal(state)
        assert proposal is not None
        return {"round": round_no, "proposal": str(proposal),
                "codes": len(self.d.codes(state)), "assignments": self.d.weight(state),
                "then": self._question_tree(state, state, proposal, QUESTIONS_PER_ROUND, round_no)}

    def _leaf(self, state: int) -> dict[str, Any]:
        return {"code": str(self.d.codes(state)[0]), "assignments": self.d.weight(state)}

    def _question_tree(self, state: int, opened: int, proposal: Code, left: int,
                       round_no: int) -> dict[str, Any]:
        v = self.best_question(state, proposal, left, opened)
        if v is None:
            if self.d.known(state):
                return self._leaf(state)
            return self.tree(state, round_no + 1)
        letter = self.d.problem.verifiers[v]
        yes = self.d.answer(state, v, proposal, True)
        no = self.d.answer(state, v, proposal, False)
        return {"ask": letter,
                "pass": self._question_tree(yes, opened, proposal, left - 1, round_no),
                "fail": self._question_tree(no, opened, proposal, left - 1, round_no)}


def _cells(state: int, splits: Splits) -> list[int]:
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


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1])


def _sub(a: Cost, b: Cost) -> Cost:
    return (a[0] - b[0], a[1] - b[1])


def _probe(room: Cost, first_lb: Cost, second_lb: Cost) -> Cost | None:
    """Expected case: the budget a question's first answer is searched with before the second, its bound and a
    share (``PROBE_SHARE``) of the room the two bounds leave; None when the room is under a question a share."""
    slack = (room[0] - first_lb[0] - second_lb[0]) * _SCALE + room[1] - first_lb[1] - second_lb[1]
    if slack * PROBE_SHARE < 1 or room[0] > _INF[0] // 2:  # a share of nothing, or of an unbounded search
        return None
    at = first_lb[0] * _SCALE + first_lb[1] + int(slack * PROBE_SHARE)
    return at // _SCALE, at % _SCALE


def _restrict(splits: Splits, state: int) -> Splits:
    """The splits that still divide a smaller state, canonical, distinct, in the order of their first verifier."""
    out: dict[int, None] = {}
    for y in splits:
        m = y & state
        if m and m != state:
            out.setdefault(min(m, state ^ m))
    return tuple(out)


def tree_text(tree: dict[str, Any], verifiers: str = "ABCDEF") -> str:
    """The decision tree as indented text: each round's proposal, whom to ask, what each answer leads to."""
    lines: list[str] = []

    def code_words(code: str) -> str:
        return f"▲{code[0]} ■{code[1]} ●{code[2]}"

    def walk(node: dict[str, Any], indent: str, head: str) -> None:
        if "code" in node:
            lines.append(f"{indent}{head}the code is {code_words(node['code'])} ({node['code']})")
        elif "round" in node:
            lines.append(f"{indent}{head}round {node['round']}: propose {code_words(node['proposal'])} "
                         f"({node['proposal']}) — {node['codes']} codes possible")
            walk(node["then"], indent + "  ", "")
        else:
            lines.append(f"{indent}{head}ask {node['ask']}")
            walk(node["pass"], indent + "  ", "✓ ")
            walk(node["fail"], indent + "  ", "✗ ")

    walk(tree, "", "")
    return "\n".join(lines)


@dataclass
class RoundRecord:
    """One round played: the proposal, the (verifier, passed) answers seen, and whether every move of the
    round came from the exact search (not from a strategy played on past a time limit)."""

    proposal: Code
    answers: list[tuple[str, bool]]
    exact: bool = True


def play(problem: Problem, machine: AskingMachine, objective: str = "expected",
         solver: Solver | None = None, round_seconds: float | None = None) -> tuple[Code, list[RoundRecord]]:
    """Play the dealt problem through a machine, optimally; return the code found and the rounds played.

    ``round_seconds``: give the exact search this long afresh at the start of every round (as ``tmphys play``
    does per move), so a round whose state is small enough is played optimally even after an earlier round
    ran out of time. None: keep the solver's own time limit.
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
