"""A first game in an evening: ``tmphys build --for`` prints only the cards some problems use, and every card is
found by its ID, on its front and in the index, read back from the PDFs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest
from conftest import built_pdf, run_tmphys

from tmphys.art import params as P
from tmphys.cards.layout import load_layout
from tmphys.game.criteria import ID_COLOURS, library, parse_id
from tmphys.game.problems import parse_problem
from tmphys.print import sheets

run = run_tmphys
SPOT = re.compile(r"sheet (\d+), row (\d+), col\. (\d+)")


@pytest.fixture(autouse=True)
def _glyphs_skipped(skip_glyph_forms: None) -> None:
    """The tests read text and page counts, not the symbols' drawings."""


def front_text(pdf: pdfplumber.PDF, paper: str, sheet: int, row: int, column: int) -> str:
    """The text printed on the card front at a place of a sheet of verification-cards.pdf (built without --duplex:
    the fronts first, sheet by sheet)."""
    layout = load_layout("classic")
    grid = sheets.grid_for(P.PAPERS[paper], layout.card_width, layout.card_height)
    x, y = grid.xs[column - 1], grid.ys[row - 1]
    page = pdf.pages[sheet - 1]
    box = (x * P.PT_PER_MM, y * P.PT_PER_MM, (x + layout.card_width) * P.PT_PER_MM,
           (y + layout.card_height) * P.PT_PER_MM)
    return page.crop(box).extract_text() or ""


def test_the_full_index_sends_every_id_to_the_front_that_prints_it(classic: Path) -> None:
    """index.pdf names every one of the 380 printed IDs with a sheet, row and column; the front printed there carries
    that ID as text (all four of its IDs), so a viewer's search for '447' finds the card too."""
    with built_pdf(classic / "index.pdf") as pdf:
        words = " ".join(page.extract_text() or "" for page in pdf.pages)
    found = {int(number): tuple(map(int, spot)) for number, *spot in
             re.findall(r"(\d{3}) sheet (\d+), row (\d+), col\. (\d+)", words)}
    assert sorted(found) == sorted(library().by_id)
    with built_pdf(classic / "verification-cards.pdf") as pdf:
        assert len(pdf.pages) == 2 * 24
        last = library().verification_cards[-1].ids["green"]
        for green in ("447", "646", "566", "322", "201", last):  # booklet problem 1's cards, and the first and last
            card, _ = parse_id(green)
            spot = found[card.ids["green"]]
            assert all(found[card.ids[c]] == spot for c in ID_COLOURS), "one card, one place"
            text = front_text(pdf, "a4", *spot)
            assert all(str(card.ids[c]) in text for c in ID_COLOURS), (green, spot, text)
            assert "verification card" in text
    with built_pdf(classic / "criteria-cards.pdf") as pdf:
        for number in (1, 4, 48):
            sheet, row, column = map(int, re.search(rf"card {number} sheet (\d+), row (\d+), col\. (\d+)",
                                                    words).groups())
            grid = sheets.grid_for(P.PAPERS["a4"], P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)
            x, y = grid.xs[column - 1], grid.ys[row - 1]
            box = [v * P.PT_PER_MM for v in (x, y, x + P.CRITERIA_CARD_WIDTH, y + P.CRITERIA_CARD_HEIGHT)]
            assert f"criteria card {number}" in pdf.pages[sheet - 1].crop(box).extract_text()


