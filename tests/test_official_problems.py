"""The published problem book, shipped as package data: every one of its 8,500 problems decodes to its published
answer with no redundant verifier, its IDs name one game each and are found forgiving case and spaces, and
``tmphys solve '#A46 NXF'`` (and ``play``, ``prove``) reads a problem from it offline.

The whole book is checked at once with numpy: a verification card fits a verifier when its criterion is on the
verifier's criteria card (Classic), on one of its two (Extreme), or on the card some one-to-one pairing gives it
(Nightmare); the dealt cards' codes (125-bit sets as two 64-bit words) meet in exactly the answer, and leaving any
one verifier out leaves at least two codes.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import defaultdict

import numpy as np
import pytest

from tmphys.cli.main import main
from tmphys.game.book import BOOK_SETS, BookError, BookProblem, book_problem, book_set, book_sets
from tmphys.game.codes import CODE_COUNT
from tmphys.game.criteria import criteria_card, library, parse_id
from tmphys.game.problems import ProblemError, parse_problem

#: Every n-th problem of each set goes through ``parse_problem`` in full (its validation enumerates every hidden
#: assignment: about a minute for the whole book, most of it Nightmare); the numpy check covers all 8,500.
PARSE_EVERY = 97


def words(masks: list[int]) -> np.ndarray:
    """125-bit code sets as (…, 2) uint64 words: low 64 codes, high 61."""
    return np.array([[m & (2**64 - 1), m >> 64] for m in masks], dtype=np.uint64)


def code_count(sets: np.ndarray) -> np.ndarray:
    """How many codes each code set of (…, 2) words holds."""
    return np.bitwise_count(sets).sum(axis=-1)


def decode(problem: BookProblem) -> tuple[list[tuple[int, ...]], list[int], str]:
    """A book line's criteria cards per verifier (the Nightmare set as one-card groups), its verification cards'
    deck places (0..94) and their colour, read with the public ID parser."""
    number, ident, arrow, *fields = problem.line.split(",")
    assert (int(number), ident, arrow) == (problem.number, problem.id, "->")
    dealt = [parse_id(t) for t in fields if t[0] in "GOBP"]
    cards = [int(criteria_card(t).number) for t in fields if t[0] not in "GOBP"]
    per = 2 if problem.mode == "extreme" else 1
    groups = [tuple(cards[i:i + per]) for i in range(0, len(cards), per)]
    colours = {colour for _, colour in dealt}
    assert len(colours) == 1, problem.id
    return groups, [card.index - 1 for card, _ in dealt], colours.pop()


@pytest.fixture(scope="module")
def book() -> dict[str, tuple[BookProblem, ...]]:
    """The book, set by set."""
    return book_sets()


@pytest.fixture(scope="module")
def decoded(book: dict[str, tuple[BookProblem, ...]]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per set: criteria cards (problems, verifiers, 1 or 2), verification card places (problems, verifiers),
    answers' code indices (problems)."""
    out = {}
    for name, problems in book.items():
        rows = [decode(p) for p in problems]
        out[name] = (np.array([r[0] for r in rows]), np.array([r[1] for r in rows]),
                     np.array([p.answer.index for p in problems]))
    return out


def test_the_book_holds_its_nine_sets(book: dict[str, tuple[BookProblem, ...]]) -> None:
    assert list(book) == list(BOOK_SETS)
    assert {name: len(problems) for name, problems in book.items()} == dict(BOOK_SETS)
    assert sum(BOOK_SETS.values()) == 8500
    for name, problems in book.items():
        assert [p.number for p in problems] == list(range(1, len(problems) + 1))
        mode = next(m for m in ("classic", "extreme", "nightmare") if name.lower().startswith(m))
        assert all(p.set_name == name and p.mode == mode for p in problems)


