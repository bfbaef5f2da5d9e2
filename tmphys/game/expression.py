"""The criterion language: a short expression over one code, read as data and worked out by our own evaluator.

An expression is parsed with ``ast.parse`` only to get its tree; the tree is checked against a closed list of node
kinds and names, then computed here for all 125 codes at once as numpy arrays. Nothing is ever compiled or run as
Python, so a criteria file can say no more than the language lets it (docs/criteria.md lists it all).

>>> int(truth_table("1 < b < 4 and distinct == 3").sum())
24
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import numpy as np

from tmphys.game.codes import ALL_CODES
from tmphys.text import OneLineError, quote

#: The longest expression, in characters, checked before it is parsed.
MAX_EXPRESSION_LENGTH = 500
#: How deep an expression may nest (``b`` is 1, ``b == 1`` is 2), and brackets in its text, checked before parsing.
MAX_EXPRESSION_DEPTH = 32
#: The largest constant, in absolute value.
MAX_CONSTANT = 10**6
#: The largest value any part of an expression may reach for any code, in absolute value: far past any sensible
#: criterion, far short of numpy's 64-bit integers overflowing.
MAX_VALUE = 10**12


class ExpressionError(OneLineError):
    """A criterion expression that is not in the language, or that cannot be worked out for every code."""


def _names() -> dict[str, np.ndarray]:
    """The value of every name for each of the 125 codes, in code index order (int64, read-only)."""
    digits = np.array([c.digits for c in ALL_CODES], dtype=np.int64)
    b, y, p = digits.T
    s1, s2 = y - b, p - y
    most = np.max([(digits == digits[:, [k]]).sum(axis=1) for k in range(3)], axis=0)
    values = {
        "b": b, "y": y, "p": p, "total": b + y + p,
        "evens": (digits % 2 == 0).sum(axis=1), "odds": (digits % 2 == 1).sum(axis=1),
        "most": most, "distinct": np.array([len(set(c.digits)) for c in ALL_CODES]),
        "up_run": 1 + ((s1 == 1) | (s2 == 1)) + ((s1 == 1) & (s2 == 1)),
        "down_run": 1 + ((s1 == -1) | (s2 == -1)) + ((s1 == -1) & (s2 == -1)),
        "run": np.where(((s1 == 1) & (s2 == 1)) | ((s1 == -1) & (s2 == -1)), 3,
                        np.where((np.abs(s1) == 1) | (np.abs(s2) == 1), 2, 1)),
    }
    out = {}
    for name, value in values.items():
        array = np.ascontiguousarray(value, dtype=np.int64)
        array.flags.writeable = False
        out[name] = array
    return out


#: Each name's value for every code; ``count(d)`` is a call, not a name.
NAMES: dict[str, np.ndarray] = _names()
_DIGITS = (NAMES["b"], NAMES["y"], NAMES["p"])
#: What each name means, for messages and the documentation.
NAME_MEANINGS: dict[str, str] = {
    "b": "the ▲ (blue) digit", "y": "the ■ (yellow) digit", "p": "the ● (purple) digit",
    "total": "b + y + p", "evens": "how many digits are even", "odds": "how many digits are odd",
    "most": "how many times the most frequent digit appears (1, 2 or 3)",
    "distinct": "how many different digits (1, 2 or 3)",
    "up_run": "1 + (a step of +1 present) + (both steps +1)",
    "down_run": "1 + (a step of -1 present) + (both steps -1)",
    "run": "the longest chain of neighbours stepping by one in one direction (1, 2 or 3)",
}
#: The calls the language has, with how many arguments each takes (at least, at most).
FUNCTIONS: dict[str, tuple[int, int]] = {"count": (1, 1), "abs": (1, 1), "min": (2, 8), "max": (2, 8)}
_OPERATORS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
_COMPARISONS: dict[type, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
    ast.Gt: np.greater, ast.GtE: np.greater_equal,
}
#: Words for the nodes a user is most likely to try, in messages.
_FORBIDDEN_WORDS: dict[type, str] = {
    ast.Attribute: "attribute access (a.b)", ast.Subscript: "indexing (a[i])", ast.Lambda: "lambda",
    ast.IfExp: "if-else", ast.NamedExpr: "assignment (:=)", ast.List: "a list", ast.Tuple: "a tuple",
    ast.Set: "a set", ast.Dict: "a dict", ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension", ast.GeneratorExp: "a comprehension", ast.JoinedStr: "an f-string",
    ast.Starred: "unpacking (*)", ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
}
_ALLOWED_CHARACTERS = frozenset(map(chr, range(0x20, 0x7F))) | {"\t", "\n", "\r"}


def _refuse_text(expr: str) -> None:
    """Refuse, before parsing, an expression too long, not in printable ASCII, or with brackets nested too deep."""
    if len(expr) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(f"{len(expr):,} characters, more than the {MAX_EXPRESSION_LENGTH} an expression may have")
    for ch in expr:
        if ch not in _ALLOWED_CHARACTERS:
            raise ExpressionError(f"the character {quote(ch)} is not in the language (expressions are ASCII)")
    depth = deepest = 0
    for ch in expr:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    if deepest > MAX_EXPRESSION_DEPTH:
        raise ExpressionError(f"brackets nested {deepest} deep, more than {MAX_EXPRESSION_DEPTH}")


def _depth(tree: ast.AST) -> int:
    """How deep the expression nodes of a tree nest, walked without recursion."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + isinstance(child, ast.expr)) for child in ast.iter_child_nodes(node))
    return deepest


