"""The solve, play and prove commands, through click's runner and the one-line error wrapper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from click.testing import CliRunner

from tmphys import solve_cli
from tmphys.cli import cli, main
from tmphys.problems import parse_problem
from tmphys.solver import OBJECTIVES, Deduction, Solver

BOOKLET1 = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]


def run(args: list[str], input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, input=input)
    return result.exit_code, result.output


def test_solve_plays_booklet_problem_1_through_the_machine() -> None:
    code, out = run(["solve", *BOOKLET1])
    assert code == 0
    assert "Round 1: propose" in out and "ask A ✗" in out
    assert "Code found: ▲2 ■4 ●1 (241) in 1 round, 1 question" in out


def test_solve_accepts_one_quoted_string() -> None:
    assert run(["solve", " ".join(BOOKLET1)])[1] == run(["solve", *BOOKLET1])[1]


def test_solve_json_fields() -> None:
    code, out = run(["solve", "--json", "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"])
    data = json.loads(out)
    assert code == 0 and data["code"] == "515"
    assert data["rounds"] == len(data["played"]) >= 1
    assert data["questions"] == sum(len(r["answers"]) for r in data["played"])
    assert set(data["optimal"]) == {"worst", "expected"}


def test_solve_cards_only_booklet_problem_2_optimum() -> None:
    code, out = run(["solve", "--json", "--cards", "3", "7", "10", "14"])
    opt = json.loads(out)["optimal"]
    assert code == 0
    assert opt["expected"]["rounds_fraction"] == "9/7" and opt["expected"]["questions_fraction"] == "20/7"
    assert opt["expected"]["rounds"] == pytest.approx(9 / 7)
    assert opt["worst"] == {"rounds": 2, "questions": 3, "exact": True}
    assert opt["expected"]["exact"] is True
    assert json.loads(out)["code"] is None


NIGHTMARE_HARD = "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"  # answer 411; takes the search long


def test_time_limit_stops_the_search_and_plays_on_honestly() -> None:
    code, out = run(["solve", "--json", "--time-limit", "0", NIGHTMARE_HARD])
    data = json.loads(out)
    assert code == 0 and data["code"] == "411" and data["played_optimally"] is False
    assert data["rounds"] == len(data["played"]) and data["questions"] >= 1
    for o in ("expected", "worst"):
        v = data["optimal"][o]
        assert v["exact"] is False
        lo = v["lower_bound"]
        if v["rounds"] is not None:  # the greedy strategy's value, when worked out in the time left
            assert (lo["rounds"], lo["questions"]) < (v["rounds"], v["questions"])
    code, out = run(["solve", "--time-limit", "0", NIGHTMARE_HARD])
    assert code == 0 and "Not proven optimal (expected): search stopped after " in out
    assert "best strategy found: " in out and "the optimum is at least" in out
    assert "Optimal:" not in out and "Code found: ▲4 ■1 ●1 (411)" in out


def test_solve_searches_the_two_objectives_side_by_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """When neither search is done in its first slice, the objective not chosen goes on in a second process: the
    values are those of the plain search, one after the other; where no second process can start, they still
    are."""
    problem = ["--nightmare", "--cards", "7", "37", "39", "42"]  # each search takes some hundreds of steps
    d = Deduction(parse_problem(" ".join(problem[2:]), nightmare=True))
    plain = {o: solve_cli._optimal_value(Solver(d, o), 1.0) for o in OBJECTIVES}
    assert all(v["exact"] for v in plain.values())
    started: list[str] = []

    class Recording(solve_cli.ProcessPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            started.append(args[1])
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(solve_cli, "SOLO_SECONDS", 0.0)
    monkeypatch.setattr(solve_cli, "ProcessPoolExecutor", Recording)
    code, out = run(["solve", "--json", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain
    code, out = run(["solve", "--json", "--objective", "worst", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain
    assert started == ["worst", "expected"]  # the objective not chosen, each time

    def no_processes(*args: Any, **kwargs: Any) -> None:
        raise OSError("no second process here")

    monkeypatch.setattr(solve_cli, "ProcessPoolExecutor", no_processes)
    code, out = run(["solve", "--json", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain


def test_play_under_a_time_limit_says_a_move_is_not_proven() -> None:
    code, out = run(["play", "--time-limit", "0", NIGHTMARE_HARD], input="quit\n")
    assert code == 0 and "not proven optimal" in out and "Propose ▲" in out


def test_solve_tree_text_and_json() -> None:
    code, out = run(["solve", "--cards", "3", "7", "10", "14", "--tree", "text"])
    assert code == 0 and "round 1: propose" in out and "round 2: propose" in out
    code, out = run(["solve", "--cards", "3", "7", "10", "14", "--tree", "json", "--json"])
    tree = json.loads(out)["tree"]
    assert tree["round"] == 1 and "ask" in tree["then"]


def test_chart_is_one_reproducible_page(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        code, _ = run(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
        assert code == 0
    assert a.read_bytes() == b.read_bytes()
    pdf = pypdfium2.PdfDocument(str(a))
    assert len(pdf) == 1
    text = pdf[0].get_textpage().get_text_range()
    assert "Round 1: propose" in text and "Round 2: propose" in text and "ask C" in text
    assert not list(tmp_path.glob(".*part"))


def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["solve", "A", "4", "999"], ["solve", "A", "4", "447", "B", "9", "646"], ["solve"],
                 ["solve", "--cards", *BOOKLET1], ["prove", "241", "--cards", "3", "7", "10", "14"],
                 ["prove", "961", *BOOKLET1], ["solve", "--chart", "x.txt", *BOOKLET1]):
        with pytest.raises(SystemExit) as e:
            main(args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith("tmphys: error:") and err.count("\n") == 1, args


def test_prove_shows_each_stack() -> None:
    code, out = run(["prove", "241", *BOOKLET1])
    assert code == 0 and out.count("✓ pass") == 4 and "passes every verifier" in out
    code, out = run(["prove", "111", *BOOKLET1])
    assert code == 1 and "✗ fail" in out and "not the code" in out


def test_play_at_a_table() -> None:
    code, out = run(["play", *BOOKLET1], input="n\n")
    assert code == 0 and "Next best move: ask A" in out and "The code is ▲2 ■4 ●1 (241)" in out


def test_play_says_when_answers_contradict_everything() -> None:
    # Booklet problem 2 opens with 212 and asks C; answering C twice differently is impossible.
    code, out = run(["play", "--cards", "3", "7", "10", "14"], input="C y\nC n\nn\ny\n")
    assert code == 0
    assert "Propose ▲2 ■1 ●2 (212)" in out
    assert "Contradiction" in out and "contradicts every possible hidden assignment" in out
    assert "The code is" in out
