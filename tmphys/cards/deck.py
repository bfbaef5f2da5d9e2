"""The deck on one layout: 15 distinct punch cards with their holes, 95 verification card faces.

>>> deck = Deck(load_layout("classic"))                    # doctest: +SKIP
>>> int(deck.holes(PunchCard("blue", 2)).sum())            # doctest: +SKIP
25
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tmphys.cards.layout import Layout
from tmphys.game.codes import COLOURS, DIGITS, SHAPES, Code
from tmphys.game.criteria import CriteriaCard, Library, VerificationCard, library


@dataclass(frozen=True, order=True)
class PunchCard:
    """A punch card: one colour (▲ blue, ■ yellow, ● purple) and one value 1..5."""

    colour: str
    value: int

    def __post_init__(self) -> None:
        if self.colour not in COLOURS or self.value not in DIGITS:
            raise ValueError(f"no punch card {self.colour} {self.value}")

    @property
    def label(self) -> str:
        """Shape and value, e.g. ``▲2``."""
        return f"{SHAPES[self.colour]}{self.value}"

    @property
    def number(self) -> int:
        """Position 0..14 in the deck order ▲1..▲5, ■1..■5, ●1..●5."""
        return COLOURS.index(self.colour) * 5 + self.value - 1


#: The 15 distinct punch cards, ▲1..▲5, ■1..■5, ●1..●5.
PUNCH_CARDS: tuple[PunchCard, ...] = tuple(PunchCard(c, v) for c in COLOURS for v in DIGITS)


def stack_for(code: Code) -> tuple[PunchCard, PunchCard, PunchCard]:
    """The three punch cards a player stacks to propose ``code``."""
    return (PunchCard("blue", code.blue), PunchCard("yellow", code.yellow), PunchCard("purple", code.purple))


class Deck:
    """Every card of the game on one layout: punch card holes and verification card marks; with users' criteria
    files (``criteria``, a library with their cards), their verification cards after the published 95."""

    def __init__(self, layout: Layout, criteria: Library | None = None) -> None:
        self.layout = layout
        self.library = criteria or library()

    @cached_property
    def hole_matrix(self) -> np.ndarray:
        """Bool (15, cells): which cells each punch card (in ``PUNCH_CARDS`` order) has a hole at.

        A punch card (colour, value) is punched at every cell whose code has ``value`` in ``colour``.
        """
        out = np.zeros((len(PUNCH_CARDS), len(self.layout.cells)), dtype=bool)
        for i, code in enumerate(self.layout.cell_codes):
            if code is not None:
                for k, colour in enumerate(COLOURS):
                    out[k * 5 + code.digit(colour) - 1, i] = True
        out.setflags(write=False)
        return out

    def holes(self, card: PunchCard) -> np.ndarray:
        """Bool per cell: where this punch card is punched."""
        return self.hole_matrix[card.number]

    @cached_property
    def faces(self) -> np.ndarray:
        """Bool (cards, cells): the pass (✓) marks printed on each verification card, in deck order.

        Result cells show the criterion's truth for their code; decoy cells get a seeded coin flip,
        so that every cell is filled and counting marks tells nothing about the hidden criterion.
        """
        lib = self.library
        codes = self.layout.code_cells
        decoys = np.array([code is None for code in self.layout.cell_codes])
        out = np.zeros((len(lib.verification_cards), len(self.layout.cells)), dtype=bool)
        for v in lib.verification_cards:
            out[v.index - 1, codes] = v.criterion.table
            rng = np.random.default_rng([self.layout.seed, v.index])
            out[v.index - 1, decoys] = rng.random(int(decoys.sum())) < 0.5
        out.setflags(write=False)
        return out

    def face(self, card: VerificationCard) -> np.ndarray:
        """Bool per cell: the pass marks printed on one verification card's front."""
        return self.faces[card.index - 1]

    @property
    def verification_cards(self) -> tuple[VerificationCard, ...]:
        """The verification cards in deck order: the published 95, then users'."""
        return self.library.verification_cards

    @property
    def criteria_cards(self) -> tuple[CriteriaCard, ...]:
        """The criteria cards: the published 48, then users' by number."""
        return self.library.criteria_cards
