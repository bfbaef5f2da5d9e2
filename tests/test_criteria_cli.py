"""Users' criteria files at the command line: checked, printed, dealt, rated, solved, played and proven exactly as the
published cards, and every bad file answered in one line before any work."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tmphys.cards.machine import Machine
from tmphys.cli.main import main
from tmphys.game.codes import ALL_CODES
from tmphys.game.criteria import load_library
from tmphys.game.problems import parse_problem
from tmphys.solve.deduction import Deduction
from tmphys.solve.solver import Solver

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "criteria" / "new-families.toml"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


@pytest.fixture(scope="module")
def cards() -> object:
    return load_library([EXAMPLE])


def test_check_reports_every_file_criterion_and_proves_its_cards(capsys: pytest.CaptureFixture[str],
                                                                  cards: object) -> None:
    """check --criteria: each criterion's passing codes (counted afresh here) and its verification cards, and the
    one-hole proof and the printed re-read over the new verification cards too (a wrong face would be a violation)."""
    code, out, _ = run(["check", "--criteria", str(EXAMPLE), "--resolution", "2"], capsys)
    assert code == 0 and out.rstrip().endswith("all rules pass")
    for card in cards.user_cards:  # type: ignore[attr-defined]
        assert f"criteria card {card.number} (" in out
        for c in card.criteria:
            passing = sum(1 for code_ in ALL_CODES if c.passes(code_))
            assert f"    {c.key}: '{c.text}': {passing} of 125 codes pass" in out
    code, out, _ = run(["check", "--criteria", str(EXAMPLE), "--json", "--resolution", "2"], capsys)
    data = json.loads(out)
    assert [c["number"] for c in data["criteria_cards"]] == [49, 50, 51, 52, 53, 54]
    faces = Machine("classic", cards).deck.faces  # type: ignore[arg-type]
    assert faces.shape[0] == len(cards.verification_cards) > 95  # type: ignore[attr-defined]


def test_warnings_leave_the_exit_status_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A criterion equal to a published one, and one no card uses: `tmphys: warning:` lines, exit status 0."""
    path = tmp_path / "warn.toml"
    path.write_text('[criteria]\nsame = { expr = "b == 1", text = "▲ is 1" }\n'
                    'alone = { expr = "b + y == 7", text = "▲ + ■ = 7" }\n'
                    'other = { expr = "b * p % 3 == 1", text = "▲ × ● leaves 1 divided by 3" }\n'
                    '[[criteria_cards]]\nnumber = 60\ntitle = "sevens"\ncriteria = ["same", "other"]\n'
                    '[[verification_cards]]\ncriterion = "same"\n[[verification_cards]]\ncriterion = "other"\n',
                    "utf-8")
    code, out, err = run(["check", "--criteria", str(path), "--resolution", "1"], capsys)
    assert code == 0, err
    lines = err.strip().splitlines()
    assert all(line.startswith("tmphys: warning: ") for line in lines)
    assert any("criteria.same: passes the same codes as the published criterion" in line for line in lines)
    assert any("criteria.alone: no card uses it" in line for line in lines)


def test_the_layout_rules_hold_for_new_verification_cards(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A new criterion whose marks cluster on the layout's card (▲ + ● = 7 lies along a diagonal of classic's
    placement) breaks the scramble rule, as a published one would: check names it and exits 1."""
    path = tmp_path / "diagonal.toml"
    path.write_text('[criteria]\nseven = { expr = "b + p == 7", text = "▲ + ● = 7" }\n'
                    'other = { expr = "b + p != 7", text = "▲ + ● is not 7" }\n'
                    '[[criteria_cards]]\nnumber = 61\ntitle = "seven"\ncriteria = ["seven", "other"]\n'
                    '[[verification_cards]]\ncriterion = "seven"\n', "utf-8")
    code, out, _ = run(["check", "--criteria", str(path), "--resolution", "1"], capsys)
    assert code == 1 and "VIOLATION scramble: the criterion '▲ + ● = 7' is clustered" in out


BAD_FILES = [
    ("[criteria\n", "not valid TOML"),
    ('[criteria]\nx = { expr = "__import__(\'os\')", text = "x" }\n', "criteria.x.expr"),
    ('[criteria]\nx = { expr = "b ** 2 == 4", text = "x" }\n', "exponent"),
    ('[criteria]\nx = { expr = "b == 1000001", text = "x" }\n', "criteria.x.expr"),
    ('[criteria]\nx = { expr = "b > 0", text = "x" }\n', "true for every code"),
    ('[criteria]\nx = { expr = "' + "(" * 40 + "b" + ")" * 40 + ' == 1", text = "x" }\n', "criteria.x.expr"),
    ('[[criteria_cards]]\nnumber = 12\ntitle = "t"\ncriteria = ["b_eq_1"]\n', "criteria_cards[1].number"),
    ('[[criteria_cards]]\nnumber = 60\ntitle = "t"\ncriteria = []\n', "at least one criterion"),
]


@pytest.mark.parametrize("text,what", BAD_FILES)
def test_a_bad_file_is_one_line_and_nothing_written(text: str, what: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Every command that reads criteria refuses a bad file in one line naming it, exit 2, before any work (serve
    before it listens)."""
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    out_dir = tmp_path / "out"
    problem = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]
    for args in (["check"], ["build", "--out", str(out_dir)], ["solve", "--cards", "3", "7", "10", "14"],
                 ["generate", "--seed", "1"], ["stack", "241", "--verifier", "447"], ["play", *problem],
                 ["prove", "241", *problem], ["booklet", "--json", "--count", "1"], ["app", "--out", str(out_dir)],
                 ["serve", "--port", "8765", "--host", "127.0.0.1"]):
        code, out, err = run([*args, "--criteria", str(path)], capsys)
        assert code == 2, (args, err)
        assert err.count("\n") == 1 and err.startswith(f"tmphys: error: {path}") and what in err, (args, err)
        assert out == ""
    assert not out_dir.exists()


