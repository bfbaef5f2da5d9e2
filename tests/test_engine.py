"""The compiled search (tmphys/_engine.c): held to the Python search it ports and to brute force, and its own
contract (time limit, memory limit, canonical forms, bad input)."""

from __future__ import annotations

import signal
import threading
import time
from fractions import Fraction

import numpy as np
import pytest
from test_solver import RANDOM_SMALL, SMALL, brute_force, plain_deep_bounds, widen_deep_bounds_after

from tmphys.game.problems import parse_problem
from tmphys.solve import solver as solver_module
from tmphys.solve.solver import Deduction, SearchStopped, Solver

#: Official problems of every set (and small Nightmare card sets) whose optima the Python search proves in about a
#: second: the engine must give the same values.
OFFICIAL = [
    "69,#A49 S0Y,->,4,9,12,17,B677,B648,B697,B528",
    "435,#B5J DX6,->,2,6,18,19,21,B416,B483,B594,B237,B499",
    "252,#C64 XT7 F,->,15,23,33,36,40,45,P404,P330,P540,P435,P629,P216",
    "69,#F4B 8BT,->,5,42,23,45,33,6,18,1,O349,O653,O613,O424",
    "130,#F45 XEG,->,21,31,41,13,6,4,16,22,G650,G717,G670,G407",
    "69,#F5F JSH,->,31,14,11,27,43,20,24,9,4,1,O591,O213,O279,O369,O530",
    "252,#F52 8JT S,->,12,23,18,34,15,36,24,17,4,26,G681,G572,G286,G274,G396",
    "8,#F63 RKH D,->,31,19,6,17,12,22,23,2,21,27,14,24,O359,O484,O402,O332,O213,O658",
    "75,#I41 HH,->,N4,N20,N28,N33,O327,O355,O530,O502",
    "482,#I42 8HH,->,N9,N28,N31,N40,O219,O617,O591,O433",
    "901,#I48 BUX,->,N2,N18,N33,N37,O424,O613,O627,O224",
]


@pytest.mark.parametrize("line", OFFICIAL)
@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_engine_and_python_search_agree_on_official_problems(line: str, objective: str) -> None:
    """Same optimum; in the expected case the very same search, step for step (the worst case's compiled search
    takes the first move that gets under its budget, so it takes fewer)."""
    d = Deduction(parse_problem(line))
    engine, python = Solver(d, objective), Solver(d, objective, native=False)
    assert engine.engine is not None and python.engine is None
    assert engine.optimum() == python.optimum()
    if objective == "expected":
        assert engine.engine.stats()["steps"] == python._ticks


@pytest.mark.parametrize("text, nightmare", [("3 7 10 14", False), ("13/17 15/45 27/22 20/8", False),
                                             ("17 34 36 44", True)])
def test_the_engine_is_built_and_searches(text: str, nightmare: bool) -> None:
    """``pip install`` builds the engine, and the solver uses it for Classic, Extreme and Nightmare (a source
    checkout that was never built would fall back to the Python search: this fails there)."""
    d = Deduction(parse_problem(text, nightmare=nightmare))
    s = Solver(d, "expected")
    assert s.engine is not None
    s.optimum()
    assert s.engine.stats()["steps"] > 0


def test_engine_with_deep_bounds_everywhere_equals_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expected optimum when every round start's proposals get deep bounds, from the first step or after a
    few steps of the plain search (which then starts over, keeping its memo)."""
    monkeypatch.setattr(solver_module, "DEEP_BOUND_SHARE", 0.0)
    deepened = 0
    for steps in (1, 6):
        monkeypatch.setattr(solver_module, "DEEP_AFTER_STEPS", steps)
        for text in SMALL + RANDOM_SMALL:
            p = parse_problem(text)
            s = Solver(Deduction(p), "expected")
            assert s.round_value(s.d.universe) == brute_force(p, "expected"), text
            deepened += s.engine.stats()["deep"]
    assert deepened >= 16


def test_engine_with_deep_bounds_widened_after_a_while_equals_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deep bounds first near the start only, then at every round start once the search has taken
    ``DEEP_WIDER_AFTER_STEPS`` more steps: the optimum is brute force's and the engine reports the widening."""
    widened = 0
    for steps in (1, 5):
        widen_deep_bounds_after(steps, monkeypatch)
        for text in SMALL + RANDOM_SMALL:
            p = parse_problem(text)
            s = Solver(Deduction(p), "expected")
            assert s.round_value(s.d.universe) == brute_force(p, "expected"), text
            widened += s.engine.stats()["deep_codes"] == 1
    assert widened >= 16


