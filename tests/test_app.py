"""The table app (table.html) in a real browser, held to the Python model: every book problem sets up as the model
sets it up, typed problems read as ``parse_problem`` reads them, the best move and both optima are ``tmphys solve``'s,
whole games are played by tapping at phone size, Check my notes flags exactly the wrong marks, nothing goes on the
network, the installed app plays offline, and a phone's screen holds it.

Headless Chromium through Playwright (tests/conftest.py's ``browser``); one page is loaded per test and driven
through its address and taps.
"""

from __future__ import annotations

import itertools
import json
import queue
import random
import re
import threading
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from conftest import reused_tab

from tmphys.cards.layout import load_layout
from tmphys.cards.machine import Machine
from tmphys.cli.main import main
from tmphys.game.book import book_problem, book_sets
from tmphys.game.codes import Code
from tmphys.game.criteria import criteria_card
from tmphys.game.problems import Problem, ProblemError, hidden_table, parse_problem
from tmphys.solve.solver import Deduction
from tmphys.text import plural
from tmphys.web import server as site_server
from tmphys.web.table_app import site_files

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SAMPLE = Path(__file__).resolve().parent / "data" / "wasm-sample.txt"
HASH_BASE = 0x01000193


def open_app(browser, page_path: Path, fragment: str = "", viewport: dict = PHONE):
    """A page of the app, ready (its data read, the search core loaded); its errors and requests recorded."""
    page = reused_tab(browser, viewport)
    page.errors, page.requests = [], []
    page.goto(page_path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=true]", timeout=30000)
    return page


def fragment_of(ident: str, extra: str = "") -> str:
    """The app's address for a problem (URL-encoded), then ``extra``."""
    return "#problem=" + quote(ident, safe="") + extra


def go(page, fragment: str) -> None:
    """Send the open page to another fragment and wait for it to show that game."""
    page.evaluate("(f) => { location.hash = f; }", fragment)
    page.wait_for_timeout(30)


def sample_ids() -> list[str]:
    return [line for line in SAMPLE.read_text("utf-8").splitlines() if line and not line.startswith("# ")]


def round_robin(ids: list[str], count: int) -> list[str]:
    """`count` IDs taken from every set in turn (the sample lists them set by set)."""
    by_set: dict[str, list[str]] = {}
    for i in ids:
        by_set.setdefault(book_problem(i).set_name, []).append(i)
    out = [i for group in itertools.zip_longest(*by_set.values()) for i in group if i]
    return out[:count]


# --- the set-up of every book problem -------------------------------------------------------------------------

def book_cards(line: str, mode: str) -> tuple[tuple[int, ...], ...]:
    fields = line.split(",")[3:]
    numbers = [int(f.lstrip("N")) for f in fields if f[0] not in "GOBP"]
    if mode == "extreme":
        return tuple(tuple(numbers[i:i + 2]) for i in range(0, len(numbers), 2))
    return tuple(sorted((n,) for n in numbers)) if mode == "nightmare" else tuple((n,) for n in numbers)


def model_digest(problem: Problem) -> list[int]:
    """The model's classes in one number, as the page digests the search core's: a polynomial hash mod 2**32 over
    (classes, verifiers, tables, each table's four 32-bit words, then each class's code, weight and tables)."""
    t = hidden_table(problem)
    words = [len(t.codes), len(problem.cards), len(t.masks)]
    words += [(m >> s) & 0xFFFFFFFF for m in t.masks for s in (0, 32, 64, 96)]
    rows = np.column_stack([t.codes, t.weights, t.criteria]).astype(np.uint64).ravel()
    seq = np.concatenate([np.array(words, dtype=np.uint64), rows])
    powers = np.concatenate([np.cumprod(np.full(len(seq) - 1, HASH_BASE, dtype=np.uint64))[::-1],
                             np.ones(1, dtype=np.uint64)])
    return [len(t.codes), int((seq * powers).sum() & np.uint64(0xFFFFFFFF))]


@pytest.mark.parametrize("sets", [["ClassicEasy4V", "ClassicStandard5V", "ClassicHard6V", "ExtremeHard4V",
                                   "ExtremeHard5V", "ExtremeHard6V", "NightmareHard4V"],
                                  ["NightmareHard5V"], ["NightmareHard6V"]])
def test_every_book_problem_sets_up_in_the_page_as_in_the_model(browser, table_page, sets) -> None:
    """The page reads each book ID with its own book and parser and sets it up with the search core; the classes,
    their weights, truth tables and codes equal the model's (hidden_table), problem by problem. The page works while
    the model does (two processes)."""
    page = open_app(browser, table_page)
    problems = [p for name, ps in book_sets().items() if name in sets for p in ps]
    ids = [p.id for p in problems]
    page.evaluate("(ids) => { setTimeout(() => { window.__digests = tmphysApp.setupDigests(ids); }, 0); }", ids)
    want = []
    for p in problems:
        first = book_problem(p.id)  # an ID printed twice in the book names its first problem
        want.append(model_digest(Problem(first.mode, book_cards(first.line, first.mode))))
    page.wait_for_function("() => window.__digests !== undefined", timeout=240000, polling=500)
    got = page.evaluate("() => window.__digests")
    wrong = [(i, g, w) for i, g, w in zip(ids, got, want) if g != w]
    assert not wrong, wrong[:5]
    assert not page.errors
    page.close()


def test_the_pages_book_is_the_packages(browser, table_page) -> None:
    page = open_app(browser, table_page)
    lines = page.evaluate("() => tmphysApp.bookLines()")
    assert lines == [[p.id, p.line, str(p.answer)] for ps in book_sets().values() for p in ps]
    page.close()


# --- typed problems read as the command line reads them -------------------------------------------------------

def python_reading(text: str) -> dict:
    try:
        p = parse_problem(text)
    except ProblemError as e:
        return {"error": str(e)}
    return {"mode": p.mode, "cards": [list(c) for c in p.cards],
            "dealt": [d.index for d in p.dealt] if p.dealt else None, "colour": p.colour}


