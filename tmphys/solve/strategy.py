"""A strategy as a typed tree: each round's proposal, whom to ask, and what each answer leads to.

>>> leaf = Solved("241", 3)
>>> strategy_json(Question("A", leaf, leaf))["ask"]
'A'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Solved:
    """The code is known: ``code`` (e.g. "241"), for ``assignments`` hidden assignments."""

    code: str
    assignments: int


@dataclass(frozen=True)
class Question:
    """Ask verifier ``verifier`` (a letter) about the round's proposal; go on by its answer."""

    verifier: str
    on_pass: Node
    on_fail: Node


@dataclass(frozen=True)
class Round:
    """Round ``number`` opens with ``proposal`` while ``codes`` codes (``assignments`` assignments) are possible."""

    number: int
    proposal: str
    codes: int
    assignments: int
    then: Node


#: A node of a strategy: a round start, a question inside a round, or the end.
Node = Round | Question | Solved


def strategy_json(node: Node) -> dict[str, Any]:
    """The strategy as JSON-ready dicts: ``{"round", "proposal", "codes", "assignments", "then"}``,
    ``{"ask", "pass", "fail"}`` and ``{"code", "assignments"}``."""
    if isinstance(node, Solved):
        return {"code": node.code, "assignments": node.assignments}
    if isinstance(node, Question):
        return {"ask": node.verifier, "pass": strategy_json(node.on_pass), "fail": strategy_json(node.on_fail)}
    return {"round": node.number, "proposal": node.proposal, "codes": node.codes, "assignments": node.assignments,
            "then": strategy_json(node.then)}


def strategy_from_json(data: dict[str, Any]) -> Node:
    """The strategy ``strategy_json`` wrote."""
    if "code" in data:
        return Solved(data["code"], data["assignments"])
    if "ask" in data:
        return Question(data["ask"], strategy_from_json(data["pass"]), strategy_from_json(data["fail"]))
    return Round(data["round"], data["proposal"], data["codes"], data["assignments"],
                 strategy_from_json(data["then"]))


def strategy_text(node: Node, symbols: tuple[str, str, str, str, str] = ("▲", "■", "●", "✓", "✗")) -> str:
    """The strategy as indented text: each round's proposal, whom to ask, what each answer leads to.
    ``symbols``: the three shapes and the two marks (ASCII ones for a terminal that lacks them)."""
    blue, yellow, purple, yes, no = symbols
    lines: list[str] = []

    def words(code: str) -> str:
        return f"{blue}{code[0]} {yellow}{code[1]} {purple}{code[2]} ({code})"

    def walk(n: Node, indent: str, head: str) -> None:
        if isinstance(n, Solved):
            lines.append(f"{indent}{head}the code is {words(n.code)}")
        elif isinstance(n, Round):
            lines.append(f"{indent}{head}round {n.number}: propose {words(n.proposal)} — {n.codes} codes possible")
            walk(n.then, indent + "  ", "")
        else:
            lines.append(f"{indent}{head}ask {n.verifier}")
            walk(n.on_pass, indent + "  ", f"{yes} ")
            walk(n.on_fail, indent + "  ", f"{no} ")

    walk(node, "", "")
    return "\n".join(lines)
