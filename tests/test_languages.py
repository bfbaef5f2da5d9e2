"""Every table's language: each catalogue translates every word, keeps its placeholders and its plural rule; every
language's kit fits its boxes in fonts that hold its characters; a real Japanese kit and a French booklet read in
their language; the table app speaks the browser's language, or the one picked, and still fits a phone."""

from __future__ import annotations

import gettext
import os
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import made_once, run_tmphys
from fontTools.ttLib import TTFont

from tmphys.art.params import PAPERS
from tmphys.cards.layout import load_layout
from tmphys.lang import catalogue
from tmphys.lang.glyphs import SCRIPT_FONTS, SYMBOLS, ZERO_WIDTH_SPACE, font_path
from tmphys.lang.i18n import DEFAULT, LANGUAGES, _, language, ngettext, page_messages, plural_table
from tmphys.print.fit_report import fit_report

TRANSLATED = [code for code in LANGUAGES if code != DEFAULT]
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@pytest.fixture(scope="module")
def template():
    """Every msgid the sources hold, extracted once."""
    return catalogue.template()


def translations(code: str):
    """(msgid, [translations]) for every entry of a catalogue."""
    for message in catalogue.read_catalog(code):
        if message.id:
            strings = list(message.string) if isinstance(message.string, tuple | list) else [message.string]
            yield message.id, strings


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalogue_translates_every_word_the_sources_hold(template, code, monkeypatch) -> None:
    catalog = catalogue.read_catalog(code)
    wanted = {catalogue.msgid_key(m.id) for m in template if m.id}
    held = {catalogue.msgid_key(m.id) for m in catalog if m.id}
    assert wanted == held, (sorted(wanted - held)[:5], sorted(held - wanted)[:5])
    monkeypatch.setattr(catalogue, "template", lambda: template)  # the msgids extracted once, not once a language
    assert catalogue.missing(code, catalog) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_every_placeholder_and_the_plural_rule(code) -> None:
    catalog = catalogue.read_catalog(code)
    assert catalog.plural_forms.replace(" ", "") == LANGUAGES[code].plural_forms.replace(" ", "")
    forms = int(re.search(r"nplurals=(\d+)", LANGUAGES[code].plural_forms).group(1))
    for msgid, strings in translations(code):
        ids = msgid if isinstance(msgid, tuple | list) else (msgid,)
        if isinstance(msgid, tuple | list):
            assert len(strings) == forms, msgid
        wanted = set(PLACEHOLDER.findall(" ".join(ids)))
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) == wanted, (msgid, text)
            assert text.count("▲") + text.count("■") + text.count("●") == ids[0].count("▲") + ids[0].count(
                "■") + ids[0].count("●"), (msgid, text)  # a criterion names the same colours


def test_a_language_reads_its_catalogue_and_english_is_the_msgid() -> None:
    with language("de"):
        assert _("verification card") == "Ergebniskarte"
        assert ngettext("{n} round", "{n} rounds", 1) == "{n} Runde"
        assert ngettext("{n} round", "{n} rounds", 3) == "{n} Runden"
    with language("pl"):
        assert [ngettext("{n} round", "{n} rounds", n) for n in (1, 3, 5, 22, 25)] == [
            "{n} runda", "{n} rundy", "{n} rund", "{n} rundy", "{n} rund"]
    assert _("verification card") == "verification card"
    with pytest.raises(ValueError, match="unknown language 'xx'"), language("xx"):
        pass


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_pages_plural_table_is_the_gettext_rule_for_every_count(code) -> None:
    """The table the app looks plurals up in (n ≥ 200 at 100 + n % 100) gives gettext's form for every n."""
    rule = gettext.c2py(LANGUAGES[code].plural_forms.split("plural=", 1)[1].rstrip(";"))
    table = plural_table(code)
    assert [table[n] if n < len(table) else table[100 + n % 100] for n in range(5000)] == [rule(n) for n in
                                                                                          range(5000)]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_character_of_a_catalogue_is_in_its_languages_fonts(code) -> None:
    chars = {ch for _, strings in translations(code) for text in strings for ch in text}
    chars -= set(SYMBOLS) | {ZERO_WIDTH_SPACE} | {ch for ch in chars if ch.isspace()}
    script = LANGUAGES[code].script
    for font_id in {f"{script}-regular", f"{script}-bold"}:
        cmap = TTFont(font_path(font_id)).getBestCmap()
        assert sorted(ch for ch in chars if ord(ch) not in cmap) == [], font_id


def test_the_shipped_fonts_are_subsets() -> None:
    """Each font file holds the catalogues' characters, not a whole script (a CJK face has tens of thousands)."""
    for files in SCRIPT_FONTS.values():
        for name in set(files):
            font = TTFont(Path(font_path("latin-regular")).with_name(name))
            assert len(font.getGlyphOrder()) < 1500, name


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_text_of_every_language_fits_its_box(code) -> None:
    """Every card, sheet, panel, index and booklet text laid out in the language: none overflows at its smallest
    size, none needs a glyph its font lacks."""
    assert [m.describe() for m in fit_report(code, load_layout("classic"), PAPERS["a4"])] == []


@pytest.mark.parametrize("code", ["de", "th"])
def test_the_longest_and_a_shaped_language_fit_letter_paper_and_the_retail_cards(code) -> None:
    assert [m.describe() for m in fit_report(code, load_layout("retail"), PAPERS["letter"])] == []


def test_a_misfit_is_reported_not_drawn_over() -> None:
    """A text that cannot fit even at the smallest size is a misfit the report names (the check can fail)."""
    from tmphys.lang.fit import collecting, fit_lines, fit_size

    with collecting() as found:
        assert fit_size("short", 3.0, 100.0) == 3.0
        fit_size("a label far too long for its little box", 3.0, 5.0, where="test")
        fit_lines("word " * 200, 3.0, 20.0, 10.0, 1.2, where="paragraph")
    assert [m.where for m in found] == ["test", "paragraph"]


