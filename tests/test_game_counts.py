"""The validity rules (one code, no redundant verifier) reproduce the published count of valid games."""

from __future__ import annotations

import itertools

from tmphys.game.criteria import criteria_card
from tmphys.game.problems import _distinct, valid_choices


def test_four_verifier_games_match_the_published_count() -> None:
    """Reference: 1,033,950 valid games with 4 verifiers, over 108,839 card sets (reference/README.md)."""
    tables = {n: [c.mask for c in _distinct(criteria_card(n).criteria)] for n in range(1, 49)}
    games = card_sets = 0
    for cards in itertools.combinations(range(1, 49), 4):
        count = len(valid_choices([tables[n] for n in cards]))
        games += count
        card_sets += count > 0
    assert (games, card_sets) == (1_033_950, 108_839)
