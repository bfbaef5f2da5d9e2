"""Users' own criteria cards in the table app (issue 52 item 7), in Chromium at phone size: a table.html built with a
criteria file plays a problem of its cards typed as text as ``tmphys solve --criteria`` plays it; the published-only
table.html opens a link carrying the cards (written by ``table_app.game_link``) and plays it to the code; and a bad
link's criteria are refused in one line, its words never read as markup, nothing run or fetched.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from conftest import made_once
from test_app import open_app, tap_best, tap_to_the_code

from tmphys.cards.layout import load_layout
from tmphys.cli.main import main
from tmphys.game.criteria import load_library
from tmphys.game.problems import parse_problem
from tmphys.web.table_app import game_link, table_html

NEW_FAMILIES = Path(__file__).resolve().parent.parent / "examples" / "criteria" / "new-families.toml"
#: A Classic problem of cards 49..52 of the example file, its verification cards dealt (the code is 214).
TEXT = "A 49 1201 B 50 9752 C 51 1301 D 52 3361"


@pytest.fixture(scope="module")
def own_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """table.html built with the example criteria file, as `tmphys build --criteria FILE` writes it."""
    def make(folder: Path) -> None:
        lib = load_library([str(NEW_FAMILIES)])
        (folder / "table.html").write_bytes(table_html(load_layout("classic"), criteria=lib))

    return made_once(tmp_path_factory, "table-page-own-criteria", make) / "table.html"


def own_problem():
    return parse_problem(TEXT, criteria=load_library([str(NEW_FAMILIES)]))


def cli_solve(objective: str, capsys) -> dict:
    with pytest.raises(SystemExit):
        main(["solve", TEXT, "--criteria", str(NEW_FAMILIES), "--json", "--tree", "json", "--objective", objective])
    return json.loads(capsys.readouterr().out)


def test_a_page_built_with_users_cards_plays_a_problem_of_them_typed_as_text(browser, own_page, capsys) -> None:
    page = open_app(browser, own_page)
    page.fill("#problem-input", TEXT)
    page.click("#open-problem")
    page.wait_for_function("(t) => document.getElementById('game-state').dataset.problem === t", arg=TEXT)
    # the cards' own words, as text; Share's link carries the cards as the Python writer writes them
    assert "▲ + ■ compared with 5" in page.text_content("#verifiers")
    assert page.evaluate("location.hash") == game_link(own_problem(), text=TEXT)
    move = tap_best(page)
    cli = cli_solve("expected", capsys)
    first = cli["tree"]["then"]
    assert (move["proposal"], move["verifier"]) == (cli["tree"]["proposal"], first.get("ask", ""))
    assert move["exact"] == "true"
    assert json.loads(page.get_attribute("#optima", "data-json")) == cli["optimal"]
    # Check, Why? and a hint answer as for published cards
    page.click("#check")
    assert page.get_attribute("#message", "data-kind") == "ok"
    page.click("#verifiers button.why >> nth=0")
    assert page.get_attribute("#message", "data-kind") == "why" and "▲ + ■ < 5" in page.text_content("#message")
    page.click("#hint-codes")
    assert "125 codes still possible" not in page.text_content("#message")
    assert not page.errors
    page.close()


def test_the_published_page_opens_a_link_carrying_users_cards_and_plays_it_to_the_code(browser, table_page,
                                                                                       capsys) -> None:
    link = game_link(own_problem())
    page = open_app(browser, table_page, link)
    assert page.get_attribute("#game-state", "data-problem") == "A 49 1201 B 50 9752 C 51 1301 D 52 3361"
    assert page.evaluate("location.hash") == link  # the page's writer writes what the Python one wrote
    page.click("#machine summary")  # the machine stacks on a card the link carried: read and ringed, no picture
    page.select_option("#machine-verifier", "0")
    assert page.get_attribute("#machine-reading", "data-mark") in ("pass", "fail")
    assert page.evaluate("[...document.querySelectorAll('#machine-picture img')].every((i) => "
                         "getComputedStyle(i).visibility === 'hidden' || (i.complete && i.naturalWidth > 0))")
    page.click("#machine summary")
    played = tap_to_the_code(page)
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-right") == "true"
    cli = cli_solve("expected", capsys)
    assert verdict.get_attribute("data-code") == cli["code"] == "214"
    assert played == cli["played"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not page.errors
    page.close()


def _edited(change) -> str:
    value = game_link(own_problem()).split("criteria=")[1]
    data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    change(data)
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(blob).decode().rstrip("=")


def test_a_bad_links_criteria_are_refused_in_one_line_and_its_words_stay_text(browser, table_page) -> None:
    def mask(m: str):
        return lambda d: d["cards"][0]["criteria"][0].update(mask=m)

    bad = {"long": "A" * 5000, "base64": "not*base64!", "zero": _edited(mask("0")),
           "every": _edited(mask(format(2**125 - 1, "x"))),
           "clash": _edited(lambda d: d["verification"][0]["ids"].__setitem__(0, 447))}
    page = open_app(browser, table_page)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for name, value in bad.items():
        page.evaluate("(f) => tmphysApp.show(f)", f"#problem={TEXT.replace(' ', '%20')}&criteria={value}")
        message = page.text_content("#message")
        assert message.startswith("This link's own criteria cards cannot be read"), (name, message)
        assert "\n" not in message and len(message) < 300, name
        assert page.get_attribute("#game-state", "data-problem") == "", name
    # the rest of the app keeps working
    page.fill("#problem-input", "#C63 MO8 2")
    page.click("#open-problem")
    assert page.get_attribute("#game-state", "data-problem") == "#C63 MO8 2"
    # a title written as markup is shown as the characters it is
    html = "<img src=x onerror=alert(1)>"
    value = _edited(lambda d: d["cards"][0].update(title={"en": html}))
    page.evaluate("(f) => tmphysApp.show(f)", f"#problem={TEXT.replace(' ', '%20')}&criteria={value}")
    assert page.get_attribute("#game-state", "data-problem") == TEXT
    assert f"card 49: {html}" in page.text_content("#verifiers")
    assert page.locator("#verifiers img").count() == 0
    page.wait_for_timeout(200)
    assert not dialogs and not page.errors
    assert {r.split(":")[0] for r in page.requests} <= {"file", "data", "blob"}
    page.close()