def typed_corpus(seed: int = 7) -> list[str]:
    """Problems as people type them, right and wrong: book IDs forgiving case and spaces, the app's text, book lines,
    criteria cards alone, and each of those broken in the ways a table breaks them."""
    rng = random.Random(seed)
    cases = ["", "   ", "#", "->", "#Z99 ZZZ", "#A46-NXF", "#a46nxf", "a46 nxf", " #C63  mo8 2 ", "#A41 182",
             "3 7 10 14", "13/17 15/45 27/22 20/8", "N3 N7 N10 N14", "N3 7 10 14", "13/17/19 15/45", "3 7 10",
             "3 3 10 14", "0 7 10 14", "49 7 10 14", "x 7 10 14", "３ 7 10 14", "A 4 447 B 9 646 C 11 566 D 14 322",
             "a 4 447 b 9 646 c 11 566 d 14 322", "A 4 447 C 9 646", "A 4 447 B 9 646 C 11 566 D 14 322 E 1 201",
             "A 4 447 B 9 646 C 11 566 D 14", "A 4 G447 B 9 O577 C 11 566 D 14 322", "A 4 Q447", "A 4 447 B",
             "A 4 5 6 447", "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754", "#A46 NXF,2,5,8", "A 4 447 # my note",
             "A 13 17 O496 B 15 45 O369 C 27 22 O338 D 20 8 O750", "13 17 15 45 27 22 20 8 O496 O369 O338 O750",
             "13 17 15 45 27 22 20 8", "A 4 ◊447 B 9 ◊646 C 11 ◊566 D 14 ◊322", "A 4 999 B 9 646 C 11 566 D 14 322",
             "1 2 3 4 5 6 7", "A 4 447 B 9 646 C 11 566 D 14 322 → x", "9 4 11 14 447 646 566 322"]
    sets = list(book_sets().values())
    for ps in sets[:7]:  # Nightmare 5V and 6V read slowly in Python: their IDs are checked above, in the page
        for p in rng.sample(ps, 6):
            fields = p.line.split(",")
            cases += [p.id, p.id.lower().replace(" ", ""), p.line]
            cards = [f for f in fields[3:] if f[0] not in "GOBP"]
            ids = [f for f in fields[3:] if f[0] in "GOBP"]
            per = 2 if p.mode == "extreme" else 1
            if p.mode != "nightmare":
                groups = [cards[i:i + per] for i in range(0, len(cards), per)]
                app = " ".join(f"{'ABCDEF'[v]} {' '.join(g)} {i}" for v, (g, i) in enumerate(zip(groups, ids)))
                cases.append(app)
                tokens = app.split()
                for _ in range(3):  # each broken once: a token dropped, two swapped, one replaced
                    broken = list(tokens)
                    k = rng.randrange(len(broken))
                    action = rng.randrange(3)
                    if action == 0:
                        del broken[k]
                    elif action == 1:
                        j = rng.randrange(len(broken))
                        broken[k], broken[j] = broken[j], broken[k]
                    else:
                        broken[k] = rng.choice(["0", "49", "x", "P999", "G", "7", "Z", "#", "//", "A"])
                    cases.append(" ".join(broken))
            cases.append(" ".join(("N" if p.mode == "nightmare" else "") + c.lstrip("N") for c in cards)
                         if per == 1 else " ".join(f"{a}/{b}" for a, b in zip(cards[::2], cards[1::2])))
            cases.append(" ".join(cards + ids[::-1]))  # verification cards in the wrong order
    return cases


def test_typed_problems_read_as_the_command_line_reads_them(browser, table_page) -> None:
    page = open_app(browser, table_page)
    cases = typed_corpus()
    got = page.evaluate("(cases) => cases.map((t) => tmphysApp.parse(t))", cases)
    wrong = [(t, g, w) for t, g in zip(cases, got) if g != (w := python_reading(t))]
    assert not wrong, wrong[:5]
    refused = sum("error" in g for g in got)
    assert 40 < refused < len(cases) - 40  # both kinds were tried
    page.close()


# --- the best move and the optima, as tmphys solve gives them ----------------------------------------------------

def cli_solve(ident: str, objective: str, capsys) -> dict:
    with pytest.raises(SystemExit):
        main(["solve", ident, "--json", "--tree", "json", "--steps", "100000", "--objective", objective])
    return json.loads(capsys.readouterr().out)


BEST_LOOP = """async (cases) => {
  const out = [];
  for (const [fragment, problem] of cases) {
    await tmphysApp.show(fragment);
    await tmphysApp.whenBest();
    const b = document.getElementById('best-move');
    out.push({problem: document.getElementById('game-state').dataset.problem, proposal: b.dataset.proposal || '',
              verifier: b.dataset.verifier || '', code: b.dataset.code || '', exact: b.dataset.exact,
              optima: JSON.parse(document.getElementById('optima').dataset.json || 'null')});
  }
  return out;
}"""


def test_the_best_move_and_both_optima_are_tmphys_solves(browser, table_page, capsys) -> None:
    """For 200 book problems across all nine sets, #best-move and #optima at the start give the proposal and first
    question of `tmphys solve --json --tree json`'s strategy and both its optima (some for the worst case)."""
    ids = round_robin(sample_ids(), 200)
    assert len({book_problem(i).set_name for i in ids}) == 9
    page = open_app(browser, table_page, viewport=DESKTOP)
    cases = [(fragment_of(i, "&ask=best" + ("&objective=worst" if k % 4 == 3 else "")), i) for k, i in enumerate(ids)]
    got = page.evaluate(BEST_LOOP, cases)
    for (fragment, ident), g in zip(cases, got):
        assert g["problem"] == ident
        objective = "worst" if "objective=worst" in fragment else "expected"
        cli = cli_solve(ident, objective, capsys)
        tree = cli["tree"]
        assert g["exact"] == "true", ident
        assert g["optima"] == cli["optimal"], ident
        if "code" in tree:
            assert g["code"] == tree["code"], ident
        else:
            first = tree["then"]
            assert (g["proposal"], g["verifier"]) == (tree["proposal"], first.get("ask", "")), (ident, objective)
    assert not page.errors
    page.close()


# --- whole games, by tapping ----------------------------------------------------------------------------------------

def tap_best(page) -> dict:
    page.click("#best")
    page.wait_for_function("() => { const b = document.getElementById('best-move'); "
                           "return b.dataset.exact && !b.dataset.pending; }", timeout=60000)
    return page.evaluate("() => ({...document.getElementById('best-move').dataset})")


def tap_to_the_code(page) -> list[dict]:
    """Play the open problem to its code as a player taps: each round's proposal and questions as the app's best move
    says, the answers read off the sheet, then the code typed; the rounds played, as ``tmphys solve --json`` lists
    them."""
    played: list[dict] = []
    for _ in range(40):
        move = tap_best(page)
        if move.get("code"):
            page.fill("#guess-input", move["code"])
            page.click("#guess-go")
            break
        if page.is_visible("#round-tools") and move.get("endRound"):
            page.click("#end-round")
        if page.is_visible("#proposer"):
            for colour, digit in zip("byp", move["proposal"]):
                page.click(f"#digits-pick button[data-colour={colour}][data-digit='{digit}']")
            page.click("#propose-go")
            played.append({"proposal": move["proposal"], "answers": []})
        page.click(f"#sheet button[data-ask={move['verifier']}]")
        cell = page.get_attribute(f"#sheet .answer[data-round='{len(played)}'][data-verifier={move['verifier']}]",
                                  "data-mark")
        played[-1]["answers"].append({"verifier": move["verifier"], "passed": cell == "pass"})
    return played


