"""Generated problems: valid games, drawn as the problem book's are, read back by solve, the same for the same seed."""

from __future__ import annotations

import collections
import doctest
import itertools
import json
import random

import pytest

import tmphys.game.generate
from tmphys.cli.main import main
from tmphys.game.criteria import ID_COLOURS, criteria_card
from tmphys.game.generate import DIFFICULTIES, deal, draw_cards, game_key, generate, problem_text
from tmphys.game.problems import MODES, Problem, ProblemError, parse_problem
from tmphys.solve.runner import rate
from tmphys.solve.solver import Deduction, Solver


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def _is_valid_game(problem: Problem) -> bool:
    """The rules, checked afresh: one code passes every dealt card, and no card can be left out."""
    masks = [d.criterion.mask for d in problem.dealt or ()]
    every = (1 << 125) - 1
    for m in masks:
        every &= m
    if every.bit_count() != 1:
        return False
    for v in range(len(masks)):
        rest = (1 << 125) - 1
        for j, m in enumerate(masks):
            if j != v:
                rest &= m
        if rest.bit_count() == 1:
            return False
    return True


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("verifiers", [4, 5, 6])
def test_generated_problems_are_valid_games_that_solve_reads_back(mode: str, verifiers: int) -> None:
    for difficulty, top in DIFFICULTIES.items():
        problems = generate(mode, verifiers, difficulty, random.Random(verifiers), count=4)
        assert len({problem_text(p) for p in problems}) == 4
        for p in problems:
            assert p.mode == mode and len(p.cards) == verifiers and p.dealt is not None
            numbers = [n for cs in p.cards for n in cs]
            assert len(set(numbers)) == len(numbers) and all(1 <= n <= top for n in numbers)
            assert all(len(cs) == (2 if mode == "extreme" else 1) for cs in p.cards)
            if mode != "extreme":
                assert numbers == sorted(numbers)  # as the problem book writes them
            assert _is_valid_game(p)
            # each dealt card carries a criterion of its verifier's card(s): in Nightmare, through one pairing
            pools = [{c.mask for n in cs for c in criteria_card(n).criteria} for cs in p.cards]
            masks = [d.criterion.mask for d in p.dealt]
            if mode == "nightmare":
                assert any(all(masks[v] in pools[perm[v]] for v in range(verifiers))
                           for perm in itertools.permutations(range(verifiers)))
            else:
                assert all(m in pool for m, pool in zip(masks, pools))
            back = parse_problem(problem_text(p))
            assert (back.mode, back.cards, back.dealt, back.colour) == (p.mode, p.cards, p.dealt, p.colour)
            assert back.solution() == p.solution()


@pytest.mark.parametrize("mode", MODES)
def test_count_gives_different_games_not_one_game_in_two_colours(mode: str) -> None:
    # an easy band holds few games: before the key, 300 Classic problems from seed 5 held 10 games twice, once in
    # another ID colour (A 5 G578 B 12 G614 ... and A 5 O445 B 12 O402 ...), and Nightmare ones with the same cards
    # dealt to other verifiers
    problems = generate(mode, 4, "easy", random.Random(5), count=300)
    keys = {game_key(p) for p in problems}
    assert len(keys) == 300
    p = problems[0]
    other = next(c for c in ID_COLOURS if c != p.colour)
    assert game_key(Problem(p.mode, p.cards, p.dealt, other)) == game_key(p)  # the colour: the same game
    assert problem_text(Problem(p.mode, p.cards, p.dealt, other)) != problem_text(p)
    order = [1, 0, 3, 2]  # the verifiers relabelled
    if mode == "nightmare":  # the pairing is hidden: the verification cards may go to any verifiers
        relabelled = Problem(mode, p.cards, tuple(p.dealt[i] for i in order), p.colour)
    else:  # each verifier keeps its criteria cards (in Extreme, in either order) and its verification card
        relabelled = Problem(mode, tuple(tuple(reversed(p.cards[i])) for i in order),
                             tuple(p.dealt[i] for i in order), p.colour)
    assert game_key(relabelled) == game_key(p)
    swapped = (p.dealt[1], p.dealt[0], *p.dealt[2:])  # two verifiers' cards exchanged, criteria cards kept
    if mode != "nightmare" and p.dealt[0] != p.dealt[1]:
        assert game_key(Problem(mode, p.cards, swapped, p.colour)) != game_key(p)


