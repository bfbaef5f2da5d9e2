"""The stack simulation: logical and raster agree, and the tolerance is exactly where reading fails."""

from __future__ import annotations

import numpy as np
import pytest

from tmphys.cards.check import tolerance
from tmphys.cards.deck import PUNCH_CARDS, Deck, PunchCard, stack_for
from tmphys.cards.layout import load_layout
from tmphys.cards.machine import Machine
from tmphys.cards.stack import ALIGNED, Placement, Raster, open_cells, read_stack, stack_openings
from tmphys.game.codes import ALL_CODES, Code
from tmphys.game.criteria import library, verification_card

PX = 8.0  # raster resolution used in these tests (pixels per mm)


def test_each_punch_card_has_25_holes_at_its_digit(deck: Deck) -> None:
    for card in PUNCH_CARDS:
        holes = deck.holes(card)
        assert holes.sum() == 25
        for i in np.flatnonzero(holes):
            assert deck.layout.cell_codes[i].digit(card.colour) == card.value


def test_every_logical_stack_opens_its_own_cell(deck: Deck) -> None:
    opened = stack_openings(deck.hole_matrix)
    assert (opened.sum(axis=1) == 1).all()
    assert (opened.argmax(axis=1) == deck.layout.code_cells).all()
    for code in (Code.parse("241"), Code.parse("555"), Code.parse("111")):
        assert open_cells(deck, stack_for(code)) == (deck.layout.cell_of(code).index,)


def test_booklet_problem_1_answer_passes_447() -> None:
    view = read_stack(Deck(load_layout()), Code.parse("241"), verification_card("447"))
    assert view.mark == "pass"
    assert read_stack(Deck(load_layout()), Code.parse("231"), verification_card("447")).mark == "fail"


def test_machine_answers_equal_every_criterion(layout) -> None:
    machine = Machine(layout)
    for card in library().verification_cards:
        for code in ALL_CODES[::7]:
            assert machine.ask(code, card) == card.criterion.passes(code)
    assert machine.questions == 95 * len(ALL_CODES[::7])


def test_raster_matches_logic_for_all_stacks(deck: Deck) -> None:
    raster = Raster(deck.layout, PX)
    masks = raster.all_masks(deck).reshape(15, -1)
    cells = raster.cell_image().ravel()
    hole_area = deck.layout.hole_area
    for code in ALL_CODES:
        b, y, p = (c.number for c in stack_for(code))
        seen = cells[masks[b] & masks[y] & masks[p]]
        assert set(np.unique(seen)) == {deck.layout.code_cells[code.index]}
        assert len(seen) / PX**2 == pytest.approx(hole_area, rel=0.06)


def test_raster_reads_marks_through_the_stack(deck: Deck) -> None:
    raster = Raster(deck.layout, PX)
    card = verification_card("447")
    for code in (Code.parse("241"), Code.parse("214"), Code.parse("345")):
        view = raster.view(deck, code, card)
        assert view.open_cells == (deck.layout.cell_of(code).index,)
        assert view.mark == ("pass" if code.yellow == 4 else "fail")


def corners(delta: float) -> list[tuple[Placement, ...]]:
    """Adversarial placements at the tolerance: layers pushed to opposite corners of the δ square."""
    d = delta
    return [
        (Placement(d, d), Placement(-d, -d), Placement(d, -d), Placement(-d, d)),
        (Placement(d, 0), Placement(-d, 0), Placement(0, 0), Placement(-d, 0)),
        (Placement(0, d), Placement(0, d), Placement(0, d), Placement(0, -d)),
        (Placement(-d, d), Placement(d, -d), Placement(-d, -d), Placement(d, d)),
    ]


def test_within_tolerance_every_stack_reads_right(deck: Deck) -> None:
    layout = deck.layout
    tol = tolerance(layout, deck.hole_matrix)
    raster = Raster(layout, PX)
    for placements in corners(0.97 * tol.mm):
        masks = [raster.all_masks(deck, placements[k]).reshape(15, -1) for k in range(3)]
        cells = raster.cell_image(placements[3]).ravel()
        for code in ALL_CODES:
            b, y, p = (c.number for c in stack_for(code))
            seen = np.unique(cells[masks[0][b] & masks[1][y] & masks[2][p]])
            assert list(seen) == [layout.code_cells[code.index]], (code, placements)


