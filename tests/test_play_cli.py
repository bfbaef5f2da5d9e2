"""The play command at a (simulated) table: what is typed, what is refused, how a game ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tmphys.cli import solve as solve_cli
from tmphys.cli.main import cli

BOOKLET1 = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]
BOOKLET2 = ["--cards", "3", "7", "10", "14"]  # opens with 212 and asks C; 7 codes possible
NIGHTMARE_HARD = "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"


def play(args: list[str], typed: str) -> Result:
    return CliRunner().invoke(cli, ["play", *args], input=typed, catch_exceptions=False)


def test_play_at_a_table() -> None:
    result = play(BOOKLET1, "n\n")
    assert result.exit_code == 0
    assert "Next best move: ask A" in result.stdout and "The code is ▲2 ■4 ●1 (241): 1 round, 1 question." in (
        result.stdout)


def test_play_under_a_time_limit_says_a_move_is_not_proven() -> None:
    result = play(["--time-limit", "0.001", NIGHTMARE_HARD], "quit\n")
    assert result.exit_code == 0 and "Propose ▲" in result.stdout
    assert "(search stopped at the 0.001 s limit: the next move is the greedy strategy's, not proven optimal)" in (
        result.stdout)


def test_play_under_a_budget_of_steps_plays_the_same_on_any_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """--steps holds each move's search to a budget of work: the same answers get the same moves and lines twice,
    the second time with Python's clock running fast (the compiled search, held to steps, has no deadline to read);
    the line that a move is not proven comes after it; a time limit beside --steps is refused."""
    typed = "n\ny\nn\nend\ny\nquit\n"
    first = play(["--steps", "400", NIGHTMARE_HARD], typed)
    assert first.exit_code == 0 and first.stdout.count("Propose ▲") == 2
    assert ".\n  (search stopped after its 400 steps: this proposal is" in first.stdout  # said after the move
    clock = [time.monotonic()]

    def slow() -> float:
        clock[0] += 0.1
        return clock[0]

    monkeypatch.setattr(time, "monotonic", slow)
    again = play(["--steps", "400", NIGHTMARE_HARD], typed)
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert play(["--steps", "400", "--time-limit", "5", NIGHTMARE_HARD], "quit\n").exit_code == 2


def test_play_says_when_answers_contradict_everything() -> None:
    # After C ✓ on 212, D ✓ is impossible; the answer is refused, not counted, and the game goes on.
    result = play(BOOKLET2, "C y\nD y\nn\ny\n")
    out = result.stdout
    assert result.exit_code == 0 and "Propose ▲2 ■1 ●2 (212)" in out
    assert "Contradiction: verifier D ✓ on 212 contradicts every possible hidden assignment" in out
    assert "The code is ▲1 ■3 ●2 (132): 2 rounds, 3 questions." in out


def test_a_verifier_is_asked_once_a_round() -> None:
    """Asking A again in the same round tells nothing new: refused, and not counted as a question."""
    result = play(BOOKLET2, "A n\nA n\nA y\nB n\nD y\n")
    out = result.stdout
    assert result.exit_code == 0
    assert out.count("Verifier A was already asked this round (✗): asking again tells nothing new") == 2
    assert out.count("  A ✗ — ") == 1 and "A ✓" not in out
    assert "The code is ▲4 ■3 ●5 (435): 1 round, 3 questions." in out


def test_the_same_verifier_may_be_asked_again_in_a_new_round() -> None:
    result = play(BOOKLET2, "A n\nend\nA n\n")
    out = result.stdout
    assert result.exit_code == 0 and "already asked" not in out and out.count("  A ✗ — ") == 2
    assert "Round 2: 6 codes possible" in out and "The code is ▲1 ■5 ●2 (152): 2 rounds, 2 questions." in out


def test_a_round_needs_a_question_before_it_ends() -> None:
    result = play(BOOKLET2, "end\ne\nC y\nA y\n")
    out = result.stdout
    assert result.exit_code == 0
    assert out.count("A round needs at least one question: ask a verifier first (next best: C).") == 2
    assert "Round 2" not in out and "The code is ▲1 ■2 ●2 (122): 1 round, 2 questions." in out


def test_an_unknown_verifier_is_named() -> None:
    result = play(BOOKLET2, "F y\ng n\nA y\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "There is no verifier F: this problem has verifiers A, B, C, D." in out
    assert "There is no verifier G: this problem has verifiers A, B, C, D." in out
    assert "The code is ▲1 ■2 ●2 (122): 1 round, 1 question." in out
    assert "A ✓ — 1 code possible: 122" in out


def test_end_of_input_stops_the_game_cleanly() -> None:
    """EOF is not Ctrl-C: one line on stderr and its own exit status, not "aborted" and 130."""
    for typed in ("", "C y\n"):
        result = play(BOOKLET2, typed)
        assert result.exit_code == solve_cli.EXIT_END_OF_INPUT == 1
        assert result.stderr == "tmphys: end of input: game stopped\n"
        assert "aborted" not in result.output


def test_no_input_at_all_stops_the_game_cleanly(tmp_path: Path) -> None:
    """Started with stdin closed (``<&-``): the end of input's one line and status, not a traceback."""
    proc = subprocess.run([sys.executable, "-m", "tmphys", "play", *BOOKLET2], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=tmp_path, preexec_fn=lambda: os.close(0), timeout=60)
    assert proc.returncode == solve_cli.EXIT_END_OF_INPUT and proc.stderr == "tmphys: end of input: game stopped\n"


