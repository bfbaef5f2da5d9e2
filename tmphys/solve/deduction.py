"""What the answers so far allow: the hidden assignments still consistent, as a bitset, and the algebra of a round.

A problem's hidden assignments are grouped into classes (``problem.hidden``), in code order; a *state* is a Python
int whose bit k says class k is still possible. A proposal's answers put every class in one of ``2**n`` answer cells
(n verifiers); a round asks up to three verifiers, each chosen after the earlier answers. ``round_bounds`` gives a
lower bound for every proposal at once by dynamic programming over a round's question tree.

>>> from tmphys.game.problems import parse_problem
>>> d = Deduction(parse_problem("3 7 10 14"))
>>> len(d.hidden), [str(c) for c in d.codes(d.universe)][:2]
(7, ['122', '132'])
"""

from __future__ import annotations

import functools
import heapq
import itertools

import numpy as np

from tmphys.game.codes import ALL_CODES, Code
from tmphys.game.problems import Problem

QUESTIONS_PER_ROUND = 3
#: A cost: (rounds, questions), compared lexicographically; integer totals over the assignments (expected case).
Cost = tuple[int, int]
ZERO: Cost = (0, 0)
INF: Cost = (1 << 60, 1 << 60)
#: Costs packed into one number for the vectorised bounds: rounds * SCALE + questions.
SCALE = 1 << 24
#: Splits of a state: the canonical sides of the verifiers' answers (without the state's last class), distinct,
#: non-trivial, in the order of their first verifier.
Splits = tuple[int, ...]
#: Nightmare problems with up to this many classes keep a table per relabelling of the verifiers; bigger ones
#: relabel only the classes of each state at hand.
RELABEL_TABLE_CLASSES = 1 << 14
#: Up to this many verifiers (16 answer cells), which question-tree nodes hold a code is looked up by the code's cell
#: mask in one table (2**16 masks x 65 nodes); with more, it is found as unions of code bitsets.
NODE_TABLE_VERIFIERS = 4


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
        floor of telling the node's codes apart, ``worst_floor``). ``idx``: the state's classes (``members``).
        """
        sub = self.pattern[:, idx][proposals]  # (rows, m): verifier v's answer in bit v
        big = float(SCALE)
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
            # worst case: a node with k codes needs the rounds and questions of worst_floor(k, 0); the codes
            # in each node are counted from which of the state's codes each answer cell holds
            occupied = self._code_cells(idx, sub)  # (rows, codes): each code's cells
            cells = np.arange(1 << self.n_verifiers, dtype=occupied.dtype)
            most = ((occupied[:, :, None] >> cells) & 1).sum(axis=1, dtype=np.int64).max(axis=1)
            total, least = self._worst_tree_bounds(self._node_code_counts(idx, sub, occupied), True)
            order = least * big + most
        total = np.rint(total).astype(np.int64)
        return total // SCALE, total % SCALE, np.rint(order).astype(np.int64)

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

    def _worst_tree_bounds(self, k: np.ndarray, tie_break: bool) -> tuple[np.ndarray, np.ndarray]:
        """The worst case's question-tree DP of ``round_bounds`` from how many codes each node holds (rows,
        nodes; integers): each proposal's bound as rounds * SCALE + questions, this round counted, and with
        ``tie_break`` the fewest codes its worst node can be held to (else zeros)."""
        bound = self._worst_tree_dp(np.take(_worst_leaf_bounds(), k), 1.0) + float(SCALE)
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
        big = float(SCALE)
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




def _worst_leaf_bounds() -> np.ndarray:
    """``worst_floor(k, 0)`` for every count of codes k (0 to 125), as rounds * SCALE + questions: what a node
    of a round's question tree holding k codes still needs when the round stops there."""
    out = np.array([r * SCALE + q for r, q in (worst_floor(k, 0) for k in range(126))], dtype=np.float64)
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
def huffman_pair(weights: tuple[int, ...]) -> Cost:
    """The expected case's state bound from its code weights (sorted): Huffman lengths with 8 outcomes a round
    and 2 a question. Cached: states met in a search share few distinct weight lists."""
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


def worst_floor(k: int, left: int) -> Cost:
    """A lower bound on the worst case (further rounds, questions) of telling k codes apart with ``left``
    questions left in the current round (0 at a round start, whose round is then counted).

    Answers are binary, so some code is ``ceil(log2 k)`` questions deep (Kraft); ``r`` rounds ask at most
    ``left + 3r`` questions on any path, so at least the fewest r with ``k <= 2**(left + 3r)`` are needed; and
    if more than one round is needed, the paths that end within fewer rounds ask at most ``left + 3(r-1)``
    questions, too few to tell all k codes apart, so the deepest code is on a path that takes all r.
    """
    return worst_floor_at_depth(_depth(k, 2), left)


def worst_floor_at_depth(deep: int, left: int) -> Cost:
    """``worst_floor`` given ``deep = ceil(log2 k)``, the deepest code's questions (0 for one code)."""
    return (max(0, -(-(deep - left) // QUESTIONS_PER_ROUND)), deep)

