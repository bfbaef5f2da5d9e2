"""The command line in a pipe and at a terminal (#47): every command ended alike by a closed pipe, help that reads
right."""

from __future__ import annotations

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
    with pytest.raises(SystemExit) as done:
        main(argv)
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
