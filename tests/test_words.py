"""Words that say what they mean: the worst case, IDs read by their colour's name, book IDs mistyped, help that
reads, and one warning without the compiled search."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner

from tmphys.cli.main import cli, main
from tmphys.game.book import book_problem
from tmphys.game.criteria import parse_id
from tmphys.game.problems import parse_problem
from tmphys.print.chart import WORST_MEANS, worst_game
from tmphys.solve.solver import Deduction, Solver
from tmphys.text import plural

#: A book problem whose best-on-average strategy has a longer worst game than the best worst case.
LONGER = "#C63 PW5 Y"


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.output


def test_solve_says_both_worst_cases_where_they_differ_and_what_worst_means(tmp_path: Path) -> None:
    """The worst-case figure is the worst-case strategy's optimum; the strategy shown (best on average) has a longer
    game here, and solve and the chart say both, and once what "at worst" means."""
    problem = parse_problem(book_problem(LONGER).line)
    deduction = Deduction(problem)
    shown = worst_game(Solver(deduction, "expected").tree())
    best = Solver(deduction, "worst").optimum()
    assert shown > (int(best[0]), int(best[1])), "the example must have a longer branch"
    both = (f"This strategy: {plural(shown[0], 'round')}, {plural(shown[1], 'question')} at worst; the best worst "
            f"case: {plural(int(best[0]), 'round')}, {plural(int(best[1]), 'question')}.")
    status, out = run(["solve", LONGER, "--chart", str(tmp_path / "c.pdf")])
    assert status == 0 and both in out and out.count(WORST_MEANS) == 1
    assert f"the best worst case {plural(int(best[0]), 'round')}, {plural(int(best[1]), 'question')}." in out
    with pdfplumber.open(tmp_path / "c.pdf") as pdf:
        head = " ".join(pdf.pages[0].extract_text().split())
    assert both in head and WORST_MEANS in head
    status, out = run(["solve", "#A46 NXF"])  # one worst case: said once, not twice
    assert status == 0 and "This strategy:" not in out and out.count(WORST_MEANS) == 1


def test_worst_game_ranks_rounds_before_questions() -> None:
    """A strategy's worst game is its longest branch as the game ranks players: more rounds first, then questions."""
    leaf = {"code": "111", "assignments": 1}
    two_rounds = {"round": 2, "proposal": "222", "codes": 1, "assignments": 1, "then": {"ask": "A", "pass": leaf,
                                                                                         "fail": leaf}}
    tree = {"round": 1, "proposal": "111", "codes": 3, "assignments": 3,
            "then": {"ask": "A", "pass": {"ask": "B", "pass": {"ask": "C", "pass": leaf, "fail": leaf},
                                          "fail": leaf},
                     "fail": two_rounds}}
    assert worst_game(tree) == (2, 2)


def test_solve_with_criteria_cards_only_says_how_to_see_the_strategy() -> None:
    status, out = run(["solve", "--cards", "3", "7", "10", "14"])
    assert status == 0 and "--tree" in out.splitlines()[-1] and "--chart" in out.splitlines()[-1]


