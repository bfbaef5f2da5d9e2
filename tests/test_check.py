"""The design-rule checks pass on the shipped layouts and catch each kind of broken card."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from tmphys.cards import check as check_module
from tmphys.cards.check import check, check_stacks, quick_check, raster_violations, tolerance
from tmphys.cards.deck import Deck
from tmphys.cards.layout import load_layout, parse_layout


def classic_text() -> str:
    return resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")


def test_shipped_layouts_pass(layout) -> None:
    report = check(layout)
    assert report.ok, [str(v) for v in report.violations]
    assert report.stacks_checked == 125 and report.stacks_with_one_cell == 125
    data = report.to_json()
    assert {"layout", "stacks_checked", "stacks_with_one_cell", "violations", "tolerance_mm"} <= set(data)
    assert data["tolerance_mm"] == pytest.approx(report.tolerance.mm, abs=1e-4)


def test_classic_meets_the_maker_rules() -> None:
    report = check(load_layout("classic"))
    m = report.measures
    assert m["hole_mm"] >= 3.0 and m["min_web_mm"] >= 1.5
    assert m["diagonal_clashes"] == 0
    retail = check(load_layout("retail")).measures
    # at least as good as the published placement on both counts: isolation and scramble
    assert m["neighbour_clashes"] < retail["neighbour_clashes"]
    assert m["worst_autocorrelation"] < retail["worst_autocorrelation"]


def test_tolerance_formula_for_classic() -> None:
    layout = load_layout("classic")
    tol = tolerance(layout, Deck(layout).hole_matrix)
    assert tol.spurious == pytest.approx((layout.pitch_x - layout.hole_width) / 2)
    assert tol.closing == pytest.approx(layout.hole_width / 2)
    assert tol.straying == pytest.approx((layout.mark_width - layout.hole_width) / 4)
    assert tol.mm == min(tol.spurious, tol.closing, tol.straying)


@pytest.mark.parametrize("edit,rule", [
    (lambda t: t.replace('isolation = "diagonal"', 'isolation = "king"'), "isolation"),
    (lambda t: t.replace("[hole]\nwidth = 3.0\nheight = 3.0", "[hole]\nwidth = 2.5\nheight = 2.5"), "hole-size"),
    (lambda t: t.replace("min_web = 1.5", "min_web = 12.0"), "web"),
    (lambda t: t.replace("min_edge = 2.0", "min_edge = 9.0"), "edge"),
    (lambda t: t.replace("x = 7.0\ny = 8.0", "x = 9.0\ny = 16.0"), "alignment-mark"),
    (lambda t: t.replace("x = 68.0\ny = 8.0", "x = 74.0\ny = 8.0"), "alignment-mark"),
    (lambda t: t.replace("max_autocorrelation = 0.09", "max_autocorrelation = 0.01"), "scramble"),
    # marks of 2.9 mm under 3 mm holes: the raster saw the gap, but build (the quick check) did not warn
    (lambda t: t.replace("[mark]\ngap = 0.3", "[mark]\ngap = 3.5"), "mark-size"),
])
def test_each_rule_catches_a_broken_layout(edit, rule) -> None:
    text = edit(classic_text())
    assert text != classic_text()
    report = check(parse_layout(text, "edited.toml"), raster=False)
    assert rule in {v.rule for v in report.violations}
    assert not report.ok
    assert quick_check(parse_layout(text, "edited.toml")) == report.violations  # what build warns about


def test_edges_and_marks_are_measured_to_the_rounded_corners() -> None:
    """A card with 6 mm corners: the grid moved to 4 mm from the top-left corner leaves its first hole 2.5 mm from
    the straight edges but 1.26 mm from the corner's arc (under the 2 mm minimum); a mark whose square fits the
    card's rectangle but not its rounded corner does not fit. Measured to the rectangle, both passed."""
    text = classic_text().replace("corner_radius = 3.0", "corner_radius = 6.0")
    assert check_module.min_edge(parse_layout(text, "r6.toml")) == pytest.approx(7.2)  # as at 3 mm: far from corners
    moved = text.replace("first_cell_x = 8.7", "first_cell_x = 4.0").replace("first_cell_y = 19.2",
                                                                              "first_cell_y = 4.0")
    layout = parse_layout(moved, "corner.toml")
    # the hole's core corner (3, 3) lies 3 mm past the arc's centre (6, 6) each way: 6 - 3 * sqrt(2) inside,
    # less the hole's 0.5 mm corner radius
    assert check_module.min_edge(layout) == pytest.approx(6 - 3 * 2**0.5 - 0.5)
    assert "edge" in {v.rule for v in check(layout, raster=False).violations}
    square = (parse_layout(moved.replace("corner_radius = 6.0", "corner_radius = 0.0"), "square.toml"))
    assert check_module.min_edge(square) == pytest.approx(2.5)  # square corners: the straight edges' distance
    marked = text.replace("x = 7.0\ny = 8.0", "x = 3.0\ny = 3.0").replace("size = 5.0", "size = 4.0", 1)
    report = check(parse_layout(marked, "mark.toml"), raster=False)
    assert [v.rule for v in report.violations] == ["alignment-mark"] and "(3.00, 3.00)" in str(report.violations[0])
    assert check(parse_layout(marked.replace("corner_radius = 6.0", "corner_radius = 1.0"), "m1.toml"),
                 raster=False).ok  # the same mark on 1 mm corners fits


