"""The compiled search (tmphys/solve/_engine.c): held to brute force and to the reference solver by its values, under
every tuning, and its own contract (time limit, memory limit, canonical forms, bad input)."""

from __future__ import annotations

import signal
import threading
import time
from fractions import Fraction

import numpy as np
import pytest
from test_solver import RANDOM_SMALL, SMALL, brute_force

from tmphys.game.problems import Problem, parse_problem
from tmphys.solve.engine import EngineConfig, engine_for
from tmphys.solve.solver import Deduction, SearchStopped, Solver

#: Official problems of the Classic and Extreme sets and of Nightmare 4V (Nightmare 5V and 6V take the Python search
#: far longer) whose optima the Python search proves in about a second or less, either objective: the engine must
#: give the same values.
OFFICIAL = [
    "69,#A49 S0Y,->,4,9,12,17,B677,B648,B697,B528",
    "435,#B5J DX6,->,2,6,18,19,21,B416,B483,B594,B237,B499",
    "252,#C64 XT7 F,->,15,23,33,36,40,45,P404,P330,P540,P435,P629,P216",
    "69,#F4B 8BT,->,5,42,23,45,33,6,18,1,O349,O653,O613,O424",
    "130,#F45 XEG,->,21,31,41,13,6,4,16,22,G650,G717,G670,G407",
    "30,#F5S YM2,->,20,12,2,4,19,41,11,31,14,47,B743,B780,B453,B652,B385",
    "252,#F52 8JT S,->,12,23,18,34,15,36,24,17,4,26,G681,G572,G286,G274,G396",
    "28,#F63 D8Y U,->,8,46,2,29,16,19,4,1,7,24,17,40,B385,B549,B505,B652,B353,B348",
    "58,#I4B KB,->,N1,N23,N46,N48,P641,P382,P362,P527",
    "106,#I47 BT4,->,N3,N16,N33,N37,G481,G227,G346,G640",
    "901,#I48 BUX,->,N2,N18,N33,N37,O424,O613,O627,O224",
]


@pytest.mark.parametrize("line", OFFICIAL)
@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_engine_and_reference_agree_on_official_problems(line: str, objective: str) -> None:
    """The same optimum as the reference solver, which states the rules plainly."""
    d = Deduction(parse_problem(line))
    engine, reference = Solver(d, objective), Solver(d, objective, native=False)
    assert engine.native and not reference.native
    assert engine.optimum() == reference.optimum()


@pytest.mark.parametrize("text, nightmare", [("3 7 10 14", False), ("13/17 15/45 27/22 20/8", False),
                                             ("17 34 36 44", True)])
def test_the_engine_is_built_and_searches(text: str, nightmare: bool) -> None:
    """``pip install`` builds the engine, and the solver uses it for Classic, Extreme and Nightmare (a source
    checkout that was never built would fall back to the Python search: this fails there)."""
    d = Deduction(parse_problem(text, nightmare=nightmare))
    s = Solver(d, "expected")
    assert s.native
    s.optimum()
    assert s.search.stats()["steps"] > 0


def test_engine_with_deep_bounds_everywhere_equals_brute_force() -> None:
    """The expected optimum when every round start's proposals get deep bounds, from the first step or after a
    few steps of the plain search (which then starts over, keeping its memo)."""
    deepened = 0
    for steps in (1, 6):
        config = EngineConfig(deep_share=0.0, deep_after=steps)
        for text in SMALL + RANDOM_SMALL:
            p = parse_problem(text)
            s = Solver(Deduction(p), "expected", config=config)
            assert s.round_value(s.d.universe) == brute_force(p, "expected"), text
            deepened += s.search.stats()["deep"]
    assert deepened >= 16


