"""The pages in a real browser (headless Chromium): machine.html reads stacks as ``tmphys stack`` does, and the
companion page of ``tmphys solve --html`` follows the strategy tree and the answers.

Chromium comes from the system (Debian's ``chromium``), driven by Playwright; nothing is downloaded. Where no
browser is found the tests skip, saying why, unless ``TMPHYS_REQUIRE_BROWSER=1`` (CI), where they fail.
"""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tmphys.art import params as P
from tmphys.cards.deck import Deck, stack_for
from tmphys.cards.layout import Layout, load_layout
from tmphys.cards.stack import Placement, Raster, read_stack
from tmphys.cli.main import main
from tmphys.game.codes import ALL_CODES, Code
from tmphys.game.criteria import library, parse_id
from tmphys.web.machine_page import machine_html

LAYER_NAMES = ("blue", "yellow", "purple", "card")


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def own_layout_text() -> str:
    """A user's own layout: classic copied and edited (its name, oblong holes, wider gaps between marks)."""
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    text = text.replace('name = "classic"', 'name = "mine"', 1)
    text = text.replace("[hole]\nwidth = 3.0\nheight = 3.0", "[hole]\nwidth = 3.6\nheight = 2.6", 1)
    text = text.replace("gap = 0.3", "gap = 0.8", 1)
    return text


@pytest.fixture(scope="module")
def layouts(tmp_path_factory) -> dict[str, tuple[Layout, Path]]:
    """Each shipped layout and a user's own, with its machine.html written to a temporary folder."""
    folder = tmp_path_factory.mktemp("machine")
    (folder / "mine.toml").write_text(own_layout_text(), "utf-8")
    out = {}
    for name, source in (("classic", "classic"), ("retail", "retail"), ("mine", str(folder / "mine.toml"))):
        layout = load_layout(source)
        page = folder / f"{name}.html"
        page.write_bytes(machine_html(layout))
        out[name] = (layout, page)
    assert out["mine"][0].hole_width == 3.6 and out["mine"][0].name == "mine"
    return out


@pytest.fixture(scope="module")
def machine_pages(browser, layouts):
    """One open page per layout, kept for the module; the requests each made, to check it stays offline."""
    pages, requests = {}, {}
    for name, (_, path) in layouts.items():
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        seen: list[str] = []
        page.on("request", lambda r, seen=seen: seen.append(r.url))
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(path.as_uri() + "#code=241&card=G447")
        pages[name] = page
        requests[name] = (seen, errors)
    yield pages, requests
    for page in pages.values():
        page.close()


READ_BATCH = """(cases) => cases.map((fragment) => {
  tmphysMachine.show(fragment);
  const r = document.getElementById("reading");
  return [r.dataset.openCells, r.dataset.mark, document.getElementById("problem").textContent];
})"""


def fragment(code: str, card: str, shifts: dict[str, Placement] | None = None) -> str:
    parts = [f"code={code}", f"card={card}"]
    for name, p in (shifts or {}).items():
        parts.append(f"shift-{name}={p.dx},{p.dy},{p.rotation}")
    return "&".join(parts)


RASTERS: dict[str, Raster] = {}


def expected(deck: Deck, code: str, card: str, shifts: dict[str, Placement] | None = None) -> tuple[str, str]:
    """What ``tmphys stack`` reads (logical when aligned, the raster when shifted), as the page's attributes."""
    verification, _ = parse_id(card)
    if shifts:
        if deck.layout.source not in RASTERS:  # its pixel grid made once
            RASTERS[deck.layout.source] = Raster(deck.layout)
        raster = RASTERS[deck.layout.source]
        view = raster.view(deck, Code.parse(code), verification, tuple(shifts.get(n, Placement()) for n in LAYER_NAMES))
    else:
        view = read_stack(deck, Code.parse(code), verification)
    return ",".join(map(str, view.open_cells)), view.mark or ""


