"""Render pieces on their own: glyphs, outlines and kerf, imposition, SVG and PDF writers."""

from __future__ import annotations

import io
import math
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tmphys.art import draw, svg
from tmphys.art import params as P
from tmphys.cards.deck import Deck, PunchCard
from tmphys.cards.layout import load_layout
from tmphys.game.criteria import library
from tmphys.lang import glyphs
from tmphys.print import sheets
from tmphys.print.build import BuildError, BuildOptions, cut_placement, parse_offset, plan
from tmphys.print.pdf import Page, pdf_bytes


def points(path: glyphs.Path) -> np.ndarray:
    return np.array([xy for cmd in path if cmd[0] != "Z" for xy in zip(cmd[1::2], cmd[2::2])])


def test_every_character_we_print_has_a_glyph() -> None:
    lib = library()
    texts = [c.title for c in lib.criteria_cards] + [k.text for c in lib.criteria_cards for k in c.criteria]
    texts += ["verification card", "◊#/¤ 0123456789 ABCDEF ✓✗", "Print at 100 % (actual size): ·"]
    for t in texts:
        for ch in t:
            assert glyphs.glyph(ch).advance > 0 or ch == " "
    with pytest.raises(ValueError, match="no glyph"):
        glyphs.glyph("\u2603")


def test_text_width_scales_with_size() -> None:
    assert glyphs.text_width("▲ < ■", 6.0) == pytest.approx(2 * glyphs.text_width("▲ < ■", 3.0))
    assert glyphs.wrap("one two three four", 3.0, glyphs.text_width("three four", 3.0)) == ["one two", "three four"]


def test_letters_are_closed_outlines_near_their_box() -> None:
    for ch in "Ag8%":
        g = glyphs.font("regular").glyph(ch)
        assert sum(cmd[0] == "M" for cmd in g.path) == sum(cmd[0] == "Z" for cmd in g.path) >= 1
        xy = points(g.path)
        assert -0.3 < xy[:, 1].min() and xy[:, 1].max() < 1.0 and 0 <= xy[:, 0].min()


@pytest.mark.parametrize("name", ["classic", "retail"])
def test_outline_grows_exactly_by_the_offset(name: str) -> None:
    layout = load_layout(name)
    for colour in (None, "blue", "purple"):
        nominal = points(draw.card_outline(layout, colour))
        grown = points(draw.card_outline(layout, colour, grow=0.4))
        assert grown.min(axis=0) == pytest.approx(nominal.min(axis=0) - 0.4)
        assert grown.max(axis=0) == pytest.approx(nominal.max(axis=0) + 0.4)
    top = points(draw.card_outline(layout, "yellow"))[:, 1].min()
    assert top == pytest.approx(-layout.tab_height)


def test_punch_card_has_its_holes_and_a_tab_per_colour() -> None:
    deck = Deck(load_layout("classic"))
    tabs = set()
    for colour in ("blue", "yellow", "purple"):
        art = draw.punch_card(deck, PunchCard(colour, 3))
        body = next(s for s in art.art if isinstance(s, draw.Shape) and s.role == "punch-body")
        assert body.evenodd and sum(cmd[0] == "M" for cmd in body.path) == 1 + 25
        holes = [s for s in art.cut if s.role == "cut-hole"]
        assert len(holes) == 25 and art.cut[-1].role == "cut-outline"
        tab = points(art.cut[-1].path)
        tabs.add(round(tab[tab[:, 1] < -1, 0].min(), 3))
    assert len(tabs) == 3


def test_kerf_shrinks_holes_and_grows_the_outline() -> None:
    layout = load_layout("classic")
    art = draw.punch_card(Deck(layout), PunchCard("blue", 1), kerf=0.3)
    hole = points(art.cut[0].path)
    assert np.ptp(hole[:, 0]) == pytest.approx(layout.hole_width - 0.3)
    assert np.ptp(points(art.cut[-1].path)[:, 0]) == pytest.approx(layout.card_width + 0.3)


