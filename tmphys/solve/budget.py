"""Memory: one budget per command, shared by every process and engine the command starts.

A command that searches (``solve``, ``play``, ``generate --rate``, ``booklet``) keeps to one budget: ``--memory``
(default 2 GB), lowered to the memory the machine has available where that is less. Each process it starts gets a
share of it, and no more: the process's fixed cost (``process_bytes``: the interpreter, the problem's deduction, the
engine's arrays and the work of the moment, measured per hidden assignment), the Nightmare relabelling tables of its
engines, the greedy strategy's memo tables and the memo its engines share, each held to its part through
``EngineConfig``.

Ratings (``rate_all``) run on workers of one fixed share each, ``RATING_BYTES``, whatever the workers and the machine:
a rating held to a budget of steps depends on its memo's size (a memo forgotten is searched again, in more steps),
so the same share gives the same ratings everywhere; the budget says how many workers run side by side.

>>> rating_plan(2 * GB, 8, 100).workers
2
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from tmphys.solve.engine import DEFAULT_CONFIG, EngineConfig

GB = 1_000_000_000
MB = 1_000_000

#: A command's memory budget unless ``--memory`` gives another.
DEFAULT_BYTES = 2 * GB
#: What a process of tmphys takes besides its memos and tables, measured, grows with the problem's hidden
#: assignments: the interpreter and modules 38 MB (``BASE_BYTES`` keeps a margin); per assignment the deduction 2.1 kB
#: and the search's and greedy strategy's work of the moment up to 6.3 kB (``ASSIGNMENT_BYTES``), and each engine's
#: arrays and stack 0.6 kB (``ENGINE_ASSIGNMENT_BYTES``). On the book's largest problem (Nightmare, 6 verifiers,
#: 31,680 hidden assignments) that is 350 MB for one engine; on its usual Nightmare problems (1,000 to 5,000), 55 to
#: 100 MB (``process_bytes``; benchmarks/RESULTS.md, "Nightmare in a minute").
BASE_BYTES = 45 * MB
ASSIGNMENT_BYTES = 8_500
ENGINE_ASSIGNMENT_BYTES = 1_000
#: The most hidden assignments a problem accepted has: a share whose problem is not known yet is sized for it.
MOST_ASSIGNMENTS = 31_680
#: The memory a memo's limit stands for at most: past its limit a memo keeps a quarter of itself, copied, before
#: letting go of the rest, and its arrays keep the size they grew to (measured: 1.41 times the limit at 200 MB).
MEMO_OVERHEAD = 1.5
#: Parts of what a process has beyond its fixed cost that go to the relabelling tables and to the greedy strategy's
#: memo tables (each split between its engines); the rest is the memo's.
TABLE_PART = 1 / 8
GREEDY_PART = 1 / 8
#: Never more than this for the relabelling tables of one engine, nor more than all of them take: one table of 4 bytes
#: per hidden assignment for each of the 720 orders of 6 verifiers (for 31,680 assignments, 91 MB).
TABLE_MOST = 256 * MB
TABLE_ASSIGNMENT_BYTES = 720 * 4
#: A rating worker's share, the same on every machine (see above): two fit the default budget.
RATING_BYTES = 1 * GB
#: The least budget a search can work in: one process's fixed cost and a small memo.
LEAST_BYTES = 500 * MB
#: The most ``--memory`` takes (a petabyte: more than any machine has, so a typing slip is caught).
MOST_BYTES = 10**15

_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12,
          "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}
_SIZE = re.compile(r"\s*([0-9]{1,15}(?:\.[0-9]{1,9})?)\s*(|k|m|g|t|ki|mi|gi|ti)(b?)\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A size in bytes from its text: digits with an optional unit, K, M, G, T (powers of 1,000: ``2G`` is two
    billion bytes) or KiB, MiB, GiB, TiB (powers of 1,024), B optional, in any case. ``ValueError`` otherwise.

    >>> parse_size("1500M"), parse_size("512MiB"), parse_size("2 GB")
    (1500000000, 536870912, 2000000000)
    """
    match = _SIZE.fullmatch(text)
    if match is None or (match[2] == "" and match[3] == "" and "." in match[1]):
        raise ValueError(f"{text.strip()[:40]!r} is not a size (e.g. 2G, 1500M or 512MiB)")
    number, unit = match[1], match[2].lower()
    whole, _, part = number.partition(".")
    scale = _UNITS[unit]
    return int(whole) * scale + (int(part) * scale // 10 ** len(part) if part else 0)


def size_text(n: int) -> str:
    """Bytes as a short figure: ``size_text(2_000_000_000) == "2 GB"``, ``size_text(1_500_000_000) == "1.5 GB"``."""
    for unit, scale in (("GB", GB), ("MB", MB), ("kB", 1000)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} bytes"


def available_bytes() -> int | None:
    """The memory the machine has available now (psutil's ``available``: on Linux MemAvailable, which counts the
    caches it can let go of), or None where it cannot tell."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # an unsupported platform, or /proc not mounted
        return None


def command_budget(given: int | None) -> tuple[int, str | None]:
    """A command's budget: ``given`` (``--memory``) or ``DEFAULT_BYTES``, lowered to the memory available when that
    is less (not below ``LEAST_BYTES``); with the line to say when it was lowered, else None."""
    wanted = DEFAULT_BYTES if given is None else given
    free = available_bytes()
    if free is None or free >= wanted:
        return wanted, None
    lowered = max(LEAST_BYTES, free)
    return lowered, (f"tmphys: {size_text(free)} of memory available, less than the {size_text(wanted)} budget: "
                     f"searching within {size_text(lowered)}")


def process_bytes(assignments: int = MOST_ASSIGNMENTS, engines: int = 1) -> int:
    """What a process searching a problem of ``assignments`` hidden assignments with ``engines`` engines takes
    besides its memos and tables (measured: see ``ASSIGNMENT_BYTES``).

    >>> size_text(process_bytes(1_440, 2)), size_text(process_bytes())
    ('60.1 MB', '346 MB')
    """
    return BASE_BYTES + assignments * (ASSIGNMENT_BYTES + engines * ENGINE_ASSIGNMENT_BYTES)


@dataclass(frozen=True)
class Share:
    """What one process of a command may take, in bytes, for its ``engines`` searching engines (``solve``'s first
    process keeps one per objective) on a problem of ``assignments`` hidden assignments (the most accepted where it
    is not known yet), and how that is split: ``config`` holds the engines to it."""

    process: int
    engines: int = 1
    assignments: int = MOST_ASSIGNMENTS

    @property
    def fixed(self) -> int:
        """The process's fixed cost: everything but its memos and tables (``process_bytes``)."""
        return process_bytes(self.assignments, self.engines)

    @property
    def rest(self) -> int:
        """What is left past the process's fixed cost, for memos and tables."""
        return max(0, self.process - self.fixed)

    @property
    def tables(self) -> int:
        """Each engine's relabelling tables."""
        return min(TABLE_MOST, self.assignments * TABLE_ASSIGNMENT_BYTES, int(self.rest * TABLE_PART / self.engines))

    @property
    def greedy(self) -> int:
        """Each greedy strategy's memo tables (one per engine's solver)."""
        return int(self.rest * GREEDY_PART / self.engines)

    @property
    def memo(self) -> int:
        """The memory the memos of the process's engines may hold together (their limits, which
        ``MEMO_OVERHEAD`` times is what they take at most)."""
        return max(1, int((self.rest - self.engines * (self.tables + self.greedy)) / MEMO_OVERHEAD))

    def config(self, base: EngineConfig = DEFAULT_CONFIG) -> EngineConfig:
        """``base`` held to this share. With two engines the memos share ``memo`` (``memo_share``): each may take what
        the other leaves, at least ``memo_least``, so the sum keeps to ``memo`` when ``memo_bytes`` leaves that out."""
        least = max(1, self.memo // 8) if self.engines > 1 else max(1, min(base.memo_least, self.memo))
        memo = self.memo - least if self.engines > 1 else self.memo
        return replace(base, memo_bytes=max(memo, least), memo_least=least, table_bytes=self.tables,
                       greedy_bytes=self.greedy)

    def spent(self) -> int:
        """The most the process takes under ``config``: its fixed cost, tables, greedy memos, memos' overhead."""
        return (self.process - self.rest) + self.engines * (self.tables + self.greedy) + \
            int(self.memo * MEMO_OVERHEAD)


@dataclass(frozen=True)
class SolvePlan:
    """``tmphys solve``'s shares: ``here`` for its own process (both objectives' engines), ``apart`` for the second
    process it may start for one objective (None when it searches all in one process)."""

    here: Share
    apart: Share | None

    @property
    def processes(self) -> tuple[Share, ...]:
        return (self.here,) if self.apart is None else (self.here, self.apart)


def solve_plan(budget: int, apart: bool, assignments: int = MOST_ASSIGNMENTS) -> SolvePlan:
    """``solve``'s budget split for a problem of ``assignments`` hidden assignments: half each to its two processes
    when a second may start (``apart``) and each half holds a search (``LEAST_BYTES``), else all to its own."""
    if not apart or budget // 2 < LEAST_BYTES:
        return SolvePlan(Share(budget, engines=2, assignments=assignments), None)
    return SolvePlan(Share(budget - budget // 2, engines=2, assignments=assignments),
                     Share(budget // 2, assignments=assignments))


@dataclass(frozen=True)
class RatingPlan:
    """Where ratings run: ``workers`` processes of ``share`` each, and the line that says why there are fewer than
    asked (None when there are as many)."""

    workers: int
    share: Share
    note: str | None = None

    @property
    def config(self) -> EngineConfig:
        return self.share.config()


def rating_plan(budget: int, workers: int, tasks: int) -> RatingPlan:
    """``workers`` (asked for, or every core) rating ``tasks`` problems within ``budget``: as many as fit at
    ``RATING_BYTES`` each, at least one (then held to the whole budget, when that is less)."""
    wanted = max(1, min(workers, tasks))
    fit = max(1, budget // RATING_BYTES)
    share = Share(min(RATING_BYTES, budget))
    if fit >= wanted:
        return RatingPlan(wanted, share)
    more = f"--memory {-(-wanted * RATING_BYTES // GB)}G"
    return RatingPlan(fit, share, f"tmphys: {fit} of {wanted} workers rate side by side: each may take "
                                  f"{size_text(share.process)} of the {size_text(budget)} memory budget "
                                  f"({more} for {wanted})")


def worker_share(worker: Any, most: int = RATING_BYTES) -> Share:
    """A Dask worker's share for each task it runs: its memory limit over its threads (tasks run side by side in
    its process), at most ``most`` (a rating worker's share here, so a cluster rates as this machine does), all of
    ``most`` where the worker has no limit."""
    limit = getattr(getattr(worker, "memory_manager", None), "memory_limit", None)
    threads = max(1, int(getattr(getattr(worker, "state", None), "nthreads", 1) or 1))
    if not limit:
        return Share(most)
    return Share(min(most, int(limit) // threads))


class TimeLimitReached(Exception):
    """A whole run's ``--time-limit`` passed (``wall_clock_limit``)."""


@contextlib.contextmanager
def wall_clock_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``TimeLimitReached`` within the block once ``seconds`` of wall-clock time have passed (None: no limit):
    for a command whose whole run is bounded, through SIGALRM, so only in the main thread (elsewhere: no limit)."""
    if seconds is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def reached(signum: int, frame: object) -> None:
        raise TimeLimitReached

    before = signal.signal(signal.SIGALRM, reached)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if before is None else before)
