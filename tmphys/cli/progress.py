"""A progress line at a terminal for the long searches (``solve``, ``generate --rate``, ``booklet``): what is being
searched, the time so far, the steps (``tmphys.solve.progress``), the bound found so far where the search gives one.

On standard error, rewritten in place, from ``PROGRESS_AFTER`` seconds on (a search done sooner shows nothing);
nothing at all when standard error is not a terminal (piped, a file, a test), as ``place`` and ``build`` do.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator

import click

from tmphys.solve.progress import SearchProgress
from tmphys.text import clip, plural

#: Seconds a search runs before its progress line shows: most searches end sooner, and print nothing.
PROGRESS_AFTER = 2.0
#: Seconds between two updates of the line.
PROGRESS_EVERY = 0.5


def at_terminal() -> bool:
    """Whether standard error is a terminal (where a progress line is shown)."""
    return sys.stderr is not None and sys.stderr.isatty()


def seconds_text(seconds: float) -> str:
    """Seconds as a progress line shows them: ``"7 s"``, ``"2 min 05 s"``."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def search_text(progress: SearchProgress, objective: str = "expected") -> str:
    """A search's steps in words."""
    return plural(f"{progress.steps:,}", "step")


def bounds_text(progress: SearchProgress, objective: str = "expected") -> str:
    """The best strategy the search has found so far and the bound it has proven, in words (empty before it has
    taken a step): ``"; best found 2.78 rounds, 7.40 questions on average, at least 2.71 …"``."""
    if not progress.steps or progress.bound is None:
        return ""

    def cost(pair: tuple[float, float]) -> str:
        rounds, questions = pair
        return (f"{rounds:.2f} rounds, {questions:.2f} questions on average" if objective == "expected"
                else f"{rounds:g} rounds, {questions:g} questions at worst")

    found = f"best found {cost(progress.found)}, " if progress.found is not None else ""
    return f"; {found}at least {cost(progress.bound)}"


@contextlib.contextmanager
def progress_line(describe: Callable[[float], str]) -> Iterator[Callable[[str], None]]:
    """Within the block, at a terminal, a line on standard error that ``describe(seconds so far)`` writes, updated
    every ``PROGRESS_EVERY`` s from ``PROGRESS_AFTER`` s on by a thread of its own, and cleared when the block
    ends. Gives the function to print a line of output with meanwhile (it clears the progress line first, so the
    two never run together on one terminal line). Not at a terminal: nothing is shown."""
    if not at_terminal():
        yield click.echo
        return
    lock, stop, started = threading.Lock(), threading.Event(), time.monotonic()
    shown = [0]  # the length of the line on screen

    def clear() -> None:
        if shown[0]:
            sys.stderr.write("\r" + " " * shown[0] + "\r")
            sys.stderr.flush()
            shown[0] = 0

    def draw() -> None:
        width = max(20, shutil.get_terminal_size().columns - 1)
        text = clip(describe(time.monotonic() - started), width)
        with lock:
            sys.stderr.write("\r" + text.ljust(shown[0]))
            sys.stderr.flush()
            shown[0] = len(text)

    def run() -> None:
        if stop.wait(PROGRESS_AFTER):
            return
        while True:
            try:
                draw()
            except (OSError, ValueError):  # standard error gone: no progress, the work goes on
                return
            if stop.wait(PROGRESS_EVERY):
                return

    def echo(line: str) -> None:
        with lock:
            clear()
            click.echo(line)

    thread = threading.Thread(target=run, daemon=True, name="tmphys-progress")
    thread.start()
    try:
        yield echo
    finally:
        stop.set()
        thread.join()
        with lock, contextlib.suppress(OSError, ValueError):
            clear()


def rating_text(what: str, done: list[int], count: int, steps: Callable[[], int] | None) -> Callable[[float], str]:
    """``describe`` for ``progress_line`` while ``count`` problems are rated: what, how many are ``done`` (its first
    item, counted as they come), the time, and the steps every process has taken (``steps``, where counted)."""
    def describe(seconds: float) -> str:
        text = f"rated {done[0]} of {plural(count, 'problem')}, {seconds_text(seconds)}"
        return text + (f", {plural(f'{steps():,}', 'step')}" if steps is not None else "") + f": {what}"
    return describe
