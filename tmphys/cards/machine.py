"""The machine: answers "does this proposal pass this verifier?" by reading a simulated stack.

It stacks the three punch cards of the proposal over the verifier's verification card, on a
layout, and reads the one visible cell's mark. It never asks the criterion itself.

>>> Machine("classic").ask(Code.parse("241"), verification_card("447"))   # doctest: +SKIP
True
"""

from __future__ import annotations

from pathlib import Path

from tmphys.cards.deck import Deck
from tmphys.cards.layout import Layout, load_layout
from tmphys.cards.stack import read_stack
from tmphys.game.codes import Code
from tmphys.game.criteria import Library, VerificationCard


class UnreadableStackError(RuntimeError):
    """The stack did not show exactly one cell: the layout is broken for this proposal."""


class Machine:
    """A table with the deck laid out on one layout; ``ask`` reads one stack."""

    def __init__(self, layout: Layout | str | Path = "classic", criteria: Library | None = None) -> None:
        self.layout = layout if isinstance(layout, Layout) else load_layout(layout)
        self.deck = Deck(self.layout, criteria)
        self.questions = 0

    def ask(self, code: Code, card: VerificationCard) -> bool:
        """Stack ``code``'s punch cards over ``card``; True when the visible cell shows a pass mark."""
        view = read_stack(self.deck, code, card)
        if view.mark is None:
            raise UnreadableStackError(
                f"stack {code} shows {len(view.open_cells)} cells on layout {self.layout.name}")
        self.questions += 1
        return view.mark == "pass"
