"""The table app read as a new player reads it, in Chromium: a refusal in the player's language, every field's hint
and label whole, the last guess's verdict gone when a new one is refused, unproven figures with their bounds."""

from __future__ import annotations

import re

import pytest
from test_app import PHONE, fragment_of, open_app

from tmphys.lang.i18n import _, language


def refusal(code: str, key: str, **params: str) -> str:
    """The line the page should show for a refusal, from the catalogue (what the Python side translates)."""
    with language(code):
        return _("problem: {why}").format(why=_(key).format(**params))


@pytest.mark.parametrize("code", ["de", "ja", "th"])
def test_a_problem_that_cannot_be_read_says_why_in_the_players_language(browser, table_page, code) -> None:
    page = open_app(browser, table_page, f"#lang={code}")
    for typed, key, params in [
        ("hello", "not a criteria card number or verification card ID: {token}", {"token": "'hello'"}),
        ("3 7 99 14", "no criteria card {n} (criteria cards are numbered {numbers})", {"n": "99", "numbers": "1..48"}),
        ("#F4B LQ2", "{id} is not an ID of the published problem book: only its IDs are read offline; for another "
         "problem type its cards, e.g. 'A 4 447 B 9 646 C 11 566 D 14 322' or '3 7 10 14'", {"id": "'#F4B LQ2'"}),
        ("3 7 10", "a problem has 4–6 verifiers, not {n}: no valid game uses these criteria cards", {"n": "3"}),
    ]:
        page.fill("#problem-input", typed)
        page.click("#open-problem")
        said = page.text_content("#setup-error")
        assert said == refusal(code, key, **params), typed
        assert said != refusal("en", key, **params)
    assert not page.errors
    page.close()


@pytest.mark.parametrize("code", ["de", "th", "ja"])
@pytest.mark.parametrize("width", [320, 360])
def test_every_field_shows_its_whole_hint_and_every_slider_label_its_whole_words(browser, table_page, code,
                                                                                 width) -> None:
    page = open_app(browser, table_page, fragment_of("#C63 MO8 2", f"&lang={code}"),
                    viewport={"width": width, "height": 740})
    page.wait_for_selector(f"html[data-fonts~='{code}']" if code != "de" else "html[data-fonts]")
    page.click("#change-problem")
    page.click("#type-cards summary")
    for mode in ("classic", "extreme"):
        page.select_option("#form-mode", mode)
        cut = page.evaluate("""() => [...document.querySelectorAll('#form-verifiers input, #problem-input')]
          .filter((i) => {
          const c = document.createElement('canvas').getContext('2d');
          c.font = getComputedStyle(i).font;
          const s = getComputedStyle(i);
          const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
          return c.measureText(i.placeholder).width > room + 1;
        }).map((i) => i.placeholder)""")
        assert cut == [], (mode, cut)
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    broken = page.evaluate("""() => [...document.querySelectorAll('#machine-sliders .slider span')].filter((s) => {
      const r = document.createRange();
      r.selectNodeContents(s);
      return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1;  // more than one line
    }).map((s) => s.textContent)""")
    assert broken == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not page.errors
    page.close()


def test_the_problem_boxs_example_is_whole_where_it_fits_and_the_book_id_where_not(browser, table_page) -> None:
    wide = open_app(browser, table_page, "", viewport={"width": 1280, "height": 900})
    assert wide.get_attribute("#problem-input", "placeholder") == "#C63 MO8 2 · A 4 447 B 9 646 …"
    wide.close()
    phone = open_app(browser, table_page, "", viewport={"width": 320, "height": 740})
    assert phone.get_attribute("#problem-input", "placeholder") == "#C63 MO8 2"
    phone.close()


def test_a_refused_guess_takes_the_last_verdict_away(browser, table_page) -> None:
    page = open_app(browser, table_page, fragment_of("#C63 MO8 2"))
    page.fill("#guess-input", "555")
    page.click("#guess-go")
    assert page.get_attribute("#verdict", "data-right") == "false" and page.text_content("#verdict")
    page.fill("#guess-input", "12")
    page.click("#guess-go")
    assert page.get_attribute("#message", "data-kind") == "refused"
    assert page.text_content("#verdict") == ""
    page.close()


def test_figures_not_proven_show_their_open_bounds(browser, table_page) -> None:
    """A hard Nightmare problem given one second: the optima say what is known, a range or a floor, never a bare
    "?", and that they are not proven."""
    page = open_app(browser, table_page, fragment_of("#I64 75I B", "&think=1&ask=best"), viewport=PHONE)
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    said = page.text_content("#optima")
    assert "?" not in said and "(not proven)" in said, said
    assert "–" in said or "≥" in said, said
    page.close()


def test_the_search_and_the_machine_speak_the_players_language(browser, table_page) -> None:
    """In German: the progress line's figures with a decimal comma; the machine's pictures named for a screen reader
    in German."""
    page = open_app(browser, table_page, fragment_of("#I64 75I B", "&lang=de&think=3&ask=best"))
    page.wait_for_function("() => document.getElementById('progress').textContent.includes(' / ')", timeout=30000)
    progress = page.text_content("#progress")
    assert re.search(r"\d,\d{3} / \d+,\d{3}", progress), progress
    page.wait_for_selector("#best-move[data-exact]", timeout=60000)
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    alts = page.eval_on_selector_all("#machine-picture img", "(imgs) => imgs.map((i) => i.alt)")
    with language("de"):
        assert alts == [_("verification card"), *(f"{s} {_(c)}" for s, c in (("▲", "blue"), ("■", "yellow"),
                                                                              ("●", "purple")))]
    assert not page.errors
    page.close()