def test_the_fragment_gives_the_reading_tmphys_stack_json_gives(browser, layouts, capsys) -> None:
    """A page opened at a fragment, then sent to others, reads each stack as ``tmphys stack --json`` does. The page
    is its own: the module's shared pages are wherever earlier tests left them."""
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    page.goto(layouts["classic"][1].as_uri() + "#code=241&card=G447")
    reading = page.locator("#reading")
    status, out, _ = run(["stack", "241", "--verifier", "G447", "--json"], capsys)
    data = json.loads(out)
    assert reading.get_attribute("data-open-cells") == ",".join(map(str, data["open_cells"]))
    assert reading.get_attribute("data-mark") == data["mark"] == "pass"
    for ident in ("447", "◊447", "O577", "B416", "P585", "#577"):  # every ID form the command line takes
        page.evaluate("(f) => { location.hash = f; }", f"code=515&card={ident}")
        page.wait_for_function("(id) => decodeURIComponent(location.hash).includes(id) && "
                               "document.getElementById('card').value === id", arg=ident)
        status, out, _ = run(["stack", "515", "--verifier", ident, "--json"], capsys)
        data = json.loads(out)
        assert reading.get_attribute("data-open-cells") == ",".join(map(str, data["open_cells"])), ident
        assert reading.get_attribute("data-mark") == data["mark"], ident
    page.close()


@pytest.mark.parametrize("name", ["classic", "retail", "mine"])
def test_every_code_and_every_card_reads_as_read_stack(machine_pages, layouts, name) -> None:
    pages, _ = machine_pages
    layout, _ = layouts[name]
    deck = Deck(layout)
    cards = library().verification_cards
    cases = [(str(code), str(cards[k % len(cards)].ids["green"])) for k, code in enumerate(ALL_CODES)]
    cases += [("241", f"P{card.ids['purple']}") for card in cards]
    got = pages[name].evaluate(READ_BATCH, [fragment(c, v) for c, v in cases])
    assert [g[:2] for g in got] == [list(expected(deck, c, v)) for c, v in cases]
    assert all(len(g[0].split(",")) == 1 and g[1] in ("pass", "fail") for g in got)


SHIFTS = [
    {"blue": Placement(0.5, 0.0)},
    {"blue": Placement(1.6, 0.0), "purple": Placement(-1.6, 0.0)},        # the window closes
    {"yellow": Placement(0.0, 0.0, 3.0)},
    {"card": Placement(3.2, 3.2)},                                          # the window leaves its mark
    {"blue": Placement(6.4, 0.0), "yellow": Placement(6.4, 0.0), "purple": Placement(6.4, 0.0)},  # a misread
    {"blue": Placement(0.3, -0.4, 1.0), "yellow": Placement(-0.2, 0.1, -0.5), "purple": Placement(0.1, 0.3),
     "card": Placement(-0.3, 0.2, 0.8)},
    {"purple": Placement(2.0, 1.2, 2.0)},
]


@pytest.mark.parametrize("name", ["classic", "retail", "mine"])
def test_shifted_and_turned_stacks_read_as_the_raster(machine_pages, layouts, name) -> None:
    pages, _ = machine_pages
    layout, _ = layouts[name]
    deck = Deck(layout)
    stacks = (("241", "447"), ("335", "O577"), ("514", "B416"))
    cases = [(*stacks[k % len(stacks)], shift) for k, shift in enumerate(SHIFTS * 2)][::2 if name != "classic" else 1]
    got = pages[name].evaluate(READ_BATCH, [fragment(*c) for c in cases])
    want = [list(expected(deck, *c)) for c in cases]
    assert [g[:2] for g in got] == want
    assert len({g[0] for g in got}) > 3  # the cases show different things: whole, closed, misread, several…


