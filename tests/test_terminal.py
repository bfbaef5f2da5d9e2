"""The command line in a pipe and at a terminal (#47): every command ended alike by a closed pipe, help that reads
right, progress shown for long searches at a terminal and never when piped."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import pytest

from tmphys.cli.main import PIPE_CLOSED, cli, main

PROBLEM = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(argv)
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


# --- a closed pipe --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["--help"], ["build", "--help"], ["layout", "show", "classic"], ["stack", "241", "--verifier", "447"],
    ["solve", *PROBLEM, "--steps", "2000", "--tree", "text"], ["generate", "--count", "3", "--seed", "1"],
    ["check", "--resolution", "1"],
])
def test_a_closed_pipe_ends_every_command_alike(argv: list[str], monkeypatch) -> None:
    """``tmphys … | head -1``: some commands exited 1 (click's own answer to EPIPE), others 130; every one ends
    with 128 + SIGPIPE and no traceback."""
    read, write = os.pipe()
    os.close(read)  # the reader has gone: every write fails
    stdout = open(write, "w", encoding="utf-8")
    monkeypatch.setattr("sys.stdout", stdout)
    try:
        with pytest.raises(SystemExit) as done:
            main(argv)
    finally:
        monkeypatch.undo()
        with contextlib.suppress(OSError):
            stdout.close()  # its descriptor now /dev/null's
    assert done.value.code == PIPE_CLOSED


def test_a_closed_pipe_at_exit_prints_nothing() -> None:
    """What is still buffered when the command ends goes nowhere: no "Exception ignored … BrokenPipeError"."""
    read, write = os.pipe()
    os.close(read)
    done = subprocess.run([sys.executable, "-m", "tmphys", "solve", *PROBLEM, "--steps", "2000"], stdout=write,
                          stderr=subprocess.PIPE, timeout=120)
    os.close(write)
    assert done.returncode == PIPE_CLOSED and done.stderr == b"", done.stderr.decode()


# --- help -----------------------------------------------------------------------------------------------------------

def test_help_names_no_range_it_does_not_have(capsys) -> None:
    """``build --help`` showed ``[default: 3; x<=None]`` for --copies: each command's help shows real ranges only."""
    commands = [[name] for name in cli.commands] + [["layout", "list"], ["layout", "show"]]
    for argv in commands:
        code, out, _ = run([*argv, "--help"], capsys)
        assert code == 0 and "None" not in out, argv
    code, out, _ = run(["build", "--help"], capsys)
    assert "[default:1;1<=x<=20]" in out.replace("\n", " ").replace(" ", "")


# --- progress of long searches ---------------------------------------------------------------------------------

def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard error a terminal, and the progress line shown from the start, updated often: what a search of
    minutes shows, in a test of a second. Called in the test itself, whose standard error capsys has swapped in."""
    import tmphys.cli.progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(tmphys.cli.progress, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(tmphys.cli.progress, "PROGRESS_EVERY", 0.01)


@pytest.mark.parametrize("argv,says", [
    (["solve", *PROBLEM, "--steps", "20000"], r"searching \d+ s, [\d,]+ steps \(at most 20,000 a search\): Classic"),
    (["solve", "--cards", "3", "7", "10", "14", "--time-limit", "5"], r"searching \d+ s of 5 s, [\d,]+ steps: Classic"),
    (["booklet", "--count", "2", "--seed", "1", "--steps", "3000", "--json", "--workers", "1"],
     r"rated [0-2] of 2 problems, \d+ s, [\d,]+ steps: booklet \(Classic"),
    (["generate", "--count", "2", "--seed", "1", "--rate", "--steps", "3000", "--workers", "1"],
     r"rated [0-2] of 2 problems, \d+ s, [\d,]+ steps: generate \(Classic"),
])
def test_long_searches_show_progress_at_a_terminal(argv: list[str], says: str, monkeypatch, capsys) -> None:
    """solve (up to 60 s by default), generate --rate and booklet (whose bar stood still during each rating) were
    silent while they searched: at a terminal a line says what is searched, the time and the steps so far."""
    import re

    at_a_terminal(monkeypatch)
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert re.search(says, err), err
    assert "\r" not in out


@pytest.mark.parametrize("argv", [
    ["solve", *PROBLEM, "--steps", "20000"],
    ["booklet", "--count", "2", "--seed", "1", "--steps", "3000", "--json", "--workers", "1"],
    ["generate", "--count", "2", "--seed", "1", "--rate", "--steps", "3000", "--workers", "1"],
])
def test_no_progress_when_piped(argv: list[str], monkeypatch, capsys) -> None:
    import tmphys.cli.progress

    monkeypatch.setattr(tmphys.cli.progress, "PROGRESS_AFTER", 0.0)
    code, _, err = run(argv, capsys)
    assert code == 0 and "searching" not in err and "rated" not in err and "\r" not in err


def test_the_steps_of_rating_processes_add_up_where_progress_is_shown() -> None:
    """Ratings on processes of their own: their steps reach the progress line through the shared count."""
    import random

    from tmphys.game.generate import generate
    from tmphys.solve.runner import rate_all, rating_steps

    problems = generate("classic", 4, "standard", random.Random(5), count=3)
    seen = rating_steps(2)
    ratings = rate_all(problems, 3000, workers=2, steps_seen=seen)
    alone = rate_all(problems, 3000, workers=1, steps_seen=(mine := rating_steps(1)))
    assert ratings == alone and seen.total() == mine.total() > 0


def test_search_progress_is_read_while_the_search_runs() -> None:
    """``search_progress`` reads a search under way from another thread (the engine lets go of the interpreter)."""
    import threading

    from tmphys.game.problems import parse_problem
    from tmphys.solve.progress import search_progress
    from tmphys.solve.solver import Deduction, SearchStopped, Solver

    solver = Solver(Deduction(parse_problem("17 34 36 44 9", nightmare=True, cards_only=True)), "expected")
    solver.set_step_limit(10_000)  # about half a second
    read: list[int] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.005):
            read.append(search_progress(solver).steps)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        solver.optimum()
    except SearchStopped:
        pass
    finally:
        stop.set()
        watcher.join()
    final = search_progress(solver).steps
    assert read == sorted(read) and read[-1] <= final and any(0 < n < final for n in read)


def test_search_progress_gives_the_bounds_so_far() -> None:
    """Read while a search runs, the lower bound never passes the optimum, nor the best strategy found so far falls
    below it; once the search ends both are the optimum."""
    import threading

    from tmphys.game.book import book_problem
    from tmphys.game.problems import parse_problem
    from tmphys.solve.progress import search_progress
    from tmphys.solve.solver import Deduction, Solver

    for objective in ("worst", "expected"):
        solver = Solver(Deduction(parse_problem(book_problem("#I4D DOH").line)), objective)
        read = []
        stop = threading.Event()

        def watch(s: Solver = solver, seen: list = read, stop: threading.Event = stop) -> None:
            while not stop.wait(0.002):
                seen.append(search_progress(s))

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            best = tuple(float(x) for x in solver.optimum())
        finally:
            stop.set()
            watcher.join()
        assert read and all(p.bound is not None and p.bound <= best for p in read), objective
        assert all(p.found is None or p.found >= best for p in read), objective
        final = search_progress(solver)
        assert final.bound == final.found == best
