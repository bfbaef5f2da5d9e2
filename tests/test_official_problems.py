"""Every one of the 8,500 official problems decodes to exactly its published answer, with no redundant verifier.

Classic: each verification card's criterion is on its verifier's criteria card. Extreme: on one of the two.
Nightmare: some one-to-one pairing of the criteria cards to the verifiers fits. All with 125-bit int ANDs.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tmphys.game.codes import Code
from tmphys.game.criteria import criteria_card, parse_id

OFFICIAL = Path(__file__).resolve().parents[2] / "shared" / "reference" / "official-problems"
SETS = {
    "ClassicEasy4V": 500, "ClassicStandard5V": 1000, "ClassicHard6V": 1000,
    "ExtremeHard4V": 1000, "ExtremeHard5V": 1000, "ExtremeHard6V": 1000,
    "NightmareHard4V": 1000, "NightmareHard5V": 1000, "NightmareHard6V": 1000,
}
FULL = (1 << 125) - 1


def _card_masks(number: str) -> set[int]:
    return {c.mask for c in criteria_card(number).criteria}


def _answers(name: str) -> dict[tuple[str, str], str]:
    """Published answers keyed by (problem number, ID): a few IDs repeat within a set."""
    out = {}
    for line in (OFFICIAL / f"{name}_Answers.txt").read_text().split("\n"):
        if line.strip():
            ident, number, _, code = line.strip().split(",")
            out[(number.strip("()"), ident)] = code
    return out


def _decode(name: str, line: str) -> tuple[tuple[str, str], int, list[int]]:
    """((number, ID), the passing codes' bitset, the verifiers' masks) after checking cards against criteria."""
    fields = line.strip().split(",")
    ident, rest = (fields[0], fields[1]), fields[3:]
    ids = [t for t in rest if t[0] in "GOBP"]
    cards = [t for t in rest if t[0] not in "GOBP"]
    masks = [parse_id(t)[0].criterion.mask for t in ids]
    n = len(ids)
    if name.startswith("Classic"):
        assert len(cards) == n
        assert all(m in _card_masks(c) for m, c in zip(masks, cards)), ident
    elif name.startswith("Extreme"):
        assert len(cards) == 2 * n
        pairs = [cards[2 * i:2 * i + 2] for i in range(n)]
        assert all(m in _card_masks(a) | _card_masks(b) for m, (a, b) in zip(masks, pairs)), ident
    else:
        assert len(cards) == n and all(c.startswith("N") for c in cards)
        pools = [_card_masks(c) for c in cards]
        assert any(all(masks[v] in pools[perm[v]] for v in range(n))
                   for perm in itertools.permutations(range(n))), ident
    acc = FULL
    for m in masks:
        acc &= m
    return ident, acc, masks


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_official_problem_decodes_to_its_answer(name: str) -> None:
    lines = [x for x in (OFFICIAL / f"{name}_Problems.txt").read_text().split("\n") if x.strip()]
    answers = _answers(name)
    assert len(lines) == SETS[name] == len(answers)
    for line in lines:
        ident, acc, masks = _decode(name, line)
        assert acc.bit_count() == 1, f"{ident}: {acc.bit_count()} codes pass"
        assert str(Code.from_index(acc.bit_length() - 1)) == answers[ident], ident
        for v in range(len(masks)):
            rest = FULL
            for j, m in enumerate(masks):
                if j != v:
                    rest &= m
            assert rest.bit_count() > 1, f"{ident}: verifier {'ABCDEF'[v]} is redundant"
