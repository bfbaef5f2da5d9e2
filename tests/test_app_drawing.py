"""What the table app draws with, in Chromium: its own drawing of the cards (web/card_art.py, cardart.js), the same
picture as the print files' for every punch card and verification card front; its own fonts (lang/fonts/app-*.woff2),
which hold every letter it shows in Japanese, Korean, Chinese, Thai and Greek, read only for that language."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest
from fontTools.ttLib import TTFont
from test_app import fragment_of, open_app

from tmphys.art import draw
from tmphys.art.svg import card_svg
from tmphys.cards.deck import PUNCH_CARDS, Deck
from tmphys.cards.layout import load_layout
from tmphys.lang.fonts.make_subsets import app_characters
from tmphys.lang.i18n import LANGUAGES
from tmphys.web.card_art import without_words
from tmphys.web.table_app import APP_FONTS, NAME_FONTS

#: Pixels per mm the pictures are compared at (a card, 75 x 118 mm with its tab, is 300 x 472 pixels).
SCALE = 4
#: A pixel differs when a channel differs by more than this (anti-aliasing aside, the pictures are the same paths).
CHANNEL = 48

COMPARE = """async ([a, b, scale, channel]) => {
  const load = (svg) => new Promise((ok, fail) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => fail(new Error("a picture did not load"));
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  });
  const [x, y] = await Promise.all([load(a), load(b)]);
  const pixels = (img) => {
    const c = document.createElement("canvas");
    c.width = Math.round(img.naturalWidth / 3.7795 * scale);
    c.height = Math.round(img.naturalHeight / 3.7795 * scale);
    const g = c.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, c.width, c.height);
    g.drawImage(img, 0, 0, c.width, c.height);
    return g.getImageData(0, 0, c.width, c.height).data;
  };
  const p = pixels(x), q = pixels(y);
  if (p.length !== q.length) return -1;
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.abs(p[i] - q[i]) > channel || Math.abs(p[i + 1] - q[i + 1]) > channel ||
        Math.abs(p[i + 2] - q[i + 2]) > channel) differ++;
  }
  return differ;
}"""


@pytest.fixture(scope="module")
def drawn(browser, table_page):
    page = open_app(browser, table_page)
    yield page
    page.close()


def _differ(page, mine: str, printed: str) -> int:
    return page.evaluate(COMPARE, [mine, printed, SCALE, CHANNEL])


@pytest.fixture(scope="module")
def printed():
    """Every punch card and verification card front as the print files draw them, without their words (the app
    speaks its reader's language: web/card_art.without_words)."""
    deck = Deck(load_layout("classic"))
    return {"punch": [card_svg(without_words(draw.punch_card(deck, c)), with_cut=False) for c in PUNCH_CARDS],
            "cards": [card_svg(without_words(draw.verification_front(deck, v)), with_cut=False)
                      for v in deck.verification_cards]}


@pytest.mark.parametrize("kind", ["punch", "cards"])
def test_the_app_draws_every_card_as_the_print_files_do(drawn, printed, kind) -> None:
    for index, svg in enumerate(printed[kind]):
        mine = drawn.evaluate("([k, i]) => tmphysApp.cardSvg(k, i)", [kind, index])
        differ = _differ(drawn, mine, svg)
        assert 0 <= differ <= 12, f"{kind} {index}: {differ} pixels differ from the print file's picture"
    assert not drawn.errors


def test_the_comparison_sees_one_hole_one_mark_and_one_word(drawn, printed, classic_machine) -> None:
    """Two punch cards of a colour differ by a few holes, two verification cards by a few cells, the print file's
    picture from the app's by its words: each shows."""
    blue1 = drawn.evaluate("tmphysApp.cardSvg('punch', 0)")
    assert _differ(drawn, blue1, printed["punch"][1]) > 100
    assert _differ(drawn, blue1, classic_machine["punch"][0]["svg"]) > 100  # "blue" and the footer
    first = drawn.evaluate("tmphysApp.cardSvg('cards', 0)")
    faces = [c["face"] for c in classic_machine["cards"]]
    near = min(range(1, len(faces)), key=lambda i: sum(a != b for a, b in zip(faces[0], faces[i])))
    assert _differ(drawn, first, printed["cards"][near]) > 100


def test_the_page_carries_no_card_pictures_but_their_parts(table_page, classic_machine) -> None:
    html = table_page.read_text("utf-8")
    assert "verification-001-front" not in html and "punch-blue-1" not in html
    assert len(table_page.read_bytes()) < sum(len(c["svg"]) for c in classic_machine["cards"]) / 2


# --- fonts ------------------------------------------------------------------------------------------------------

def _cmap(name: str) -> set[int]:
    with resources.files("tmphys.lang.fonts").joinpath(f"app-{name}.woff2").open("rb") as f:
        return set(TTFont(f).getBestCmap())


def _letters(text: str) -> set[str]:
    """The letters and marks past Latin-1 (what a phone may lack a font for; ▲, ✓ and punctuation aside)."""
    return {c for c in text if ord(c) > 0xFF and unicodedata.category(c)[0] in "LM"}


NAMES = set().union(*(_cmap(n) for n in NAME_FONTS))


@pytest.mark.parametrize("code", APP_FONTS)
def test_each_font_holds_every_letter_of_its_languages_words(code) -> None:
    missing = sorted(c for c in _letters("".join(app_characters(code))) if ord(c) not in _cmap(code))
    assert missing == [], f"app-{code}.woff2 lacks {''.join(missing)}: run tmphys/lang/fonts/make_subsets.py --app"


def test_the_pickers_fonts_hold_every_languages_name() -> None:
    names = "".join(lang.name for lang in LANGUAGES.values())
    assert sorted(c for c in _letters(names) if ord(c) not in NAMES) == []


@pytest.mark.parametrize("code", ["ja", "th", "el"])
def test_every_letter_the_app_shows_is_in_its_own_fonts(browser, table_page, code) -> None:
    """A problem open, its criteria listed, the machine's panel open: every letter on the page is one the page's
    fonts hold, and the page has loaded its language's font (on a machine with no font for the script, it is what
    draws them)."""
    page = open_app(browser, table_page, fragment_of("#C63 MO8 2", f"&lang={code}"))
    page.wait_for_selector(f"html[data-fonts~='{code}']")
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    shown = page.evaluate("""() => {
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const out = [];
      while (walk.nextNode()) if (!["SCRIPT", "STYLE"].includes(walk.currentNode.parentElement.tagName)) {
        out.push(walk.currentNode.data);
      }
      for (const e of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
        out.push(e.getAttribute("aria-label") || "", e.getAttribute("placeholder") || "", e.title || "");
      }
      return out.join(" ");
    }""")
    own = _cmap(code) | NAMES
    assert len(_letters(shown)) > 40
    assert sorted(c for c in _letters(shown) if ord(c) not in own) == []
    assert not page.errors
    page.close()


def test_a_languages_font_is_read_only_for_that_language(browser, table_page) -> None:
    page = open_app(browser, table_page, "#lang=en")
    page.wait_for_selector("html[data-fonts]")
    assert page.get_attribute("html", "data-fonts").split() == list(NAME_FONTS)
    families = page.evaluate("[...document.fonts].map((f) => f.family.replaceAll('\"', ''))")
    assert sorted(families) == sorted(f"tmphys-{n}" for n in NAME_FONTS)
    page.close()
    page = open_app(browser, table_page, "#lang=ko")
    page.wait_for_selector("html[data-fonts~=ko]")
    families = page.evaluate("[...document.fonts].map((f) => f.family.replaceAll('\"', ''))")
    assert sorted(families) == sorted(["tmphys-ko", *(f"tmphys-{n}" for n in NAME_FONTS)])
    page.close()