def test_a_booklets_json_prints_only_its_cards_on_a_few_sheets(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new user would: a booklet's --json, then build --for it. The set holds the problems' verification and
    criteria cards, each once, and one set of punch cards, on as few sheets as they fit, with backs, a cut file
    pair a sheet of fronts and an index; problem 1's cards are found by the index and by their fronts; the booklet's
    own --cards writes the same bytes."""
    monkeypatch.chdir(tmp_path)
    args = ["booklet", "--mode", "classic", "--difficulty", "easy", "--count", "3", "--seed", "1", "--json",
            "--workers", "1"]  # rated here: no processes to start
    assert run([*args, "--cards", "own"]) == 0
    (tmp_path / "b.json").write_text(capsys.readouterr().out, "utf-8")
    booklet = json.loads((tmp_path / "b.json").read_text("utf-8"))
    problems = [parse_problem(p["line"]) for p in booklet["problems"]]
    cards = {d.index for p in problems for d in p.dealt}
    criteria = {n for p in problems for cs in p.cards for n in cs}
    assert run(["build", "--for", "b.json"]) == 0
    out = tmp_path / "output" / "classic-game"
    said = capsys.readouterr().out
    assert f"{len(cards)} verification cards on {-(-len(cards) // 4)} sheets" in said, said
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["for"] == [p.describe() for p in problems]
    listed = {e["path"] for e in manifest["files"]}
    assert listed == {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} - {"manifest.json"}
    sheets_of = {"verification-cards": -(-len(cards) // 4), "criteria-cards": -(-len(criteria) // 9),
                 "punch-cards": -(-15 // 4)}
    for name, count in sheets_of.items():
        with pdfplumber.open(out / f"{name}.pdf") as pdf:
            assert len(pdf.pages) == 2 * count, name  # each sheet's front, then its back
            assert f"sheet {count} of {count} · back" in pdf.pages[-1].extract_text()
        assert {p for p in listed if p.startswith(f"cut/{name}-")} == {
            f"cut/{name}-{k:02d}.{ext}" for k in range(1, count + 1) for ext in ("svg", "dxf")}
    with pdfplumber.open(out / "index.pdf") as pdf:
        words = " ".join(page.extract_text() or "" for page in pdf.pages)
    first = problems[0]
    head = words.index("Problem 1")
    with pdfplumber.open(out / "verification-cards.pdf") as pdf:
        for letter, card in zip(first.verifiers, first.dealt):
            line = re.search(rf"{letter}: criteria card \d+ at sheet \d+, row \d+, col\. \d+; verification card "
                             rf"\S?{card.ids[first.colour]} at sheet (\d+), row (\d+), col\. (\d+)", words[head:])
            assert line, (letter, words[head:head + 400])
            spot = tuple(map(int, line.groups()))
            text = front_text(pdf, "a4", *spot)
            assert all(str(card.ids[c]) in text for c in ID_COLOURS), (letter, spot, text)
    ids = {int(n) for n in re.findall(r"(\d{3}) sheet \d+, row \d+, col\. \d+", words)}
    assert ids == {n for v in library().verification_cards if v.index in cards for n in v.ids.values()}
    for path in listed:
        assert (out / path).read_bytes() == (tmp_path / "own" / path).read_bytes(), path


def test_for_reads_book_ids_app_text_and_files_and_refuses_in_one_line(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    """--for takes a book ID, app text and a file of lines, repeated (a problem given twice counted once); a problem
    it cannot read, one without verification cards, or a file that is no booklet's --json is refused in one line,
    exit 2, nothing written."""
    (tmp_path / "lines.txt").write_text("# two problems\nA 4 447 B 9 646 C 11 566 D 14 322\n\n#A46 NXF\n", "utf-8")
    out = tmp_path / "set"
    assert run(["build", "--for", "#A46 NXF", "--for", str(tmp_path / "lines.txt"), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert len(manifest["for"]) == 2  # #A46 NXF given twice is one problem
    capsys.readouterr()
    (tmp_path / "bad.json").write_text('{"problems": 3}', "utf-8")
    for value, said in (("#Z99 ZZZ", "not an ID of the published problem book"), ("3 7 10 14", "no verification"),
                        (str(tmp_path / "bad.json"), "not a booklet's --json")):
        assert run(["build", "--for", value, "--out", str(tmp_path / "no")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tmphys: error: --for ") and said in err and err.count("\n") == 1, err
    assert not (tmp_path / "no").exists()


def test_one_set_of_punch_cards_by_default_and_the_tray_board_and_readme_say_so(classic: Path) -> None:
    """The default prints one set (what a table's machine needs), the tray's compartments hold that set, the board
    has one place a colour, and the README and --help say what a copy is for."""
    from click.testing import CliRunner

    from tmphys.cli.main import cli
    from tmphys.print import board, tray
    from tmphys.print.build import BuildOptions

    assert BuildOptions().copies == P.PUNCH_COPIES == 1
    assert tray.CARDS_PER_COLOUR == 5 * P.PUNCH_COPIES
    with built_pdf(classic / "holder-tray.pdf") as pdf:
        assert f"{tray.CARDS_PER_COLOUR} punch cards each" in pdf.pages[0].extract_text()
    with built_pdf(classic / "punch-cards.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
    assert len(re.findall(r"punch cards · sheet \d+ of (\d+) · front", text)) == -(-15 * P.PUNCH_COPIES // 4)
    places = [p for p in board.board_for(load_layout("classic"), P.PAPERS["a4"]).places if p.name in
              ("blue", "yellow", "purple")]
    assert len(places) == 3 and all(len(p.slots) == 1 for p in places)
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8").split())
    assert "| `punch-cards.pdf` | the 15 punch cards, one set," in readme
    assert "One set of punch cards runs the machine for the whole table" in readme and "`--copies N`" in readme
    help_text = " ".join(CliRunner().invoke(cli, ["build", "--help"]).output.split())
    assert "one set runs the machine for a whole table" in help_text and "[default: 1; 1<=x<=20]" in help_text


def test_the_readme_says_which_edge_to_turn_for_backs_by_hand() -> None:
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8").split())
    assert "turn the printed stack over about its long edge" in readme and "the top edge stays at the top" in readme
    assert "flipping on the long edge" in readme