def test_picking_by_tabs_typing_and_sliders(machine_pages, layouts) -> None:
    pages, _ = machine_pages
    page = pages["classic"]
    deck = Deck(layouts["classic"][0])
    page.evaluate("tmphysMachine.show('code=241&card=447')")
    reading = page.locator("#reading")
    page.get_by_role("button", name="■ yellow").click()
    page.locator("#gallery figure[data-card='■3']").click()
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == expected(deck, "231",
                                                                                                       "447")
    assert page.locator("#code").input_value() == "231"
    page.get_by_role("button", name="● purple").click()
    page.locator("#gallery figure[data-card='●5']").click()
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == expected(deck, "235",
                                                                                                       "447")
    page.locator("#code").fill("514")
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == expected(deck, "514",
                                                                                                       "447")
    page.locator("#card").fill("B416")
    page.locator("#card").press("Enter")
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == expected(deck, "514",
                                                                                                       "B416")
    card = library().verification_cards[40]
    page.locator("#card-list").select_option(str(card.ids["green"]))
    assert reading.get_attribute("data-mark") == expected(deck, "514", str(card.ids["green"]))[1]
    assert "code=514" in page.url and f"card={card.ids['green']}" in page.url  # the URL reproduces the view
    # a slider: the blue card one pitch right, the others too: the neighbour's cell shows, said as a misread
    for colour in ("blue", "yellow", "purple"):
        page.evaluate("([id, v]) => { const s = document.getElementById(id); s.value = v; "
                      "s.dispatchEvent(new Event('input')); }", [f"{colour}-x", "6.4"])
    shifts = {c: Placement(6.4, 0.0) for c in ("blue", "yellow", "purple")}
    want = expected(deck, "514", str(card.ids["green"]), shifts)
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == want
    assert "misread" in reading.text_content()
    assert "beyond" in page.locator("#blue-x-value").get_attribute("class")
    assert "beyond" not in (page.locator("#blue-y-value").get_attribute("class") or "")
    page.get_by_role("button", name="Align every layer").click()
    assert (reading.get_attribute("data-open-cells"), reading.get_attribute("data-mark")) == expected(
        deck, "514", str(card.ids["green"]))


def test_bad_fragments_say_so_and_read_nothing(machine_pages) -> None:
    pages, _ = machine_pages
    got = pages["classic"].evaluate(READ_BATCH, ["code=999&card=447", "code=241&card=X447", "code=241&card=O447",
                                                 "code=241&card=9999", "code=241&card=447&shift-blue=a,b"])
    for opened, mark, problem in got:
        assert opened == "" and mark == "" and problem
    assert "not a code" in got[0][2] and "printed in green, not yellow" in got[2][2]
    shaped = pages["classic"].evaluate(READ_BATCH, ["code=▲2 ■4 ●1 (241)&card=447", "code=▲2■4●1&card=447",
                                                    "code=▲2 ■4 ●1 (242)&card=447"])
    want = list(expected(Deck(load_layout("classic")), "241", "447"))
    assert shaped[0][:2] == shaped[1][:2] == want and shaped[2][:2] == ["", ""]


def test_the_tolerance_is_the_layouts(machine_pages, layouts) -> None:
    from tmphys.cards.check import tolerance

    pages, _ = machine_pages
    for name, page in pages.items():
        layout = layouts[name][0]
        tol = tolerance(layout, Deck(layout).hole_matrix)
        ticks = page.evaluate("[...document.querySelectorAll('#ticks-blue-x option')].map(o => +o.value)")
        assert ticks == pytest.approx([-tol.mm, 0, tol.mm])
        assert f"{np.floor(tol.mm * 100) / 100:.2f} mm" in page.locator("#tolerance-note").text_content()


def test_the_page_is_self_contained(machine_pages, layouts) -> None:
    _, requests = machine_pages
    for seen, errors in requests.values():
        assert not errors, errors
        assert seen and all(url.startswith(("file:", "data:")) for url in seen), seen
    html = layouts["classic"][1].read_text("utf-8")
    assert "<script src" not in html and "<link" not in html and "@import" not in html