def test_engine_with_deep_bounds_widened_after_a_while_equals_brute_force() -> None:
    """Deep bounds first near the start only, then at every round start once the search has taken
    ``DEEP_WIDER_AFTER_STEPS`` more steps: the optimum is brute force's and the engine reports the widening."""
    widened = 0
    for steps in (1, 5):
        config = EngineConfig(deep_share=0.9, wider_share=0.0, deep_after=1, wider_after=steps, deeper_share=2.0)
        for text in SMALL + RANDOM_SMALL:
            p = parse_problem(text)
            s = Solver(Deduction(p), "expected", config=config)
            assert s.round_value(s.d.universe) == brute_force(p, "expected"), text
            widened += s.search.stats()["deep_codes"] == 1
    assert widened >= 16


def test_engine_with_deeper_bounds_everywhere_keeps_the_optimum() -> None:
    """Every round start's deep bounds a round deeper, from the first step, on small Nightmare card sets: the expected
    optimum of the plain search, which equals the reference solver's (and brute force's where it runs)."""
    texts = ["14 17", "17 28 44", "2 10 19", "22 36 38", "4 14 25 31", "7 37 39 42"]
    config = EngineConfig(deep_share=0.0, deeper_share=0.0, deep_after=1)
    floors = 0
    for text in texts:
        p = parse_problem(text, nightmare=True)
        plain = Solver(Deduction(p), "expected").optimum()
        assert plain == Solver(Deduction(p), "expected", native=False).optimum(), text
        if text == "14 17":
            assert plain == brute_force_optimum(p)
        s = Solver(Deduction(p), "expected", config=config)
        assert s.optimum() == plain, text
        floors += s.search.stats()["deep_floors"]
    assert floors > 0


def brute_force_optimum(p: Problem) -> tuple[Fraction, Fraction]:
    """Brute force's expected optimum as means over the assignments."""
    r, q = brute_force(p, "expected")
    w = sum(h.weight for h in p.hidden)
    return Fraction(r, w), Fraction(q, w)


@pytest.mark.parametrize("share", [0.0, 0.9])
def test_engine_probe_shares_keep_the_optimum(share: float) -> None:
    """Searching a question's first answer with a share of the room first (none, or most) keeps the optimum."""
    config = EngineConfig(probe_share=share)
    for text in SMALL + RANDOM_SMALL:
        p = parse_problem(text)
        assert Solver(Deduction(p), "expected", config=config).optimum() == brute_force_optimum(p)


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_engine_memo_forgotten_when_full_keeps_the_values(objective: str) -> None:
    """Past its memory limit the engine forgets its memo and goes on: the same optimum, found again."""
    line = "482,#I42 8HH,->,N9,N28,N31,N40,O219,O617,O591,O433"
    d = Deduction(parse_problem(line))
    roomy = Solver(d, objective)
    exact = roomy.optimum()
    tight = Solver(d, objective, config=EngineConfig(memo_bytes=80_000, memo_least=80_000))
    assert tight.optimum() == exact
    assert tight.search.stats()["forgets"] > 0 and roomy.search.stats()["forgets"] == 0
    assert tight.search.stats()["memo_bytes"] <= 80_000


@pytest.mark.parametrize("line", [
    "154,#I52 NJY T,->,N17,N21,N35,N38,N46,O257,O484,O639,O243,O523",
    "82,#I51 QGE 7,->,N5,N19,N24,N27,N40,P335,P696,P247,P553,P656",
])
@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_a_tiny_memo_finds_the_same_optima_on_nightmare(line: str, objective: str) -> None:
    """Nightmare 5 verifiers with a memo forgotten dozens of times (what it keeps chosen by work in the worst case,
    by state size in the expected one): the optimum of a memo that never forgets."""
    d = Deduction(parse_problem(line))
    tight = Solver(d, objective, config=EngineConfig(memo_bytes=300_000, memo_least=300_000))
    assert tight.optimum() == Solver(d, objective).optimum()
    assert tight.search.stats()["forgets"] >= 10