def test_grid_fits_inside_the_margins_and_mirrors_for_backs() -> None:
    layout = load_layout("classic")
    fronts = [draw.verification_front(Deck(layout), v) for v in library().verification_cards[:6]]
    backs = [draw.verification_back(layout, v) for v in library().verification_cards[:6]]
    for paper in P.PAPERS.values():
        sheet_list = sheets.impose(fronts, paper)
        for s in sheet_list:
            for slot in s.slots:
                assert P.PRINTABLE_MARGIN <= slot.x and slot.x + layout.card_width <= paper.width - P.PRINTABLE_MARGIN
                assert slot.y + layout.card_height <= paper.height - P.PRINTABLE_MARGIN - P.RULER_AREA
        back_list = sheets.backs_for(sheet_list, backs, (0.5, -0.25))
        for f, b in zip(sheet_list[0].slots, back_list[0].slots):
            assert b.x == pytest.approx(paper.width - f.x - layout.card_width + 0.5)
            assert b.y == pytest.approx(f.y - 0.25)
            assert b.card.meta["ids"] == f.card.meta["ids"]


@pytest.mark.parametrize("name", ["classic", "retail"])
def test_gutters_keep_cut_paths_apart_and_cost_no_card(name: str) -> None:
    """Between two cards: at least the kerf plus CUT_CLEARANCE (and twice the bleed); SHEET_GUTTER where the
    paper has room. Without kerf or with the usual 0.15 mm, a sheet holds as many cards as with no gutter."""
    layout = load_layout(name)
    sizes = [(layout.card_width, layout.card_height + layout.tab_height), (layout.card_width, layout.card_height),
             (P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)]
    for paper in P.PAPERS.values():
        for w, h in sizes:
            for kerf in (0.0, 0.15, 0.25, P.MAX_KERF):
                for bleed in (0.0, 1.0, P.MAX_BLEED):
                    grid = sheets.grid_for(paper, w, h, bleed, kerf)
                    least = max(kerf + P.CUT_CLEARANCE, 2 * bleed)
                    for starts, size in ((grid.xs, w), (grid.ys, h)):
                        gaps = np.diff(starts) - size
                        assert (gaps >= least - 1e-9).all() and (gaps <= max(least, P.SHEET_GUTTER) + 1e-9).all()
                    assert grid.xs[-1] + w <= paper.width - P.PRINTABLE_MARGIN - bleed
            edge = P.CROP_MARK_OFFSET + P.CROP_MARK_LENGTH
            tight = (math.floor((paper.width - 2 * P.PRINTABLE_MARGIN - 2 * edge) / w)
                     * math.floor((paper.height - 2 * P.PRINTABLE_MARGIN - 2 * edge - P.RULER_AREA) / h))
            for kerf in (0.0, 0.15, 0.25):
                assert sheets.grid_for(paper, w, h, 0.0, kerf).per_page == tight, (paper.name, w, h, kerf)


def test_cut_art_lands_on_the_printed_cards() -> None:
    """Cut art (kerf) placed by a printed sheet (bleed): each cut outline hugs that slot's trim, kerf/2 out."""
    layout, deck, paper = load_layout("retail"), Deck(load_layout("retail")), P.PAPERS["letter"]
    cards = [PunchCard("blue", v) for v in range(1, 6)]
    printed = sheets.impose([draw.punch_card(deck, c, bleed=2.0) for c in cards], paper, bleed=2.0)[0]
    to_cut = [draw.punch_card(deck, c, kerf=0.2) for c in cards][:len(printed.slots)]
    placed = cut_placement(printed, to_cut)
    assert [c for c, _, _ in placed] == to_cut
    for slot, (art, x, y) in zip(printed.slots, placed):
        outline = points(art.cut[-1].path) + (x - art.frame.x, y - art.frame.y)
        assert outline[:, 0].min() == pytest.approx(slot.x - 0.1)
        assert outline[:, 0].max() == pytest.approx(slot.x + layout.card_width + 0.1)
        assert outline[:, 1].max() == pytest.approx(slot.y + layout.tab_height + layout.card_height + 0.1)
    with pytest.raises(ValueError, match="cards to cut"):
        cut_placement(printed, to_cut[:-1])