def test_beyond_spurious_limit_another_cell_opens(deck: Deck) -> None:
    layout = deck.layout
    tol = tolerance(layout, deck.hole_matrix)
    code_index, *triple = tol.witness
    code = Code.from_index(code_index)
    xy = layout.centres[triple]
    delta = tol.spurious + 0.4  # the window is 0.8 mm wide: it reaches past the gap onto marks
    # slide every layer up to delta towards the middle of the three holes, on each axis
    middle = (xy.min(axis=0) + xy.max(axis=0)) / 2
    placements = np.clip(middle - xy, -delta, delta).tolist()
    placed = tuple(Placement(dx, dy) for dx, dy in placements) + (ALIGNED,)
    view = Raster(layout, PX).view(deck, code, None, placed)
    assert set(view.open_cells) - {layout.cell_of(code).index}
    barely = tuple(Placement(dx * (tol.spurious + 0.05) / delta, dy * (tol.spurious + 0.05) / delta)
                   for dx, dy in placements) + (ALIGNED,)
    seen = Raster(layout, 20.0).view(deck, code, None, barely)
    assert seen.gap_area > 0 or set(seen.open_cells) - {layout.cell_of(code).index}
    # and just inside the limit that same stack is clean
    inside = tuple(Placement(dx * 0.9 * tol.mm / delta, dy * 0.9 * tol.mm / delta) for dx, dy in placements)
    assert Raster(layout, PX).view(deck, code, None, inside + (ALIGNED,)).open_cells == \
        (layout.cell_of(code).index,)


def test_beyond_straying_limit_the_window_leaves_its_mark(deck: Deck) -> None:
    layout = deck.layout
    tol = tolerance(layout, deck.hole_matrix)
    code = Code.parse("333")
    d = tol.straying * 1.3
    view = Raster(layout, 20.0).view(deck, code, None, (Placement(d), Placement(d), Placement(d), Placement(-d)))
    own = layout.cell_of(code)
    # the own window now also covers the unprinted gap: less than the whole hole lies on its mark
    assert view.areas.get(own.index, 0) < layout.hole_width * layout.hole_height * 0.97


def test_closing_limit() -> None:
    layout = load_layout()
    deck = Deck(layout)
    d = layout.hole_width / 2
    code = Code.parse("241")
    raster = Raster(layout, PX)
    assert raster.view(deck, code, None, (Placement(0.9 * d), Placement(-0.9 * d), ALIGNED, ALIGNED)).open_cells
    assert not raster.view(deck, code, None, (Placement(1.1 * d), Placement(-1.1 * d), ALIGNED, ALIGNED)).open_cells


def test_small_rotation_still_reads_right() -> None:
    layout = load_layout()
    deck = Deck(layout)
    tol = tolerance(layout, deck.hole_matrix)
    raster = Raster(layout, PX)
    turned = (Placement(rotation=0.9 * tol.rotation_deg), Placement(rotation=-0.9 * tol.rotation_deg),
              ALIGNED, Placement(rotation=0.9 * tol.rotation_deg))
    masks = [raster.all_masks(deck, turned[k]).reshape(15, -1) for k in range(3)]
    cells = raster.cell_image(turned[3]).ravel()
    for code in ALL_CODES:
        b, y, p = (c.number for c in stack_for(code))
        assert list(np.unique(cells[masks[0][b] & masks[1][y] & masks[2][p]])) == [layout.code_cells[code.index]]


def test_punch_card_values() -> None:
    assert PunchCard("blue", 2).label == "▲2"
    with pytest.raises(ValueError):
        PunchCard("green", 1)


def test_aligned_area_is_the_rounded_hole(layout) -> None:
    """Aligned, a stack shows one whole rounded hole: w·h − (4 − π)·r², which the raster agrees with (at 20 px/mm,
    within 0.2 %: the square hole, 1.5 % to 2.5 % larger on the shipped layouts, would not)."""
    import math

    code, card = Code.parse("241"), verification_card("447")
    expected = layout.hole_width * layout.hole_height - (4 - math.pi) * layout.hole_radius**2
    assert layout.hole_area == pytest.approx(expected, abs=1e-12)
    assert layout.hole_area < layout.hole_width * layout.hole_height  # the corners are cut off
    view = read_stack(Deck(layout), code, card)
    assert view.areas == {layout.cell_of(code).index: pytest.approx(expected, abs=1e-12)}
    fine = Raster(layout, 20.0).view(Deck(layout), code, card)
    assert fine.areas[layout.cell_of(code).index] == pytest.approx(expected, rel=0.01)