def parse_expression(expr: str) -> ast.expr:
    """The checked tree of a criterion expression; raises ExpressionError naming what is not in the language."""
    if not isinstance(expr, str):
        raise ExpressionError(f"an expression is text, not {type(expr).__name__}")
    _refuse_text(expr)
    if not expr.strip():
        raise ExpressionError("the expression is empty")
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as e:
        where = f" at column {e.offset}" if e.offset else ""
        raise ExpressionError(f"not an expression: {e.msg}{where}") from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise ExpressionError(f"not an expression: {e}") from None
    depth = _depth(tree.body)
    if depth > MAX_EXPRESSION_DEPTH:
        raise ExpressionError(f"nested {depth} deep, more than {MAX_EXPRESSION_DEPTH}")
    called = {id(n.func) for n in ast.walk(tree.body) if isinstance(n, ast.Call)}
    for node in ast.walk(tree.body):
        if id(node) not in called or not isinstance(node, ast.Name):  # a called name is checked with its call
            _check_node(node)
    return tree.body


def _check_node(node: ast.AST) -> None:
    """Refuse one node that is not in the language (its children are checked by the caller's walk)."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Pow):
            raise ExpressionError("the exponent ** is not in the language (write b * b)")
        if type(node.op) not in _OPERATORS:
            raise ExpressionError(f"the operator {_operator_text(node.op)} is not in the language (+ - * // %)")
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.Not)):
            raise ExpressionError(f"the unary {_operator_text(node.op)} is not in the language (- and not)")
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARISONS:
                raise ExpressionError(f"the comparison {_operator_text(op)} is not in the language (== != < <= > >=)")
    elif isinstance(node, ast.Name):
        if node.id not in NAMES:
            hint = f" ({node.id} is called: {node.id}(...))" if node.id in FUNCTIONS else ""
            raise ExpressionError(f"unknown name {quote(node.id)}{hint}")
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            return
        if not isinstance(value, int):
            kind = {str: "a string", float: "a fraction", complex: "a complex number", bytes: "bytes"}.get(
                type(value), type(value).__name__)
            raise ExpressionError(f"{kind} ({quote(ast.unparse(node))}) is not in the language: numbers are whole")
        if abs(value) > MAX_CONSTANT:
            raise ExpressionError(f"the constant {quote(ast.unparse(node))} is past ±{MAX_CONSTANT:,}")
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in FUNCTIONS:
            called = quote(ast.unparse(node.func)) if name is None else quote(name)
            raise ExpressionError(f"calling {called} is not in the language (count, abs, min, max)")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise ExpressionError(f"{name}(...) takes plain arguments")
        low, high = FUNCTIONS[name]
        if not low <= len(node.args) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            raise ExpressionError(f"{name}(...) takes {wanted} argument{'s' if high > 1 else ''}, not {len(node.args)}")
    elif isinstance(node, (ast.BoolOp, ast.operator, ast.cmpop, ast.boolop, ast.unaryop, ast.expr_context)):
        return  # an operator is checked with the node that holds it
    else:
        what = _FORBIDDEN_WORDS.get(type(node), type(node).__name__)
        raise ExpressionError(f"{what} is not in the language")


def _operator_text(op: ast.AST) -> str:
    """An operator node as it is written (``**``, ``~``, ``in``), for messages."""
    words = {ast.Pow: "**", ast.Div: "/", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
             ast.LShift: "<<", ast.RShift: ">>", ast.UAdd: "+", ast.Invert: "~", ast.In: "in", ast.NotIn: "not in",
             ast.Is: "is", ast.IsNot: "is not"}
    return words.get(type(op), type(op).__name__)


# --- working an expression out for every code ----------------------------------------------------------------

def _first_code(where: np.ndarray) -> str:
    """The first code (in index order) where a bool[125] array is true."""
    return str(ALL_CODES[int(np.argmax(where))])


def _number(value: np.ndarray) -> np.ndarray:
    """A value used as a number: a test counts 1 where it holds, 0 where not."""
    return value.astype(np.int64) if value.dtype == bool else value


def _bounded(value: np.ndarray, node: ast.AST) -> np.ndarray:
    """Refuse a value past ``MAX_VALUE`` for some code, naming the code."""
    past = np.abs(value) > MAX_VALUE
    if past.any():
        raise ExpressionError(f"{quote(ast.unparse(node))} is past ±{MAX_VALUE:,} for code {_first_code(past)}")
    return value


def _not_a_test(node: ast.AST, role: str = "") -> ExpressionError:
    """The error for a number where a test is needed, suggesting a comparison."""
    text = ast.unparse(node)
    hint = f"compare it, e.g. {text} == 1" if len(text) <= 30 else "compare it with a number"
    return ExpressionError(f"{quote(text)} is a number, not a test{role} ({hint})")


def _test(value: np.ndarray, node: ast.AST, role: str) -> np.ndarray:
    """A value that must be a test (``and``, ``or``, ``not`` and the whole expression take tests only)."""
    if value.dtype != bool:
        raise _not_a_test(node, f": {role}")
    return value


def _value(node: ast.expr) -> np.ndarray:
    """A checked node's value for all 125 codes: int64 for a number, bool for a test."""
    if isinstance(node, ast.Name):
        return NAMES[node.id]
    if isinstance(node, ast.Constant):
        return np.full(len(ALL_CODES), node.value, dtype=bool if isinstance(node.value, bool) else np.int64)
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand)
        if isinstance(node.op, ast.Not):
            return ~_test(operand, node.operand, "not takes a test")
        return -_number(operand)
    if isinstance(node, ast.BoolOp):
        role = f"{'and' if isinstance(node.op, ast.And) else 'or'} takes tests"
        values = [_test(_value(v), v, role) for v in node.values]
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        return combine.reduce(values)
    if isinstance(node, ast.Compare):
        left, result = _number(_value(node.left)), np.ones(len(ALL_CODES), dtype=bool)
        for op, right_node in zip(node.ops, node.comparators):
            right = _number(_value(right_node))
            result &= _COMPARISONS[type(op)](left, right)
            left = right
        return result
    if isinstance(node, ast.BinOp):
        return _arithmetic(node)
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    args = [_number(_value(a)) for a in node.args]
    if node.func.id == "count":
        return sum((d == args[0]).astype(np.int64) for d in _DIGITS)
    if node.func.id == "abs":
        return np.abs(args[0])
    return (np.minimum if node.func.id == "min" else np.maximum).reduce(args)