def test_a_huge_file_a_binary_a_pipe_and_a_folder_are_refused(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * 10_000_000 + b"\n")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)) * 4)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # opened, it would wait for a writer for ever
    for path, what in ((huge, "more than the 1,000,000"), (binary, "not UTF-8"), (fifo, "a FIFO, not a criteria file"),
                       (tmp_path, "a directory, not a criteria file")):
        code, _, err = run(["check", "--criteria", str(path)], capsys)
        assert code == 2 and err.count("\n") == 1 and what in err, err


@pytest.mark.parametrize("cards_text,mode", [
    (["--cards", "49", "50", "52", "54"], "classic"),
    (["--cards", "51/1", "53/2", "49/4", "54/9"], "extreme"),
    (["--nightmare", "--cards", "49", "50", "52", "54"], "nightmare"),
])
def test_solve_takes_new_cards_in_every_mode(cards_text: list[str], mode: str, cards: object,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The engine's optimum on a problem of new cards is the reference solver's (the rules stated in Python), in
    each mode; the command line reads the same problem and prints that optimum."""
    words = [w for w in cards_text if not w.startswith("--")]
    problem = parse_problem(words, nightmare=mode == "nightmare", cards_only=True, criteria=cards)  # type: ignore
    assert problem.mode == mode
    expected = Solver(Deduction(problem), "expected").optimum()
    assert expected == Solver(Deduction(problem), "expected", native=False).optimum()
    code, out, err = run(["solve", "--criteria", str(EXAMPLE), *cards_text, "--json"], capsys)
    assert code == 0, err
    optimal = json.loads(out)["optimal"]["expected"]
    assert (optimal["rounds_fraction"], optimal["questions_fraction"]) == tuple(map(str, expected))


def test_generated_problems_read_back_solved_proven_and_stacked(cards: object,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """generate --only-criteria deals the files' cards alone; each line is read back by solve (which plays it
    through the simulated stacks to its code), prove and stack, with the same file."""
    code, out, err = run(["generate", "--criteria", str(EXAMPLE), "--only-criteria", "--seed", "5", "--count", "3",
                          "--answer"], capsys)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 3
    for line in lines:
        text, answer = line.split("  # code ")
        numbers = [int(n) for n in re.findall(r"(?:^| )([A-F]) (\d+)", text) for n in [n[1]]]
        assert numbers and all(n >= 49 for n in numbers)
        problem = parse_problem(text, criteria=cards)  # type: ignore[arg-type]
        assert str(problem.solution()) == answer
        code, out, err = run(["solve", "--criteria", str(EXAMPLE), *text.split(), "--json"], capsys)
        assert code == 0, err
        assert json.loads(out)["code"] == answer
        code, out, err = run(["prove", answer, "--criteria", str(EXAMPLE), *text.split()], capsys)
        assert code == 0, err
        first_id = text.split()[2]
        code, out, err = run(["stack", answer, "--verifier", first_id, "--criteria", str(EXAMPLE)], capsys)
        assert code == 0 and "shows ✓ pass" in out, err
    code, _, err = run(["solve", *lines[0].split("  #")[0].split(), "--json"], capsys)
    assert code == 2 and "no criteria card" in err and "give its file with --criteria FILE" in err  # unknown without it
    code, out, err = run(["solve", "--criteria", str(EXAMPLE), "--criteria", str(EXAMPLE.parent / ".." / "criteria" /
                                                                                EXAMPLE.name), *text.split()], capsys)
    assert code == 0, err  # a file given twice is read once


def test_new_cards_join_every_band(cards: object) -> None:
    """Dealt with the published cards, the files' cards come up in every difficulty (they join each band)."""
    import random

    from tmphys.game.generate import generate

    for difficulty in ("easy", "standard", "hard"):
        drawn = generate("classic", 4, difficulty, random.Random(1), count=30, criteria=cards)  # type: ignore
        used = {n for p in drawn for cs in p.cards for n in cs}
        assert used & {49, 50, 51, 52, 53, 54}, difficulty