def test_the_same_seed_gives_the_same_problems_and_another_seed_others() -> None:
    def texts(seed: int) -> list[str]:
        return [problem_text(p) for p in generate("nightmare", 5, "hard", random.Random(seed), count=5)]
    first = texts(11)
    assert texts(11) == first
    assert texts(12) != first


def test_every_game_of_a_card_set_is_dealt_equally_often() -> None:
    """Booklet problem 2's card set has 7 games (9/7 rounds): 7,000 deals give each about 1,000 times."""
    problem = Problem("classic", ((3,), (7,), (10,), (14,)))
    assert len(problem.hidden) == 7
    rng = random.Random(5)
    seen = collections.Counter(tuple(d.criterion.mask for d in deal(problem, rng) or ()) for _ in range(7000))
    assert set(seen) == {h.masks for h in problem.hidden}
    assert all(850 < n < 1150 for n in seen.values()), seen


def test_nightmare_deals_each_pairing_of_a_class_as_a_game_of_its_own() -> None:
    """A class of Nightmare assignments that stands for two pairings (cards 1 and 39 share two truth tables) is
    dealt twice as often as a class of one."""
    problem = Problem("nightmare", ((1,), (26,), (28,), (39,)))
    weights = {h.masks: h.weight for h in problem.hidden}
    assert len(set(weights.values())) > 1  # classes of different weights, or the test shows nothing
    rng = random.Random(2)
    n = 20_000
    seen = collections.Counter(tuple(d.criterion.mask for d in deal(problem, rng) or ()) for _ in range(n))
    total = sum(weights.values())
    for masks, w in weights.items():
        expected = n * w / total
        assert abs(seen[masks] - expected) < 5 * expected**0.5 + 5, (masks, w, seen[masks], expected)


def test_problems_leave_at_least_min_codes_possible() -> None:
    def fewest(min_codes: int) -> int:
        problems = generate("nightmare", 4, "standard", random.Random(1), count=40, min_codes=min_codes)
        return min(len({h.code for h in p.hidden}) for p in problems)
    assert fewest(1) == 1  # a fifth of Nightmare card sets fix the code at once
    assert fewest(2) >= 2
    assert fewest(6) >= 6


def test_card_draws_follow_the_mode() -> None:
    rng = random.Random(3)
    assert all(len(cs) == 2 for cs in draw_cards("extreme", 6, "easy", rng))  # 12 different cards of 17
    classic = draw_cards("classic", 6, "easy", rng)
    assert [c[0] for c in classic] == sorted(c[0] for c in classic)


def test_refuses_what_the_game_does_not_offer() -> None:
    with pytest.raises(ProblemError, match="4, 5 or 6 verifiers"):
        generate("classic", 3, "easy", random.Random(0))
    with pytest.raises(ProblemError, match="unknown difficulty"):
        generate("classic", 4, "expert", random.Random(0))
    with pytest.raises(ProblemError, match="unknown mode"):
        generate("chess", 4, "easy", random.Random(0))


def test_rating_is_the_solvers_optimum() -> None:
    p = generate("classic", 4, "standard", random.Random(9))[0]
    assert rate(p, 30) == Solver(Deduction(p), "expected", native=False).optimum()


