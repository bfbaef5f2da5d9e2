"""The compiled search (``_engine.c``): the one optimising search, and its tuning as one typed configuration.

The engine searches a problem's exact optimum for one objective by branch and bound over round starts and the
questions inside a round (docs/solver.md explains how). It is built by ``pip install .`` with a C compiler; where it
is not built, ``engine_for`` returns None and ``Solver`` falls back on the reference solver (``reference.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from tmphys.game.problems import Problem
from tmphys.solve.deduction import Deduction

try:
    from tmphys.solve import _engine
except ImportError:  # a source checkout never built
    _engine = None

#: How to build the engine, said once where it is missing.
BUILD_HINT = "install tmphys with a C compiler present (pip install .) to build it"


@dataclass(frozen=True)
class EngineConfig:
    """The engine's tuning. Every value changes speed and memory only, never a value found.

    Expected case: round starts holding at least ``deep_share`` of the problem's codes rank their proposals by a
    bound a round deeper, once the plain search has taken ``deep_after`` steps (problems with at most
    ``deep_verifiers`` verifiers); after ``wider_after`` more steps, round starts holding ``wider_share`` of the codes
    do too (at most ``wider_verifiers`` verifiers); in Nightmare, round starts holding ``deeper_share`` (the start)
    go two rounds deep (at most ``deeper_verifiers``). A question's first answer is first searched with
    ``probe_share`` of the room its budget leaves.
    """

    deep_after: int = 15_000
    deep_share: float = 0.5
    deep_verifiers: int = 5
    wider_after: int = 50_000
    wider_share: float = 0.15
    wider_verifiers: int = 4
    deeper_share: float = 0.9
    deeper_verifiers: int = 4
    probe_share: float = 0.25
    #: Memory the memos of one process's engines may hold together; each gets at least ``memo_least``.
    memo_bytes: int = 1_400_000_000
    memo_least: int = 200_000_000
    #: Nightmare: memory for the relabelling tables, one per order of the verifiers used.
    table_bytes: int = 256_000_000
    #: Memory the greedy strategy's memo tables may take (``greedy.py``; Python's, not the engine's).
    greedy_bytes: int = 1_250_000_000

    def __post_init__(self) -> None:
        if self.deep_after < 1 or self.wider_after < 1:
            raise ValueError("deep_after and wider_after are at least one step")
        if not 0 < self.memo_least <= self.memo_bytes:
            raise ValueError("0 < memo_least <= memo_bytes")


DEFAULT_CONFIG = EngineConfig()

def engine_built() -> bool:
    """Whether the compiled search is built in this installation."""
    return _engine is not None


#: The criteria cards the core's library holds (its card numbers are 1..CORE_CARDS).
CORE_CARDS = 48


def core_cards(problem: Problem) -> tuple[bytes, bytes, tuple[tuple[int, ...], ...]]:
    """The problem's criteria cards as the core reads them: their truth tables (CORE_CARDS x 9 x 2 uint64: low and
    high words of each criterion's 125-bit set of codes, printed order, zeros past the card's last), their counts,
    and the problem's cards renumbered 1, 2, … in ascending order of their own numbers (so the core's order, and its
    search, are the same for any numbering, and a user's card numbered past 48 is a card like any other)."""
    numbers = sorted({n for cs in problem.cards for n in cs})
    local = {n: i + 1 for i, n in enumerate(numbers)}
    words = np.zeros((CORE_CARDS, 9, 2), dtype=np.uint64)
    counts = np.zeros(CORE_CARDS, dtype=np.uint8)
    for n, i in local.items():
        criteria = problem.criteria_of(n)
        counts[i - 1] = len(criteria)
        for k, c in enumerate(criteria):
            words[i - 1, k] = (c.mask & (2**64 - 1), c.mask >> 64)
    return words.tobytes(), counts.tobytes(), tuple(tuple(local[n] for n in cs) for cs in problem.cards)


MODE_NUMBERS = {"classic": 0, "extreme": 1, "nightmare": 2}


def engine_for(d: Deduction, expected: bool, config: EngineConfig = DEFAULT_CONFIG) -> Any | None:
    """A compiled search of this problem for one objective, or None where the engine is not built.

    The core sets the problem up itself (its hidden assignments, in the order ``Deduction`` has them: checked here,
    as states are passed between the two by class index)."""
    if _engine is None:
        return None
    library, counts, cards = core_cards(d.problem)
    tuning = asdict(config)
    tuning.pop("memo_least")
    tuning.pop("greedy_bytes")
    engine = _engine.Engine(mode=MODE_NUMBERS[d.problem.mode], cards=cards, library=library,
                            counts=counts, expected=expected, relabel=d.symmetric, **tuning)
    codes, weights, criteria, _ = engine.classes()
    if not (np.array_equal(np.frombuffer(codes, dtype=np.int32), d.code_of_class)
            and np.array_equal(np.frombuffer(weights, dtype=np.int64), d.class_weight)
            and np.array_equal(np.frombuffer(criteria, dtype=np.int32).reshape(-1, d.n_verifiers), d._mask_ids)):
        raise RuntimeError("the search core's hidden assignments differ from the model's")
    return engine


def memo_share(engine: Any, live: Iterable[Any], config: EngineConfig = DEFAULT_CONFIG) -> int:
    """The memory this engine's memo may take now: ``memo_bytes`` less what the memos of the process's other live
    engines hold (a process searching both objectives, or several problems, keeps to it), ``memo_least`` at least."""
    others = sum(e.memo_held() for e in live if e is not engine)
    return max(config.memo_least, config.memo_bytes - others)