def _arithmetic(node: ast.BinOp) -> np.ndarray:
    """``+ - * // %`` for all codes, refusing a division by zero or a value past ``MAX_VALUE`` for any code."""
    left, right = _number(_value(node.left)), _number(_value(node.right))
    if isinstance(node.op, ast.Add):
        return _bounded(left + right, node)
    if isinstance(node.op, ast.Sub):
        return _bounded(left - right, node)
    if isinstance(node.op, ast.Mult):
        # both sides are within MAX_VALUE, so a float64 product is exact wherever it is within MAX_VALUE
        _bounded(left.astype(np.float64) * right, node)
        return left * right
    zero = right == 0
    if zero.any():
        word = "division" if isinstance(node.op, ast.FloorDiv) else "remainder"
        raise ExpressionError(f"{word} by zero for code {_first_code(zero)} (in {quote(ast.unparse(node))})")
    return np.floor_divide(left, right) if isinstance(node.op, ast.FloorDiv) else np.remainder(left, right)


def evaluate(tree: ast.expr) -> np.ndarray:
    """A checked expression's truth table over all 125 codes (bool[125], index order); raises ExpressionError when
    it is a number, not a test, or cannot be worked out for some code."""
    value = _value(tree)
    if value.dtype != bool:
        raise _not_a_test(tree)
    return value


def expression_table(expr: str) -> np.ndarray:
    """The truth table of an expression, raising ExpressionError with the bare reason (no expression quoted)."""
    return evaluate(parse_expression(expr))


def truth_table(expr: str) -> np.ndarray:
    """Evaluate a criterion expression for all 125 codes (bool[125]); raises ExpressionError (a ValueError) on an
    expression outside the language or one that divides by zero for some code."""
    try:
        return expression_table(expr)
    except ExpressionError as e:
        raise ExpressionError(f"criterion {quote(expr)}: {e}") from None


__all__ = [
    "FUNCTIONS", "MAX_CONSTANT", "MAX_EXPRESSION_DEPTH", "MAX_EXPRESSION_LENGTH", "MAX_VALUE", "NAMES",
    "NAME_MEANINGS", "ExpressionError", "evaluate", "expression_table", "parse_expression", "truth_table",
]