def test_whole_games_played_by_tapping_find_the_code_as_tmphys_solve_plays_them(browser, table_page, capsys) -> None:
    """20 book problems played to the code at phone size, the app as the machine: each round's proposal and
    questions tapped as the app's best move says, then the code typed; the play is tmphys solve's."""
    ids = round_robin(sample_ids(), 20)
    page = open_app(browser, table_page)
    for ident in ids:
        go(page, "#problem=" + quote(ident, safe=""))
        page.wait_for_function("(id) => document.getElementById('game-state').dataset.problem === id", arg=ident)
        played = tap_to_the_code(page)
        verdict = page.locator("#verdict")
        assert verdict.get_attribute("data-right") == "true", ident
        cli = cli_solve(ident, "expected", capsys)
        assert verdict.get_attribute("data-code") == cli["code"] == str(book_problem(ident).answer)
        assert played == cli["played"], ident
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors
    page.close()


# --- Check my notes ---------------------------------------------------------------------------------------------------

def wrong_marks(problem: Problem, rounds: list[tuple[str, list[tuple[int, bool]]]], crossed: list[str],
                out: list[str]) -> set[str]:
    """The marks that contradict the answers, by the model: a crossed digit some possible code has; a crossed
    criterion some possible assignment gives its verifier (Nightmare, "17.2": its card, before any verifier); a
    crossed card some possible pairing puts before the verifier (Nightmare, "A17")."""
    d = Deduction(problem)
    s = d.universe
    for proposal, answers in rounds:
        for v, passed in answers:
            s = d.answer(s, v, Code.parse(proposal), passed)
    alive = [d.hidden[k] for k in range(len(d.hidden)) if s >> k & 1]
    wrong = {t for t in crossed if any(str(h.code)["byp".index(t[0])] == t[1] for h in alive)}
    for t in out:
        letter = t[0] if t[0] in "ABCDEF" else ""
        card, _, index = t[len(letter):].partition(".")
        mask = criteria_card(int(card)).criteria[int(index) - 1].mask if index else None
        verifiers = ["ABCDEF".index(letter)] if letter else range(len(problem.cards))
        for h in alive:
            for v in verifiers:
                on_card = problem.mode != "nightmare" or any(p[v] == int(card) for p in h.pairings)
                if on_card and (mask is None or h.masks[v] == mask):
                    wrong.add(t)
    return wrong


def test_check_my_notes_flags_exactly_the_wrong_marks(browser, table_page) -> None:
    rng = random.Random(11)
    machine = Machine("classic")
    ids = ["#A46 NXF", "#B5K DMB", "#C63 MO8 2", "#F4R S8", "#F51 IC2 T", "#I4B ZH1", "#I4D DOH", "#A48 DRC"]
    page = open_app(browser, table_page)
    checked = 0
    for ident in ids:
        problem = parse_problem(ident)
        n = len(problem.cards)
        for _ in range(4):
            rounds = []
            for _ in range(rng.randrange(0, 3)):
                proposal = "".join(rng.choice("12345") for _ in range(3))
                asked = rng.sample(range(n), rng.randrange(1, 4))
                rounds.append((proposal, [(v, machine.ask(Code.parse(proposal), problem.dealt[v])) for v in asked]))
            crossed = sorted(rng.sample([f"{c}{d}" for c in "byp" for d in "12345"], rng.randrange(0, 8)))
            marks = []
            if problem.mode == "nightmare":  # cards before verifiers, and criteria of cards
                numbers = [c[0] for c in problem.cards]
                marks += [f"{'ABCDEF'[v]}{card}" for v in range(n) for card in numbers if rng.random() < 0.3]
                marks += [f"{card}.{i + 1}" for card in numbers for i in range(len(criteria_card(card).criteria))
                          if rng.random() < 0.4]
            else:
                for v in range(n):
                    marks += [f"{'ABCDEF'[v]}{card}.{i + 1}" for card in problem.cards[v]
                              for i in range(len(criteria_card(card).criteria)) if rng.random() < 0.3]
            moves = ";".join(p + ":" + ",".join(f"{'ABCDEF'[v]}:{'pass' if ok else 'fail'}" for v, ok in a)
                             for p, a in rounds)
            fragment = (f"{fragment_of(ident)}&moves={moves}"
                        f"&crossed={','.join(crossed)}&out={','.join(marks)}")
            go(page, fragment)
            page.click("#check")
            flagged = set(page.evaluate("() => [...document.querySelectorAll('button.wrong')]"
                                        ".map((b) => b.dataset.mark)"))
            assert flagged == wrong_marks(problem, rounds, crossed, marks), (ident, fragment)
            checked += len(crossed) + len(marks)
    assert checked > 300
    assert not page.errors
    page.close()


def test_nothing_is_deduced_for_the_player_unless_asked(browser, table_page) -> None:
    page = open_app(browser, table_page, "#problem=%23C63%20MO8%202&moves=211:A:pass,C:pass")
    assert page.get_attribute("#game-state", "data-codes") == "213 215 231 251"  # the contract, never shown
    assert page.locator("button.impossible, button.wrong").count() == 0
    assert page.text_content("#message") == "" and page.text_content("#best-move") == ""
    for code in ("213", "215", "231", "251"):
        assert code not in page.inner_text("main")
    page.click("#hint-codes")
    assert "213 215 231 251" in page.text_content("#message")
    page.close()


def test_why_says_what_rules_a_criterion_out(browser, table_page) -> None:
    """Why? names the round and answer that contradicts a criterion, the combinations the answers rule out, or the
    rule that no game can have it; and says so when nothing rules it out."""
    page = open_app(browser, table_page, "#problem=%23C63%20MO8%202&moves=211:A:pass,C:pass")
    direct = page.evaluate("() => tmphysApp.why('C31.2')")  # '■ > 1', but C passed 211
    assert "Round 1" in direct and "verifier C" in direct and "✓" in direct and "✗" in direct
    assert "Nothing rules" in page.evaluate("() => tmphysApp.why('A17.2')")  # exactly one even digit: A's
    assert "No game can give verifier A" in page.evaluate("() => tmphysApp.why('A17.1')")
    go(page, "#problem=%23C63%20MO8%202&moves=111:A:fail,D:pass")  # E was not asked, yet 'no 3' fits no more
    assert wrong_marks(parse_problem("#C63 MO8 2"), [("111", [(0, False), (3, True)])], [], ["E45.4"]) == set()
    indirect = page.evaluate("() => tmphysApp.why('E45.4')")
    assert "needs the verifiers' criteria" in indirect and "round 1" in indirect
    go(page, "#problem=%23C63%20MO8%202&moves=211:A:pass,C:pass")
    page.click("#verifiers button[data-why='C31.2']")
    assert page.text_content("#message") == direct
    page.close()


