"""Layouts load, reproduce the published cards, and refuse bad files naming the field."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tmphys.cards.deck import Deck
from tmphys.cards.layout import LayoutError, layout_names, load_layout, parse_layout
from tmphys.game.codes import ALL_CODES


def classic_text() -> str:
    from importlib import resources
    return resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")


def test_shipped_layouts() -> None:
    assert {"classic", "retail"} <= set(layout_names())
    classic = load_layout()
    assert classic.name == "classic" and not classic.estimated
    assert load_layout("retail").estimated


def test_every_code_has_one_cell(layout) -> None:
    cells = layout.code_cells
    assert sorted(cells.tolist()) == sorted(set(cells.tolist())) and (cells >= 0).all()
    assert len(layout.cells) == 125 + len(layout.decoys)


def test_retail_reads_published_positions(retail_card) -> None:
    retail = load_layout("retail")
    assert len(retail.cells) == 133
    assert [retail.cell_of(code).index for code in ALL_CODES] == list(retail_card.code_cells)
    assert [c.index for c in retail.decoys] == [1, 10, 21, 105, 116, 125, 126, 133]


def test_retail_pass_marks_are_the_published_ones(retail_card) -> None:
    retail = load_layout("retail")
    deck = Deck(retail)
    result_cells = np.array([c is not None for c in retail.cell_codes])
    assert len(retail_card.pass_cells) == 95
    for card in deck.verification_cards:
        ours = deck.face(card)
        printed = np.zeros(len(retail.cells), dtype=bool)
        printed[np.array(sorted(retail_card.pass_cells[card.ids["green"]])) - 1] = True
        assert np.array_equal(ours[result_cells], printed[result_cells]), card.ids["green"]


def test_published_diagonal_rule_holds_on_retail_grid() -> None:
    from tmphys.cards.check import isolation_clashes
    assert isolation_clashes(load_layout("retail"), "diagonal") == 0


def test_layout_by_path(tmp_path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(classic_text().replace('name = "classic"', 'name = "mine"'))
    assert load_layout(str(path)).name == "mine"


FIRST = classic_text().split('cells = """')[1].split()[:2]  # the first two cells' codes
PAIR = f"{FIRST[0]} {FIRST[1]}"