def test_quick_check_passes_the_shipped_layouts(layout) -> None:
    assert quick_check(layout) == [] == check(layout, raster=False).violations


def test_king_isolation_violation_counts_the_clashes() -> None:
    text = classic_text().replace('isolation = "diagonal"', 'isolation = "king"')
    report = check(parse_layout(text, "edited.toml"), raster=False)
    count = report.measures["neighbour_clashes"]
    assert any(v.rule == "isolation" and v.message.startswith(f"{count} king") for v in report.violations)


def test_check_stacks_catches_a_wrong_hole() -> None:
    layout = load_layout("classic")
    deck = Deck(layout)
    holes = np.array(deck.hole_matrix)
    assert check_stacks(layout, holes, deck.faces) == []
    extra = holes.copy()
    free = int(np.flatnonzero(~extra[0])[0])
    extra[0, free] = True
    rules = {v.rule for v in check_stacks(layout, extra)}
    assert {"one-cell", "holes"} <= rules
    missing = holes.copy()
    missing[3, int(np.flatnonzero(missing[3])[0])] = False
    found = check_stacks(layout, missing)
    assert any(v.rule == "one-cell" and "opens 0 cells" in v.message for v in found)


def test_check_stacks_catches_a_wrong_mark() -> None:
    layout = load_layout("retail")
    deck = Deck(layout)
    faces = np.array(deck.faces)
    faces[10, layout.code_cells[57]] ^= True
    found = check_stacks(layout, deck.hole_matrix, faces)
    assert [v.rule for v in found] == ["marks"]


def test_oversized_holes_leave_no_tolerance() -> None:
    # holes almost as big as the pitch: logically fine, but the raster sees neighbours merge
    text = classic_text().replace("[hole]\nwidth = 3.0\nheight = 3.0", "[hole]\nwidth = 6.39\nheight = 6.39")
    text = text.replace("[mark]\ngap = 0.3", "[mark]\ngap = 0.0")
    report = check(parse_layout(text, "edited.toml"))
    assert report.tolerance.mm < 0.01
    assert "raster" not in {v.rule for v in report.violations}  # aligned, it still reads right


def _tampered() -> Deck:
    """The classic deck with one extra hole punched in the first punch card."""
    layout = load_layout("classic")

    class Tampered(Deck):
        @property
        def hole_matrix(self) -> np.ndarray:  # type: ignore[override]
            holes = np.array(Deck(layout).hole_matrix)
            holes[0, int(np.flatnonzero(~holes[0])[0])] = True
            return holes

    return Tampered(layout)


def test_raster_check_catches_an_extra_hole() -> None:
    found = raster_violations(_tampered())
    assert found and all(v.rule == "raster" for v in found)
    assert raster_violations(Deck(load_layout("classic"))) == []


def test_raster_check_slice_by_slice_finds_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pixels go through the 125 stacks a slice at a time (memory): slices of an odd size, cutting through the
    holes, find the very same violations; the report says how finely the raster looked and what it saw."""
    whole = raster_violations(_tampered())
    monkeypatch.setattr(check_module, "RASTER_SLICE", 997)
    assert [str(v) for v in whole] == ["raster: stack 134 shows [1, 115] in the raster, not just cell 115"]
    assert raster_violations(_tampered()) == whole
    measures = check(load_layout("classic"), px_per_mm=2.5).measures
    assert measures["raster_px_per_mm"] == 2.5 and measures["raster_stacks_reading_right"] == 125
