"""Criteria files and the criterion language: users' cards load with the published ones, every bad input is one
line naming the file and key, and our evaluator agrees with an independent one on random expressions."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tmphys.game.codes import ALL_CODES
from tmphys.game.criteria import (
    CriteriaFileError,
    ExpressionError,
    card_title,
    criteria_warnings,
    criterion_text,
    library,
    library_from_texts,
    load_library,
    truth_table,
    untranslated,
)
from tmphys.game.criteria_file import MAX_FILE_BYTES

DATA = Path(__file__).parent / "data"
EXAMPLE = Path(__file__).parents[1] / "examples" / "criteria" / "new-families.toml"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GOOD = """\
[criteria]
by_mul_3 = { expr = "(b + y) % 3 == 0", text = { en = "▲ + ■ is a multiple of 3", de = "▲ + ■ ist durch 3 teilbar" } }
by_odd = { expr = "(b + y) % 2 == 1", text = "▲ + ■ is odd" }

[[criteria_cards]]
number = 49
title = "▲ + ■"
criteria = ["by_mul_3", "by_odd", "b_eq_1"]

[[verification_cards]]
criterion = "by_mul_3"

[[verification_cards]]
ids = [1001, 1002, 1003, 1004]
criterion = "by_odd"
"""


def one_line(text: str) -> bool:
    return "\n" not in text and text.isprintable()


def refused(text: str, name: str = "mine.toml") -> str:
    with pytest.raises(CriteriaFileError) as error:
        library_from_texts([(name, text)])
    message = str(error.value)
    assert one_line(message) and message.startswith(name), message
    return message


# --- the language ------------------------------------------------------------------------------------------------

def test_the_published_tables_are_those_of_the_eval_based_evaluator() -> None:
    want = dict(line.split() for line in (DATA / "criteria-tables.txt").read_text("utf-8").splitlines()
                if not line.startswith("#"))
    got = {k: "".join("1" if x else "0" for x in c.table) for k, c in library().criteria.items()}
    assert got == want
    assert {k.key for card in library().criteria_cards for k in card.criteria} <= set(got)


@pytest.mark.parametrize("expr,what", [
    ("__import__('os')", "calling '__import__'"), ("open", "unknown name 'open'"), ("b.real == 1", "attribute"),
    ("[b][0] == 1", "indexing"), ("b ** 2 == 4", "exponent"), ("1000001 > b", "past ±1,000,000"),
    ("(lambda: 1)() == 1", "lambda"), ("'a' == 'a'", "a string"), ("1.5 < b", "a fraction"),
    ("total", "is a number, not a test"), ("not b", "not takes a test"), ("count(1, 2) == 1", "takes 1 argument"),
    ("min(b) == 1", "takes 2 to 8"), ("b // (y - 1) == 0", "division by zero for code 111"),
    ("b % (p - 1) == 0", "remainder by zero for code 111"), ("b in (1, 2)", "comparison in"),
    ("(" * 33 + "b" + ")" * 33 + " == 1", "brackets nested 33 deep"), ("b" + " + b" * 40 + " > 1", "nested 42 deep"),
    ("b == 1" + " " * 500, "more than the 500"), ("ｂ == 1", "not in the language"), ("b if y else p", "if-else"),
    ("[x for x in b]", "comprehension"), ("1000000 * 1000000 * 10 > b", "past ±1,000,000,000,000 for code 111"),
])
def test_what_is_not_in_the_language_is_refused_in_one_line(expr: str, what: str) -> None:
    with pytest.raises(ExpressionError) as error:
        truth_table(expr)
    assert what in str(error.value) and one_line(str(error.value))


def test_the_new_names() -> None:
    for code in ALL_CODES:
        d = code.digits
        steps = (d[1] - d[0], d[2] - d[1])
        assert truth_table(f"distinct == {len(set(d))}")[code.index]
        assert truth_table(f"down_run == {1 + (-1 in steps) + (steps == (-1, -1))}")[code.index]
    assert int(truth_table("down_run == 3").sum()) == 3  # 321, 432, 543


# an independent oracle: each code in plain Python ints, over a tree of tuples the strategy builds with the text
NUMBER_NAMES = ["b", "y", "p", "total", "evens", "odds", "most", "up_run", "run", "distinct", "down_run"]


def names_of(d: tuple[int, int, int]) -> dict[str, int]:
    steps = [d[1] - d[0], d[2] - d[1]]
    return {"b": d[0], "y": d[1], "p": d[2], "total": sum(d), "evens": len([x for x in d if x % 2 == 0]),
            "odds": len([x for x in d if x % 2]), "most": max(map(d.count, d)), "distinct": len(set(d)),
            "up_run": 1 + int(1 in steps) + int(steps == [1, 1]),
            "down_run": 1 + int(-1 in steps) + int(steps == [-1, -1]),
            "run": 3 if steps in ([1, 1], [-1, -1]) else 2 if 1 in map(abs, steps) else 1}


class Refused(Exception):
    pass


ENVS = [names_of(code.digits) for code in ALL_CODES]
COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
           "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
              "//": lambda a, b: a // b, "%": lambda a, b: a % b}


def oracle(tree: tuple) -> list:
    """The tree's value for each code in index order, in plain Python (bool is a test, int a number); every part
    is worked out for every code, so no short cut hides a division by zero."""
    kind = tree[0]
    if kind == "const":
        return [tree[1]] * len(ENVS)
    if kind == "name":
        return [env[tree[1]] for env in ENVS]
    args = [oracle(t) for t in tree[2:]]
    ints = [[int(v) for v in a] for a in args]
    op = tree[1]
    if kind == "bin":
        out = []
        for a, b in zip(*ints):
            if op in ("//", "%") and b == 0:
                raise Refused
            value = ARITHMETIC[op](a, b)
            if abs(value) > 10**12:
                raise Refused
            out.append(value)
        return out
    if kind == "neg":
        return [-a for a in ints[0]]
    if kind == "call":
        if op == "count":
            return [[env["b"], env["y"], env["p"]].count(d) for env, d in zip(ENVS, ints[0])]
        return [{"abs": abs, "min": min, "max": max}[op](*row) for row in zip(*ints)]
    if kind == "cmp":
        return [all(COMPARE[o](a, b) for o, a, b in zip(op, row, row[1:])) for row in zip(*ints)]
    if any(not isinstance(v, bool) for a in args for v in a):
        raise Refused  # and/or/not take tests
    if kind == "not":
        return [not v for v in args[0]]
    return [(all if op == "and" else any)(row) for row in zip(*args)]


def _text(tree: tuple) -> str:
    kind = tree[0]
    if kind == "const":
        return str(tree[1])
    if kind == "name":
        return tree[1]
    parts = [_text(t) for t in tree[2:]]
    if kind == "bin":
        return f"({parts[0]} {tree[1]} {parts[1]})"
    if kind == "neg":
        return f"(-{parts[0]})"
    if kind == "call":
        return f"{tree[1]}({', '.join(parts)})"
    if kind == "cmp":
        return "(" + parts[0] + "".join(f" {o} {p}" for o, p in zip(tree[1], parts[1:])) + ")"
    if kind == "not":
        return f"(not {parts[0]})"
    return "(" + f" {tree[1]} ".join(parts) + ")"


LEAVES = st.one_of(st.tuples(st.just("name"), st.sampled_from(NUMBER_NAMES)),
                   st.tuples(st.just("const"), st.integers(-12, 12) | st.sampled_from([0, 1, 10**6, -(10**6)])),
                   st.tuples(st.just("const"), st.booleans()))


def _grow(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(lambda op, a, b: ("bin", op, a, b), st.sampled_from(["+", "-", "*", "//", "%"]), inner, inner),
        st.builds(lambda a: ("neg", "-", a), inner),
        st.builds(lambda a: ("call", "count", a), inner), st.builds(lambda a: ("call", "abs", a), inner),
        st.builds(lambda op, xs: ("call", op, *xs), st.sampled_from(["min", "max"]), st.lists(inner, min_size=2,
                                                                                             max_size=3)),
        st.integers(1, 2).flatmap(lambda n: st.builds(
            lambda ops, xs: ("cmp", tuple(ops), *xs), st.lists(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
                                                               min_size=n, max_size=n),
            st.lists(inner, min_size=n + 1, max_size=n + 1))),
        st.builds(lambda a: ("not", "not", a), inner),
        st.builds(lambda op, xs: ("bool", op, *xs), st.sampled_from(["and", "or"]), st.lists(inner, min_size=2,
                                                                                           max_size=3)),
    )


EXPRESSIONS = st.recursive(LEAVES, _grow, max_leaves=10)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_the_evaluator_agrees_with_an_independent_one_on_every_code(tree: tuple) -> None:
    text = _text(tree)
    try:
        want: list | None = oracle(tree)
    except Refused:
        want = None
    if want is not None and not all(isinstance(v, bool) for v in want):
        want = None  # a number, not a test
    try:
        got = truth_table(text)
    except ExpressionError as e:
        assert want is None or "nested" in str(e) or "characters" in str(e), (text, str(e))
        return
    assert want is not None, text
    assert got.tolist() == want, text


# --- files -------------------------------------------------------------------------------------------------------

def test_a_file_loads_after_the_published_cards(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(GOOD, "utf-8")
    lib = load_library([path])
    assert not lib.published and lib.files == (str(path),) and library().published
    card = lib.criteria_card(49)
    assert card.source == str(path) and [c.key for c in card.criteria] == ["by_mul_3", "by_odd", "b_eq_1"]
    assert card.criteria[2] is lib.criteria["b_eq_1"] and lib.criteria["b_eq_1"].source is None
    assert [c.key for c in lib.user_criteria] == ["by_mul_3", "by_odd"] and lib.user_cards == (card,)
    assigned, written = lib.user_verification_cards
    assert assigned.assigned and not written.assigned and assigned.index == 96 and written.index == 97
    assert all(1000 <= n <= 9999 for n in assigned.ids.values())
    assert lib.verification_card("G1001") is written and lib.parse_id(assigned.ids["blue"]) == (assigned, "blue")
    assert load_library([path]).user_verification_cards[0].ids == assigned.ids  # the same every time
    edited = GOOD.replace('title = "▲ + ■"', 'title = "▲ plus ■"')
    assert library_from_texts([("x.toml", edited)]).user_verification_cards[0].ids == assigned.ids
    assert len(lib.criteria_cards) == 49 and len(lib.verification_cards) == 97
    with pytest.raises(Exception, match="cards are numbered 1..49"):
        lib.criteria_card(50)


def test_texts_fall_back_to_the_files_first_language() -> None:
    lib = library_from_texts([("mine.toml", GOOD)])
    crit, odd = lib.criteria["by_mul_3"], lib.criteria["by_odd"]
    assert criterion_text(crit, "de") == "▲ + ■ ist durch 3 teilbar" and criterion_text(crit, "fr") == crit.text
    assert criterion_text(odd, "de") == "▲ + ■ is odd" and card_title(lib.criteria_card(49), "de") == "▲ + ■"
    assert untranslated(lib, "de") == ["criterion by_odd (en)", "criteria card 49 (en)"]


def test_the_example_loads_cleanly_and_fast() -> None:
    lib = load_library([EXAMPLE])
    assert not criteria_warnings(lib) and len(lib.user_cards) >= 6
    assigned = [v.assigned for v in lib.user_verification_cards]
    assert any(assigned) and not all(assigned)


def forty_eight_cards() -> str:
    lines = ["[criteria]"]
    for n in range(48):
        for k in range(3):
            lines.append(f'c{n}_{k} = {{ expr = "(b * {n + 2} + y * {k + 1} + p) % {k + 3} == {n % (k + 3)}", '
                         f'text = "criterion {n} {k}" }}')
    for n in range(48):
        keys = ", ".join(f'"c{n}_{k}"' for k in range(3))
        lines += ["[[criteria_cards]]", f"number = {49 + n}", f'title = "card {n}"', f"criteria = [{keys}]"]
        lines += [entry for k in range(3) for entry in ("[[verification_cards]]", f'criterion = "c{n}_{k}"')]
    return "\n".join(lines) + "\n"


def test_forty_eight_new_cards_load_well_under_half_a_second() -> None:
    text = forty_eight_cards()
    library_from_texts([("warm.toml", text)])
    start = time.process_time()  # the CPU time: the machine's other work does not count
    lib = library_from_texts([("big.toml", text)])
    assert time.process_time() - start < 0.5
    assert len(lib.user_cards) == 48 and len(lib.user_verification_cards) == 144


def test_warnings_name_equal_and_unused_criteria() -> None:
    text = GOOD.replace("[[criteria_cards]]", 'same = { expr = "1 == b", text = "x" }\n'
                        'twin = { expr = "b + y - 3 * ((b + y) // 3) == 0", text = "y" }\n'
                        'shown = { expr = "p == 2", text = "z" }\n\n[[criteria_cards]]', 1)
    text = text.replace('"b_eq_1"]', '"b_eq_1", "shown"]')
    warnings = criteria_warnings(library_from_texts([("w.toml", text)]))
    assert any("criteria.same: passes the same codes as the published criterion 'b_eq_1'" in w for w in warnings)
    assert any("criteria.same: no card uses it" in w for w in warnings)
    assert any("criteria.twin: passes the same codes as the criterion 'by_mul_3'" in w for w in warnings)
    assert any("criteria.shown: on no verification card" in w for w in warnings)
    assert all(w.startswith("w.toml:") and one_line(w) for w in warnings)


BAD = [
    (GOOD + "colour = 1\n", ":16: verification_cards[2].colour: unknown key"),
    ("foo = 1\n" + GOOD, ":1: foo: unknown key"),
    ("[criteria\n", ":1: not valid TOML"),
    ("x = " + "[" * 9 + "]" * 9, "nested 9 deep"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b ** 2 == 1"'), ":3: criteria.by_odd.expr: the exponent"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"__import__(\'os\')"'), "criteria.by_odd.expr: calling '__import__'"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"open"'), "criteria.by_odd.expr: unknown name 'open'"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b.real == 1"'), "criteria.by_odd.expr: attribute"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b < 2000000"'), "criteria.by_odd.expr: the constant"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"' + "(" * 40 + "b" + ")" * 40 + ' == 1"'), "criteria.by_odd.expr: brackets"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"' + "b == 1 " + " " * 500 + '"'), "criteria.by_odd.expr: 507 characters"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b > 0"'), "criteria.by_odd.expr: true for every code"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b > 5"'), "criteria.by_odd.expr: true for no code"),
    (GOOD.replace('"(b + y) % 2 == 1"', '"b // (y - 1) == 1"'), "division by zero for code 111"),
    (GOOD.replace('"(b + y) % 2 == 1"', "1"), "criteria.by_odd.expr: should be a string, not a whole number"),
    (GOOD.replace("number = 49", "number = 12"), ":6: criteria_cards[1].number: 12 is out of range (49..9999)"),
    (GOOD.replace("number = 49", 'number = "49"'), "criteria_cards[1].number: should be a whole number, not a string"),
    (GOOD.replace("1001", "447"), ":14: verification_cards[2].ids: the ID 447 is taken (a published card)"),
    (GOOD.replace("1001", "10001"), "verification_cards[2].ids: 10001 is out of range (1..9999)"),
    (GOOD.replace("1001", "0"), "verification_cards[2].ids: 0 is out of range"),
    (GOOD.replace("1001, ", ""), "verification_cards[2].ids: should be four IDs"),
    (GOOD.replace("1002", "1001"), "the four IDs should differ"),
    (GOOD.replace('"by_mul_3", "by_odd", "b_eq_1"', ""), "criteria_cards[1].criteria: a criteria card needs at least"),
    (GOOD.replace('"b_eq_1"]', '"nope"]'), "criteria_cards[1].criteria: unknown criterion 'nope'"),
    (GOOD.replace('criterion = "by_odd"', 'criterion = "nope"'), "verification_cards[2].criterion: unknown criterion"),
    (GOOD.replace('criterion = "by_odd"', 'criterion = "b_eq_1"'), "verification_cards[2].criterion: unknown"),
    (GOOD.replace("by_odd =", "b_eq_1 =").replace('"by_odd"]', '"b_eq_1"]').replace('"by_odd"\n', '"b_eq_1"\n'),
     ":3: criteria.b_eq_1: the key 'b_eq_1'"),
    (GOOD.replace('text = "▲ + ■ is odd"', "text = 3"), "criteria.by_odd.text: should be a string or a table"),
    (GOOD.replace('de = "', 'fr = "'), None),
    (GOOD.replace('text = "▲ + ■ is odd"', 'text = { de = "x" }'), "criteria.by_odd.text: no 'en' text"),
    (GOOD.replace('[[criteria_cards]]\nnumber = 49\ntitle = "▲ + ■"\n', "[[criteria_cards]]\nnumber = 49\n"),
     "criteria_cards[1]: no title"),
    ("[[verification_cards]]\n" * 1001, "1,001 cards in the loaded files, more than 1,000"),
    ("[criteria]\n" + "".join(f'k{i} = {{ expr = "b == 1", text = "t" }}\n' for i in range(1001)),
     "1,001 criteria"),
]


@pytest.mark.parametrize("text,what", BAD)
def test_every_bad_file_is_one_line_naming_the_file_and_key(text: str, what: str | None) -> None:
    if what is None:  # a translation table's languages are any; only the file's first one is required
        library_from_texts([("mine.toml", text)])
        return
    message = refused(text)
    assert what in message, message


def test_clashes_between_files_name_the_other_file() -> None:
    other = GOOD.replace("by_mul_3", "m3").replace("by_odd", "od")
    other = other.replace("1001, 1002, 1003, 1004", "2001, 2002, 2003, 2004")
    assert "card 49 is already a card of a.toml" in refused_pair(("a.toml", GOOD), ("b.toml", other))
    renumbered = other.replace("number = 49", "number = 50")
    library_from_texts([("a.toml", GOOD), ("b.toml", renumbered)])
    taken = renumbered.replace("2001, 2002, 2003, 2004", "1001, 2002, 2003, 2004")
    assert "b.toml:14: verification_cards[2].ids: the ID 1001 is taken (a.toml)" in refused_pair(
        ("a.toml", GOOD), ("b.toml", taken))
    assert "b.toml:2: criteria.by_mul_3: the key 'by_mul_3' is already a criterion of a.toml" in refused_pair(
        ("a.toml", GOOD),
        ("b.toml", GOOD.replace("49", "50").replace("1001, 1002, 1003, 1004", "3001, 3002, 3003, 3004")))


def test_a_card_number_and_an_id_never_coincide() -> None:
    """A plain number in a problem is a criteria card's or a verification card's ID: never both."""
    assert "verification_cards[2].ids: 4 is the number of a published criteria card" in refused(
        GOOD.replace("1001, 1002, 1003, 1004", "4, 1002, 1003, 1004"))
    assert "criteria_cards[1].number: 447 is an ID of a published verification card" in refused(
        GOOD.replace("number = 49", "number = 447"))


def refused_pair(*files: tuple[str, str]) -> str:
    with pytest.raises(CriteriaFileError) as error:
        library_from_texts(list(files))
    assert one_line(str(error.value))
    return str(error.value)


def test_unreadable_and_huge_files_are_refused_quickly(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[criteria]\nx = { expr = "b == 1", text = "caf\xe9" }\n')
    with pytest.raises(CriteriaFileError, match=r"latin.toml:2: not UTF-8 text: byte 0xe9"):
        load_library([latin])
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (10 * MAX_FILE_BYTES))
    start = time.perf_counter()
    with pytest.raises(CriteriaFileError, match="10,000,000 bytes, more than the 1,000,000"):
        load_library([huge])
    with pytest.raises(CriteriaFileError, match="no such file|No such file"):
        load_library([tmp_path / "absent.toml"])
    with pytest.raises(CriteriaFileError, match="a directory"):
        load_library([tmp_path])
    for text in ("x = " + "[" * 500_000, "[[verification_cards]]\n" * 10_000,
                 "[[criteria_cards]]\nnumber = 49\n" * 30_000):
        with pytest.raises(CriteriaFileError):
            library_from_texts([("big.toml", text)])
    assert time.perf_counter() - start < 2 * 4


@FAST
@given(st.binary(max_size=300) | st.text(alphabet='[]{}=\'"#.,\n abxyz0149_-', max_size=300).map(str.encode)
       | st.sampled_from(GOOD.splitlines()).flatmap(lambda line: st.just((GOOD + line + "\n").encode())))
def test_the_parser_raises_nothing_but_its_own_error(data: bytes) -> None:
    try:
        library_from_texts([("fuzz.toml", data)])
    except CriteriaFileError as e:
        assert one_line(str(e)) and str(e).startswith("fuzz.toml")