def test_screenshot_shows_the_mark_through_the_window(machine_pages, layouts) -> None:
    """The look: in a screenshot, the open window shows the mark's colour, a covered cell the top card's tint."""
    pages, _ = machine_pages
    for code, card in (("241", "447"), ("231", "447")):
        for name in ("classic", "mine"):
            page, layout = pages[name], layouts[name][0]
            deck = Deck(layout)
            page.evaluate("(f) => tmphysMachine.show(f)", f"code={code}&card={card}")
            page.wait_for_function("[...document.querySelectorAll('#table img')].every(i => i.complete && "
                                   "i.naturalWidth > 0)")
            box = page.locator("#table img[data-layer=card]").bounding_box()
            frame = page.evaluate("tmphysMachine.state.card.frame")
            shot = np.asarray(Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB"))
            scale = box["width"] / frame[2]

            def window(cell: int, half: float, at=(layout, box, frame, scale, shot)) -> np.ndarray:
                lay, b, f, k, pixels = at
                c = lay.cells[cell - 1]
                x, y, r = b["x"] + (c.x - f[0]) * k, b["y"] + (c.y - f[1]) * k, half * k
                return pixels[round(y - r):round(y + r), round(x - r):round(x + r)].reshape(-1, 3)

            view = read_stack(deck, Code.parse(code), parse_id(card)[0])
            seen = window(view.open_cells[0], min(layout.hole_width, layout.hole_height) * 0.35)
            mark, other = ((P.PASS_FILL, P.FAIL_FILL) if view.mark == "pass" else (P.FAIL_FILL, P.PASS_FILL))
            assert near(seen, mark).mean() > 0.1 and not near(seen, other).any(), (name, code)
            purple = deck.holes(stack_for(Code.parse(code))[2])
            for cell in [int(k) + 1 for k in np.flatnonzero(~purple)[::17]]:
                assert near(window(cell, 1.0), P.CARD_TINT["purple"], 3).all(), (name, cell)


def near(pixels: np.ndarray, colour: str, within: int = 12) -> np.ndarray:
    rgb = np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)])
    return (np.abs(pixels.astype(int) - rgb) <= within).all(axis=-1)


def test_the_page_embeds_the_print_files_svg(layouts) -> None:
    """The pictures are render/svg's card files (without their cut lines), not a second drawing."""
    from tmphys.art import draw, svg

    layout, path = layouts["retail"]
    html = path.read_text("utf-8")
    start = html.index('<script id="machine-data" type="application/json">') + len(
        '<script id="machine-data" type="application/json">')
    data = json.loads(html[start:html.index("</script>", start)])
    deck = Deck(layout)
    assert data["punch"][7]["svg"] == svg.card_svg(draw.punch_card(deck, stack_for(Code.parse("231"))[1]),
                                                   with_cut=False)
    card = library().verification_cards[12]
    assert data["cards"][12]["svg"] == svg.card_svg(draw.verification_front(deck, card), with_cut=False)


# --- the companion page of tmphys solve --html ------------------------------------------------------------

PROBLEMS = {"classic": ["--cards", "3", "7", "10", "14"],
            "nightmare": ["--nightmare", "--cards", "3", "7", "10", "14"],
            "extreme": ["--cards", "13/17", "15/45", "27/22", "20/8"]}