# --- a game is a link -------------------------------------------------------------------------------------------------

def test_a_bad_token_is_reported_and_the_rest_of_the_game_kept(browser, table_page) -> None:
    machine = Machine("classic")
    problem = parse_problem("#C63 MO8 2")
    a = "pass" if machine.ask(Code.parse("211"), problem.dealt[0]) else "fail"
    b = "pass" if machine.ask(Code.parse("123"), problem.dealt[1]) else "fail"
    fragment = f"#problem=%23C63%20MO8%202&moves=211:A:{a},Z:fail;9x9;123:B:{b}&crossed=b1,q7&out=A17.1,Q99.9"
    page = open_app(browser, table_page, fragment)
    error = page.text_content("#fragment-error")
    for bad in ("Z:fail", "9x9", "q7", "Q99.9"):
        assert bad in error
    state = page.evaluate("() => tmphysApp.state()")
    assert [r["proposal"] for r in state["rounds"]] == ["211", "123"] and state["crossed"] == ["b1"]
    assert state["out"] == ["A17.1"]
    assert "9x9" in page.evaluate("() => decodeURIComponent(location.hash)")  # the address is left as it was
    page.click("#digits button[data-mark=b2]")  # the player's first change writes the game kept
    assert "9x9" not in page.evaluate("() => decodeURIComponent(location.hash)")
    second = open_app(browser, table_page, page.evaluate("() => location.hash"))  # a second phone goes on
    assert second.evaluate("() => tmphysApp.state()")["crossed"] == ["b1", "b2"]
    page.close()
    second.close()


def test_a_link_to_a_problem_that_cannot_be_read_says_so_once(browser, table_page) -> None:
    """A link whose problem is refused: said once, under the problem box when no game is on the page, else above the
    game, which stays."""
    page = open_app(browser, table_page, "#problem=%23Z99%20XXX")
    said = [page.text_content(s) for s in ("#setup-error", "#fragment-error")]
    assert said[0] and not said[1], said
    assert page.is_visible("#setup-error")
    go(page, "#problem=%23C63%20MO8%202")
    go(page, "#problem=%23Z99%20XXX")
    said = [page.text_content(s) for s in ("#setup-error", "#fragment-error")]
    assert not said[0] and "Z99" in said[1], said
    assert "C63 MO8 2" in page.text_content("#problem-line")  # the game on the page stays
    page.close()


def test_a_huge_link_is_cut_and_said_quickly(browser, table_page) -> None:
    moves = ";".join(["211:A:pass"] * 40000)
    page = open_app(browser, table_page, "#problem=%23C63%20MO8%202&moves=" + moves)
    assert "at most 4,096" in page.text_content("#fragment-error")
    assert len(page.evaluate("() => tmphysApp.state()")["rounds"]) <= 40
    page.close()


# --- offline, installable, on a phone's screen ---------------------------------------------------------------------