def readme_commands() -> list[list[str]]:
    """The commands of the README's "Your own criteria" section, as words (the example file by its path here)."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    section = readme[readme.index("## Your own criteria"):]
    block = section[section.index("```sh\n") + 6:section.index("```\n", section.index("```sh\n") + 6)]
    commands = []
    for line in block.strip().splitlines():
        words = line.split("#")[0].split()
        assert words[0] == "tmphys"
        commands.append([str(EXAMPLE) if w == "examples/criteria/new-families.toml" else w for w in words[1:]])
    return commands


def pdf_text(path: Path) -> str:
    """The text of every page of a PDF, as PDFium reads it (the words only, in a fraction of pdfplumber's time)."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(path)
    try:
        return " ".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def test_the_readme_designs_checks_prints_deals_solves_and_plays_in_five_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cards: object) -> None:
    """The README's section, run as written (in a fresh folder): the new cards checked, printed with the set (their
    fronts, backs, cut files, index entries and words in the PDFs), dealt and rated alone into a booklet, a problem of
    them solved through the machine, and the app written with them."""
    monkeypatch.chdir(tmp_path)
    commands = readme_commands()
    assert len(commands) <= 5 and all("--criteria" in c for c in commands)
    results = {}
    for words in commands:
        code, out, err = run(words, capsys)
        assert code == 0, (words, err)
        results[words[0]] = out
    assert results["check"].rstrip().endswith("all rules pass")
    built = tmp_path / "output" / "classic"
    manifest = json.loads((built / "manifest.json").read_text("utf-8"))
    paths = {f["path"] for f in manifest["files"]}
    new = cards.user_verification_cards  # type: ignore[attr-defined]
    assert {f"svg/verification-cards/{v.index:03d}-front.svg" for v in new} <= paths
    assert {f"svg/criteria-cards/{c.number:02d}.svg" for c in cards.user_cards} <= paths  # type: ignore[attr-defined]
    words = pdf_text(built / "criteria-cards.pdf")
    assert all(c.title.split()[-1] in words for c in cards.user_cards)  # type: ignore[attr-defined]
    index = pdf_text(built / "index.pdf")
    assert all(str(v.ids["green"]) in index for v in new)
    booklet = json.loads(results["booklet"])
    assert len(booklet["problems"]) == 6 and (tmp_path / "mine.pdf").exists()
    for entry in booklet["problems"]:
        assert all(n >= 49 for cs in entry["criteria_cards"] for n in cs) and entry["rating"]["exact"]
    assert "Code found:" in results["solve"]
    page = (tmp_path / "my-app" / "index.html").read_text("utf-8")
    data = json.loads(re.search(r'<script id="app-data" type="application/json">(.*?)</script>', page)[1])
    assert {c.number for c in cards.user_cards} <= {c["number"] for c in data["cards"]}  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["classic", "extreme", "nightmare"])
def test_play_finds_the_code_of_a_problem_of_new_cards(mode: str, cards: object) -> None:
    """play at a table, in each mode, on a problem dealt from the file's cards: the player types what each
    stack shows (an answer the dealt card cannot show is refused and asked again, so alternating y and n always
    gives the card's own), and the game ends on the problem's code. (Extreme deals them with the published.)"""
    import random

    from click.testing import CliRunner

    from tmphys.cli.main import cli
    from tmphys.game.generate import generate, problem_text

    alone = mode != "extreme"  # six new cards are too few for Extreme's eight: there they join the published
    problem = generate(mode, 4, "standard", random.Random(2), criteria=cards, only_files=alone)[0]  # type: ignore
    assert any(n >= 49 for cs in problem.cards for n in cs)
    typed = "y\nn\n" * 30 + "quit\n"
    result = CliRunner().invoke(cli, ["play", "--criteria", str(EXAMPLE), *problem_text(problem).split()],
                                input=typed, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"({problem.solution()}):" in result.output.split("The code is")[-1]
