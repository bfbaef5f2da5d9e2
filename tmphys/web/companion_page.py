"""The companion page of ``tmphys solve PROBLEM --html FILE``: one self-contained page for a game at the table.

It embeds, as JSON, the problem's criteria cards in words, every hidden assignment class (its code, weight and
the criterion each verifier checks), each of those criteria's truth table, and the solved strategy
(``Solver.tree()``). The page's script only filters the assignments by the answers noted so far and walks the
strategy tree; no solver runs in the browser.

>>> html = companion_html(problem, solver.tree(), "expected")   # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from tmphys.game.codes import SHAPES
from tmphys.game.problems import Problem
from tmphys.web.machine_page import FRAGMENT_LIMITS, fill, template

#: Where the template takes the page's data (a JSON object).
DATA_MARK = "__COMPANION_DATA__"
TEMPLATE = "templates/companion.html"


def _bits(table: Any) -> str:
    return "".join("1" if b else "0" for b in table)


def companion_data(problem: Problem, tree: dict, objective: str) -> dict:
    """Everything the page needs, JSON-ready: cards in words, assignment classes, truth tables, the strategy."""
    hidden = problem.hidden
    numbers = sorted({n for cards in problem.cards for n in cards})
    cards = {}
    for n in numbers:
        card = problem.cards_library.criteria_card(n)
        cards[str(n)] = {"title": card.title, "criteria": [c.key for c in card.criteria]}
    used = {c.key: c for n in numbers for c in problem.criteria_of(n)}
    used |= {c.key: c for h in hidden for c in h.criteria}
    criteria = {key: {"text": c.text, "table": _bits(c.table)} for key, c in sorted(used.items())}
    return {
        "describe": problem.describe(), "mode": problem.mode, "objective": objective,
        "verifiers": list(problem.verifiers),
        "cards_of": [list(cs) for cs in problem.cards],
        "cards": cards, "criteria": criteria, "shapes": dict(SHAPES),
        "classes": [{"code": str(h.code), "weight": h.weight, "criteria": [c.key for c in h.criteria]}
                    for h in hidden],
        "tree": tree,
        "fragment": FRAGMENT_LIMITS,
    }


def companion_html(problem: Problem, tree: dict, objective: str) -> bytes:
    """The whole page for one problem and its solved strategy, as UTF-8 bytes (same inputs, same bytes)."""
    return fill(template(TEMPLATE), DATA_MARK, companion_data(problem, tree, objective)).encode()