def test_stopped_engine_bound_holds_the_start_deep_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deep bounds are memoised with the ranked proposals of their round start: stopped as its first question tree is
    searched, the engine's lower bound is the least deep bound at the start (the first proposal's, all those ranked
    below it deepened), above the least ranked bound and at most the optimum."""
    plain_deep_bounds(monkeypatch)
    monkeypatch.setattr(solver_module, "DEEP_BOUND_SHARE", 0.0)
    monkeypatch.setattr(solver_module, "DEEP_AFTER_STEPS", 1)
    p = parse_problem("N17 N34 N36 N44", nightmare=True)
    python = Solver(Deduction(p), "expected", native=False)
    exact = python.optimum()
    start = python._canon(python.d.universe)
    ranked = python._ranked[start]
    deep = {q: bound for (state, q), (bound, _) in python._deep.items() if state == start}
    # the first proposal searched: the least deep bound, all those ranked below it deepened
    least = min(deep.values())
    assert all(lb >= least for lb, _, q in ranked if q not in deep)
    s = Solver(Deduction(p), "expected")
    s.engine.set_step_limit(3)
    with pytest.raises(SearchStopped):
        s.optimum()
    low, _ = s.bounds(0)
    assert s._scale(ranked[0][0]) < low == s._scale(least) <= exact

@pytest.mark.parametrize("text, nightmare, steps", [("13/17 15/45 27/22 20/8", False, 1),
                                                    ("N17 N34 N36 N44", True, 20)])
def test_widened_deep_bounds_are_those_of_the_python_search(text: str, nightmare: bool, steps: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Widened after a few steps, the compiled search takes the same deep bounds and steps as the Python search
    (on the Nightmare set, 805 of them, 738 at round starts holding under 90 % of the codes, in 1,975 steps: 806
    widened at once, 803 after 200 steps)."""
    plain_deep_bounds(monkeypatch)
    widen_deep_bounds_after(steps, monkeypatch)
    d = Deduction(parse_problem(text, nightmare=nightmare))
    python, engine = Solver(d, "expected", native=False), Solver(d, "expected")
    first = python._deep_codes
    assert python.optimum() == engine.optimum()
    assert python._deep_codes == 0 < first and engine.engine.stats()["deep_codes"] == 1
    assert engine.engine.stats()["deep_bounds"] == len(python._deep)
    assert engine.engine.stats()["steps"] == python._ticks
    assert any(d.code_count(state) < first for state, _ in python._deep)