def test_an_id_with_its_colours_name_reads_as_that_colour(capsys: pytest.CaptureFixture) -> None:
    """Y587 is yellow's 587 (the colour's name), as O587 is; in a problem too; another letter names the choices."""
    assert parse_id("Y587") == parse_id("O587") and parse_id("y587")[1] == "yellow"
    yellow = {green: parse_id(green)[0].ids["yellow"] for green in ("447", "646", "566", "322")}
    problem = parse_problem(f"A 4 Y{yellow['447']} B 9 Y{yellow['646']} C 11 Y{yellow['566']} D 14 Y{yellow['322']}")
    assert problem.colour == "yellow" and [d.ids["green"] for d in problem.dealt] == [447, 646, 566, 322]
    with pytest.raises(SystemExit) as done:
        main(["stack", "241", "--verifier", "X587"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "G O (or Y) B P" in err and err.count("\n") == 1


@pytest.mark.parametrize("text", ["#Z99 ZZZ", "#A46-NXF", "#a46nxg"])
def test_a_mistyped_book_id_gets_the_book_ids_message(text: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["solve", text])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.count("\n") == 1
    assert "is not an ID of the published problem book" in err and "'->'" not in err, err


def test_build_help_shows_its_ranges_plainly() -> None:
    status, out = run(["build", "--help"])
    assert status == 0 and "None" not in out and "--for PROBLEM" in out and "--ink [full|low]" in out


def test_without_the_compiled_search_rating_warns_once(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    """booklet and generate --rate say it in the same single line as solve, once, however many problems they rate;
    the function the worker processes run stays quiet."""
    from tmphys.solve import engine, runner
    from tmphys.solve.solver import EngineMissingWarning

    monkeypatch.setattr(engine, "_engine", None)
    lines = {}
    for name, args in (("solve", ["solve", "--cards", "3", "7", "10", "14"]),
                       ("booklet", ["booklet", "--count", "3", "--seed", "1", "--steps", "20000", "--workers", "1",
                                    "--out", str(tmp_path / "b.pdf")]),
                       ("generate", ["generate", "--count", "2", "--seed", "1", "--rate", "--steps", "20000",
                                     "--workers", "1"])):
        with warnings.catch_warnings(), pytest.raises(SystemExit) as done:
            warnings.simplefilter("default")
            main(args)
        err = capsys.readouterr().err
        assert done.value.code == 0, (name, err)
        found = [line for line in err.splitlines() if line.startswith("tmphys: warning:")]
        assert len(found) == 1 and "Traceback" not in err, (name, err)
        lines[name] = found[0]
    assert len(set(lines.values())) == 1, lines
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        runner.quiet_rating(parse_problem("3 7 10 14"), 20000)
    assert not [w for w in seen if issubclass(w.category, EngineMissingWarning)]
    assert re.search(r"not built.*pip install \.", lines["solve"])


# --- the criteria's wording, read against their truth tables ------------------------------------------------------

#: What a player reads into a criterion's words, as codes it must pass and codes it must fail: the ties of "smaller
#: than both" (strict) and "smaller than or equal to both", neighbours counting up from ▲ towards ●, a run of three
#: going one way, three alike as no pair.
#: A code given as an example in a criterion's words (in any script: "121は").
EXAMPLE = re.compile(r"(?<![0-9])[1-5]{3}(?![0-9])")
CLAIMS: dict[str, tuple[str, str]] = {
    "b_min": ("123 132 254", "112 121 111 213"),
    "y_max": ("151 253", "155 551 111 123"),
    "b_le_all": ("123 112 111 121", "211 212 321"),
    "p_ge_all": ("113 133 555 124", "141 411 132"),
    "up_run_1": ("111 213 321 135 543", "124 312 123"),
    "up_run_2": ("124 312 121 452", "123 345 213"),
    "up_run_3": ("123 234 345", "321 124"),
    "run_1": ("111 135 531 315", "121 213 123"),
    "run_2": ("121 212 124 421 343", "123 321 135"),
    "run_3": ("123 321 345 543", "121 212 124 135"),
    "no_pair": ("111 123", "112 121"),
    "pair": ("112 121 211", "111 123"),
    "unordered": ("121 111 132", "123 321 135"),
    "ascending": ("123 135", "122 321"),
    "triple": ("111 555", "112"),
    "double": ("112 121", "111 123"),
    "no_repeat": ("123 531", "112 111"),
}


def test_each_criterion_reads_as_its_truth_table() -> None:
    """The wording's key claims hold (``CLAIMS``), and every example a criterion's words give in parentheses ("as
    123 or 321, not 121") passes or fails as the words say."""
    from tmphys.game.codes import Code
    from tmphys.game.criteria import library

    criteria = library().criteria
    for key, (passing, failing) in CLAIMS.items():
        c = criteria[key]
        assert all(c.passes(Code.parse(s)) for s in passing.split()), (key, c.text)
        assert not any(c.passes(Code.parse(s)) for s in failing.split()), (key, c.text)
    examples = 0
    for c in criteria.values():
        for inside in re.findall(r"\(([^)]*)\)", c.text):
            said, _, denied = inside.partition("not ")
            for text, truth in ((said, True), (denied, False)):
                for code in EXAMPLE.findall(text):
                    assert c.passes(Code.parse(code)) is truth, (c.key, c.text, code)
                    examples += 1
    assert examples >= 3
    assert criteria["run_3"].text == "three digits stepping by one the same way (as 123 or 321, not 121)"


def test_every_translation_keeps_a_criterions_examples() -> None:
    """A criterion's example codes ("123 or 321, not 121") are in every language's wording of it: the translation
    says the same way, not just three digits a step apart."""
    from babel.messages.pofile import read_po

    from tmphys.game.criteria import library
    from tmphys.lang.catalogue import po_path
    from tmphys.lang.i18n import DEFAULT, LANGUAGES

    with_examples = [c.text for c in library().criteria.values() if EXAMPLE.search(c.text)]
    assert with_examples
    for code in LANGUAGES:
        if code == DEFAULT:
            continue
        with po_path(code).open("rb") as f:
            catalog = read_po(f)
        for text in with_examples:
            translated = catalog.get(text).string
            assert sorted(EXAMPLE.findall(translated)) == sorted(EXAMPLE.findall(text)), (code, translated)