def test_the_memos_of_one_process_share_its_memory() -> None:
    """Before each search a memo may take what the other live solvers' memos leave of ENGINE_MEMO_BYTES (at least
    ENGINE_MEMO_LEAST): the worst case searched after the expected one gets the rest, and all of it once the
    expected solver is gone."""
    import gc

    gc.collect()  # solvers of earlier tests, gone, hold nothing
    d = Deduction(parse_problem("482,#I42 8HH,->,N9,N28,N31,N40,O219,O617,O591,O433"))
    config = EngineConfig(memo_bytes=60_000_000, memo_least=20_000_000)
    expected, worst = Solver(d, "expected", config=config), Solver(d, "worst", config=config)
    expected.optimum()
    held = expected.search.memo_held()
    assert 4_000_000 < held < 40_000_000
    worst.optimum()
    assert worst.search.stats()["memo_limit"] == 60_000_000 - held
    worst.config = EngineConfig(memo_bytes=30_000_000, memo_least=30_000_000 - held + 1)
    worst.round_value(d.universe)  # a search (memoised): its limit taken again
    assert worst.search.stats()["memo_limit"] == 30_000_000 - held + 1  # the least a memo gets
    del expected
    gc.collect()
    worst.round_value(d.universe)
    assert worst.search.stats()["memo_limit"] == 30_000_000
    with pytest.raises(ValueError, match="a memo limit of no bytes"):
        worst.search.set_memo_limit(0)