# --- a real kit, a real booklet ------------------------------------------------------------------------------

#: Latin words a Japanese kit may print: the set's and the command's names, file names, the aid's command line.
ALLOWED = {"tmphys", "classic", "verification", "cards", "criteria", "pdf", "prove", "CODE", "PROBLEM", "play",
           "solve", "back", "offset"}


@pytest.fixture(scope="module")
def japanese_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tmphys build --lang ja`` with its default folder, built once a run in a folder of its own (a module's
    fixture is made before the test's own folder is entered: it was built in the checkout)."""
    def make(folder: Path) -> None:
        here = Path.cwd()
        os.chdir(folder)
        try:
            assert run_tmphys(["build", "--lang", "ja"]) == 0
        finally:
            os.chdir(here)

    return made_once(tmp_path_factory, "japanese-kit", make) / "output" / "classic-ja"


def pdf_text(path: Path) -> str:
    document = pdfium.PdfDocument(str(path))
    return "\n".join(document[k].get_textpage().get_text_range() for k in range(len(document)))


def test_a_japanese_kit_prints_japanese_in_embedded_subsets(japanese_kit) -> None:
    import json

    assert json.loads((japanese_kit / "manifest.json").read_text("utf-8"))["lang"] == "ja"
    texts = {p.name: pdf_text(p) for p in sorted(japanese_kit.glob("*.pdf"))}
    assert "条件カード" in texts["criteria-cards.pdf"] and "検証機" in texts["player-aid.pdf"]
    assert "メモ用紙" in texts["note-sheets.pdf"] and "パンチカード" in texts["punch-cards.pdf"]
    english = {name: sorted({w for w in re.findall(r"[A-Za-z]{3,}", text)} - ALLOWED) for name, text in texts.items()}
    assert all(not words for words in english.values()), english
    raw = (japanese_kit / "criteria-cards.pdf").read_bytes()
    fonts = set(re.findall(rb"/FontName /([A-Z]{6}\+[\w-]+)", raw))
    # subsets (a tag, a plus) of Noto, and of the symbols' own font (their invisible text over the shapes drawn)
    assert fonts and all(b"NotoSans" in f or f.endswith(b"+Tmphys-Symbols") for f in fonts)


def test_the_japanese_pages_start_in_japanese(japanese_kit) -> None:
    html = (japanese_kit / "table.html").read_text("utf-8")
    assert '<html lang="ja">' in html and '"lang":"ja"' in html


def test_a_french_booklet(tmp_path) -> None:
    out = tmp_path / "livret.pdf"
    assert run_tmphys(["booklet", "--lang", "fr", "--count", "2", "--seed", "1", "--steps", "5000", "--workers", "1",
                       "--out", str(out)]) == 0
    text = pdf_text(out)
    assert "Problème 1" in text and "Solutions" in text and "vérificateur" in text
    assert "Problem " not in text and "Answers" not in text


def test_an_unknown_language_is_one_usage_line(capsys) -> None:
    for command in (["build"], ["booklet", "--out", "x.pdf"], ["app"]):
        assert run_tmphys([*command, "--lang", "klingon"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "'klingon'" in err[0] and " ".join(LANGUAGES) in err[0]
    assert not Path("output").exists()


def test_the_fit_check_says_every_text_fits(capsys) -> None:
    assert run_tmphys(["build", "--lang", "el", "--check-fit"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "el: every text fits"
    assert not Path("output").exists()


# --- the table app ----------------------------------------------------------------------------------------------

def test_the_apps_words_are_in_every_language() -> None:
    for code in TRANSLATED:
        words = page_messages(code, ("app", "criteria"))
        assert words["Best move"] and isinstance(words["{n} round"], list)
        assert "tmphys · player aid" not in words  # the kit's words stay out of the page


def open_page(browser, page_path: Path, fragment: str = "", locale: str = "en-US"):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
    page = context.new_page()
    page.goto(page_path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=true]", timeout=30000)
    return context, page


GAME = "#problem=%23C63%20MO8%202"


@pytest.mark.parametrize(("locale", "fragment", "lang", "word"), [
    ("de-DE", GAME, "de", "Notizblatt"),
    ("en-US", GAME + "&lang=ja", "ja", "メモ用紙"),
    ("zh-TW", GAME, "zh-Hant", "筆記紙"),
    ("xx", GAME, "en", "Note sheet"),
])
def test_the_app_speaks_the_browsers_language_or_the_links(browser, table_page, locale, fragment, lang,
                                                            word) -> None:
    context, page = open_page(browser, table_page, fragment, locale)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#game h2").first.text_content() == word
    assert page.locator("#lang-pick").input_value() == lang
    page.click("#propose-go")
    page.click("#sheet button[data-ask=A]")
    page.click("#machine summary")
    page.wait_for_selector("#machine-reading[data-open-cells]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing overflows a phone
    context.close()


def test_the_picker_switches_the_language_and_keeps_the_game(browser, table_page) -> None:
    context, page = open_page(browser, table_page, GAME + "&moves=211:A:pass,C:pass")
    assert page.locator("#lang-pick option").count() == len(LANGUAGES)
    page.select_option("#lang-pick", "ru")
    page.wait_for_selector("html[lang=ru]")
    page.wait_for_selector("body[data-ready=true]")
    assert "lang=ru" in page.evaluate("location.hash")
    assert page.evaluate("document.querySelector('#game-state').dataset.problem") == "#C63 MO8 2"
    assert "Раунд 1" in page.locator("#sheet").text_content()
    assert "moves=211" in page.evaluate("location.hash")
    context.close()