BROKEN = [
    (lambda t: t.replace("width = 75.0", "width = -75.0"), r"card\.width must be positive"),
    (lambda t: t.replace("width = 75.0", 'width = "wide"'), r"card\.width must be a number"),
    (lambda t: t.replace("pitch_x = 6.4\n", ""), r"grid\.pitch_x is missing"),
    (lambda t: t.replace("[hole]\nwidth = 3.0", "[hole]\nwidth = 7.0"), r"hole .* smaller than the pitch"),
    (lambda t: t.replace(PAIR, f"{FIRST[0]} {FIRST[0]}", 1), rf"placement\.cells code {FIRST[0]} is on cells 1 and 2"),
    (lambda t: t.replace(PAIR, f"{FIRST[0]} 999", 1), r"placement\.cells cell 2 holds '999'"),
    (lambda t: t.replace(PAIR, FIRST[0], 1), r"placement\.cells lists 129 cells but grid\.rows has 130"),
    (lambda t: t.replace('isolation = "diagonal"', 'isolation = "sideways"'), r"rules\.isolation must be one of"),
    (lambda t: t.replace('shape = "triangle"', 'shape = "star"'), r"alignment_marks\[0\]\.shape must be"),
    (lambda t: t.replace("[0, 10]", "[0, 0]", 1), r"grid\.rows entry 1"),
    (lambda t: t.replace("yellow = 29.5", "yellow = 10.0"), r"tab positions overlap"),
    # a tab on the arc of a rounded corner: its outline would not join the card's (was drawn detached)
    (lambda t: t.replace("corner_radius = 3.0", "corner_radius = 7.0"),
     r"tab\.blue reaches into a rounded corner of the card \(card\.corner_radius 7 mm\)"),
    (lambda t: t.replace("purple = 53.0", "purple = 57.0"), r"tab\.purple reaches into a rounded corner"),
    (lambda t: t.replace("first_cell_x = 8.7", "first_cell_x = 20.0"), r"grid puts holes beyond"),
    (lambda t: t.replace("[card]", "[card"), r"not valid TOML"),
    # a grid too large for the card is refused before any cell is made (it used to take minutes and GBs)
    (lambda t: t.replace("[0, 10]", "[0, 99999999999999999]", 1),
     r"grid\.rows entry 1 \[0, 99999999999999999\] reaches column 99999999999999998, the card has room for "
     r"columns 0 to 10"),
    (lambda t: t.replace("[0, 10]", "[5, 7]", 1), r"grid\.rows entry 1 \[5, 7\] reaches column 11\b"),
    (lambda t: t.replace("[0, 10]]", "[0, 10]" + ", [0, 10]" * 100 + "]", 1),
     r"grid\.rows has 113 rows, the card has room for 14"),
    (lambda t: t.replace("[0, 10]", "[0, 9]", 1), r"placement\.cells lists 130 cells but grid\.rows has 129"),
    (lambda t: t.replace("width = 75.0", "width = 100000.0"), r"card\.width is 100000 mm, more than the 300 mm"),
    # unknown tables and keys are typos: named, not ignored
    (lambda t: t.replace("[card]\n", "[card]\nfoo = 1\n"), r"card\.foo is not a layout field \(known here: width,"),
    (lambda t: t + "\n[bogus]\nx = 1\n", r"unknown table 'bogus' \(known tables: layout, card,"),
    (lambda t: "colour = 1\n" + t, r"unknown key 'colour'"),
    (lambda t: t.replace('shape = "square"', 'shape = "square"\nsizes = 4', 1),
     r"alignment_marks\[1\]\.sizes is not a layout field"),
    (lambda t: t.replace("min_web = 1.5", "min_webb = 1.5"), r"rules\.min_webb is not a layout field"),
    (lambda t: t.replace("estimated = false", 'estimated = "no"'), r"layout\.estimated must be true or false"),
    (lambda t: t.replace('name = "classic"', 'name = "../classic"'), r"layout\.name names the build's folder"),
    (lambda t: t.replace('name = "classic"', 'name = "a:b"'), r"layout\.name names the build's folder, so must be a"),
    (lambda t: t.replace('name = "classic"', 'name = "CON"'), r"layout\.name names the build's folder"),
    (lambda t: t.replace('name = "classic"', 'name = ".hidden"'), r"layout\.name names the build's folder"),
    (lambda t: t.replace('name = "classic"', 'name = "cards "'), r"layout\.name names the build's folder"),
    (lambda t: t.replace('name = "classic"', f'name = "{"x" * 101}"'), r"at most 100 characters"),
    (lambda t: t.replace('name = "classic"', 'name = "nul.set"'), r"layout\.name names the build's folder"),
    (lambda t: t.split("[card]")[0] + "[grid]" + t.split("[grid]")[1], r"layout broken\.toml: card is missing$"),
    (lambda t: t.replace("seed = 12", "seed = -3"), r"placement\.seed must be a whole number, 0 or more"),
    (lambda t: t.replace("steps = 600000", "steps = 0"), r"placement\.steps must be a whole number"),
]


@pytest.mark.parametrize("edit,message", BROKEN)
def test_broken_layouts_name_the_field(tmp_path, edit, message) -> None:
    text = edit(classic_text())
    assert text != classic_text()
    with pytest.raises(LayoutError, match=message) as error:
        parse_layout(text, "broken.toml")
    assert "\n" not in str(error.value)


def test_a_byte_order_mark_is_read_past() -> None:
    """Some Windows editors save a byte-order mark first: the layout reads the same."""
    assert parse_layout("\ufeff" + classic_text(), "classic") == parse_layout(classic_text(), "classic")
    for name in ("My_set-2.b", "été", "Bob's set (v2), #3 & more", "Kärtchen"):  # folder names everywhere
        assert parse_layout(classic_text().replace('name = "classic"', f'name = "{name}"'), "x").name == name


def test_every_field_of_the_shipped_layouts_is_known() -> None:
    """The schema accepts every key the shipped layouts use (and place writes), and nothing else."""
    import tomllib
    from importlib import resources

    from tmphys.cards.layout import SCHEMA

    for name in layout_names():
        raw = tomllib.loads(resources.files("tmphys.layouts").joinpath(f"{name}.toml").read_text("utf-8"))
        assert set(raw) <= set(SCHEMA)
        for table, value in raw.items():
            for entry in value if isinstance(value, list) else [value]:
                assert set(entry) <= set(SCHEMA[table]), (name, table)
    assert load_layout("retail").estimated is True


def test_unknown_layouts() -> None:
    with pytest.raises(LayoutError, match="unknown layout 'nope'"):
        load_layout("nope")
    with pytest.raises(LayoutError, match="no layout file"):
        load_layout("missing/file.toml")


def test_missing_code_is_named() -> None:
    text = re.sub(r"\b111\b", "...", classic_text(), count=1)
    with pytest.raises(LayoutError, match=r"misses code\(s\) 111"):
        parse_layout(text, "broken.toml")