def test_nothing_goes_on_the_network_from_the_file(browser, table_page) -> None:
    page = open_app(browser, table_page, "#problem=%23I4D%20DOH&ask=best")
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    page.click("#machine summary")  # dealt cards: the stack stands on A's card at once
    page.wait_for_selector("#machine-reading[data-mark=pass], #machine-reading[data-mark=fail]")
    assert page.input_value("#machine-verifier") == "0"
    assert {r.split(":")[0] for r in page.requests} <= {"file", "data", "blob"}
    assert [r for r in page.requests if r.startswith("file")] == [table_page.as_uri()]
    assert not page.errors
    page.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The static site (tmphys app) served on localhost, as tmphys serve serves it; its requests recorded."""
    files = site_files(load_layout("classic"))
    seen: list[str] = []
    sock = site_server.listen("127.0.0.1", 0)
    stops: queue.Queue = queue.Queue()
    thread = threading.Thread(target=site_server.serve, args=(sock, files), kwargs={"ready": stops.put, "seen": seen},
                              daemon=True)
    thread.start()
    stop = stops.get(timeout=30)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/", seen, files
    stop()
    thread.join(timeout=30)
    sock.close()


def test_the_installed_app_reloads_and_plays_with_the_network_off(browser, served) -> None:
    url, seen, files = served
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => caches.keys().then((k) => k.length > 0)")
    assert set(seen) >= {"/", "/manifest.webmanifest", "/sw.js"}
    assert {r.split("/")[2] for r in requests if r.startswith("http")} == {url.split("/")[2]}
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#problem-input", "#C63 MO8 2")
    page.click("#open-problem")
    page.click("#propose-go")
    page.click("#sheet button[data-ask=A]")
    assert page.get_attribute("#sheet .answer[data-round='1'][data-verifier=A]", "data-mark") in ("pass", "fail")
    context.close()


@pytest.mark.parametrize("ident", ["#A46 NXF", "#B5K DMB", "#C63 MO8 2", "#I64 QY3 G"])
def test_a_phones_screen_holds_the_game(browser, table_page, ident) -> None:
    """No sideways scroll at 360 px for 4 to 6 verifiers, rounds and the machine open; touch targets 44 px."""
    page = open_app(browser, table_page, "#problem=" + quote(ident, safe=""))
    page.click("#propose-go")
    page.click("#sheet button[data-ask=A]")
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = page.evaluate("""() => [...document.querySelectorAll('button, select, input:not([type=range]), summary')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.dataset.mark || e.dataset.ask || e.textContent.slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 44 || r.width < 44).map(([n]) => n)""")
    assert not small
    page.close()


def test_dark_mode_follows_the_system(browser, table_page) -> None:
    page = browser.new_page(viewport=PHONE, color_scheme="dark")
    page.goto(table_page.as_uri())
    page.wait_for_selector("body[data-ready=true]")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 24, 29)"
    page.close()


def test_the_site_lists_every_file_and_keeps_them_offline() -> None:
    files = site_files(load_layout("classic"))
    assert set(files) == {"index.html", "manifest.webmanifest", "sw.js", "icon-192.png", "icon-512.png"}
    manifest = json.loads(files["manifest.webmanifest"])
    assert manifest["start_url"] == "./index.html" and {i["src"] for i in manifest["icons"]} <= set(files)
    worker = files["sw.js"].decode()
    for name in files:
        if name != "sw.js":
            assert json.dumps(name) in worker
    index = files["index.html"].decode()
    assert "Content-Security-Policy" in index and "connect-src 'none'" in index and "'unsafe-inline'" not in \
        index.split("script-src", 1)[1].split(";", 1)[0]
    assert site_files(load_layout("classic")) == files  # the same bytes each time


# --- setting a problem up, real stacks, a search that runs out of time ------------------------------------------------

def test_dealing_one_and_typing_the_cards_open_a_problem(browser, table_page) -> None:
    page = open_app(browser, table_page)
    page.click("#setup summary >> nth=0")
    page.select_option("#deal-mode", "nightmare")
    page.select_option("#deal-verifiers", "5")
    page.click("#deal")
    dealt = page.get_attribute("#game-state", "data-problem")
    assert book_problem(dealt).set_name == "NightmareHard5V"
    page.click("#change-problem")
    page.click("#setup summary >> nth=1")
    page.select_option("#form-mode", "classic")
    for v, (card, ident) in enumerate([("4", "447"), ("9", "646"), ("11", "566"), ("14", "322")]):
        row = page.locator(f"#form-verifiers [data-form-verifier={'ABCD'[v]}]")
        row.locator("input.card").fill(card)
        row.locator("input.vid").fill(ident)
    page.click("#form-open")
    assert page.get_attribute("#game-state", "data-problem") == "A 4 447 B 9 646 C 11 566 D 14 322"
    assert page.get_attribute("#game-state", "data-codes") == " ".join(
        str(c) for c in Deduction(parse_problem("A 4 447 B 9 646 C 11 566 D 14 322")).codes(
            Deduction(parse_problem("A 4 447 B 9 646 C 11 566 D 14 322")).universe))
    page.click("#change-problem")
    page.fill("#problem-input", "A 4 447 B 9 646 C 11 566 D 14 999")
    page.click("#open-problem")
    assert page.text_content("#setup-error") == "problem: no verification card has the ID '999'"
    page.close()


def test_real_stacks_refuse_an_answer_the_dealt_card_cannot_show(browser, table_page) -> None:
    page = open_app(browser, table_page, "#problem=%23C63%20MO8%202&stacks=mine")
    page.click("#propose-go")  # 111
    truth = Machine("classic").ask(Code.parse("111"), parse_problem("#C63 MO8 2").dealt[0])
    page.click(f"#sheet button[data-note=A][data-mark={'fail' if truth else 'pass'}]")
    assert "Not what the card shows" in page.text_content("#message")
    assert page.get_attribute("#sheet .answer[data-verifier=A]", "data-mark") == ""
    page.click(f"#sheet button[data-note=A][data-mark={'pass' if truth else 'fail'}]")
    assert page.get_attribute("#sheet .answer[data-verifier=A]", "data-mark") == ("pass" if truth else "fail")
    page.close()


def test_a_search_past_its_time_says_not_proven_and_a_stop_keeps_the_best_found(browser, table_page) -> None:
    """Past its time the move is the best found, said not proven with the bounds still open (only a floor where no
    strategy is found yet); Stop ends a longer look and keeps the best move found so far (a proposal and its first
    question), said not proven."""
    page = open_app(browser, table_page, "#problem=%23I43%20BTY&ask=best&think=0.3")  # not proven in a minute
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    assert page.get_attribute("#best-move", "data-exact") == "false"
    said = page.text_content("#best-move")
    # nothing found yet: the floor on the rounds alone (a floor on the questions holds only at the same rounds)
    assert re.search(r"not proven: the search stopped at its time limit; at least \d\.\d\d rounds on average\)$",
                     said), said
    assert page.is_visible("#longer")
    page.click("#longer")
    page.click("#cancel")  # at once: the move shown stays (the longer look found nothing better yet)
    assert page.text_content("#best-move") == said.replace("the search stopped at its time limit",
                                                           "no strategy found yet")
    page.close()
    # the worst case finds a strategy at once and proves it in seconds
    page = open_app(browser, table_page, fragment_of("#I52 MPJ 8", "&objective=worst&ask=best&think=2"))
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    said = page.text_content("#best-move")
    assert page.get_attribute("#best-move", "data-exact") == "false"
    assert re.search(r"not proven: the best found so far, \d+(–\d+)? rounds?, \d+–\d+ questions at worst from here",
                     said), said
    page.click("#longer")
    # the progress line names a best found (its bounds "3 / 7", not "–") once the search has one
    page.wait_for_function("() => /best found \\d/.test(document.getElementById('progress').textContent)",
                           timeout=60000)
    assert page.get_attribute("#best-move", "data-exact") is None  # a new search: the last answer went
    page.click("#cancel")
    b = page.get_attribute
    assert b("#best-move", "data-exact") == "false" and b("#best-move", "data-pending") is None
    assert re.fullmatch(r"[1-5]{3}", b("#best-move", "data-proposal")) and b("#best-move", "data-verifier") in "ABCDE"
    said = page.text_content("#best-move")
    assert "not proven: the best found so far" in said and "at worst from here" in said, said
    assert page.text_content("#progress") == "" and not page.is_visible("#cancel")
    page.close()


def test_the_answer_speaks_of_the_objective_searched_and_the_toggle_shows_the_links(browser, table_page) -> None:
    """The objective toggled while a search runs: the answer is still the one searched, in its own terms; a link's
    objective shows in the toggle. Mid-round, an answer not proven never shows a bare "?"."""
    page = open_app(browser, table_page, fragment_of("#I51 GS5 P", "&think=2&ask=best"))
    page.wait_for_function("() => document.getElementById('best-move').dataset.pending === 'true'")
    page.select_option("#objective", "worst")
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    said = page.text_content("#best-move")
    assert "(best on average, not proven" in said and "at worst" not in said, said
    assert not re.search(r"\d{3,}", said.split("(")[1]), said  # means, not the search's totals
    page.close()
    page = open_app(browser, table_page, fragment_of("#I51 GS5 P", "&objective=worst&think=1"))
    assert page.input_value("#objective") == "worst"
    page.click("#propose-go")  # 111
    page.click("#sheet button[data-ask=A]")  # the app is the machine: it answers
    page.click("#best")
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    said = page.text_content("#best-move")
    assert "best in the worst case" in said and "?" not in said, said
    page.close()


def test_a_stop_before_anything_is_found_says_cancelled(browser, table_page) -> None:
    page = open_app(browser, table_page, fragment_of("#I64 75I B", "&ask=best&think=60"))
    page.wait_for_function("() => document.getElementById('best-move').dataset.pending === 'true'")
    page.click("#cancel")  # at once: no strategy found yet
    assert "cancelled" in page.text_content("#best-move")
    assert page.get_attribute("#best-move", "data-exact") is None
    page.close()


def test_tmphys_app_writes_the_site_and_serve_gives_its_address(tmp_path, capsys) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    with pytest.raises(SystemExit) as done:
        main(["app", "--out", str(tmp_path / "site")])
    assert done.value.code == 0
    assert {p.name for p in (tmp_path / "site").iterdir()} == {"index.html", "manifest.webmanifest", "sw.js",
                                                               "icon-192.png", "icon-512.png", "manifest.json"}
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit) as done:
        main(["app", "--out", str(tmp_path / "mine")])
    assert done.value.code == 2 and "not a tmphys build" in capsys.readouterr().err
    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "tmphys", "serve", "--port", str(port), "--host", "127.0.0.1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        lines = [server.stdout.readline() for _ in range(2)]
        assert f"http://127.0.0.1:{port}/" in lines[1]
        qr = [server.stdout.readline() for _ in range(3)]
        assert all("█" in line for line in qr)  # the address drawn as a QR code
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as response:
            assert response.read() == (tmp_path / "site" / "index.html").read_bytes()
    finally:
        os.kill(server.pid, signal.SIGINT)
        out, err = server.communicate(timeout=20)
    assert server.returncode == 130 and err.endswith("tmphys: stopped (SIGINT)\n") and "Traceback" not in err


# --- issue 53: what a player reads at the table -------------------------------------------------------------------

def tap_open(page, text: str) -> None:
    """Open a problem as a player does: Problem…, the text typed, Open."""
    if page.is_visible("#change-problem") and not page.is_visible("#problem-input"):
        page.click("#change-problem")
    page.fill("#problem-input", text)
    page.click("#open-problem")


def test_optimal_play_figures_belong_to_the_problem_on_screen(browser, table_page) -> None:
    import re

    page = open_app(browser, table_page, fragment_of("#A46 NXF"))
    assert page.text_content("#optima") == ""  # none before Best move is asked at the start
    page.click("#best")
    page.evaluate("tmphysApp.whenBest()")
    text = page.text_content("#optima")
    shown = re.fullmatch(r"Optimal play: (\d+\.\d\d) rounds, (\d+\.\d\d) questions on average; "
                         r"(\d+ rounds?), (\d+ questions?) at worst\.", text)
    assert shown, text
    model = json.loads(page.get_attribute("#optima", "data-json"))
    worst = model["worst"]  # counted as English counts: 1 round, 1 question (this problem's worst case)
    assert (shown[3], shown[4]) == (plural(worst["rounds"], "round"), plural(worst["questions"], "question"))
    assert shown[3] == "1 round"
    assert float(shown[1]) == round(model["expected"]["rounds"], 2)
    assert float(shown[2]) == round(model["expected"]["questions"], 2)
    assert "/" not in text
    page.click("#propose-go")
    page.click("[data-ask=A]")
    assert page.text_content("#optima") == text  # the problem's own figures stay while it is played
    tap_open(page, "#C63 MO8 2")  # another book ID
    assert page.text_content("#optima") == "" and page.get_attribute("#optima", "data-json") == ""
    page.click("#best")
    page.evaluate("tmphysApp.whenBest()")
    assert page.text_content("#optima") not in ("", text)
    page.click("#change-problem")
    page.click("#setup details:nth-of-type(1) summary")
    page.click("#deal")  # a new deal
    assert page.text_content("#optima") == ""
    page.click("#change-problem")
    page.click("#setup details:nth-of-type(2) summary")
    for v, card in zip("ABCD", ("4", "9", "11", "14")):
        page.fill(f"[data-form-verifier={v}] input.card", card)
    page.click("#best")  # (the game behind the panel) figures, then a problem typed by cards clears them
    page.evaluate("tmphysApp.whenBest()")
    page.click("#form-open")
    assert page.get_attribute("#game-state", "data-problem") == "A 4 B 9 C 11 D 14"
    assert page.text_content("#optima") == ""
    assert not page.errors
    page.close()


WIDER_THAN_THE_SCREEN = """() => document.documentElement.scrollWidth > innerWidth
  ? [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5
      && e.offsetParent !== null).slice(0, 3).map((e) => `${e.tagName}#${e.id}.${e.className}`) : null"""


@pytest.mark.parametrize(("lang", "width"), [("de", 320), ("ru", 320), ("el", 320), ("hu", 320), ("en", 360),
                                             ("en", 412)])
def test_nothing_runs_off_the_screen_in_any_panel(browser, table_page, lang, width) -> None:
    page = open_app(browser, table_page, f"#lang={lang}", viewport={"width": width, "height": 740})
    wide = {}

    def check(moment: str) -> None:
        found = page.evaluate(WIDER_THAN_THE_SCREEN)
        if found:
            wide[moment] = found

    page.click("#setup details:nth-of-type(1) summary")
    page.click("#setup details:nth-of-type(2) summary")
    page.select_option("#deal-mode", "classic")
    page.select_option("#deal-verifiers", "5")  # "5 verifiers, standard": the Deal button ran off at 360 px
    check("deal")
    page.select_option("#form-mode", "extreme")
    check("cards typed, Extreme")
    page.fill("#problem-input", "Q" * 300)  # an error quoting a long unbroken token
    page.click("#open-problem")
    assert page.text_content("#setup-error")
    check("error")
    page.select_option("#deal-mode", "extreme")
    page.select_option("#deal-verifiers", "6")
    page.click("#deal")
    page.click("#machine summary")
    page.wait_for_function("() => document.querySelector('#machine-picture').children.length > 0")
    check("game, machine")
    page.click("#propose-go")
    page.click("[data-ask=A]")
    check("message")
    page.click("button.why >> nth=0")
    check("why")
    page.click("#hint-codes")
    check("hint")
    assert not wide, wide
    assert not page.errors
    page.close()


def test_a_finished_game_is_finished_and_a_wrong_guess_counts_without_naming_verifiers(browser, table_page) -> None:
    ident = "#A46 NXF"
    answer = str(book_problem(ident).answer)
    wrong = "111" if answer != "111" else "222"
    page = open_app(browser, table_page, fragment_of(ident))
    page.click("#propose-go")
    page.click("[data-ask=A]")
    page.fill("#guess-input", wrong)
    page.click("#guess-go")
    shapes = "▲{} ■{} ●{}"
    assert page.text_content("#verdict") == f"Not the code: {shapes.format(*wrong)}. Play on."
    assert page.text_content("#message") == page.text_content("#verdict")  # the guess's message, not the last one
    page.click("[data-ask=B]")  # play goes on
    page.fill("#guess-input", answer)
    page.click("#guess-go")
    tally = f"Right: the code is {shapes.format(*answer)}, found in 1 round and 2 questions. 1 wrong guess before it."
    assert page.text_content("#verdict") == tally
    assert page.text_content("#message") == tally
    # finished: no question, proposal, round tool or guess is offered any more, and the tally stays
    assert page.locator("[data-ask], button.note").count() == 0
    for box in ("#proposer", "#round-tools", "#guess"):
        assert page.is_hidden(box), box
    assert f"wrong={wrong}" in page.evaluate("location.hash")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#verdict") == tally  # the link keeps the count
    assert page.locator("[data-ask]").count() == 0
    assert not page.errors
    page.close()


def test_messages_belong_to_the_moment(browser, table_page) -> None:
    page = open_app(browser, table_page, fragment_of("#A46 NXF"))
    page.click("#propose-go")
    assert page.text_content("#message").startswith("Round 1")
    tap_open(page, "#C63 MO8 2")  # opening a problem: the last problem's message goes
    assert page.text_content("#message") == ""
    page.click("#propose-go")
    page.click("[data-ask=A]")
    page.click("#check")  # a check replaces the answer's message
    assert page.text_content("#message") == "Your notes agree with the answers so far."
    page.fill("#guess-input", "543")
    page.click("#guess-go")  # a guess replaces the check's
    assert page.text_content("#message") in (page.text_content("#verdict"),)
    page.click("#change-problem")
    page.click("#setup details:nth-of-type(1) summary")
    page.click("#deal")  # a new deal
    assert page.text_content("#message") == ""
    assert not page.errors
    page.close()


def test_every_word_in_the_players_language(browser, table_page) -> None:
    from tmphys.lang.i18n import LANGUAGES

    page = open_app(browser, table_page, fragment_of("#C63 MO8 2", "&lang=de"))
    assert page.text_content("header h1") == "tmphys · Spieltisch" and page.title() == "tmphys · Spieltisch"
    line = page.text_content("#problem-line")
    assert line.startswith("#C63 MO8 2 · Klassisch, A: 17  B: 26") and "; Ergebniskarten A=" in line, line
    titles = set(page.eval_on_selector_all("h2, summary", "es => es.map((e) => e.textContent.trim())"))
    assert not titles & {"A problem", "Note sheet", "Help, when you ask", "Digits", "Criteria", "The machine",
                         "Deal me one from the book", "Type the cards"}, titles
    names = dict(page.eval_on_selector_all("#lang-pick option", "os => os.map((o) => [o.value, o.textContent])"))
    assert names == {code: lang.name for code, lang in LANGUAGES.items()}  # each in its own script
    assert names["ru"] == "Русский" and names["ja"] == "日本語"
    page.click("#change-problem")
    page.click("#setup details:nth-of-type(1) summary")
    page.select_option("#deal-mode", "nightmare")
    page.click("#deal")
    ident = page.get_attribute("#game-state", "data-problem")
    line = page.text_content("#problem-line")
    assert line.startswith(f"{ident} · Albtraum, Prüfkarten (Zuordnung unbekannt): "), line  # a dealt problem's ID
    assert not page.errors
    page.close()


def test_full_width_digits_read_as_digits(browser, table_page) -> None:
    page = open_app(browser, table_page)
    page.fill("#problem-input", "＃Ａ４６ ＮＸＦ")  # as a Japanese keyboard types it
    page.click("#open-problem")
    assert page.get_attribute("#game-state", "data-problem") == "#A46 NXF"
    page.click("#propose-go")
    page.click("[data-ask=A]")
    page.fill("#guess-input", "５１５")
    page.click("#guess-go")
    assert page.get_attribute("#verdict", "data-right") == "true"
    page.click("#change-problem")
    page.click("#setup details:nth-of-type(2) summary")
    for v, card in zip("ABCD", ("４", "９", "１１", "１４")):
        page.fill(f"[data-form-verifier={v}] input.card", card)
    page.click("#form-open")
    assert page.get_attribute("#game-state", "data-problem") == "A 4 B 9 C 11 D 14"
    assert not page.errors
    page.close()


# --- marks a player can read ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", [360, 320])
def test_the_verifiers_letters_stand_apart_from_the_digit_picker(browser, table_page, width) -> None:
    """The sheet's A–E head its columns as a table's head (a tinted band, ruled off below), and the proposal's 1–5 sit
    in their own box under a caption and a rule, well below: the letters do not read as the digits' labels."""
    page = open_app(browser, table_page, fragment_of("#B5W JM9"), viewport={"width": width, "height": 740})
    got = page.evaluate("""() => {
      const box = (e) => e.getBoundingClientRect();
      const heads = [...document.querySelectorAll('#sheet .head')];
      const digits = [...document.querySelectorAll('#digits-pick .pick-row button')];
      const caption = document.querySelector('#proposer .caption');
      const style = (e) => getComputedStyle(e);
      return {
        heads: heads.map((e) => e.textContent).join(''),
        gap: Math.min(...digits.map((e) => box(e).top)) - Math.max(...heads.map((e) => box(e).bottom)),
        captionBetween: box(caption).top >= Math.max(...heads.map((e) => box(e).bottom))
          && box(caption).bottom <= Math.min(...digits.map((e) => box(e).top)) && caption.offsetParent !== null,
        rule: [style(document.querySelector('#proposer')).borderTopStyle,
               parseFloat(style(document.querySelector('#proposer')).borderTopWidth)],
        headRule: parseFloat(style(heads[0]).borderBottomWidth),
        headLook: [style(heads[0]).backgroundColor, style(heads[0]).borderTopWidth, style(heads[0]).fontSize],
        digitLook: [style(digits[0]).backgroundColor, style(digits[0]).borderTopWidth, style(digits[0]).fontSize],
      };
    }""")
    assert got["heads"] == "ABCDE"
    assert got["gap"] >= 24, got
    assert got["captionBetween"], got
    assert got["rule"][0] != "none" and got["rule"][1] >= 1, got
    assert got["headRule"] >= 2, got
    assert all(h != d for h, d in zip(got["headLook"], got["digitLook"])), got  # not styled as the buttons are
    assert not page.errors
    page.close()