@pytest.mark.parametrize("text, nightmare", [("13/17 15/45 27/22 20/8", False), ("N17 N34 N36 N44", True)])
def test_deeper_bounds_are_those_of_the_python_search(text: str, nightmare: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With deep bounds from the first step, a Nightmare start's go a round deeper (each deepest node's deep floor,
    ``Solver._deep_floor``): the compiled search takes the same deep floors, deep bounds and steps as the Python
    search, to the same optimum. Extreme problems take none."""
    monkeypatch.setattr(solver_module, "DEEP_AFTER_STEPS", 1)
    d = Deduction(parse_problem(text, nightmare=nightmare))
    python, engine = Solver(d, "expected", native=False), Solver(d, "expected")
    assert python.optimum() == engine.optimum()
    stats = engine.engine.stats()
    assert stats["deep_floors"] == python.deep_floors and (python.deep_floors > 0) == nightmare
    assert stats["deep_bounds"] == len(python._deep)
    assert stats["steps"] == python._ticks


def test_deeper_bound_lies_between_the_deep_bound_and_the_value() -> None:
    """Each of the best-ranked start proposals' deep bound taken a round deeper is at least its plain deep bound and
    at most its exact cost (the engine's search of that proposal's round), and higher for most of them."""
    d = Deduction(parse_problem("N17 N34 N36 N44", nightmare=True))
    start, idx = d.universe, d.members(d.universe)
    nexts = d.distinct_proposals(idx)
    plain, deeper, exact = Solver(d, native=False), Solver(d, native=False), Solver(d)
    plain._deeper_codes = None
    ranked = deeper._ranked_proposals(start, idx)[:12]
    raised = 0
    for _, _, p in ranked:
        low, _ = plain._deep_bound(start, idx, p, nexts, solver_module._INF)
        high, whole = deeper._deep_bound(start, idx, p, nexts, solver_module._INF)
        rounds, questions, _ = exact.engine.inside_value(idx.astype(np.uint32), p, 3)
        assert low <= high <= (rounds + d.weight(start), questions) and whole, p
        raised += high > low
    assert deeper.deep_floors > 0 and raised > len(ranked) // 2


def test_engine_with_deeper_bounds_everywhere_keeps_the_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round start's deep bounds a round deeper, from the first step, on small Nightmare card sets: the expected
    optimum of the plain search (held to brute force in test_solver) and of brute force where it runs, in the
    compiled and the Python search."""
    plain = {}
    texts = ["14 17", "17 28 44", "2 10 19", "22 36 38", "4 14 25 31", "7 37 39 42"]
    for text in texts:
        s = Solver(Deduction(parse_problem(text, nightmare=True)), "expected", native=False)
        plain[text] = s.round_value(s.d.universe)
    assert plain["14 17"] == brute_force(parse_problem("14 17", nightmare=True), "expected")
    monkeypatch.setattr(solver_module, "DEEP_BOUND_SHARE", 0.0)
    monkeypatch.setattr(solver_module, "DEEPER_BOUND_SHARE", 0.0)
    monkeypatch.setattr(solver_module, "DEEP_AFTER_STEPS", 1)
    floors = 0
    for text in texts:
        for native in (True, False):
            s = Solver(Deduction(parse_problem(text, nightmare=True)), "expected", native=native)
            assert s.round_value(s.d.universe) == plain[text], (text, native)
            floors += s.engine.stats()["deep_floors"] if native else s.deep_floors
    assert floors > 0


def test_first_deep_bounds_taken_as_far_as_ranking_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where deep bounds go deeper, a proposal's first deep bound stops at the bound of the next proposal deepened
    already, and is taken further when the proposal comes first again: with deeper bounds at every round start of a
    small Nightmare set, some are, and the compiled search takes the very same deep bounds, deep floors and steps."""
    monkeypatch.setattr(solver_module, "DEEP_BOUND_SHARE", 0.0)
    monkeypatch.setattr(solver_module, "DEEPER_BOUND_SHARE", 0.0)
    monkeypatch.setattr(solver_module, "DEEP_AFTER_STEPS", 1)
    further = []
    deepen_at = Solver._deepen_at

    def recording(self: Solver, state: int, ranked: list, i: int, cap: tuple[int, int], *rest: object) -> None:
        known = self._deep.get((state, ranked[i][2]))
        further.append(known is not None and not known[1] and known[0] < cap)
        deepen_at(self, state, ranked, i, cap, *rest)

    monkeypatch.setattr(Solver, "_deepen_at", recording)
    d = Deduction(parse_problem("2 10 19 28", nightmare=True))
    python, engine = Solver(d, "expected", native=False), Solver(d, "expected")
    assert python.optimum() == engine.optimum()
    assert any(further)
    stats = engine.engine.stats()
    assert (stats["steps"], stats["deep_bounds"], stats["deep_floors"]) == \
        (python._ticks, len(python._deep), python.deep_floors)


@pytest.mark.parametrize("share", [0.0, 0.9])
def test_engine_probe_shares_keep_the_optimum(share: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Searching a question's first answer with a share of the room first (none, or most) keeps the optimum."""
    monkeypatch.setattr(solver_module, "PROBE_SHARE", share)
    for text in SMALL + RANDOM_SMALL:
        p = parse_problem(text)
        assert Solver(Deduction(p), "expected").optimum() == Solver(Deduction(p), "expected", native=False).optimum()


