"""Layouts load, reproduce the published cards, and refuse bad files naming the field."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import reference_path

from tmphys.codes import Code
from tmphys.criteria import library
from tmphys.deck import Deck
from tmphys.layout import LayoutError, layout_names, load_layout, parse_layout


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


def read_positions() -> dict[str, int]:
    pos = {}
    for line in reference_path("retail-code-positions.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            code, p = line.split()
            pos[code] = int(p)
    return pos


def test_retail_reads_published_positions() -> None:
    retail = load_layout("retail")
    assert len(retail.cells) == 133
    for code, p in read_positions().items():
        assert retail.cell_of(Code.parse(code)).index == p
    assert [c.index for c in retail.decoys] == [1, 10, 21, 105, 116, 125, 126, 133]


def test_retail_pass_marks_are_the_published_ones() -> None:
    retail = load_layout("retail")
    deck = Deck(retail)
    lib = library()
    result_cells = np.array([c is not None for c in retail.cell_codes])
    lines = [ln for ln in reference_path("retail-pass-positions.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 95
    for line in lines:
        green, *positions = map(int, line.split())
        card = next(v for v in lib.verification_cards if v.ids["green"] == green)
        printed = np.zeros(len(retail.cells), dtype=bool)
        printed[np.array(positions) - 1] = True
        ours = deck.face(card)
        assert np.array_equal(ours[result_cells], printed[result_cells]), green


def test_published_diagonal_rule_holds_on_retail_grid() -> None:
    from tmphys.check import isolation_clashes
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
    (lambda t: t.replace("first_cell_x = 8.7", "first_cell_x = 20.0"), r"grid puts holes beyond"),
    (lambda t: t.replace("[card]", "[card"), r"not valid TOML"),
]


@pytest.mark.parametrize("edit,message", BROKEN)
def test_broken_layouts_name_the_field(tmp_path, edit, message) -> None:
    text = edit(classic_text())
    assert text != classic_text()
    with pytest.raises(LayoutError, match=message):
        parse_layout(text, "broken.toml")


def test_unknown_layouts() -> None:
    with pytest.raises(LayoutError, match="unknown layout 'nope'"):
        load_layout("nope")
    with pytest.raises(LayoutError, match="no layout file"):
        load_layout("missing/file.toml")


def test_missing_code_is_named() -> None:
    text = re.sub(r"\b111\b", "...", classic_text(), count=1)
    with pytest.raises(LayoutError, match=r"misses code\(s\) 111"):
        parse_layout(text, "broken.toml")