INK_CHECK = """() => {
  const ink = JSON.parse(document.getElementById('app-data').textContent).colours.ink;
  const shapes = JSON.parse(document.getElementById('app-data').textContent).shapes;
  const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  const want = { [shapes.blue]: rgb(ink.blue), [shapes.yellow]: rgb(ink.yellow), [shapes.purple]: rgb(ink.purple) };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const wrong = [];
  let seen = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (parent.closest('script, [hidden]')) continue;
    for (const ch of node.data) {
      if (!(ch in want)) continue;
      seen += 1;
      const colour = getComputedStyle(parent).color;
      if (colour !== want[ch]) wrong.push([ch, colour, parent.tagName, parent.className, node.data.slice(0, 30)]);
    }
  }
  return { seen, wrong: wrong.slice(0, 8) };
}"""


def test_every_shape_is_written_in_its_colour(browser, table_page) -> None:
    """▲ ■ ● in blue, yellow and purple (the page data's colours.ink) wherever the app writes them: the digits, the
    proposer and its button, the sheet's rounds, the criteria, Why?, the hints, the best move, the verdict, the
    machine, the message line."""
    page = open_app(browser, table_page, fragment_of("#C63 MO8 2", "&moves=211:A:pass,C:pass;&think=0.5&ask=best"))
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    seen = 0

    def check(moment: str) -> None:
        nonlocal seen
        got = page.evaluate(INK_CHECK)
        assert not got["wrong"], (moment, got["wrong"])
        seen += got["seen"]

    check("best move")
    assert "▲" in page.text_content("#best-move")
    page.click("#verifiers button[data-why='C31.2']")  # '■ > 1', ruled out by round 1: the message names both
    assert "■" in page.text_content("#message")
    check("why")
    page.click("#hint-criteria")
    check("hint")
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    check("machine")
    page.click("#propose-go")
    check("proposed")
    page.fill("#guess-input", "111")
    page.click("#guess-go")
    assert "▲" in page.text_content("#verdict")
    check("verdict")
    assert seen > 150
    assert not page.errors
    page.close()


