"""The criteria library equals the published game, card by card, and every ID resolves."""

from __future__ import annotations

import numpy as np
import pytest

from tmphys.game.codes import ALL_CODES, Code, CodeError
from tmphys.game.criteria import (
    ID_COLOURS,
    UnknownIdError,
    criteria_card,
    library,
    parse_id,
    truth_table,
    verification_card,
)


def bits_of(table: np.ndarray) -> int:
    """A truth table as the data files write codes: bit i set when code i (111 is 0, 555 is 124) passes."""
    return sum(1 << c.index for c in ALL_CODES if table[c.index])


def test_every_criteria_card_matches_the_published_one(published_criteria, published_verification_cards) -> None:
    lib = library()
    assert len(lib.criteria_cards) == len(published_criteria) == 48
    for printed, card in zip(published_criteria, lib.criteria_cards):
        assert card.number == printed[0].card
        assert len(card.criteria) == len(printed)
        for ref, crit in zip(printed, card.criteria):
            assert bits_of(crit.table) == ref.codes, (card.number, crit.key)
            assert crit.printed_only == (ref.verification_card is None)
            if ref.verification_card is not None:
                vcard = lib.verification_cards[ref.verification_card - 1]
                assert vcard.criterion is crit
                assert published_verification_cards[ref.verification_card - 1].codes == ref.codes


def test_every_verification_card_matches_the_published_one(published_verification_cards) -> None:
    lib = library()
    assert len(lib.verification_cards) == len(published_verification_cards) == 95
    for ref, card in zip(published_verification_cards, lib.verification_cards):
        assert card.index == ref.index
        assert dict(card.ids) == ref.ids
        assert bits_of(card.criterion.table) == ref.codes


def test_four_printed_only_criteria() -> None:
    printed = [(c.number, k.text) for c in library().criteria_cards for k in c.criteria if k.printed_only]
    assert [n for n, _ in printed] == [8, 9, 10, 24]
    assert all(not library().verification_cards_for(k) for c in library().criteria_cards
               for k in c.criteria if k.printed_only)


def test_ids_are_380_distinct_and_in_published_order() -> None:
    cards = library().verification_cards
    ids = [v.ids[c] for v in cards for c in ID_COLOURS]
    assert len(set(ids)) == 380 and min(ids) >= 201 and max(ids) <= 798
    for colour, ascending in (("green", True), ("blue", True), ("yellow", False), ("purple", False)):
        series = [v.ids[colour] for v in cards]
        assert series == sorted(series, reverse=not ascending)


@pytest.mark.parametrize("text,index,colour", [
    ("447", 39, "green"), ("◊447", 39, "green"), ("G447", 39, "green"), ("g447", 39, "green"),
    ("O577", 39, "yellow"), ("#577", 39, "yellow"), ("B453", 39, "blue"), ("/453", 39, "blue"),
    ("P573", 39, "purple"), ("¤573", 39, "purple"), (" 585 ", 37, "purple"),
])
def test_id_forms_resolve(text: str, index: int, colour: str) -> None:
    card, got = parse_id(text)
    assert (card.index, got) == (index, colour)


@pytest.mark.parametrize("text", ["", "999", "200", "X447", "G577", "P447", "44x7", "G"])
def test_bad_ids_are_refused(text: str) -> None:
    with pytest.raises(UnknownIdError):
        verification_card(text)


def test_every_id_resolves_to_its_own_card() -> None:
    for v in library().verification_cards:
        for colour in ID_COLOURS:
            assert verification_card(v.ids[colour]) is v


def test_criteria_card_numbers() -> None:
    assert criteria_card(4).number == 4 and criteria_card("N17").number == 17
    for bad in (0, 49, "x"):
        with pytest.raises(UnknownIdError):
            criteria_card(bad)


def test_expression_language_is_closed() -> None:
    assert truth_table("b == 1").sum() == 25
    assert truth_table("count(3) == 2").sum() == 12
    for bad in ("__import__('os')", "b.real", "[b]", "open", "lambda: 1"):
        with pytest.raises((ValueError, SyntaxError)):
            truth_table(bad)


def test_codes() -> None:
    assert Code.parse("241") == Code(2, 4, 1)
    assert [Code.from_index(c.index) for c in ALL_CODES] == list(ALL_CODES)
    assert str(Code.from_index(0)) == "111" and str(Code.from_index(124)) == "555"
    for bad in ("246", "12", "abc", "1234", "0 1"):
        with pytest.raises(CodeError):
            Code.parse(bad)


def test_masks_are_the_truth_tables_as_bits() -> None:
    for crit in library().criteria.values():
        mask = crit.mask
        assert mask.bit_count() == int(crit.table.sum())
        assert all(bool(mask >> c.index & 1) == crit.passes(c) for c in ALL_CODES)
    assert library().criteria["p_min"].mask.bit_count() == 30
