"""The rules of a game at a real table: rounds, proposals, at most three questions each, undo, and refusals.

``tmphys play`` reads what a person saw and prints; this class keeps the game honest: each verifier is asked at
most once a round, a round has at least one question before it ends, an answer the dealt card cannot show (a
misread stack) or one that contradicts every hidden assignment is refused, and every step can be taken back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tmphys.game.codes import Code, CodeError
from tmphys.game.problems import Problem
from tmphys.solve.solver import QUESTIONS_PER_ROUND, AskingMachine, Deduction
from tmphys.text import shapes


@dataclass(frozen=True)
class TableState:
    """Where a game stands: the hidden assignments still possible (a bitset), the round and questions so far, the
    round's proposal (None before it is made), the assignments when the round opened, the questions left in it and
    the answers it has had (verifier index → passed)."""

    state: int
    round_no: int
    questions: int
    proposal: Code | None
    opened: int
    left: int
    asked: dict[int, bool] = field(default_factory=dict)


class Refused(Exception):
    """A move the rules or the cards do not allow; the message says why, in words for the player."""


class TableGame:
    """One game at the table. ``machine``: checks each answer against the dealt verification card, when known.

    >>> from tmphys.game.problems import parse_problem
    >>> game = TableGame(parse_problem("3 7 10 14"))
    >>> game.open_round(Code.parse("111")).round_no
    1
    """

    def __init__(self, problem: Problem, deduction: Deduction | None = None,
                 machine: AskingMachine | None = None) -> None:
        self.problem = problem
        self.d = deduction or Deduction(problem)
        self.machine = machine if problem.dealt is not None else None
        u = self.d.universe
        self.now = TableState(u, 0, 0, None, u, QUESTIONS_PER_ROUND)
        self._history: list[tuple[TableState, str]] = []

    @property
    def known(self) -> bool:
        """Whether the code is known: the game is over."""
        return self.d.known(self.now.state)

    @property
    def codes(self) -> list[Code]:
        """The codes still possible."""
        return self.d.codes(self.now.state)

    @property
    def needs_proposal(self) -> bool:
        """Whether a new round must open with a proposal (no round yet, or its questions are used or it ended)."""
        return self.now.proposal is None or self.now.left == 0

    def open_round(self, proposal: Code) -> TableState:
        """Open the next round with this proposal."""
        n = self.now
        self.now = TableState(n.state, n.round_no + 1, n.questions, proposal, n.state, QUESTIONS_PER_ROUND)
        return self.now

    def propose_instead(self, code: Code) -> None:
        """Propose the player's own code for this round instead of the suggested one (before its first question)."""
        if self.now.asked:
            raise Refused("This round's proposal has had questions: 'end' the round first, or 'undo' them.")
        if not self.d.splits(self.now.state, code.index):
            raise Refused(f"Proposing {code} tells nothing: every verifier would answer it the same way, whatever "
                          "the hidden assignment. Choose another code.")
        self._history.append((self.now, f"the proposal {code}"))
        self.now = replace(self.now, proposal=code)

    def parse_proposal(self, words: list[str]) -> Code:
        """The code in 'propose 123' (the words after 'propose'), or ``Refused``."""
        if not words:
            raise Refused("Type 'propose' and a code, e.g. 'propose 123'.")
        try:
            return Code.parse(" ".join(words))
        except CodeError as e:
            raise Refused(f"Cannot propose that: {e}") from None

    def end_round(self, suggested: int | None = None) -> None:
        """End the round before its three questions (it needs one at least)."""
        if not self.now.asked:
            hint = "" if suggested is None else f" (next best: {self.problem.verifiers[suggested]})"
            raise Refused(f"A round needs at least one question: ask a verifier first{hint}.")
        self._history.append((self.now, f"the end of round {self.now.round_no}"))
        self.now = replace(self.now, proposal=None)

    def answer(self, verifier: int, passed: bool) -> str:
        """Record what the stack over ``verifier``'s card showed; returns the answer in words (``A ✓``)."""
        n, letters = self.now, self.problem.verifiers
        assert n.proposal is not None, "a round opens with a proposal"
        if verifier in n.asked:
            raise Refused(f"Verifier {letters[verifier]} was already asked this round "
                          f"({'✓' if n.asked[verifier] else '✗'}): asking again tells nothing new, and is not "
                          "counted. Ask another verifier, or 'end' the round.")
        if self.machine is not None and self.problem.dealt is not None \
                and self.machine.ask(n.proposal, self.problem.dealt[verifier]) != passed:
            card = self.problem.dealt[verifier].label(self.problem.colour)
            raise Refused(f"Not what the card shows: verifier {letters[verifier]}'s verification card {card} under "
                          f"{shapes(n.proposal)} shows {'✗' if passed else '✓'}. Check the stack (the three punch "
                          "cards square on the card) and type the answer again.")
        after = self.d.answer(n.state, verifier, n.proposal, passed)
        if not after:
            raise Refused(f"Contradiction: verifier {letters[verifier]} {'✓' if passed else '✗'} on {n.proposal} "
                          "contradicts every possible hidden assignment with the answers so far. Check the stack "
                          "and try that answer again.")
        mark = f"{letters[verifier]} {'✓' if passed else '✗'}"
        self._history.append((n, mark))
        self.now = replace(n, state=after, left=n.left - 1, questions=n.questions + 1,
                           asked={**n.asked, verifier: passed})
        return mark

    def undo(self) -> str:
        """Take back the last answer, end of round or proposal; returns what was taken back."""
        if not self._history:
            raise Refused("Nothing to take back yet.")
        self.now, what = self._history.pop()
        return what
