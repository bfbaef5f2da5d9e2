"""The validity rules (one code, no redundant verifier) reproduce the published count of valid games.

The count runs over every set of four criteria cards at once with numpy: tuples of criteria on ascending cards grow
one card at a time, kept while at least two codes pass them all (a valid game must keep two codes whenever one
verifier is left out); the last card must leave exactly one code, with no verifier redundant. ``valid_choices``, the
rule the solver and the generator use, gives the same choices card set by card set on a sample of the sets.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from tmphys.game.problems import Problem, valid_choices

CARDS = range(1, 49)
#: Card sets are compared with ``valid_choices`` one in this many (every card set would take a minute).
SAMPLE_EVERY = 29
#: Candidate tuples handled at once: bounds the memory to some hundred MB.
CHUNK = 4_000_000
#: A card set (four cards 1..48) as one number.
SET_KEY = np.array([49**3, 49**2, 49, 1])
#: The set of all 125 codes.
EVERY_CODE = np.array([2**64 - 1, 2**61 - 1], dtype=np.uint64)


def words(masks: list[int]) -> np.ndarray:
    """125-bit code sets as (…, 2) uint64 words: low 64 codes, high 61."""
    return np.array([[m & (2**64 - 1), m >> 64] for m in masks], dtype=np.uint64).reshape(len(masks), 2)


def code_count(sets: np.ndarray) -> np.ndarray:
    """How many codes each code set of (…, 2) words holds."""
    return np.bitwise_count(sets[..., 0]) + np.bitwise_count(sets[..., 1])


def card_criteria() -> tuple[list[list[int]], np.ndarray, np.ndarray, np.ndarray]:
    """Each card's distinct criteria (as a Classic verifier sees them) as code sets; then all of them in card order
    as words, with their card and their place on the card."""
    per_card = [[c.mask for c in Problem("classic", ((n,),)).candidates(0)] for n in CARDS]
    sizes = [len(masks) for masks in per_card]
    return (per_card, words([m for masks in per_card for m in masks]), np.repeat(np.array(CARDS), sizes),
            np.concatenate([np.arange(size) for size in sizes]))


def valid_games(verifiers: int, codes: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Every valid game on ``verifiers`` criteria cards, as rows of criterion indices on ascending cards."""
    first_after = np.searchsorted(card, np.arange(card.max() + 2), side="right")  # first criterion on a later card
    chosen = np.arange(len(card))[:, None]
    meet = codes  # the codes every chosen criterion passes
    left_out = np.tile(EVERY_CODE, (len(card), 1, 1))  # per verifier: the codes all the others pass
    for level in range(1, verifiers):
        last = level == verifiers - 1
        grown = []
        order = np.argsort(card[chosen[:, -1]], kind="stable")
        ends = card[chosen[order, -1]]
        for k in np.unique(ends):  # the tuples ending on card k, each with every criterion of a later card
            rows = order[np.searchsorted(ends, k):np.searchsorted(ends, k, side="right")]
            later = np.arange(first_after[k], len(card))
            for block in np.array_split(rows, max(1, len(rows) * len(later) // CHUNK)):
                n = code_count(meet[block][:, None, :] & codes[later][None, :, :])
                r, c = np.nonzero(n == 1 if last else n >= 2)
                rows_, cols = block[r], later[c]
                rest = np.concatenate([left_out[rows_] & codes[cols][:, None, :], meet[rows_][:, None, :]], axis=1)
                if last:  # a verifier is redundant when the others already leave one code
                    fine = (code_count(rest) >= 2).all(axis=1)
                    rows_, cols, rest = rows_[fine], cols[fine], rest[fine]
                grown.append((np.column_stack([chosen[rows_], cols]), meet[rows_] & codes[cols], rest))
        chosen, meet, left_out = (np.concatenate([g[k] for g in grown]) for k in range(3))
    return chosen


@pytest.fixture(scope="module")
def four_verifier_games() -> tuple[list[list[int]], np.ndarray, np.ndarray]:
    """The criteria per card, and every valid four-verifier game: its cards and its criteria's places on them."""
    per_card, codes, card, place = card_criteria()
    games = valid_games(4, codes, card)
    return per_card, card[games], place[games]


def test_four_verifier_games_match_the_published_count(four_verifier_games) -> None:
    """The published game's figures: 1,033,950 valid games with 4 verifiers, over 108,839 card sets."""
    _, cards, _ = four_verifier_games
    assert (np.diff(cards, axis=1) > 0).all()
    card_sets = np.unique(cards @ SET_KEY)
    assert (len(cards), len(card_sets)) == (1_033_950, 108_839)


def test_valid_choices_agrees_card_set_by_card_set(four_verifier_games) -> None:
    per_card, cards, places = four_verifier_games
    sample = list(itertools.combinations(CARDS, 4))[::SAMPLE_EVERY]
    picked = np.isin(cards @ SET_KEY, np.array(sample) @ SET_KEY)
    by_set: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for key, choice in zip(map(tuple, cards[picked].tolist()), map(tuple, places[picked].tolist())):
        by_set.setdefault(key, []).append(choice)
    assert len(by_set) > 3000  # the sample holds games, not only empty sets
    sizes = Counter()
    for cards_of_set in sample:
        choices = valid_choices([per_card[n - 1] for n in cards_of_set])
        assert choices == sorted(by_set.get(cards_of_set, [])), cards_of_set
        sizes[len(choices)] += 1
    assert len(sizes) > 10  # card sets with few and with many games


def test_an_empty_or_single_slot_is_handled() -> None:
    """One verifier: a criterion passing one code alone is a game; a slot with no candidates leaves none."""
    one_code, two_codes = 1 << 7, (1 << 7) | (1 << 90)
    assert valid_choices([[two_codes, one_code]]) == [(1,)]
    assert valid_choices([[one_code], []]) == []
    assert valid_choices([]) == []