def test_verification_card_ids_are_written_with_their_colours_letter(browser, table_page) -> None:
    """A yellow ID is O587, never #587 (which reads as a book ID such as #A46 NXF): in the problem line, the criteria
    panel, the machine's picker and reading, a refused answer; the problem panel explains the cards' signs."""
    page = open_app(browser, table_page, fragment_of("#B5W JM9"))
    legend = page.text_content("#id-legend")
    for part in ("G green", "(◊", "O yellow", "(#)", "B blue", "(/)", "P purple", "(¤)"):
        assert part in legend, legend
    page.click("#machine summary")
    page.select_option("#machine-verifier", "0")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    page.click("#stacks")  # real stacks: an answer the card cannot show is refused, naming the card
    page.click("#propose-go")
    page.click("#sheet button.note.pass[data-note=A]")
    page.click("#sheet button.note.fail[data-note=A]")
    text = page.evaluate("""() => document.body.innerText + ' ' +
      [...document.querySelectorAll('option')].map((o) => o.textContent).join(' ')""")
    assert re.search(r"A=O327 B=O252 C=O369 D=O402 E=O523", text), text[:300]
    assert "O327" in page.text_content("#verifiers") and "O327" in page.text_content("#machine-verifier")
    assert "O327" in page.text_content("#machine-reading") or "O327" in page.text_content("#message")
    assert not re.search(r"#\s*\d", text), re.findall(r".{20}#\s*\d.{10}", text)
    de = open_app(browser, table_page, "#lang=de")
    assert "G grün" in de.text_content("#id-legend")
    assert not page.errors and not de.errors
    page.close()
    de.close()