@pytest.mark.parametrize("text", ["17 28 44", "4 14 25 31", "7 37 39 42"])
@pytest.mark.parametrize("objective", ["expected", "worst"])
@pytest.mark.parametrize("tables", [True, False], ids=["tables", "keys"])
def test_engine_searches_nightmare_round_starts_by_canonical_form(text: str, objective: str, tables: bool,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """One search per relabelling of the verifiers: the same optimum as the engine searching every state, with
    fewer states memoised; relabelled through a table per order of the verifiers, or (past the tables' memory) by
    looking each class up by its criteria, the same round starts."""
    p = parse_problem(text, nightmare=True)
    plain = Deduction(p)
    plain.symmetric = False
    with_tables = Solver(Deduction(p), objective)
    config = EngineConfig() if tables else EngineConfig(table_bytes=0)
    by_form, every = Solver(Deduction(p), objective, config=config), Solver(plain, objective)
    assert by_form.optimum() == every.optimum() == with_tables.optimum()
    assert by_form.search.stats()["round_starts"] < every.search.stats()["round_starts"]
    assert by_form.search.stats()["round_starts"] == with_tables.search.stats()["round_starts"]


def test_engine_stops_at_its_limits_and_bounds_the_optimum() -> None:
    """Past its time limit the engine stops at once (``SearchStopped``). Stopped after a number of steps, what it
    learnt bounds the optimum from below (the least over the start's proposals of what is known of each), above the
    start's own bound and higher the longer it ran; the greedy strategy bounds it from above."""
    p = parse_problem("12,#I4C MBD,->,N24,N35,N37,N45,O658,O243,O369,O627")  # proven in about 4,500 steps
    exact = Solver(Deduction(p), "expected").optimum()
    s = Solver(Deduction(p), "expected")
    s.set_time_limit(0)
    with pytest.raises(SearchStopped):
        s.optimum()
    assert s.stopped
    lows = []
    for steps in (50, 1000, 2000):
        s = Solver(Deduction(p), "expected")
        s.set_step_limit(steps - 1)
        with pytest.raises(SearchStopped):
            s.optimum()
        s.set_step_limit(None)
        low, high = s.bounds(30)
        own = s.scale(s.greedy.lower_bound(s.d.universe))
        assert high is not None and own < low <= exact <= high, steps
        lows.append(low)
    assert lows == sorted(set(lows))


def test_engine_moves_play_the_optimum() -> None:
    """The engine's moves (proposal, then each question or the end of the round) cover every assignment with the
    optimal expected cost: the tree's leaves, weighted, add up to the optimum."""
    p = parse_problem("4 14 25 31", nightmare=True)
    d = Deduction(p)
    s = Solver(d, "expected")
    rounds_total = questions_total = 0

    def walk(node: dict, rounds: int, questions: int) -> None:
        nonlocal rounds_total, questions_total
        if "code" in node:
            rounds_total += rounds * node["assignments"]
            questions_total += questions * node["assignments"]
        elif "round" in node:
            walk(node["then"], rounds + 1, questions)
        else:
            walk(node["pass"], rounds, questions + 1)
            walk(node["fail"], rounds, questions + 1)

    walk(s.tree(), 0, 0)
    w = d.weight(d.universe)
    assert (Fraction(rounds_total, w), Fraction(questions_total, w)) == s.optimum()


def test_known_move_reads_the_memo_without_searching() -> None:
    """``known_move``: nothing known before a search (no move), the exact value and the optimal proposal after it,
    the same for a state inside a round; a bad proposal or count of questions is refused."""
    d = Deduction(parse_problem("3 7 10 14"))
    s = Solver(d, "expected")
    idx = d.members(d.universe).astype(np.uint32)
    assert s.search.known_move(idx) == ((0, 0), None, -1)
    value, proposal = s._run(s.search.round_value, d.universe)
    assert s.search.known_move(idx) == (value, value, proposal)
    low, up, verifier = s.search.known_move(idx, proposal, 3)
    assert low == up == (value[0] - d.weight(d.universe), value[1]) and 0 <= verifier < 4
    for args in ((idx, 125, 1), (idx, 3, 4), (idx, -1, 2)):
        with pytest.raises(ValueError, match="proposal 0..124"):
            s.search.known_move(*args)


@pytest.mark.parametrize("state", [[3, 1], [0, 0], [10**6]])
def test_engine_refuses_a_malformed_state(state: list[int]) -> None:
    s = Solver(Deduction(parse_problem("3 7 10 14")), "expected")
    with pytest.raises(ValueError, match="ascending list of class indices"):
        s.search.round_value(np.array(state, dtype=np.uint32))


@pytest.mark.parametrize("setting", ["deep_after", "wider_after"])
def test_engine_refuses_a_stage_of_no_steps(setting: str) -> None:
    """The expected case's search runs each stage (plain, deep bounds, widened) for at least one step."""
    with pytest.raises(ValueError, match="at least one step"):
        EngineConfig(**{setting: 0})
    assert engine_for(Deduction(parse_problem("3 7 10 14")), True, EngineConfig(deep_after=1)) is not None


def test_engine_search_ends_at_ctrl_c() -> None:
    """A signal ends a long search at once with its handler's exception (Ctrl-C: KeyboardInterrupt), the engine
    looking at signals as it goes: after far fewer steps than the whole search takes (about 257,000 here)."""
    p = parse_problem("31,#I47 S7P,->,N19,N31,N46,N48,O786,O257,O319,O591")
    s = Solver(Deduction(p), "expected")

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            s.optimum()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert 0 < s.search.stats()["steps"] < 100_000


@pytest.mark.parametrize("objective", ["expected", "worst"])
@pytest.mark.parametrize("line", ["3,#F49 WZT,->,41,17,48,4,23,2,9,21,O338,O279,O332,O523",
                                  "31,#I47 S7P,->,N19,N31,N46,N48,O786,O257,O319,O591",
                                  "1,#I51 M6E R,->,N15,N21,N26,N31,N46,P589,P684,P221,P633,P667",
                                  "1,#F65 9M5 T,->,10,2,14,36,11,43,46,21,27,25,3,20,O639,O729,O289,O369,O213,O273"])
def test_engine_round_bounds_equal_pythons(line: str, objective: str) -> None:
    """Every proposal's one-round bound and tie-break, as the engine ranks them, equal ``Deduction.round_bounds``
    on the start and on states after one and two answers: Extreme 4V #3 starts with 73 codes (the engine keeps a
    cell's codes in two words past 64 and bounds the proposals one by one, below it one word with the state's codes
    renumbered and all proposals at once: ``expected_bounds``, ``worst_bounds``), Nightmare 4V #31 with 15; with 32
    answer cells (Nightmare 5V #1) and 64 (Extreme 6V #1) the worst case marks a code's cells in one word or two."""
    from tmphys.game.codes import Code

    d = Deduction(parse_problem(line))
    s = Solver(d, objective)
    half = d.answer(d.universe, 0, Code.parse("123"), True)
    states = [d.universe, half, d.answer(half, 1, Code.parse("451"), False)]
    assert d.code_count(states[0]) > 64 >= d.code_count(states[2]) or line.startswith(("31,", "1,"))
    proposals = np.arange(125)
    for state in states:
        idx = d.members(state)
        rounds, questions, order = d.round_bounds(idx, proposals, objective == "expected")
        engine = np.array(s.search.round_bounds(idx.astype(np.uint32)))
        assert engine[:, 0].tolist() == rounds.tolist() and engine[:, 1].tolist() == questions.tolist()
        if objective == "expected":  # the weight of the biggest cell
            assert engine[:, 2].tolist() == order.tolist()
            # as a deep bound takes them (no tie-breaks): in 32-bit lanes for a state under NARROW_WEIGHT
            bare = np.array(s.search.round_bounds(idx.astype(np.uint32), False))
            assert bare[:, 0].tolist() == rounds.tolist() and bare[:, 1].tolist() == questions.tolist()
        else:  # the fewest codes the worst node can be held to, then that weight (scaled by 2**40, not 2**24)
            assert (engine[:, 2] >> 40).tolist() == (order >> 24).tolist()
            assert (engine[:, 2] & ((1 << 40) - 1)).tolist() == (order & ((1 << 24) - 1)).tolist()


def test_a_search_lets_other_threads_run_and_searches_in_threads_agree() -> None:
    """A search lets go of the interpreter (taking it back only to look at signals): a Python thread keeps running
    meanwhile (with it held, the thread would not run at all until the search ends). Searches started in two
    threads at once, on two engines, each give the optimum they give alone (engine work is one at a time)."""
    line = "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"  # some tenths of a second, either objective
    ticks, done = [0], threading.Event()

    def spin() -> None:
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    solver = Solver(Deduction(parse_problem(line)), "expected")
    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        time.sleep(0.02)
        before = ticks[0]
        optimum = solver.optimum()
        during = ticks[0] - before
    finally:
        done.set()
        spinner.join()
    assert during >= 50, during  # about 1 a millisecond
    assert optimum == (Fraction(1601, 576), Fraction(355, 48))  # 2.780 rounds, 7.396 questions (benchmarks/RESULTS.md)
    alone = {"expected": optimum, "worst": Solver(Deduction(parse_problem(line)), "worst").optimum()}
    found: dict[str, tuple[Fraction, Fraction]] = {}

    def solve(objective: str) -> None:
        found[objective] = Solver(Deduction(parse_problem(line)), objective).optimum()

    threads = [threading.Thread(target=solve, args=(o,)) for o in ("expected", "worst")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == alone


@pytest.mark.parametrize("line, light", [("31,#I47 S7P,->,N19,N31,N46,N48,O786,O257,O319,O591", True),
                                         ("13,#I64 7E7 2,->,N21,N24,N33,N39,N44,N45,B534,B341,B726,B423,B353,B785",
                                          False)])
def test_deep_bounds_batched_bounds_in_32_or_64_bit_lanes(line: str, light: bool) -> None:
    """A deep bound's batched next-round bounds (no tie-breaks) equal ``Deduction.round_bounds``: in 32-bit lanes on
    a state lighter than 16,384 assignments (Nightmare 4V #31, 720 at the start), in 64-bit ones on a heavier one
    (Nightmare 6V #13: 26,640 assignments, 21 codes)."""
    d = Deduction(parse_problem(line))
    s = Solver(d, "expected")
    idx = d.members(d.universe)
    assert (d.weight(d.universe) < 16384) == light and d.code_count(d.universe) <= 64
    rounds, questions, _ = d.round_bounds(idx, np.arange(125), True)
    bare = np.array(s.search.round_bounds(idx.astype(np.uint32), False))
    assert bare[:, 0].tolist() == rounds.tolist() and bare[:, 1].tolist() == questions.tolist()
    assert not bare[:, 2].any()  # no tie-breaks worked out