def test_crop_marks_stay_off_the_cards() -> None:
    layout = load_layout("retail")
    cards = [draw.verification_front(Deck(layout), v) for v in library().verification_cards[:4]]
    sheet = sheets.impose(cards, P.PAPERS["letter"], bleed=1.0)[0]
    for mark in sheets.crop_marks(sheet, 1.0):
        for x, y in points(mark.path):
            for slot in sheet.slots:
                inside = (slot.x - 1 < x < slot.x + layout.card_width + 1
                          and slot.y - 1 < y < slot.y + layout.card_height + 1)
                assert not inside


def test_a_card_too_big_for_the_paper_is_refused() -> None:
    with pytest.raises(sheets.FitError, match="does not fit"):
        sheets.grid_for(P.PAPERS["a4"], 250.0, 100.0)
    with pytest.raises(sheets.FitError, match="does not fit"):
        sheets.grid_for(P.PAPERS["letter"], 200.0, 270.0)
    assert plan(BuildOptions(bleed=P.MAX_BLEED, paper="letter")).paper.name == "letter"
    with pytest.raises(BuildError, match="--kerf"):
        plan(BuildOptions(kerf=P.MAX_KERF + 1))


def holes_layout(tmp_path: Path, width: float, height: float) -> Path:
    """A copy of classic.toml (named ``holes``) whose holes are ``width`` × ``height`` mm."""
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    table = re.search(r"\[hole\]\nwidth = 3\.0\nheight = 3\.0\n", text)
    assert table, "classic.toml's [hole] table moved"
    path = tmp_path / "holes.toml"
    path.write_text(text.replace(table.group(0), f"[hole]\nwidth = {width}\nheight = {height}\n")
                    .replace('name = "classic"', 'name = "holes"'), "utf-8")
    return path


@pytest.mark.parametrize("width, height, holes", [(3.0, 2.0, "3 × 2 mm holes (their 2 mm side)"),
                                                  (2.0, 3.0, "2 × 3 mm holes (their 2 mm side)"),
                                                  (2.0, 2.0, "2 mm holes")])
def test_kerf_that_closes_the_holes_names_their_narrow_side(width: float, height: float, holes: str,
                                                            tmp_path: Path) -> None:
    """A hole shrinks by kerf/2 on every side, so it closes on its narrower side: a 3 × 2 mm hole takes a kerf
    under 2 mm, and the error names the hole's size and that side."""
    path = holes_layout(tmp_path, width, height)
    with pytest.raises(BuildError) as refused:
        plan(BuildOptions(layout=str(path), kerf=2.0))
    assert str(refused.value) == f"--kerf 2 mm would close the {holes}"
    assert plan(BuildOptions(layout=str(path), kerf=1.9)).layout.hole_height == height