@pytest.mark.parametrize("objective", ["expected", "worst"])
def test_engine_memo_forgotten_when_full_keeps_the_values(objective: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its memory limit the engine forgets its memo and goes on: the same optimum, found again."""
    line = "482,#I42 8HH,->,N9,N28,N31,N40,O219,O617,O591,O433"
    d = Deduction(parse_problem(line))
    roomy = Solver(d, objective)
    exact = roomy.optimum()
    monkeypatch.setattr(solver_module, "ENGINE_MEMO_BYTES", 80_000)
    tight = Solver(d, objective)
    assert tight.optimum() == exact
    assert tight.engine.stats()["forgets"] > 0 and roomy.engine.stats()["forgets"] == 0
    assert tight.engine.stats()["memo_bytes"] <= 80_000


def test_the_memos_of_one_process_share_its_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before each search a memo may take what the other live solvers' memos leave of ENGINE_MEMO_BYTES (at least
    ENGINE_MEMO_LEAST): the worst case searched after the expected one gets the rest, and all of it once the
    expected solver is gone."""
    import gc

    monkeypatch.setattr(solver_module, "ENGINE_MEMO_BYTES", 60_000_000)
    monkeypatch.setattr(solver_module, "ENGINE_MEMO_LEAST", 20_000_000)
    gc.collect()  # solvers of earlier tests, gone, hold nothing
    d = Deduction(parse_problem("482,#I42 8HH,->,N9,N28,N31,N40,O219,O617,O591,O433"))
    expected, worst = Solver(d, "expected"), Solver(d, "worst")
    expected.optimum()
    held = expected.engine.memo_held()
    assert 4_000_000 < held < 40_000_000
    worst.optimum()
    assert worst.engine.stats()["memo_limit"] == 60_000_000 - held
    monkeypatch.setattr(solver_module, "ENGINE_MEMO_BYTES", 30_000_000)
    monkeypatch.setattr(solver_module, "ENGINE_MEMO_LEAST", 30_000_000 - held + 1)
    worst.round_value(d.universe)  # a search (memoised): its limit taken again
    assert worst.engine.stats()["memo_limit"] == 30_000_000 - held + 1  # the least a memo gets
    del expected
    gc.collect()
    worst.round_value(d.universe)
    assert worst.engine.stats()["memo_limit"] == 30_000_000
    with pytest.raises(ValueError, match="a memo limit of no bytes"):
        worst.engine.set_memo_limit(0)


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
    if not tables:
        monkeypatch.setattr(solver_module, "ENGINE_TABLE_BYTES", 0)
    by_form, every = Solver(Deduction(p), objective), Solver(plain, objective)
    assert by_form.optimum() == every.optimum() == with_tables.optimum()
    assert by_form.engine.stats()["round_starts"] < every.engine.stats()["round_starts"]
    assert by_form.engine.stats()["round_starts"] == with_tables.engine.stats()["round_starts"]


def test_engine_stops_at_its_limits_and_bounds_the_optimum() -> None:
    """Past its time limit the engine stops at once (``SearchStopped``). Stopped after a number of steps, what it
    learnt bounds the optimum from below (the least over the start's proposals of what is known of each), above the
    start's own bound and higher the longer it ran; the greedy strategy bounds it from above."""
    p = parse_problem("430,#I49 WCO,->,N19,N27,N36,N44,G751,G670,G286,G632")
    exact = Solver(Deduction(p), "expected").optimum()
    s = Solver(Deduction(p), "expected")
    s.set_time_limit(0)
    with pytest.raises(SearchStopped):
        s.optimum()
    assert s.stopped
    lows = []
    for steps in (50, 2000, 5000):
        s = Solver(Deduction(p), "expected")
        s.engine.set_step_limit(steps)
        with pytest.raises(SearchStopped):
            s.optimum()
        low, high = s.bounds(30)
        own = s._scale(s.lower_bound(s.d.universe))
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
    assert s.engine.known_move(idx) == ((0, 0), None, -1)
    value, proposal = s._native(s.engine.round_value, d.universe)
    assert s.engine.known_move(idx) == (value, value, proposal)
    low, up, verifier = s.engine.known_move(idx, proposal, 3)
    assert low == up == (value[0] - d.weight(d.universe), value[1]) and 0 <= verifier < 4
    for args in ((idx, 125, 1), (idx, 3, 4), (idx, -1, 2)):
        with pytest.raises(ValueError, match="proposal 0..124"):
            s.engine.known_move(*args)


@pytest.mark.parametrize("state", [[3, 1], [0, 0], [10**6]])
def test_engine_refuses_a_malformed_state(state: list[int]) -> None:
    s = Solver(Deduction(parse_problem("3 7 10 14")), "expected")
    with pytest.raises(ValueError, match="ascending list of class indices"):
        s.engine.round_value(np.array(state, dtype=np.uint32))


@pytest.mark.parametrize("setting", ["DEEP_AFTER_STEPS", "DEEP_WIDER_AFTER_STEPS"])
def test_engine_refuses_a_stage_of_no_steps(setting: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expected case's search runs each stage (plain, deep bounds, widened) for at least one step."""
    monkeypatch.setattr(solver_module, setting, 0)
    with pytest.raises(ValueError, match="at least one step"):
        Deduction(parse_problem("3 7 10 14")).engine(True)


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
    assert 0 < s.engine.stats()["steps"] < 100_000


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
        engine = np.array(s.engine.round_bounds(idx.astype(np.uint32)))
        assert engine[:, 0].tolist() == rounds.tolist() and engine[:, 1].tolist() == questions.tolist()
        if objective == "expected":  # the weight of the biggest cell
            assert engine[:, 2].tolist() == order.tolist()
            # as a deep bound takes them (no tie-breaks): in 32-bit lanes for a state under NARROW_WEIGHT
            bare = np.array(s.engine.round_bounds(idx.astype(np.uint32), False))
            assert bare[:, 0].tolist() == rounds.tolist() and bare[:, 1].tolist() == questions.tolist()
        else:  # the fewest codes the worst node can be held to, then that weight (scaled by 2**40, not 2**24)
            assert (engine[:, 2] >> 40).tolist() == (order >> 24).tolist()
            assert (engine[:, 2] & ((1 << 40) - 1)).tolist() == (order & ((1 << 24) - 1)).tolist()


def test_a_search_lets_other_threads_run_and_searches_in_threads_agree() -> None:
    """A search lets go of the interpreter (taking it back only to look at signals): a Python thread keeps running
    meanwhile (with it held, the thread would not run at all until the search ends). Searches started in two
    threads at once, on two engines, each give the optimum they give alone (engine work is one at a time)."""
    line = "31,#I47 S7P,->,N19,N31,N46,N48,O786,O257,O319,O591"  # about a second, expected case
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
    assert optimum == (Fraction(677, 240), Fraction(5621, 720))  # 2.821 rounds, 7.807 questions (docs/solver.md)
    found: dict[str, tuple[Fraction, Fraction]] = {}
    line = "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"  # a fraction of a second, either objective

    def solve(objective: str) -> None:
        found[objective] = Solver(Deduction(parse_problem(line)), objective).optimum()

    threads = [threading.Thread(target=solve, args=(o,)) for o in ("expected", "worst")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for objective in ("expected", "worst"):
        assert found[objective] == Solver(Deduction(parse_problem(line)), objective).optimum()


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
    bare = np.array(s.engine.round_bounds(idx.astype(np.uint32), False))
    assert bare[:, 0].tolist() == rounds.tolist() and bare[:, 1].tolist() == questions.tolist()
    assert not bare[:, 2].any()  # no tie-breaks worked out


@pytest.mark.parametrize("line", ["914,#I42 V9,->,N28,N31,N40,N44,O232,O595,O631,O530"])
def test_engine_values_along_its_worst_case_tree_equal_pythons(line: str) -> None:
    """Worst case: the engine stops at the first move under the budget and keeps such values as upper bounds; every
    value it gives while writing out its strategy (each round start's, each question's) must still be exact."""
    d = Deduction(parse_problem(line))
    s, python = Solver(d, "worst"), Solver(d, "worst", native=False)
    assert s.engine is not None
    engine, asked = s.engine, []

    class Recording:
        """The engine, recording each state it is asked to value and its answer."""

        def __getattr__(self, name: str) -> object:
            return getattr(engine, name)

        def round_value(self, classes: np.ndarray) -> tuple[int, int, int]:
            found = engine.round_value(classes)
            asked.append((classes.copy(), None, 0, found))
            return found

        def inside_value(self, classes: np.ndarray, proposal: int, left: int) -> tuple[int, int, int]:
            found = engine.inside_value(classes, proposal, left)
            asked.append((classes.copy(), proposal, left, found))
            return found

    s.optimum()
    s.engine = Recording()
    s.tree()
    assert len(asked) > 20
    for classes, proposal, left, found in asked:
        state = sum(1 << int(k) for k in classes)
        if proposal is None:
            want = python.round_value(state)
        else:
            want = python._inside_value(state, proposal, d.splits(state, proposal), left)
        assert (found[0], found[1]) == want, (len(classes), proposal, left)
