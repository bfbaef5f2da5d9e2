"""Problems: the accepted input forms, validation with one-line reasons, and the hidden-assignment counts."""

from __future__ import annotations

import itertools
import math

import pytest

from tmphys.game.codes import Code, CodeError
from tmphys.game.criteria import criteria_card, library
from tmphys.game.problems import Problem, ProblemError, parse_problem


def test_app_text_with_every_id_form() -> None:
    for text in ("A 4 447 B 9 646 C 11 566 D 14 322", "A 4 ◊447 B 9 ◊646 C 11 ◊566 D 14 ◊322",
                 "1,#X,→,4,9,11,14,447,646,566,322",
                 "A 4 G447 B 9 G646 C 11 G566 D 14 G322", "4,9,11,14,447,646,566,322"):
        p = parse_problem(text)
        assert p.mode == "classic" and p.cards == ((4,), (9,), (11,), (14,))
        assert str(p.solution()) == "241"
        assert [d.ids["green"] for d in p.dealt] == [447, 646, 566, 322]


def test_several_words_equal_one_string() -> None:
    assert parse_problem("A 4 447 B 9 646 C 11 566 D 14 322".split()) == parse_problem(
        "A 4 447 B 9 646 C 11 566 D 14 322")


def test_a_comment_after_the_problem_is_ignored() -> None:
    """A line of ``generate --answer`` reads back: "#" and a space start a comment; "#577" (a yellow ID) and a book
    line's "#A46 NXF" are no comments."""
    book = "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"
    assert parse_problem(f"{book}  # code 123; optimal 1.00 rounds") == parse_problem(book)
    assert parse_problem("3 7 10 14 #") == parse_problem("3 7 10 14")
    assert parse_problem("A 4 #577 B 9 #369 C 11 #461 D 14 #694").dealt[0].ids["yellow"] == 577


def test_problem_book_lines_all_modes() -> None:
    classic = parse_problem("1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754")
    assert (classic.mode, classic.name, classic.colour) == ("classic", "#A46 NXF", "purple")
    extreme = parse_problem("1,#F49 S25,->,13,17,15,45,27,22,20,8,O496,O369,O338,O750")
    assert extreme.mode == "extreme" and extreme.cards == ((13, 17), (15, 45), (27, 22), (20, 8))
    night = parse_problem("1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484")
    assert night.mode == "nightmare" and night.cards == ((17,), (34,), (36,), (44,))
    for p in (classic, extreme, night):
        assert p.hidden[p.dealt_class()].masks == p.dealt_masks()


def test_cards_only_forms() -> None:
    assert parse_problem("3 7 10 14").mode == "classic"
    ex = parse_problem("13/17 15/45 27/22 20/8")
    assert ex.mode == "extreme" and ex.dealt is None
    assert parse_problem("13 17 15 45 27 22 20 8", extreme=True).cards == ex.cards
    assert parse_problem("3 7 10 14", nightmare=True).mode == "nightmare"
    assert parse_problem("N3 N7 N10 N14").cards == ((3,), (7,), (10,), (14,))