def test_cli_lines_read_back_by_solve_and_same_bytes_for_a_seed(capsys) -> None:
    code, out, err = run(["generate", "--seed", "7", "--count", "3", "--mode", "extreme", "--answer"], capsys)
    assert code == 0 and err == "# Extreme, 4 verifiers, standard (criteria cards 1-22), seed 7, 3 problems\n"
    lines = out.splitlines()
    assert len(lines) == 3
    for line in lines:
        text, _, note = line.partition("  # code ")
        assert note == str(parse_problem(text).solution())
        code, solved, _ = run(["solve", "--json", text], capsys)
        assert code == 0 and json.loads(solved)["code"] == note  # found through the machine
    assert run(["generate", "--seed", "7", "--count", "3", "--mode", "extreme", "--answer"], capsys)[1] == out


def test_cli_json(capsys) -> None:
    code, out, err = run(["generate", "--json", "--seed", "4", "--mode", "nightmare", "--colour", "purple",
                          "--rate", "--count", "2", "--workers", "1"], capsys)  # rated here: no processes to start
    data = json.loads(out)
    assert code == 0 and err == ""
    assert (data["seed"], data["mode"], data["verifiers"], data["difficulty"]) == (4, "nightmare", 4, "standard")
    for entry in data["problems"]:
        p = parse_problem(entry["text"])
        assert entry["colour"] == "purple" and all(v.startswith("¤") for v in entry["verification_cards"])
        assert entry["criteria_cards"] == [list(cs) for cs in p.cards]
        assert entry["hidden_assignments"] == sum(h.weight for h in p.hidden)
        assert entry["possible_codes"] == len({h.code for h in p.hidden})
        assert "code" not in entry  # not without --answer
        r, q = Solver(Deduction(p), "expected").optimum()
        assert entry["optimal_expected"]["rounds_fraction"] == (str(r) if r.denominator > 1 else str(r.numerator))
        assert entry["optimal_expected"]["questions"] == pytest.approx(float(q))


def test_cli_draws_a_seed_and_says_which(capsys) -> None:
    code, out, err = run(["generate"], capsys)
    seed = int(err.strip().rsplit(" ", 1)[1])
    assert code == 0 and run(["generate", "--seed", str(seed)], capsys)[1] == out


@pytest.mark.parametrize("args, message", [
    (["--verifiers", "7"], "--verifiers"),
    (["--count", "0"], "--count"),
    (["--seed", "-1"], "--seed"),
    (["--difficulty", "expert"], "--difficulty"),
    (["--time-limit", "0"], "--time-limit"),
    (["--time-limit", "5"], "give it with --rate"),
    (["--steps", "5"], "give it with --rate"),
    (["--rate", "--steps", "5", "--time-limit", "5"], "not both"),
    (["--rate", "--steps", "0"], "--steps"),
])
def test_cli_usage_errors_are_one_line_exit_2(args: list[str], message: str, capsys) -> None:
    code, out, err = run(["generate", *args], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_module_example_holds() -> None:
    """The module's example output is what a seed gives (Python's random, stable across machines and versions)."""
    result = doctest.testmod(tmphys.game.generate)
    assert result.attempted >= 1 and result.failed == 0


def test_rating_by_steps_is_the_same_on_any_machine(capsys) -> None:
    """``--rate --steps N`` rates by a budget of search steps, not time: a problem rated or not the same way on
    every run, however loaded the machine, on a process a core or on one (a second run of processes starts them
    all again); the ratings given are the exact optima ``solve`` reports."""
    args = ["generate", "--mode", "nightmare", "--verifiers", "5", "--difficulty", "hard", "--count", "4",
            "--seed", "11", "--rate", "--steps", "3000"]
    code, out, _ = run(args, capsys)
    assert code == 0 and run([*args, "--workers", "1"], capsys)[1] == out
    lines = out.splitlines()
    assert sum(line.endswith("# not rated within 3,000 steps") for line in lines) == 2
    for line in lines:
        if "optimal" in line:
            text, note = line.split("  # ")
            r, q = Solver(Deduction(parse_problem(text)), "expected").optimum()
            assert note == f"optimal {float(r):.2f} rounds, {float(q):.2f} questions on average"