@pytest.mark.parametrize("bleed, kerf", [(2.0, 0.0), (0.1, 0.3), (0.0, 0.3), (P.MAX_BLEED, P.MAX_KERF)])
def test_bleed_grows_the_frame_and_the_art_reaches_it(bleed: float, kerf: float) -> None:
    """Per-card art with bleed: the frame grows by the bleed or kerf/2, whichever is more, on every side, the
    tinted background reaches the bleed inside it, and the card and its cut outline keep their place."""
    layout = load_layout("classic")
    deck, v = Deck(layout), library().verification_cards[0]
    grow = max(bleed, kerf / 2)
    for art in (draw.punch_card(deck, PunchCard("blue", 1), bleed=bleed, kerf=kerf),
                draw.verification_front(deck, v, bleed=bleed, kerf=kerf),
                draw.verification_back(layout, v, bleed=bleed, kerf=kerf),
                draw.criteria_card(library().criteria_cards[0], bleed=bleed, kerf=kerf)):
        nominal = {"punch-card": draw.punch_card(deck, PunchCard("blue", 1)),
                   "verification-front": draw.verification_front(deck, v),
                   "verification-back": draw.verification_back(layout, v),
                   "criteria-card": draw.criteria_card(library().criteria_cards[0])}[art.kind]
        f, n = art.frame, nominal.frame
        assert (f.x, f.y, f.width, f.height) == pytest.approx((n.x - grow, n.y - grow, n.width + 2 * grow,
                                                                n.height + 2 * grow)), art.kind
        assert art.trim == nominal.trim
        cut = points(art.cut[-1].path)
        assert cut.min(axis=0) == pytest.approx(points(nominal.cut[-1].path).min(axis=0) - kerf / 2)
        drawn = np.concatenate([points(s.path) for s in art.art if isinstance(s, draw.Shape)] + [cut])
        assert (drawn.min(axis=0) >= (f.x - 1e-9, f.y - 1e-9)).all(), art.kind
        assert (drawn.max(axis=0) <= (f.x + f.width + 1e-9, f.y + f.height + 1e-9)).all(), art.kind
        tint = [s for s in art.art if isinstance(s, draw.Shape) and s.role in ("punch-body", "background")]
        if art.kind != "verification-front":  # a front is white paper: nothing to bleed
            body = points(tint[0].path)
            top = -layout.tab_height if art.kind == "punch-card" else 0.0
            assert body.min(axis=0) == pytest.approx((-bleed, top - bleed))
            assert body.max(axis=0) == pytest.approx((art.trim.width + bleed, art.trim.y + art.trim.height + bleed))


@pytest.mark.parametrize("text", ["1", "1,2,3", "a,b", "nan,0", "0,11"])
def test_back_offset_must_be_two_small_numbers(text: str) -> None:
    with pytest.raises(BuildError):
        parse_offset(text)
    assert parse_offset("0.5,-1") == (0.5, -1.0)


def test_svg_numbers_are_short_and_stable() -> None:
    assert [svg.num(v) for v in (1.0, -0.0001, 2.5, 1 / 3)] == ["1", "0", "2.5", "0.333"]
    assert svg.path_data((("M", 0.0, 1.25), ("L", 2.0, -0.0004), ("Z",))) == "M0 1.25L2 0Z"


def test_pdf_is_the_same_bytes_twice() -> None:
    layout = load_layout("classic")
    art = draw.punch_card(Deck(layout), PunchCard("purple", 5))
    page = sheets.frame_page([art], art.frame)
    assert pdf_bytes([page], "t") == pdf_bytes([Page(page.width, page.height, page.items)], "t")


def test_pdf_text_is_real_text_in_an_embedded_subset() -> None:
    """Letters are text a viewer finds and copies, set in the cards' font embedded as a subset (an unembedded font
    fails a print shop's preflight); the symbols the font lacks are drawn."""
    import io
    import re

    import pdfplumber

    layout = load_layout("classic")
    art = draw.punch_card(Deck(layout), PunchCard("blue", 2))
    data = pdf_bytes([sheets.frame_page([art], art.frame)], "t")
    fonts = re.findall(rb"/BaseFont /([^\s/]+)", data)
    assert fonts and all(b"+" in name for name in fonts), fonts  # a subset: a prefix, then the font's name
    assert data.count(b"/FontFile2") == len(set(fonts)), "every font it names is embedded"
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        words = pdf.pages[0].extract_text()
    assert "tmphys classic · punch card" in words and "blue" in words