@pytest.mark.parametrize("width", [360, 320])
def test_every_collapsible_section_shows_that_it_opens(browser, table_page, width) -> None:
    """Each collapsible header wears a chevron: ▸ closed, ▾ open."""
    page = open_app(browser, table_page, viewport={"width": width, "height": 740})
    chevron = "(s) => getComputedStyle(s, '::before').content"
    seen = 0
    for moment in ("problem panel", "game"):
        if moment == "game":
            tap_open(page, "#C63 MO8 2")
        summaries = page.locator("details > summary:visible")
        for i in range(summaries.count()):
            s = summaries.nth(i)
            assert s.evaluate(chevron) == '"▸"', (moment, s.text_content())
            s.click()
            assert s.evaluate(chevron) == '"▾"', (moment, s.text_content())
            box = s.evaluate("(s) => [s.getBoundingClientRect().height, document.documentElement.scrollWidth]")
            assert box[0] >= 44 and box[1] <= width
            s.click()
            assert s.evaluate(chevron) == '"▸"'
            seen += 1
    assert seen == page.locator("details").count() == 3
    assert not page.errors
    page.close()


def test_back_closes_a_panel_and_steps_back_through_the_problems(browser, table_page) -> None:
    """The browser's (or a phone's) Back stays in the app: it closes the panel opened last, and after a second
    problem was opened reopens the first as it was left (its rounds kept)."""
    page = open_app(browser, table_page, fragment_of("#C63 MO8 2"))
    start = page.url.split("#")[0]

    def back() -> None:
        page.go_back()
        page.wait_for_timeout(150)

    page.click("#propose-go")
    page.click("[data-ask=A]")
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    page.click("#end-round")  # a move while the machine is open: the game's address follows it
    back()
    assert not page.evaluate("document.getElementById('machine').open")
    assert page.get_attribute("#game-state", "data-problem") == "#C63 MO8 2"
    assert page.evaluate("tmphysApp.state().rounds.length") == 1 and "moves=" in page.url  # the move kept
    page.click("#change-problem")
    assert page.is_visible("#setup")
    back()
    assert page.is_hidden("#setup") and page.get_attribute("#game-state", "data-problem") == "#C63 MO8 2"
    tap_open(page, "#A46 NXF")
    page.click("#propose-go")
    assert page.get_attribute("#game-state", "data-problem") == "#A46 NXF"
    back()
    assert page.get_attribute("#game-state", "data-problem") == "#C63 MO8 2"  # the first problem, as it was left
    state = page.evaluate("tmphysApp.state()")
    assert [r["proposal"] for r in state["rounds"]] == ["111"] and state["rounds"][0]["answers"]
    assert page.is_visible("#setup")  # the problem panel it was opened from, open again; Back closes it
    back()
    assert page.is_hidden("#setup") and page.get_attribute("#game-state", "data-problem") == "#C63 MO8 2"
    assert page.url.startswith(start)
    page.go_forward()
    page.wait_for_timeout(150)
    page.go_forward()
    page.wait_for_timeout(150)
    assert page.get_attribute("#game-state", "data-problem") == "#A46 NXF"
    assert page.evaluate("tmphysApp.state().rounds.length") == 1
    assert not page.errors
    page.close()