def test_an_answer_the_dealt_card_cannot_show_is_refused() -> None:
    """With its verification cards known, play reads each answer against the machine's stack: ◊447 shows ✗ under
    111, so a typed ✓ is a misread stack, refused and not counted; the right answer then finds 241."""
    result = play(BOOKLET1, "y\nn\n")
    assert result.exit_code == 0
    assert "Not what the card shows: verifier A's verification card ◊447 under ▲1 ■1 ●1 (111) shows ✗." in (
        result.stdout)
    assert "The code is ▲2 ■4 ●1 (241): 1 round, 1 question." in result.stdout


def test_a_round_that_ends_by_itself_says_so() -> None:
    """After the third question the round is over before the next proposal: the table is told, so a fourth answer
    typed ahead is not taken for the new proposal's unawares."""
    result = play(BOOKLET2, "C y\nD n\nn\nquit\n")
    assert "  Round 1 over: its three questions are asked.\n\nRound 2:" in result.stdout


def test_quit_stops_with_status_0() -> None:
    result = play(BOOKLET2, "quit\n")
    assert result.exit_code == 0 and result.stdout.endswith("Stopped.\n")


def test_ctrl_c_still_aborts_with_130(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "tmphys", "play", *BOOKLET2], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            cwd=tmp_path)  # the installed package, not a checkout's folder of that name
    try:
        assert proc.stdout is not None
        seen = b""
        deadline = time.monotonic() + 30
        while b"What did the stack show" not in seen and time.monotonic() < deadline:
            seen += os.read(proc.stdout.fileno(), 4096)
        assert b"What did the stack show" in seen
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and err.decode().strip() == "tmphys: aborted"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_undo_takes_back_a_slip_of_the_hand() -> None:
    """C ✓ typed by mistake: 'undo' takes it back (not counted), and the game goes on as if it was never typed."""
    result = play(BOOKLET2, "C y\nundo\nundo\nC n\nB n\nD y\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "Took back C ✓. Round 1, proposal ▲2 ■1 ●2 (212); asked: nothing yet — 7 codes possible" in out
    assert "Nothing to take back yet." in out
    assert "The code is ▲4 ■3 ●5 (435): 1 round, 3 questions." in out


def test_undo_goes_back_into_the_last_round() -> None:
    """After the round ended by itself, and after 'end', 'undo' reopens it where it was: same proposal, the
    answers before, the questions left; the rounds are counted again from there."""
    result = play(BOOKLET2, "C n\nB n\nundo\nB y\nend\nundo\nD y\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "Took back B ✗. Round 1, proposal ▲2 ■1 ●2 (212); asked: C ✗ — 4 codes possible: 431 432 435 534" in out
    assert "Took back the end of round 1. Round 1, proposal ▲2 ■1 ●2 (212); asked: C ✗, B ✓ — 2 codes" in out
    assert out.count("Round 2:") == 1  # only the one undone
    assert out.endswith("The code is ▲5 ■3 ●4 (534): 1 round, 3 questions.\n")
    # the round's third question ended it; undone, the round is open again with one question left
    result = play(BOOKLET2, "C n\nB y\nA n\nundo\nD y\n")
    out = result.stdout
    assert result.exit_code == 0 and "Round 2:" in out
    assert "Took back A ✗. Round 1, proposal ▲2 ■1 ●2 (212); asked: C ✗, B ✓ — 2 codes" in out
    assert out.endswith("The code is ▲5 ■3 ●4 (534): 1 round, 3 questions.\n")


def test_a_player_may_propose_their_own_code() -> None:
    """'propose 435' replaces the suggested proposal: the answers are read on 435 (C ✓ on 435 leaves the codes
    C ✓ on 212 would not), the next best question is the one for 435; refused once the round has questions."""
    from tmphys.game.codes import Code
    from tmphys.game.problems import parse_problem
    from tmphys.solve.solver import Deduction

    d = Deduction(parse_problem("3 7 10 14", cards_only=True))
    on_435 = " ".join(map(str, d.codes(d.answer(d.universe, 2, Code.parse("435"), True))))
    on_212 = " ".join(map(str, d.codes(d.answer(d.universe, 2, Code.parse("212"), True))))
    assert on_435 != on_212
    result = play(BOOKLET2, "propose 435\nC y\npropose 111\nundo\nundo\npropose 6x\nquit\n")
    out = result.stdout
    assert result.exit_code == 0 and "Propose ▲4 ■3 ●5 (435) instead." in out
    assert f"C ✓ — 4 codes possible: {on_435}" in out
    assert "This round's proposal has had questions: 'end' the round first, or 'undo' them." in out
    assert "Took back the proposal 435. Round 1, proposal ▲2 ■1 ●2 (212)" in out
    assert "Cannot propose that: not a code: '6x'" in out