def test_every_book_problem_fits_its_mode_and_decodes_to_its_answer(
        decoded: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    lib = library()
    vcard_codes = words([v.criterion.mask for v in lib.verification_cards])
    # on_card[n, v]: verification card v's criterion (by its codes) is printed on criteria card n
    on_card = np.zeros((49, len(lib.verification_cards)), dtype=bool)
    for n in range(1, 49):
        printed = {c.mask for c in criteria_card(n).criteria}
        on_card[n] = [v.criterion.mask in printed for v in lib.verification_cards]
    every_code = np.array([2**64 - 1, 2**61 - 1], dtype=np.uint64)
    for name, (cards, dealt, answers) in decoded.items():
        count, verifiers = dealt.shape
        assert verifiers == int(name[-2]) and cards.shape[:2] == (count, verifiers)
        flat = cards.reshape(count, -1)
        assert ((flat >= 1) & (flat <= 48)).all()
        assert all(len(set(row)) == len(row) for row in flat.tolist()), f"{name}: a criteria card twice"
        if name.startswith("Nightmare"):
            assert (np.diff(flat, axis=1) > 0).all()
            fits = np.zeros(count, dtype=bool)
            for pairing in itertools.permutations(range(verifiers)):
                fits |= on_card[flat[:, pairing], dealt].all(axis=1)
        else:
            fits = on_card[cards, dealt[:, :, None]].any(axis=2).all(axis=1)
        assert fits.all(), f"{name}: problems {np.flatnonzero(~fits)[:5] + 1} break their mode's rule"
        codes = vcard_codes[dealt]  # (problems, verifiers, 2)
        meet = np.bitwise_and.reduce(codes, axis=1)
        assert (code_count(meet) == 1).all(), name
        answer_sets = np.zeros((count, 2), dtype=np.uint64)
        low = answers < 64
        answer_sets[low, 0] = np.left_shift(np.uint64(1), answers[low].astype(np.uint64))
        answer_sets[~low, 1] = np.left_shift(np.uint64(1), (answers[~low] - 64).astype(np.uint64))
        assert (meet == answer_sets).all(), name
        for left_out in range(verifiers):
            others = np.bitwise_and.reduce(np.delete(codes, left_out, axis=1), axis=1) if verifiers > 1 \
                else np.broadcast_to(every_code, (count, 2))
            redundant = code_count(others) < 2
            assert not redundant.any(), f"{name}: verifier {'ABCDEF'[left_out]} redundant in problems " \
                                        f"{np.flatnonzero(redundant)[:5] + 1}"
    assert sum(len(d[2]) for d in decoded.values()) == 8500 and CODE_COUNT == 125


@pytest.mark.parametrize("name", list(BOOK_SETS))
def test_book_problems_parse_to_their_answer(name: str) -> None:
    sample = book_set(name)[::PARSE_EVERY]
    for problem in sample:
        p = parse_problem(problem.line)
        assert p.mode == problem.mode and p.name == problem.id
        assert p.solution() == problem.answer
        assert p.hidden[p.dealt_class()].code == problem.answer
    assert parse_problem(sample[-1].id.lower()) == parse_problem(sample[-1].line)


def test_an_id_names_one_game(book: dict[str, tuple[BookProblem, ...]],
                              decoded: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    """IDs are unique but for 16 Extreme ones each printed twice in its set: the same game both times (the same
    verification cards and answer, each verifier's two criteria cards in the other order), read as the first."""
    by_key: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for name, problems in book.items():
        for k, p in enumerate(problems):
            by_key[p.id.replace(" ", "").upper()].append((name, k))
    repeated = {key: places for key, places in by_key.items() if len(places) > 1}
    assert len(by_key) == 8500 - 16 and len(repeated) == 16
    for places in repeated.values():
        assert len(places) == 2 and len({name for name, _ in places}) == 1
        name, first = places[0]
        cards, dealt, answers = decoded[name]
        for _, k in places[1:]:
            assert (dealt[k] == dealt[first]).all() and answers[k] == answers[first]
            assert [set(c) for c in cards[k].tolist()] == [set(c) for c in cards[first].tolist()]
            assert book_problem(book[name][k].id) is book[name][first]
    for problems in book.values():
        for p in problems:
            found = book_problem(p.id)
            assert found.id == p.id and found.set_name == p.set_name and found.number <= p.number


@pytest.mark.parametrize("text", ["#A46 NXF", "A46 NXF", "#a46 nxf", "a46nxf", "  #A46   NXF ", "#A46NXF"])
def test_an_id_is_found_forgiving_case_and_spaces(text: str) -> None:
    assert book_problem(text) is book_set("ClassicEasy4V")[0]
    assert book_problem(text).line == "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"
    assert parse_problem(text) == parse_problem("1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754")


def test_set_names_forgive_case() -> None:
    assert book_set("nightmarehard6v") is book_set("NightmareHard6V")
    assert book_problem("#I64 QY3 G") is book_set("NightmareHard6V")[0]
    with pytest.raises(BookError, match=r"^no set 'Classic' in the problem book \(sets: ClassicEasy4V, "):
        book_set("Classic")


@pytest.mark.parametrize("text", ["#A46 NXG", "#Z46 NXF", "A47 NXF", "", "#I64 QY3 Q"])
def test_a_wrong_id_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(BookError) as error:
        book_problem(text)
    assert "not an ID of the published problem book" in str(error.value) and "\n" not in str(error.value)


def cli(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    """Run ``tmphys ARGS`` through the real entry point: exit status, standard output, standard error."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(stdin))
        with pytest.raises(SystemExit) as end:
            main(args)
    out = capsys.readouterr()
    return end.value.code, out.out, out.err


def test_solve_play_and_prove_read_a_book_id_offline(capsys: pytest.CaptureFixture[str]) -> None:
    first = book_set("ClassicEasy4V")[0]
    code, out, err = cli(["solve", "#A46 NXF"], capsys)
    assert code == 0 and f"Code found: ▲5 ■1 ●5 ({first.answer})" in out + err
    assert "Problem: Classic, A: 2  B: 5  C: 8  D: 12; verification cards A=¤585" in out + err
    code, out, err = cli(["prove", str(first.answer), "#a46", "nxf"], capsys)
    assert code == 0 and f"{first.answer} passes every verifier: it is the code." in out
    code, out, err = cli(["play", "A46 NXF"], capsys, stdin="y\n")
    assert code == 0 and f"The code is ▲5 ■1 ●5 ({first.answer})" in out
    night = book_problem("#I4D DOH")
    code, out, err = cli(["prove", str(night.answer), "#I4D DOH"], capsys)
    assert code == 0 and "A #439: open cell" in out and "it is the code" in out


@pytest.mark.parametrize("command", [["solve"], ["play"], ["prove", "515"]])
def test_an_id_not_in_the_book_is_one_line_exit_2(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli([*command, "#A46 NXG"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("tmphys: error: problem: '#A46 NXG' is not an ID of the published problem book: only its "
                          "IDs are read offline; for another problem type its cards, e.g. 'A 4 447 B 9 646")


@pytest.mark.parametrize("text, message", [
    ("B453", "0 criteria cards but 1 verification cards"),  # a blue verification card ID alone is no book ID
    ("A41 183", "not a criteria card number or verification card ID: 'A41'"),  # digits only, no '#': read as cards
    ("1,#A46 NXF,2,5,8,12,P585,P441,P651,P754", "no '->' after '#A46 NXF'"),  # a book line without its arrow
])
def test_text_not_taken_for_a_book_id_reads_as_before(text: str, message: str) -> None:
    with pytest.raises(ProblemError, match=re.escape(message)):
        parse_problem(text)