def test_dxf_draws_round_corners_as_arcs_and_other_curves_as_lines() -> None:
    """A quarter circle becomes one bulge (tan 22.5°); a curve that is no arc becomes short lines within
    DXF_CURVE_TOLERANCE of it; y is flipped about the frame (origin at its bottom-left); same input, same bytes."""
    import ezdxf
    from ezdxf import path as dxf_path

    from tmphys.print import dxf

    k = glyphs.KAPPA * 10
    arc = draw.Shape((("M", 20.0, 10.0), ("C", 20.0 + k, 10.0, 30.0, 20.0 - k, 30.0, 20.0), ("L", 20.0, 20.0), ("Z",)),
                     role="cut-hole")
    wave = draw.Shape((("M", 0.0, 0.0), ("C", 10.0, -10.0, 20.0, 10.0, 30.0, 0.0), ("Z",)), role="cut-outline")
    frame = draw.Box(0.0, 0.0, 50.0, 40.0)
    data = dxf.cut_dxf([(arc, 1.0, 2.0), (wave, 5.0, 10.0)], frame)
    assert data == dxf.cut_dxf([(arc, 1.0, 2.0), (wave, 5.0, 10.0)], frame)
    doc = ezdxf.read(io.StringIO(data.decode("ascii")))
    first, second = doc.modelspace()
    assert (first.dxf.layer, second.dxf.layer) == ("CUT-HOLES", "CUT-OUTLINES")
    points = list(first.get_points("xyb"))
    assert [(x, y) for x, y, _ in points] == [(21.0, 28.0), (31.0, 18.0), (21.0, 18.0)]
    assert [b for _, _, b in points] == pytest.approx([-math.tan(math.pi / 8), 0.0, 0.0], abs=1e-9)
    assert len(second) > 10
    t = np.linspace(0, 1, 200)[:, None]
    p0, p1, p2, p3 = (np.array(p) for p in ((5, 30), (15, 40), (25, 20), (35, 30)))  # the wave, moved and flipped
    curve = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3
    drawn = np.array([(v.x, v.y) for v in dxf_path.make_path(second).flattening(0.001)])
    a, ab = drawn[:-1], np.diff(drawn, axis=0)  # the segments drawn: how far is each point of the curve from them?
    along = np.clip(((curve[:, None] - a) * ab).sum(2) / np.maximum((ab ** 2).sum(1), 1e-18), 0, 1)
    assert np.hypot(*(curve[:, None] - a - along[..., None] * ab).T).min(0).max() <= P.DXF_CURVE_TOLERANCE


def test_pdf_text_holds_the_symbols_where_they_are_drawn() -> None:
    """The symbols stay drawn (forms), and the text holds them too, invisible over them: a search of a criteria card
    for "▲ < 3" and of a verification card for its ID "¤585" finds them, in pdfplumber's text and in PDFium's (a
    viewer's, in the order the file sets it), in English and in a language of another font; same bytes each time."""
    import pdfplumber
    import pypdfium2

    from tmphys.lang.i18n import language

    lib = library()
    card = next(c for c in lib.criteria_cards if any(k.text == "▲ < 3" for k in c.criteria))
    front = lib.verification_cards[36]
    assert front.label("purple") == "¤585"
    deck = Deck(load_layout("classic"))
    for code in ("en", "ja", "th"):
        with language(code):
            for art, words in ((draw.criteria_card(card), ["▲ < 3"]), (draw.verification_front(deck, front),
                                                                       ["¤585", "◊434 #587 /437 ¤585", "✓ ✗"])):
                data = pdf_bytes([sheets.frame_page([art], art.frame)], "t")
                assert data == pdf_bytes([sheets.frame_page([art], art.frame)], "t")
                with pdfplumber.open(io.BytesIO(data)) as pdf:
                    page = pdf.pages[0]
                    found = page.extract_text()
                    symbols = [c for c in page.chars if c["text"] in glyphs.SYMBOLS]
                viewer_page = pypdfium2.PdfDocument(data)[0]
                viewer = viewer_page.get_textpage().get_text_range()
                forms = sum(o.type == pypdfium2.raw.FPDF_PAGEOBJ_FORM for o in viewer_page.get_objects())
                for w in words:
                    assert w in found and w in viewer, (code, w, found, viewer)
                drawn = sum(1 for run in art.art if isinstance(run, draw.GlyphRun) for g in run.glyphs
                            if g[0].startswith("symbol:"))
                assert len(symbols) == drawn > 0 and all(c["fontname"].endswith("+Tmphys-Symbols") for c in symbols)
                assert forms >= drawn  # each also drawn, as before (with the glyphs shaping placed)
