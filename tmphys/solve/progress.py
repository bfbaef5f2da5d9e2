"""What a search under way has done so far, read while it runs (from another thread): for a progress line.

``search_progress(solver)`` is the one place that reads it; the command line shows what it gives. A count of steps
taken in other processes (``rate_all``'s workers) comes back through ``SharedSteps``.

>>> search_progress(solver).steps   # doctest: +SKIP
1234567
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from tmphys.solve.solver import Solver


@dataclass(frozen=True)
class SearchProgress:
    """A search's progress so far: its ``steps`` (what ``Solver.set_step_limit`` counts) and, where the search gives
    one, the lower ``bound`` proven so far on the optimum (rounds, questions: means over the hidden assignments for
    'expected', the worst case's for 'worst'), None where it gives none."""

    steps: int
    bound: tuple[float, float] | None = None
    #: the value of the best strategy the search has found so far (the same units), None before it has one
    found: tuple[float, float] | None = None


def search_progress(solver: Solver) -> SearchProgress:
    """How far ``solver``'s search has come, read while it runs in another thread: the compiled search lets go of
    the interpreter while it searches, and its steps and bounds are read without its lock (``Engine.progress``);
    the reference solver gives its steps only."""
    if not solver.native:
        return SearchProgress(steps=int(solver.search.steps()))
    steps, low, up = solver.search.progress()

    def scaled(cost: tuple[int, int]) -> tuple[float, float]:
        r, q = solver.scale(cost)
        return float(r), float(q)

    return SearchProgress(int(steps), scaled(low), scaled(up) if up is not None else None)


#: Seconds between two reports of a process's steps into ``SharedSteps``.
REPORT_SECONDS = 0.25


class SharedSteps:
    """The steps every process rating problems has taken so far, one slot a process, summed where progress is
    shown: each process's searches are added to its slot by ``report`` (a thread of its own reads the search under
    way every ``REPORT_SECONDS``; a search that ends adds its steps at once)."""

    def __init__(self, processes: int, context: Any) -> None:
        self.slots = context.Array("Q", max(1, processes), lock=False)  # one writer a slot: no lock needed
        self.taken = context.Value("i", 0)  # the next free slot, handed out under its lock

    def total(self) -> int:
        """The steps taken so far, every process's together."""
        return sum(self.slots)


#: In a process that rates problems: its slot in the shared count, the steps of its searches that have ended, the
#: solver searching now, and the lock that keeps those in step (``report`` and ``searching``).
_slot: tuple[Any, int] | None = None
_ended = 0
_now: Solver | None = None
_lock = threading.Lock()
_reporter: threading.Thread | None = None


def report_into(shared: SharedSteps | None) -> None:
    """In a process that rates problems (a worker's initializer, or this process): add its searches' steps to
    ``shared`` from now on (None: no longer), every ``REPORT_SECONDS`` from a thread of its own."""
    global _slot, _ended, _reporter
    if shared is None:
        with _lock:
            _slot = None
        return
    with shared.taken.get_lock():
        index = shared.taken.value % len(shared.slots)
        shared.taken.value += 1
    with _lock:
        _slot, _ended = (shared.slots, index), 0
    if _reporter is None:
        _reporter = threading.Thread(target=_report_every, daemon=True, name="tmphys-steps")
        _reporter.start()


def _report_every() -> None:
    wait = threading.Event()
    while True:
        _report()
        wait.wait(REPORT_SECONDS)


def _report() -> None:
    """This process's steps so far into its slot: those of the searches that ended and of the one under way."""
    if _slot is None:
        return
    with _lock:
        slots, index = _slot
        slots[index] = _ended + (search_progress(_now).steps if _now is not None else 0)


def searching(solver: Solver | None) -> None:
    """Mark ``solver`` as the search under way in this process (None: it has ended, its steps counted as done)."""
    global _now, _ended
    with _lock:
        if _now is not None and solver is None:
            _ended += search_progress(_now).steps
        _now = solver
    _report()
