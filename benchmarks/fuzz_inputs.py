"""Fuzz every input class of #45 and #47 at the command line, far past the suite's example counts, and count what
came back other than one line of ours.

Run: python benchmarks/fuzz_inputs.py [--cases N] [--seed S] [--ctrl-c N]. Each class draws N cases from the seed
(the same seed, the same cases) and runs them in this process through ``tmphys.cli.main.main`` (or the Python API):

- play: a game at the table fed lines of bytes (answers, the game's symbols, Latin-1 bytes, junk, long lines) through
  standard input in UTF-8, ASCII, cp1252 or Latin-1;
- layout: layout files nested from 0 to 3,000 deep in arrays and inline tables, with brackets inside strings;
- scheduler: ``--scheduler`` addresses of every protocol Dask knows and some it does not, any host and port;
- problem: problems of any words (long tokens, escapes, newlines) through ``parse_problem``;
- echo: command lines whose paths and tokens hold terminal escapes, a Latin-1 byte (as Python reads it from argv),
  newlines, on standard output that is strict UTF-8 as on a real UTF-8 terminal.

A case fails when it raises anything but SystemExit, exits other than 0, 1 or 2, prints a traceback, a line that is
not printable (an escape sequence, a lone surrogate), or an error over ``MESSAGE_LIMIT`` characters. With
``--ctrl-c N``, it also sends Ctrl-C N times to ``python -m tmphys solve`` in its first 40 ms (``--ctrl-c-ms``), and
says where each traceback came from: Python's own start (before any tmphys code runs) or tmphys.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable

try:
    from tmphys.text import MESSAGE_LIMIT
except ImportError:  # a checkout from before it (for a "before" figure): the same limit
    MESSAGE_LIMIT = 400

PLAY = ["play", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322", "--steps", "2000"]
ODD = ["\x1b[2J", "\x1b]0;t\x07", "\x9b", "\udce9", "\udcff", "\n", "\r", "\t", "'", '"', "\\", "\u202e", "\x00",
       "é", "✓", "a", " ", "[", "{"]


def odd_text(rng: random.Random, most: int = 12) -> str:
    return "".join(rng.choice(ODD) for _ in range(rng.randint(1, most)))


def run(argv: list[str], stdin: io.TextIOBase | None = None) -> tuple[int | str, str, str]:
    """``tmphys ARGV`` in this process: its exit status (or the exception's name), stdout and stderr."""
    from tmphys.cli.main import main

    saved = sys.stdin, sys.stdout, sys.stderr
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # strict, as a UTF-8 terminal
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    sys.stdin, sys.stdout, sys.stderr = stdin or io.StringIO(""), out, err
    try:
        main(argv)
        code: int | str = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    except BaseException as e:  # a failure of the case, counted
        code = type(e).__name__
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    out.flush()
    err.flush()
    return code, out.buffer.getvalue().decode("utf-8", "replace"), err.buffer.getvalue().decode("utf-8", "replace")


def fine(code: int | str, out: str, err: str) -> bool:
    """One line of ours, or the work done: an exit status of 0, 1 or 2, printable lines, short errors."""
    lines = out.splitlines() + err.splitlines()
    return (code in (0, 1, 2) and "Traceback" not in err and all(line.isprintable() for line in lines)
            and all(len(line) <= MESSAGE_LIMIT + 20 for line in err.splitlines()))


def play_case(rng: random.Random) -> bool:
    lines = [rng.choice([b"y", b"n", b"A y", b"end", b"undo", b"propose 241", "✓".encode(), "✗".encode(),
                         b"caf\xe9", b"\xe9", b"\x81\x8d", b"\x1b[2J", b"A \xff", b"x" * 5000,
                         bytes(rng.randrange(256) for _ in range(rng.randint(0, 10))).replace(b"\n", b"")])
             for _ in range(rng.randint(0, 8))]
    encoding = rng.choice(["utf-8", "ascii", "cp1252", "latin-1"])
    stdin = io.TextIOWrapper(io.BytesIO(b"".join(line + b"\n" for line in lines)), encoding=encoding)
    return fine(*run(PLAY, stdin))


def layout_case(rng: random.Random) -> bool:
    from tmphys.cards.layout import LayoutError, parse_layout

    depth = rng.choice([rng.randint(0, 12), rng.randint(13, 3000)])
    text = rng.choice(['1', '"[[{"', "'}]'", '"""a ] "" """', "'''[ '''", "[]", "{}"])
    for _ in range(depth):
        text = rng.choice(["[{}]", "[{}, 1]", "{{k = {}}}", '{{"[" = {}}}']).format(text)
    try:
        parse_layout(f"{rng.choice(['', '[card]', '[grid]'])}\nx = {text}\n", "fuzzed.toml")
    except LayoutError as e:
        return str(e).isprintable() and len(str(e)) <= MESSAGE_LIMIT and "recursion" not in str(e)
    except BaseException:
        return False
    return False  # a layout with an unknown key must not load


def scheduler_case(rng: random.Random) -> bool:
    """An address read as ``--scheduler`` reads it (never connected to: a tcp:// address would wait for a
    scheduler that is not there)."""
    import re

    import click

    from tmphys.cli.numbers import SCHEDULER

    protocol = rng.choice(["", "tcp://", "TCP://", "tls://", "ucx://", "inproc://", "ws://", "wss://", "udp://",
                           "://", "http://", odd_text(rng, 4) + "://"])
    host = rng.choice(["localhost", "h", "10.0.0.7", "[::1]", "node-3.example.org", "bad host", "", odd_text(rng)])
    port = rng.choice([str(rng.randint(0, 10**6)), "", "x", "-1", "8786"])
    try:
        value = SCHEDULER.convert(f"{protocol}{host}:{port}", None, None)
    except click.BadParameter as e:
        return e.format_message().isprintable() and len(e.format_message()) <= MESSAGE_LIMIT
    except BaseException:
        return False
    m = re.fullmatch(r"tcp://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):([0-9]+)", value)
    return bool(m) and protocol.lower() in ("", "tcp://") and 1 <= int(m[2]) <= 65535


def problem_case(rng: random.Random) -> bool:
    from tmphys.game.problems import ProblemError, parse_problem

    words = [rng.choice(["A", "B", "C", "D", "E", "F", "4", "9", "11", "14", "447", "646", "566", "322", "N17",
                         "13/17", "->", "#", "G447", "P585", "3", "7", "10", odd_text(rng),
                         rng.choice("x1\x1bé") * rng.randint(61, 3000)]) for _ in range(rng.randint(0, 16))]
    try:
        parse_problem(words, nightmare=rng.random() < 0.2, extreme=rng.random() < 0.2, cards_only=rng.random() < 0.2)
    except ProblemError as e:
        return str(e).isprintable() and len(str(e)) <= MESSAGE_LIMIT
    except BaseException:
        return False
    return True


def echo_case(rng: random.Random) -> bool:
    path = rng.choice(["", "out/", "/dev/null/"]) + odd_text(rng, 6) + rng.choice([".toml", ".pdf", ".html", ""])
    argv = rng.choice([
        ["check", "--layout", path], ["stack", "241", "--verifier", "447", "--layout", path],
        ["stack", "241", "--verifier", "447", "--png", f"/dev/null/{path}"],
        ["solve", "--cards", "3", "7", "10", "14", "--steps", "2000", "--layout", path],
        ["solve", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322", path],
        ["solve", "--cards", "3", "7", "10", "14", "--chart", path], ["place", "--layout", path],
        ["build", "--layout", path], ["build", "--out", f"/proc/{path}"], ["booklet", "--out", f"/dev/null/{path}"],
        ["prove", "241", path], ["layout", "show", path], ["stack", odd_text(rng), "--verifier", odd_text(rng)],
    ])
    return fine(*run(argv))


CLASSES: dict[str, Callable[[random.Random], bool]] = {
    "play": play_case, "layout": layout_case, "scheduler": scheduler_case, "problem": problem_case, "echo": echo_case,
}


def ctrl_c(tries: int, within: float) -> Counter:
    """Ctrl-C sent to ``python -m tmphys solve`` at moments spread over its first ``within`` seconds: how often a
    traceback came, and from where."""
    seen: Counter = Counter()
    for k in range(tries):
        process = subprocess.Popen([sys.executable, "-m", "tmphys", "solve", "--cards", "3", "7", "10", "14"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(within * k / max(1, tries - 1))
        process.send_signal(signal.SIGINT)
        err = process.communicate(timeout=60)[1].decode("utf-8", "replace")
        if "Traceback" not in err:
            seen[f"no traceback, exit {process.returncode}"] += 1
        elif "/tmphys/" in err.replace(os.sep, "/"):
            seen["traceback in tmphys code"] += 1
        else:
            seen["traceback before tmphys code ran (Python's start, the import system)"] += 1
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases per class (default 1000)")
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--ctrl-c", type=int, default=0, help="also Ctrl-C this many processes as they start")
    parser.add_argument("--ctrl-c-ms", type=float, default=40, help="within this many ms of their start (40)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tmphys-fuzz.")  # what a case writes (a chart a valid path asked for) lands here
    os.chdir(work)
    total = failed = 0
    for name, case in CLASSES.items() if args.cases else ():
        rng = random.Random(f"{args.seed}-{name}")
        started = time.perf_counter()
        bad = sum(not case(rng) for _ in range(args.cases))
        total, failed = total + args.cases, failed + bad
        print(f"{name}: {args.cases} cases, {bad} not one line of ours ({time.perf_counter() - started:.1f} s)")
    print(f"all: {total} cases, {failed} failed")
    if args.ctrl_c:
        for what, count in sorted(ctrl_c(args.ctrl_c, args.ctrl_c_ms / 1000).items()):
            print(f"ctrl-c: {count} of {args.ctrl_c}: {what}")
    print(json.dumps({"cases": total, "failed": failed}))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