@pytest.fixture(scope="module")
def companions(browser, tmp_path_factory):
    """For each problem: its page (written by ``tmphys solve --html``) open in the browser, the strategy tree the
    same command printed, and the problem's hidden assignment classes."""
    import contextlib

    from tmphys.game.problems import parse_problem

    folder = tmp_path_factory.mktemp("companion")
    pages = {}
    for name, words in PROBLEMS.items():
        path, printed = folder / f"{name}.html", io.StringIO()
        with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as exc:
            main(["solve", *words, "--steps", "200000", "--json", "--tree", "json", "--html", str(path)])
        assert not exc.value.code
        tree = json.loads(printed.getvalue())["tree"]
        cards = [w for w in words if not w.startswith("--")]
        problem = parse_problem(cards, nightmare="--nightmare" in words, cards_only=True)
        page = browser.new_page(viewport={"width": 1000, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(path.as_uri())
        pages[name] = (page, tree, problem, errors, path)
    yield pages
    for page, *_ in pages.values():
        page.close()


COMPANION_BATCH = """(cases) => cases.map((fragment) => {
  tmphysCompanion.show(fragment);
  const m = document.getElementById("next-move"), c = document.getElementById("possible-codes");
  return [m.dataset.proposal, m.dataset.verifier, m.dataset.code, c.dataset.codes,
          document.getElementById("contradiction").textContent, document.getElementById("error").textContent];
})"""

Rounds = list[tuple[str, list[tuple[str, bool]]]]


def still_possible(problem, rounds: Rounds) -> str:
    """The codes of the hidden assignments every answer agrees with (the criteria's truth), as data-codes says."""
    letters = problem.verifiers
    codes = {h.code for h in problem.hidden
             if all(h.criteria[letters.index(v)].passes(Code.parse(p)) == ok for p, answers in rounds
                    for v, ok in answers)}
    return ",".join(str(c) for c in sorted(codes, key=lambda c: c.index))


def positions(node: dict, answers: list, rounds: Rounds):
    """Every position the strategy reaches: the answers so far, the rounds they make, and the next move there
    (proposal, verifier, code) as the page should show it."""
    if "code" in node:
        yield answers, rounds, ("", "", node["code"])
        return
    if "round" in node:
        yield answers, rounds, (node["proposal"], node["then"]["ask"], "")
        yield from _asked(node["then"], answers, [*rounds, (node["proposal"], [])])
    else:
        yield answers, rounds, (rounds[-1][0], node["ask"], "")
        yield from _asked(node, answers, rounds)


def _asked(question: dict, answers: list, rounds: Rounds):
    for ok in (True, False):
        then = question["pass" if ok else "fail"]
        step = (question["ask"], ok)
        yield from positions(then, [*answers, step], [*rounds[:-1], (rounds[-1][0], [*rounds[-1][1], step])])


def moves_fragment(rounds: Rounds) -> str:
    return "moves=" + ";".join(p + (":" if a else "") + ",".join(f"{v}:{'pass' if ok else 'fail'}" for v, ok in a)
                               for p, a in rounds)


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_every_position_of_the_strategy_shows_its_next_move_and_codes(companions, name) -> None:
    page, tree, problem, errors, _ = companions[name]
    cases = list(positions(tree, [], []))
    assert len(cases) > 5
    answers = ["answers=" + ",".join(f"{v}:{'pass' if ok else 'fail'}" for v, ok in a) for a, _, _ in cases]
    moves = [moves_fragment(r) for _, r, _ in cases]
    for fragments in (answers, moves):  # the strategy's proposals implied, or written out: the same page
        got = page.evaluate(COMPANION_BATCH, fragments)
        for (a, rounds, move), shown in zip(cases, got):
            codes = still_possible(problem, rounds)
            assert tuple(shown[:3]) == move, (a, shown)
            assert shown[3] == codes and codes, (a, shown)
            assert shown[4] == "" and shown[5] == ""
    assert not errors


def test_own_proposals_narrow_the_codes_and_contradictions_are_said(companions) -> None:
    """Proposals of the player's own, answered as a hidden assignment would answer them: the codes still possible
    are those every answer allows; one answer flipped until none fits: the page says the answers contradict."""
    rng = np.random.default_rng(7)
    for name in PROBLEMS:
        page, tree, problem, errors, _ = companions[name]
        letters, cases, expect = problem.verifiers, [], []
        for _ in range(40):
            truth = problem.hidden[rng.integers(len(problem.hidden))]
            rounds: Rounds = []
            for _ in range(rng.integers(1, 4)):
                proposal = ALL_CODES[rng.integers(125)]
                asked = rng.choice(len(letters), size=rng.integers(1, 4), replace=False)
                rounds.append((str(proposal), [(letters[v], truth.criteria[v].passes(proposal)) for v in asked]))
            cases.append(moves_fragment(rounds))
            expect.append((still_possible(problem, rounds), str(truth.code)))
            flipped = [(p, [(v, not ok) for v, ok in a]) for p, a in rounds]
            if not still_possible(problem, flipped):
                cases.append(moves_fragment(flipped))
                expect.append(("", None))
        got = page.evaluate(COMPANION_BATCH, cases)
        assert any(truth is None for _, truth in expect), "no contradiction among the cases"
        for fragment, (codes, truth), shown in zip(cases, expect, got):
            assert shown[3] == codes, fragment
            if truth is None:
                assert "contradict every possible assignment" in shown[4] and shown[:3] == ["", "", ""]
            else:
                assert truth in codes.split(",") and shown[4] == ""
                assert shown[2] in ("", truth) and (shown[2] == truth) == (codes == truth)
        assert not errors


def test_a_game_played_by_clicking_finds_the_code_the_strategy_finds(companions) -> None:
    page, tree, problem, errors, path = companions["nightmare"]
    letters = problem.verifiers
    for truth in problem.hidden[::42]:
        page.goto(path.as_uri())
        page.reload()
        move = page.locator("#next-move")
        assert move.is_hidden()
        page.get_by_role("button", name="Show the best next move").click()
        assert move.is_visible()
        node, clicks = tree, 0
        while not move.get_attribute("data-code"):
            proposal, verifier = move.get_attribute("data-proposal"), move.get_attribute("data-verifier")
            if "round" in node:  # the strategy starts a round: its proposal comes with the new row
                assert proposal == node["proposal"]
                page.get_by_role("button", name="New round").click()
                node = node["then"]
            assert verifier == node["ask"]
            row = len(page.evaluate("tmphysCompanion.rounds()"))
            assert page.locator(f"input[aria-label='proposal {row}']").input_value() == proposal
            ok = truth.criteria[letters.index(verifier)].passes(Code.parse(proposal))
            page.locator(f"button.mark[data-round='{row}'][data-verifier='{verifier}']"
                         f"[data-mark='{'pass' if ok else 'fail'}']").click()
            node = node["pass" if ok else "fail"]
            clicks += 1
            assert clicks <= 12
        assert move.get_attribute("data-code") == str(truth.code) == node["code"]
        assert page.locator("#possible-codes").get_attribute("data-codes") == str(truth.code)
        assert "moves=" in page.url  # the sheet lives in the address
    assert not errors


def test_criteria_still_possible_are_struck_through_as_answers_come(companions) -> None:
    page, tree, problem, _, _ = companions["classic"]
    first = tree["proposal"]
    question = tree["then"]["ask"]
    page.evaluate("(f) => tmphysCompanion.show(f)", f"moves={first}:{question}:pass")
    v = problem.verifiers.index(question)
    allowed = {h.criteria[v].key for h in problem.hidden if h.criteria[v].passes(Code.parse(first))}
    shown = page.evaluate("(v) => [...document.querySelectorAll(`.verifier[data-verifier=${v}] li`)]"
                          ".map(li => [li.dataset.criterion, li.className])", question)
    assert shown and {key for key, cls in shown if cls == "in"} == allowed
    assert any(cls == "out" for _, cls in shown)


def test_bad_companion_fragments_say_so(companions) -> None:
    page = companions["classic"][0]
    got = page.evaluate(COMPANION_BATCH, ["moves=999:A:pass", "moves=111:Z:pass", "moves=111:A:maybe",
                                          "moves=111:A:pass,A:fail", "moves=111:A:pass,B:pass,C:pass,D:pass"])
    for shown in got:
        assert shown[5], shown  # the problem, in a line
    assert "not a code" in got[0][5] and "asked twice" in got[3][5] and "more than 3" in got[4][5]


def test_a_long_companion_link_is_refused_at_once(browser, companions) -> None:
    """A 400 kB ``#moves=`` link froze the tab for 54 s, and a game of hundreds of rounds was read: a link over
    ``MAX_FRAGMENT_CHARS`` or ``MAX_FRAGMENT_ROUNDS`` rounds is refused in one line and read as no moves."""
    from tmphys.web.machine_page import MAX_FRAGMENT_CHARS, MAX_FRAGMENT_ROUNDS

    page, *_, path = companions["classic"]
    rounds = "moves=" + ";".join(["111"] * MAX_FRAGMENT_ROUNDS)
    got = page.evaluate(COMPANION_BATCH, [rounds, rounds + ";111", "moves=" + ";".join(["111:A:pass"] * 500),
                                          "answers=" + ",".join(["A:pass"] * 700)])
    assert got[0][5] == "" and f"more than {MAX_FRAGMENT_ROUNDS} rounds" in got[1][5]
    assert all(f"more than the {MAX_FRAGMENT_CHARS} a game's moves take" in shown[5] for shown in got[2:])
    assert all(shown[3] == got[0][3] for shown in got[1:])  # read as no moves: every code of the problem possible
    page.evaluate("tmphysCompanion.show('moves=' + Array(40).fill('111').join(';'))")
    assert len(page.evaluate("tmphysCompanion.rounds()")) == MAX_FRAGMENT_ROUNDS
    page.get_by_role("button", name="New round").click()  # no round past the cap by clicking either
    assert len(page.evaluate("tmphysCompanion.rounds()")) == MAX_FRAGMENT_ROUNDS
    assert f"more than {MAX_FRAGMENT_ROUNDS} rounds" in page.locator("#error").text_content()
    page.evaluate("tmphysCompanion.show('')")
    fresh = browser.new_page()
    errors: list[str] = []
    fresh.on("pageerror", lambda e: errors.append(str(e)))
    try:  # the 400 kB link as a link: the page opens at once (a freeze would pass the 30 s every action may take)
        fresh.goto(path.as_uri() + "#moves=" + ";".join(["241:A:pass,B:fail,C:pass"] * 16_000))
        assert "not read" in fresh.locator("#error").text_content()
        assert fresh.evaluate("tmphysCompanion.rounds().length") == 0 and not errors
    finally:
        fresh.close()


def test_a_long_machine_link_is_refused_at_once(machine_pages) -> None:
    from tmphys.web.machine_page import MAX_FRAGMENT_CHARS

    pages, _ = machine_pages
    long = "code=241&card=447&shift-blue=" + ",".join(["0"] * MAX_FRAGMENT_CHARS)
    opened, mark, problem = pages["classic"].evaluate(READ_BATCH, [long])[0]
    assert (opened, mark) == ("", "") and f"a view's link holds at most {MAX_FRAGMENT_CHARS:,}" in problem
    assert pages["classic"].evaluate(READ_BATCH, ["code=241&card=447"])[0][1] == "pass"


def test_the_companion_page_is_self_contained(companions) -> None:
    for *_, errors, path in companions.values():
        html = path.read_text("utf-8")
        assert "<script src" not in html and "<link" not in html and "http" not in html.split("<script")[0]
        assert not errors


def test_solve_html_refuses_a_bad_path_before_solving(tmp_path: Path, capsys) -> None:
    (tmp_path / "folder").mkdir()
    status, out, err = run(["solve", "--cards", "3", "7", "10", "14", "--html", str(tmp_path / "folder")], capsys)
    assert status == 2 and "--html" in err and len(err.strip().splitlines()) == 1 and not out
    assert list((tmp_path / "folder").iterdir()) == []


def test_the_machine_page_fits_a_phone(browser, layouts) -> None:
    """At 360 px the stack is drawn whole (scaled to the screen), the open cell ringed, and nothing scrolls sideways."""
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(layouts["classic"][1].as_uri() + "#code=241&card=G447")
    box = page.locator("#table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    ring = page.locator("#table .ring").bounding_box()
    assert box["x"] < ring["x"] and ring["x"] + ring["width"] < box["x"] + box["width"]
    page.close()