@pytest.mark.parametrize("text, words", [
    ("A 4 447 B 9 646", "codes pass every verifier"),
    ("A 4 646 B 9 447 C 11 566 D 14 322", "not a criterion of criteria card 4"),
    ("A 4 999 B 9 646", "no verification card"),
    ("A 4 447 B 9 369 C 11 566 D 14 322", "IDs 447 (green) and 369 (yellow) differ in colour"),
    ("A 4 447 B 49 646", "no criteria card 49"),
    ("", "empty problem"),
    ("1 2", "no valid game"),
])
def test_refused_with_one_line(text: str, words: str) -> None:
    with pytest.raises(ProblemError) as err:
        parse_problem(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_nightmare_cards_given_as_classic_are_refused_with_the_hint() -> None:
    """Cards that fit only another pairing are a Nightmare problem given without --nightmare: the refusal says so;
    a card that fits no pairing gets no such hint; an odd count of Extreme cards is called odd."""
    with pytest.raises(ProblemError, match="another pairing of the criteria cards fits: for Nightmare"):
        parse_problem("17 34 36 44 O439 O232 O550 O484")
    assert parse_problem("17 34 36 44 O439 O232 O550 O484", nightmare=True).mode == "nightmare"
    with pytest.raises(ProblemError) as err:
        parse_problem("A 4 439 B 9 646 C 11 566 D 14 322")
    assert "another pairing" not in str(err.value)
    with pytest.raises(ProblemError, match=r"two criteria cards per verifier, got 3 \(an odd number\)"):
        parse_problem("3 7 10", extreme=True)


def test_mode_mistakes_refused_with_what_to_write() -> None:
    """A Nightmare line with one card left without its N, --extreme on app text of one card a verifier, and an
    Extreme line without verification cards read as eight verifiers: each refused, saying what to write."""
    with pytest.raises(ProblemError, match="every criteria card is written with its N"):
        parse_problem("1,#X,->,N2,5,8,12,P585,P441,P651,P754")
    with pytest.raises(ProblemError, match="--extreme needs two criteria cards for every verifier"):
        parse_problem("A 4 447 B 9 646 C 11 566 D 14 322", extreme=True)
    with pytest.raises(ProblemError, match=r"not 8 \(Extreme without verification cards\?"):
        parse_problem("1,#F49 S25,->,13,17,15,45,27,22,20,8")
    assert parse_problem("1,#F49 S25,->,13,17,15,45,27,22,20,8", extreme=True).mode == "extreme"
    assert parse_problem("N17 N34 N36 N44").mode == "nightmare"


def test_a_problem_book_line_without_its_arrow_is_refused_as_such() -> None:
    """A book line missing its '->' is named as one (its ID 'NXF' read as a Nightmare card N before); a yellow ID
    written with its '#' is still an ID, and the line with its arrow still reads."""
    with pytest.raises(ProblemError, match=r"^a problem-book line reads .*: no '->' after '#A46 NXF'$"):
        parse_problem("1,#A46 NXF,2,5,8,12,P585,P441,P651,P754")
    assert parse_problem("1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754").cards == ((2,), (5,), (8,), (12,))
    assert parse_problem("A 4 #577 B 9 #369 C 11 #461 D 14 #694").mode == "classic"


def test_redundant_verifier_refused() -> None:
    b_lt_3 = next(v for v in library().verification_cards if v.criterion.key == "b_lt_3")
    with pytest.raises(ProblemError, match=r"verifier [A-E] is redundant"):
        parse_problem(f"A 4 447 B 9 646 C 11 566 D 14 322 E 2 {b_lt_3.ids['green']}")


@pytest.mark.parametrize("text, kw, twice", [
    ("A 4 447 B 9 646 C 11 566 D 14 322 E 4 447", {}, 4),  # not "verifier A is redundant": E repeats A's card
    ("3 3 10 14", {"cards_only": True}, 3),  # not "no valid game uses these criteria cards"
    ("13/13 15/45 27/22 20/8", {"cards_only": True}, 13),  # was accepted and solved
    ("13/17 15/45 27/13 20/8", {"cards_only": True}, 13),
    ("3 7 10 3", {"cards_only": True, "nightmare": True}, 3),
])
def test_a_criteria_card_given_twice_is_refused_in_every_mode(text: str, kw: dict, twice: int) -> None:
    with pytest.raises(ProblemError, match=f"^criteria card {twice} is given twice: a problem's criteria cards all "
                                           "differ$"):
        parse_problem(text, **kw)


def test_cards_only_refuses_ids() -> None:
    with pytest.raises(ProblemError, match="--cards"):
        parse_problem("A 4 447 B 9 646 C 11 566 D 14 322", cards_only=True)


def test_booklet_two_has_seven_assignments_one_per_code() -> None:
    p = parse_problem("3 7 10 14")
    assert len(p.hidden) == 7 and len({h.code for h in p.hidden}) == 7
    for h in p.hidden:  # each is valid: one code, nothing redundant
        acc = (1 << 125) - 1
        for m in h.masks:
            acc &= m
        assert acc == 1 << h.code.index
        for v in range(4):
            rest = (1 << 125) - 1
            for j, m in enumerate(h.masks):
                if j != v:
                    rest &= m
            assert rest.bit_count() > 1


def test_extreme_counts_a_shared_criterion_once() -> None:
    pairs = [(a, b) for a, b in itertools.combinations(range(1, 49), 2)
             if {c.mask for c in criteria_card(a).criteria} & {c.mask for c in criteria_card(b).criteria}]
    assert pairs
    a, b = pairs[0]
    union = {c.mask for c in criteria_card(a).criteria} | {c.mask for c in criteria_card(b).criteria}
    shared = Problem("extreme", ((a, b),))
    assert len(shared.candidates(0)) == len(union) < len(criteria_card(a).criteria) + len(criteria_card(b).criteria)
    assert len(Problem("extreme", ((a, a),)).candidates(0)) == len(criteria_card(a).criteria)


def test_nightmare_counts_every_pairing() -> None:
    classic = parse_problem("3 7 10 14")
    night = parse_problem("3 7 10 14", nightmare=True)
    assert sum(h.weight for h in night.hidden) == math.factorial(4) * len(classic.hidden)
    assert {h.code for h in night.hidden} >= {h.code for h in classic.hidden}


def test_a_code_reads_as_tmphys_prints_it() -> None:
    """``prove`` and ``stack`` take a code as tmphys prints it, with its shapes; a shape out of order is refused."""
    assert Code.parse("▲2 ■4 ●1") == Code.parse("▲2■4●1") == Code.parse("▲2 ■4 ●1 (241)") == Code.parse("241")
    for text in ("■4 ▲2 ●1", "▲2 ■4", "▲2 ■6 ●1", "▲2 ■4 ●1 (242)"):
        with pytest.raises(CodeError):
            Code.parse(text)
