"""The rest of the homemade kit that ``tmphys build`` writes beside the cards, read back from its PDFs.

Card backs (mirrored for a long-edge flip, offset, with duplex registration marks), and the table's printed parts.
Two builds per session: classic on A4 (backs after the fronts) and retail on Letter (duplex, bleed, an offset, a
1.5 mm holder board).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pytest
from conftest import built_pdf, run_tmphys
from pdfread import mm, same_colour

from tmphys.art import params as P
from tmphys.cards.layout import load_layout
from tmphys.print import sheets

TOL = 0.01  # mm
OFFSET = (0.5, -1.0)


run = run_tmphys






@pytest.fixture(autouse=True)
def _glyphs_skipped(skip_glyph_forms: None) -> None:
    """Every test here reads geometry only (see conftest's ``skip_glyph_forms``)."""


def boxes(page: pdfplumber.page.Page, colour: str, stroked: bool) -> list[tuple[float, float, float, float]]:
    """Boxes (mm: x0, top, x1, bottom) of the paths stroked (or filled) in one colour on a page."""
    out = []
    for o in page.curves + page.rects + page.lines:
        key, paint = ("stroking_color", "stroke") if stroked else ("non_stroking_color", "fill")
        if o.get(paint) and same_colour(o.get(key), colour):
            out.append((mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])))
    return out


def strokes_of_width(page: pdfplumber.page.Page, width: float) -> list[tuple[float, float, float, float]]:
    """Stroked segments (mm boxes) of one line width."""
    return [(mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])) for o in page.curves + page.lines + page.rects
            if o.get("stroke") and abs(mm(o["linewidth"]) - width) < 1e-4]


def centres(found: list[tuple[float, float, float, float]]) -> np.ndarray:
    return np.array(sorted(((x0 + x1) / 2, (t + b) / 2) for x0, t, x1, b in found)).round(3)


def front_and_back_pages(path: Path, duplex: bool) -> list[tuple[int, int]]:
    """(front page, its back page), 0-based, of a sheet PDF: alternating with --duplex, else fronts then backs."""
    with built_pdf(path) as pdf:
        n = len(pdf.pages)
    assert n % 2 == 0
    return [(k, k + 1) for k in range(0, n, 2)] if duplex else [(k, k + n // 2) for k in range(n // 2)]


# --- card backs ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["classic", "retail"])
def test_punch_card_backs_lay_their_holes_over_the_fronts(which: str, request: pytest.FixtureRequest) -> None:
    """Every punch card's back prints its holes at the long-edge mirror image of its front's cut holes, moved by
    the back offset: held to the light, the printed holes of both sides line up."""
    out = request.getfixturevalue(which)
    layout = load_layout(which)
    duplex, offset = (True, OFFSET) if which == "retail" else (False, (0.0, 0.0))
    pairs = front_and_back_pages(out / "punch-cards.pdf", duplex)
    with built_pdf(out / "punch-cards.pdf") as pdf:
        for f, b in (pairs[0], pairs[-1]):
            front, back = pdf.pages[f], pdf.pages[b]
            width = mm(front.width)
            cut = [x for x in boxes(front, P.CUT_GUIDE_COLOUR, stroked=True) if x[2] - x[0] < layout.pitch_x]
            assert cut, "the front prints its holes' cut lines"
            assert not boxes(back, P.CUT_GUIDE_COLOUR, stroked=True), "no cut lines on a back"
            printed = [x for c in P.CARD_TINT.values() for x in boxes(back, c, stroked=False)
                       if x[2] - x[0] < layout.pitch_x]
            expected = [(width - x1 + offset[0], t + offset[1], width - x0 + offset[0], bt + offset[1])
                        for x0, t, x1, bt in cut]
            assert len(printed) == len(cut)
            assert np.allclose(centres(printed), centres(expected), atol=TOL)


@pytest.mark.parametrize("which", ["classic", "retail"])
def test_criteria_card_backs_sit_at_their_fronts_mirror_image(which: str, request: pytest.FixtureRequest) -> None:
    out = request.getfixturevalue(which)
    duplex, offset, bleed = (True, OFFSET, 2.0) if which == "retail" else (False, (0.0, 0.0), 0.0)
    w, h = P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT
    pairs = front_and_back_pages(out / "criteria-cards.pdf", duplex)
    with built_pdf(out / "criteria-cards.pdf") as pdf:
        assert len(pairs) == -(-48 // sheets.grid_for(P.PAPERS["a4" if which == "classic" else "letter"], w, h,
                                                      bleed, 0.2 if duplex else 0.0).per_page)
        front, back = pdf.pages[pairs[0][0]], pdf.pages[pairs[0][1]]
        width = mm(front.width)
        fronts = [x for x in boxes(front, P.CUT_GUIDE_COLOUR, stroked=True)
                  if abs(x[2] - x[0] - w) < TOL and abs(x[3] - x[1] - h) < TOL]
        backs = [x for x in boxes(back, P.CRITERIA_BACK_TINT, stroked=False)
                 if abs(x[2] - x[0] - w - 2 * bleed) < TOL and abs(x[3] - x[1] - h - 2 * bleed) < TOL]
    assert len(fronts) == len(backs) >= 4
    mirrored = [(width - x1 + offset[0], t + offset[1], width - x0 + offset[0], b + offset[1])
                for x0, t, x1, b in fronts]
    assert np.allclose(centres(backs), centres(mirrored), atol=TOL)


@pytest.mark.parametrize("which", ["classic", "retail"])
@pytest.mark.parametrize("name", ["punch-cards.pdf", "verification-cards.pdf", "criteria-cards.pdf"])
def test_every_sheet_with_backs_carries_the_registration_marks(which: str, name: str,
                                                               request: pytest.FixtureRequest) -> None:
    """A front's cross and its back's scale meet at mirror images whatever the back offset: held to the light, the
    cross reads the printer's error on the scale, the offset to give."""
    out = request.getfixturevalue(which)
    pairs = front_and_back_pages(out / name, which == "retail")
    with built_pdf(out / name) as pdf:
        for f, b in (pairs[0], pairs[-1]):
            front, back = pdf.pages[f], pdf.pages[b]
            paper = next(p for p in P.PAPERS.values() if abs(p.width - mm(front.width)) < TOL)
            cross = strokes_of_width(front, P.REG_STROKE)
            scale = strokes_of_width(back, P.REG_STROKE)
            x, y = sheets.registration_x(paper), sheets.strip_middle(paper)
            arm, reach = P.REG_CROSS_ARM, P.REG_SCALE_REACH
            assert np.allclose(sorted(cross), sorted([(x - arm, y, x + arm, y), (x, y - arm, x, y + arm)]), atol=TOL)
            mx = paper.width - x
            long_lines = [s for s in scale if s[2] - s[0] > 2 * reach - TOL or s[3] - s[1] > 2 * reach - TOL]
            lines = [(mx - reach, y, mx + reach, y), (mx, y - reach, mx, y + reach)]
            assert np.allclose(sorted(long_lines), sorted(lines), atol=TOL)
            ticks = sorted(round(s[0] - mx, 3) for s in scale if s[2] - s[0] < TOL and s[3] <= y + TOL)
            assert ticks == [float(k) for k in range(-4, 5)]  # a tick a mm
            ruler = strokes_of_width(back, P.RULER_STROKE)
            assert ruler and min(s[0] for s in ruler) > mx + P.REG_HALF_WIDTH, "the back's ruler is mirrored too"


# --- the table's printed parts ---------------------------------------------------------------------------

def stroked(page: pdfplumber.page.Page, colour: str, width: float) -> list[tuple[float, float, float, float]]:
    """Boxes of the paths stroked in one colour and width."""
    return [(mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])) for o in page.curves + page.rects + page.lines
            if o.get("stroke") and same_colour(o.get("stroking_color"), colour)
            and abs(mm(o["linewidth"]) - width) < 1e-4]


@pytest.mark.parametrize("which, paper", [("classic", "a4"), ("retail", "letter")])
def test_note_sheets_two_to_a_page_with_rounds_digits_and_verifiers(which: str, paper: str,
                                                                     request: pytest.FixtureRequest) -> None:
    """Each half page: 8 rounds of ▲■● and A–F boxes, 3 × 5 digit cells, six verifier spaces, a problem box; every
    box large enough to write in with a pencil, none overlapping another, all inside the printable margin."""
    out = request.getfixturevalue(which)
    size = P.PAPERS[paper]
    with built_pdf(out / "note-sheets.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (mm(page.width), mm(page.height)) == pytest.approx((size.width, size.height), abs=TOL)
        found = stroked(page, P.NOTE_INK, P.NOTE_LINE)
    for top in (True, False):
        half = [b for b in found if (b[1] < size.height / 2) is top]
        cells = [b for b in half if abs(b[2] - b[0] - P.NOTE_CELL) < TOL and abs(b[3] - b[1] - P.NOTE_CELL) < TOL]
        digits = [b for b in half if abs(b[2] - b[0] - P.NOTE_DIGIT_CELL) < TOL]
        verifiers = [b for b in half if b[3] - b[1] >= P.NOTE_VERIFIER_MIN_HEIGHT]
        assert len(cells) == P.NOTE_ROUNDS * (3 + 6) and P.NOTE_ROUNDS >= 8
        assert len(digits) == 15
        assert len(verifiers) == 6 and all(b[2] - b[0] > 50 for b in verifiers)
        rows = sorted({round(b[1], 2) for b in cells})
        assert len(rows) == P.NOTE_ROUNDS and all(len([c for c in cells if round(c[1], 2) == r]) == 9 for r in rows)
        boxes_all = cells + digits + verifiers
        for k, a in enumerate(boxes_all):
            assert P.PRINTABLE_MARGIN - TOL <= a[0] and a[2] <= size.width - P.PRINTABLE_MARGIN + TOL
            for b in boxes_all[k + 1:]:
                assert a[2] <= b[0] + TOL or b[2] <= a[0] + TOL or a[3] <= b[1] + TOL or b[3] <= a[1] + TOL


def test_player_aid_folds_in_three_and_names_every_criteria_family(classic: Path) -> None:
    from tmphys.game.criteria import library
    from tmphys.print import aid

    groups = aid.families()
    assert sorted(n for _, numbers in groups for n in numbers) == [c.number for c in library().criteria_cards]
    assert aid.runs([1, 2, 3, 4, 39, 40, 41]) == "1–4, 39–41" and aid.runs([43, 44, 48]) == "43, 44, 48"
    with built_pdf(classic / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        assert (mm(page.width), mm(page.height)) == pytest.approx((297.0, 210.0), abs=TOL)  # landscape A4
        folds = {round((b[0] + b[2]) / 2, 2) for b in stroked(page, P.FOLD_INK, P.FOLD_WIDTH)}
        samples = {round(b[0], 1) for c in (P.PASS_FILL, P.FAIL_FILL) for b in boxes(page, c, stroked=False)}
    assert folds == {99.0, 198.0}
    assert len(samples) == 1 and 99.0 < samples.pop() < 198.0, "the ✓ and ✗ samples stand on the middle panel"


@pytest.mark.parametrize("which", ["classic", "retail"])
def test_player_aid_says_where_to_write_and_check_and_fills_every_panel(which: str,
                                                                     request: pytest.FixtureRequest) -> None:
    """The aid's first step says plainly what to do and to write the proposal on the note sheet; the last says what
    to check the answer against; no panel stands half empty (each one's words reach past three quarters of it); its
    words stay above the ruler strip."""
    from tmphys.print import aid

    out = request.getfixturevalue(which)
    paper = P.PAPERS["a4" if which == "classic" else "letter"]
    assert aid.ROUND[1][0].startswith("1. Propose. Choose a code, a digit 1 to 5 for each of ▲ ■ ●, and write it on")
    with built_pdf(out / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        first = aid.panels(paper)[0]
        words = " ".join(page.crop([v * P.PT_PER_MM for v in (first.x - 1, first.y - 1, first.x + first.width + 1,
                                                               first.y + first.height + 1)]).extract_text().split())
        chars = page.chars
    assert "write it on the next line of your note sheet" in words
    assert "check it against the problem's answer (at the back of the booklet, or tmphys prove CODE PROBLEM)" in words
    ruler_top = paper.width - P.PRINTABLE_MARGIN - P.RULER_AREA  # landscape: the sheet's height is the paper's width
    for box in aid.panels(paper):
        inside = [c for c in chars if box.x - TOL <= mm(c["x0"]) and mm(c["x1"]) <= box.x + box.width + TOL
                  and mm(c["bottom"]) < ruler_top]
        assert inside, box
        lowest = max(mm(c["bottom"]) for c in inside)
        assert lowest >= box.y + 0.75 * box.height, (box, lowest)
        assert lowest <= box.y + box.height + TOL


@pytest.mark.parametrize("which, paper", [("classic", "a4"), ("retail", "letter")])
def test_machine_board_places_hold_the_layouts_cards(which: str, paper: str, request: pytest.FixtureRequest) -> None:
    """Read back from the PDF and put together as the sheets tile: six verifier places each holding a criteria card
    and a verification card of the layout, three punch-card places holding a punch card with its tab, no place on
    a seam or over another, and half-diamonds that meet across every shared edge."""
    from tmphys.print import board as B

    out = request.getfixturevalue(which)
    layout, size = load_layout(which), P.PAPERS[paper]
    model = B.board_for(layout, size)
    places, slots, marks = [], [], []
    with built_pdf(out / "machine-board.pdf") as pdf:
        assert len(pdf.pages) == len(model.tiles) >= 2
        for page, tile in zip(pdf.pages, model.tiles):
            assert (mm(page.width), mm(page.height)) == pytest.approx((size.width, size.height), abs=TOL)
            dx, dy = tile.x - P.PRINTABLE_MARGIN, tile.y - P.PRINTABLE_MARGIN  # page → board
            trim = stroked(page, P.BOARD_TRIM_INK, P.CUT_GUIDE_WIDTH)
            assert len(trim) == 1 and np.allclose(trim[0], (P.PRINTABLE_MARGIN, P.PRINTABLE_MARGIN,
                                                            P.PRINTABLE_MARGIN + tile.width,
                                                            P.PRINTABLE_MARGIN + tile.height), atol=TOL)
            moved = [(x0 + dx, t + dy, x1 + dx, b + dy) for x0, t, x1, b in stroked(page, P.BOARD_INK, P.BOARD_LINE)]
            for b in moved:  # no place crosses its tile's edge
                assert tile.x - TOL <= b[0] and b[2] <= tile.x + tile.width + TOL
                assert tile.y - TOL <= b[1] and b[3] <= tile.y + tile.height + TOL
            places += moved
            slots += [(x0 + dx, t + dy, x1 + dx, b + dy) for x0, t, x1, b in stroked(page, P.BOARD_SLOT_INK,
                                                                                      P.BOARD_LINE)]
            marks += [((x0 + x1) / 2 + dx, (t + b) / 2 + dy) for x0, t, x1, b in boxes(page, P.BOARD_MARK_FILL, False)]
    assert len(places) == 9 and len(slots) == 6 * 2 + 3
    edge = B.edge_room() - P.BOARD_GAP / 4 - P.BOARD_LINE  # a place's outline is inset in its box
    for tile in model.tiles:  # every place keeps clear of its sheet's edges, where the half-diamonds are
        for b in places:
            if tile.x <= b[0] < tile.x + tile.width and tile.y <= b[1] < tile.y + tile.height:
                assert b[0] >= tile.x + edge and b[2] <= tile.x + tile.width - edge
                assert b[1] >= tile.y + edge and b[3] <= tile.y + tile.height - edge
    for k, a in enumerate(places):
        for b in places[k + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "places overlap"
    need = sorted([(P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)] * 6 + [(layout.card_width, layout.card_height)] * 6
                  + [(layout.card_width, layout.card_height + layout.tab_height)] * 3)
    have = sorted((round(b[2] - b[0], 2), round(b[3] - b[1], 2)) for b in slots)
    for (w, h), (sw, sh) in zip(need, have):
        assert sw >= w + 2 * P.BOARD_SLOT_MARGIN - TOL and sh >= h + 2 * P.BOARD_SLOT_MARGIN - TOL
    for slot in slots:
        assert sum(p[0] <= slot[0] and slot[2] <= p[2] and p[1] <= slot[1] and slot[3] <= p[3] for p in places) == 1
    # the half-diamonds of two neighbouring sheets meet at the same board point, in pairs
    points = sorted((round(x, 1), round(y, 1)) for x, y in marks)
    assert points and len(points) % 2 == 0
    centres_of_pairs = {p for p in points if points.count(p) == 1}
    for x, y in centres_of_pairs:  # each half's centre lies a third of the way in; its partner mirrors it
        assert any(abs(x - u) < P.BOARD_MARK and abs(y - v) < P.BOARD_MARK and (x, y) != (u, v) for u, v in points)


@pytest.mark.parametrize("which, paper", [("classic", "a4"), ("retail", "letter")])
def test_board_marks_stay_off_words_and_outlines_and_no_sheet_is_near_empty(which: str, paper: str,
                                                                          request: pytest.FixtureRequest) -> None:
    """On every sheet of both boards (machine-board.pdf, machine-board-extreme.pdf), no half-diamond touches a word or
    a place's outline; every sheet is at least 40 % covered by places (on A4 and Letter, both layouts), and the
    Extreme board gives every verifier two criteria-card places beside its verification card."""
    from tmphys.print import board as B

    out = request.getfixturevalue(which)
    layout, size = load_layout(which), P.PAPERS[paper]
    for name, extreme in (("machine-board.pdf", False), ("machine-board-extreme.pdf", True)):
        model = B.board_for(layout, size, extreme)
        for tile in model.tiles:
            on = [p for p in model.places if tile.x <= p.box.x < tile.x + tile.width
                  and tile.y <= p.box.y < tile.y + tile.height]
            assert sum(p.box.width * p.box.height for p in on) >= 0.4 * tile.width * tile.height, (name, on)
        for place in model.places:
            names = [what for what, _ in place.slots]
            if place.name in P.VERIFIER_LETTERS:
                assert names.count("criteria card") + names.count("criteria card (Extreme)") == (2 if extreme else 1)
                assert names.count("verification card") == 1
        with built_pdf(out / name) as pdf:
            assert len(pdf.pages) == len(model.tiles)
            for page in pdf.pages:
                marks = boxes(page, P.BOARD_MARK_FILL, stroked=False)
                outlines = stroked(page, P.BOARD_INK, P.BOARD_LINE) + stroked(page, P.BOARD_SLOT_INK, P.BOARD_LINE)
                words = [(mm(c["x0"]), mm(c["top"]), mm(c["x1"]), mm(c["bottom"])) for c in page.chars]
                assert words and outlines
                for m in marks:
                    for b in outlines + words:
                        apart = (m[2] <= b[0] + 1e-3 or b[2] <= m[0] + 1e-3 or m[3] <= b[1] + 1e-3
                                 or b[3] <= m[1] + 1e-3)
                        assert apart, (name, m, b)


@pytest.mark.parametrize("which, thickness, kerf", [("classic", P.HOLDER_THICKNESS, 0.0), ("retail", 1.5, 0.2)])
def test_holder_cut_files_slot_the_combs_into_the_base(which: str, thickness: float, kerf: float,
                                                       request: pytest.FixtureRequest) -> None:
    """The base's slots take the combs' tabs (both sized by --thickness, the kerf taken off each side), the combs'
    notches take five punch cards, the combs stand a punch card's width apart less the overhangs; red hairlines,
    holes before outlines, a sheet-sized file in mm, and the DXF cuts the same paths."""
    import json
    import xml.etree.ElementTree as ET

    import ezdxf

    from tmphys.print import holder as H

    layout = load_layout(which)
    out = request.getfixturevalue(which)  # retail's is built with --thickness 1.5 (conftest's RETAIL_ARGS)
    listed = json.loads((out / "manifest.json").read_text("utf-8"))["files"]
    assert {e["thickness"] for e in listed if e["kind"] == "holder-cut"} == {thickness}
    root = ET.parse(out / "cut" / "holder.svg").getroot()
    size = P.PAPERS["a4" if which == "classic" else "letter"]
    assert root.get("viewBox") == f"0 0 {size.width:g} {size.height:g}" and root.get("width") == f"{size.width:g}mm"
    svg_ns = "{http://www.w3.org/2000/svg}"
    paths = list(root.iter(f"{svg_ns}path"))
    roles = [p.get("class") for p in paths]
    assert roles == ["cut-hole"] * 4 + ["cut-outline"] * 3
    assert all(p.get("stroke") == P.CUT_COLOUR and float(p.get("stroke-width")) == P.HAIRLINE for p in paths)

    def points(d: str) -> np.ndarray:
        import re
        nums = [float(v) for v in re.findall(r"-?[0-9.]+", d)]
        return np.array(list(zip(nums[0::2], nums[1::2])))

    holes = [points(p.get("d")) for p in paths[:4]]
    for h in holes:
        w, t = np.ptp(h[:, 0]), np.ptp(h[:, 1])
        assert w == pytest.approx(P.HOLDER_TAB - kerf, abs=TOL) and t == pytest.approx(thickness - kerf, abs=TOL)
    combs = [points(p.get("d")) for p in paths[5:]]
    for c in combs:
        ys = c[:, 1]
        bottom = ys.max()
        tab_top = np.unique(ys.round(3))[-2]
        assert bottom - tab_top == pytest.approx(thickness, abs=TOL), "a tab reaches through the base"
        notches = sorted({round(x, 3) for x, y in c if abs(y - (ys.min() + P.HOLDER_NOTCH_SHARE
                                                                * P.HOLDER_COMB_HEIGHT)) < TOL})
        widths = [b - a for a, b in zip(notches[0::2], notches[1::2])]
        assert widths == pytest.approx([5 * P.PUNCH_CARD_THICKNESS + P.HOLDER_SLOT_PLAY - kerf] * 3, abs=TOL)
    centres_y = sorted({round(float(h[:, 1].mean()), 3) for h in holes})
    assert centres_y[1] - centres_y[0] == pytest.approx(H.comb_span(layout) + thickness, abs=TOL)
    assert H.comb_span(layout) == layout.card_width - 2 * P.HOLDER_OVERHANG
    doc = ezdxf.readfile(out / "cut" / "holder.dxf")
    assert len(list(doc.modelspace())) == len(paths)


def test_kit_options_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for args, said in ((["--thickness", "0"], "--thickness must be above 0"),
                       (["--thickness", "9"], "at most 6 mm"),
                       (["--thickness", "0.5", "--kerf", "0.6"], "would close")):
        assert run(["build", *args, "--out", str(tmp_path / "x")]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1
        assert not (tmp_path / "x").exists()


def test_kit_previews_show_each_parts_first_page(classic: Path) -> None:
    """previews/note-sheets.png, player-aid.png and machine-board.png: the first page of each, at its paper's size
    (the aid landscape), listed in the manifest as previews."""
    import json

    from PIL import Image

    listed = {e["path"]: e["kind"] for e in json.loads((classic / "manifest.json").read_text("utf-8"))["files"]}
    for name, size in (("note-sheets", (210.0, 297.0)), ("player-aid", (297.0, 210.0)),
                       ("machine-board", (210.0, 297.0))):
        assert listed[f"{name}.pdf"] == "kit" and listed[f"previews/{name}.png"] == "preview"
        with Image.open(classic / "previews" / f"{name}.png") as image:
            dpi = image.info["dpi"][0]
            assert (image.width / dpi * 25.4, image.height / dpi * 25.4) == pytest.approx(size, abs=0.5)
            assert image.convert("L").getextrema()[0] < 128, "something is drawn"


# --- the fold-up paper tray (holder-tray.pdf) -------------------------------------------------------------

def fold_lines(page: pdfplumber.page.Page) -> list[tuple[float, float, float, float]]:
    """The page's dashed fold lines, each dash joined to its neighbours on the same line (mm: x0, top, x1, bottom)."""
    dashes = stroked(page, P.FOLD_INK, P.FOLD_WIDTH)
    assert all(min(b[2] - b[0], b[3] - b[1]) < TOL for b in dashes), "every dash is straight across or down"
    runs: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for x0, t, x1, b in dashes:
        key = ("h", round(t, 2)) if b - t < TOL else ("v", round(x0, 2))
        runs.setdefault(key, []).append((x0, x1) if key[0] == "h" else (t, b))
    out = []
    for (way, at), spans in runs.items():
        spans.sort()
        start, end = spans[0]
        for a, b in spans[1:] + [(float("inf"), float("inf"))]:
            if a > end + P.FOLD_GAP + TOL:
                out.append((start, at, end, at) if way == "h" else (at, start, at, end))
                start, end = a, b
            else:
                end = max(end, b)
    return out


def cut_outlines(page: pdfplumber.page.Page) -> list[list[tuple[float, float]]]:
    """The closed cut lines of a page (points in mm)."""
    return [[(mm(x), mm(y)) for x, y in o["pts"]] for o in page.curves + page.rects
            if o.get("stroke") and same_colour(o.get("stroking_color"), P.CUT_GUIDE_COLOUR)
            and abs(mm(o["linewidth"]) - P.CUT_GUIDE_WIDTH) < 1e-4]


def floors(page: pdfplumber.page.Page) -> dict[str, tuple[float, float, float, float]]:
    """Each colour's compartment floor: of the three strips tinted in its colour (side wall, floor, side wall), the
    middle one."""
    return {colour: sorted(boxes(page, tint, stroked=False))[1] for colour, tint in P.CARD_TINT.items()}


def tray_geometry(page: pdfplumber.page.Page) -> dict[str, object]:
    """What the tray's net measures on the page: the floor, each wall's fold-to-cut height, the dividers."""
    floor = floors(page)
    x0, top, x1, bottom = floor["blue"][0], floor["blue"][1], floor["purple"][2], floor["purple"][3]
    folds = fold_lines(page)
    outlines = cut_outlines(page)
    net = next(o for o in outlines if min(x for x, _ in o) < x0 and max(x for x, _ in o) > x1
               and min(y for _, y in o) < top and max(y for _, y in o) > bottom)
    edges = list(zip(net, net[1:]))

    def covers(fold: tuple, a: float, b: float, horizontal: bool) -> bool:
        lo, hi = (fold[0], fold[2]) if horizontal else (fold[1], fold[3])
        return lo <= a + TOL and hi >= b - TOL

    # the floor's four edges are folds: a wall stands on each
    assert any(abs(f[1] - top) < TOL and abs(f[3] - top) < TOL and covers(f, x0, x1, True) for f in folds)
    assert any(abs(f[1] - bottom) < TOL and abs(f[3] - bottom) < TOL and covers(f, x0, x1, True) for f in folds)
    assert any(abs(f[0] - x0) < TOL and abs(f[2] - x0) < TOL and covers(f, top, bottom, False) for f in folds)
    assert any(abs(f[0] - x1) < TOL and abs(f[2] - x1) < TOL and covers(f, top, bottom, False) for f in folds)

    def wall(horizontal: bool, beyond: float, sign: float) -> float:
        """Fold-to-cut distance of the wall on one floor edge: the cut edge parallel to it across the floor's span."""
        found = []
        for (ax, ay), (bx, by) in edges:
            if horizontal and abs(ay - by) < TOL and min(ax, bx) <= x0 + TOL and max(ax, bx) >= x1 - TOL:
                found.append(sign * (ay - beyond))
            if not horizontal and abs(ax - bx) < TOL and min(ay, by) <= top + TOL and max(ay, by) >= bottom - TOL:
                found.append(sign * (ax - beyond))
        assert len([h for h in found if h > 0]) == 1
        return next(h for h in found if h > 0)

    walls = {"back": wall(True, top, -1.0), "front": wall(True, bottom, 1.0),
             "left": wall(False, x0, -1.0), "right": wall(False, x1, 1.0)}
    dividers = [o for o in outlines if o is not net]
    return {"floor": floor, "width": x1 - x0, "depth": bottom - top, "walls": walls, "dividers": dividers,
            "folds": folds, "outlines": outlines}


@pytest.mark.parametrize("which, paper", [("classic", "a4"), ("retail", "letter")])
def test_holder_tray_holds_five_cards_a_colour_upright(which: str, paper: str, request: pytest.FixtureRequest) -> None:
    """Read back from holder-tray.pdf: one sheet of the paper; three floors ▲ blue, ■ yellow, ● purple front to back,
    each as wide as a punch card plus the clearance and deep enough for five cards; a wall on every floor edge, as
    tall from its fold to its cut as the dividers, and low enough that every card stands above it; two dividers as
    wide as the floor between their folds, glue tabs on them and on the walls; all inside the printable margin."""
    from tmphys.print import tray

    out = request.getfixturevalue(which)
    layout, size = load_layout(which), P.PAPERS[paper]
    with built_pdf(out / "holder-tray.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (mm(page.width), mm(page.height)) == pytest.approx((size.width, size.height), abs=TOL)
        got = tray_geometry(page)
        glue = boxes(page, P.TRAY_GLUE_TINT, stroked=False)
    floor = got["floor"]
    assert [floor[c][1] for c in ("blue", "yellow", "purple")] == sorted(floor[c][1] for c in floor), "back to front"
    for colour, (x0, t, x1, b) in floor.items():
        assert x1 - x0 >= layout.card_width + P.TRAY_CLEARANCE - TOL
        assert b - t >= 5 * max(P.PUNCH_CARD_THICKNESS, P.TRAY_CARD_ALLOWANCE) - TOL, f"five {colour} cards fit"
    assert got["width"] == pytest.approx(tray.tray_size(layout).width, abs=TOL)
    heights = set(round(h, 2) for h in got["walls"].values())
    assert len(heights) == 1, got["walls"]
    wall = heights.pop()
    assert wall == pytest.approx(tray.tray_size(layout).wall, abs=TOL)
    assert 0 < wall <= layout.card_height + layout.tab_height - P.TRAY_REVEAL + TOL, "cards stand above the walls"
    assert len(got["dividers"]) == 2
    for d in got["dividers"]:
        ys = [y for _, y in d]
        assert max(ys) - min(ys) == pytest.approx(wall, abs=TOL)
        xs = sorted(f[0] for f in got["folds"] if abs(f[0] - f[2]) < TOL and min(ys) - TOL <= f[1]
                    and f[3] <= max(ys) + TOL and min(x for x, _ in d) < f[0] < max(x for x, _ in d))
        assert len(xs) == 2 and xs[1] - xs[0] == pytest.approx(got["width"], abs=TOL), "a divider spans the floor"
    assert len(glue) == 4 + 2 * 2
    for o in got["outlines"]:
        for x, y in o:
            assert P.PRINTABLE_MARGIN - TOL <= x <= size.width - P.PRINTABLE_MARGIN + TOL
            assert P.PRINTABLE_MARGIN - TOL <= y <= size.height - P.PRINTABLE_MARGIN - P.RULER_AREA + TOL


def tray_pages_of(layout: object, paper: str, tmp_path: Path) -> Path:
    from tmphys.print import tray

    path = tmp_path / f"tray-{paper}.pdf"
    path.write_bytes(tray.tray_pdf(layout, P.PAPERS[paper]))
    return path


def test_holder_tray_grows_with_the_cards_and_splits_when_too_wide(tmp_path: Path) -> None:
    """Bigger punch cards give a wider tray (and shorter ones lower walls); a net too wide for the sheet comes in two
    pieces, on a sheet or two, whose floors add up to the whole and whose half-diamonds meet on the glue strip's fold;
    too big even for that, one line saying so."""
    from dataclasses import replace

    from tmphys.print import tray

    classic = load_layout("classic")
    wider = replace(classic, card_width=classic.card_width + 20.0, card_height=50.0)
    found = {}
    for name, layout in (("classic", classic), ("wider", wider)):
        with pdfplumber.open(tray_pages_of(layout, "a4", tmp_path)) as pdf:
            found[name] = tray_geometry(pdf.pages[0])
    assert found["wider"]["width"] == pytest.approx(found["classic"]["width"] + 20.0, abs=TOL)
    assert found["wider"]["depth"] == pytest.approx(found["classic"]["depth"], abs=TOL)
    low = set(round(h, 2) for h in found["wider"]["walls"].values())
    assert low == {round(50.0 + classic.tab_height - P.TRAY_REVEAL, 2)} and low.pop() < P.TRAY_WALL_HEIGHT

    huge = replace(classic, card_width=160.0)
    placed = tray.tray_sheets(huge, P.PAPERS["a4"])
    assert placed.split
    with pdfplumber.open(tray_pages_of(huge, "a4", tmp_path)) as pdf:
        assert len(pdf.pages) == len(placed.pages) <= 2
        pieces, marks, folds = [], [], []
        for page in pdf.pages:
            blue = boxes(page, P.CARD_TINT["blue"], stroked=False)
            pieces += [b for b in blue if b[2] - b[0] > tray.tray_size(huge).wall + TOL]  # the blue floor's halves
            marks += [b for b in boxes(page, P.TRAY_MARK_FILL, stroked=False)]
            folds += fold_lines(page)
    assert len(pieces) == 2
    assert sum(b[2] - b[0] for b in pieces) == pytest.approx(huge.card_width + P.TRAY_CLEARANCE, abs=TOL)
    assert len(marks) == 4
    left = sorted(m for m in marks if any(abs(f[0] - m[2]) < TOL and abs(f[0] - f[2]) < TOL for f in folds))
    assert len(left) == 2, "the left piece's half-diamonds point away from its strip's fold"
    cut_edges = {round(min(x for x, _ in o), 2) for page in placed.pages for o in
                 ([(x, y) for x, y in piece.outline] for piece in page if piece.name.endswith("right half"))}
    right = [m for m in marks if m not in left]
    assert len(right) == 2 and all(round(m[0], 2) in cut_edges for m in right), "the right piece's, from its edge"
    sizes = {(round(m[2] - m[0], 2), round(m[3] - m[1], 2)) for m in marks}
    assert sizes == {(P.TRAY_MARK / 2, P.TRAY_MARK)}

    with pytest.raises(ValueError, match="does not fit on a4"):
        tray.tray_sheets(replace(classic, card_width=400.0), P.PAPERS["a4"])
    with pytest.raises(ValueError, match="too short for a paper tray"):
        tray.tray_sheets(replace(classic, card_height=30.0), P.PAPERS["a4"])


def test_holder_tray_is_in_the_build(classic: Path) -> None:
    import json

    listed = {e["path"]: e["kind"] for e in json.loads((classic / "manifest.json").read_text("utf-8"))["files"]}
    assert listed["holder-tray.pdf"] == "kit" and listed["previews/holder-tray.png"] == "preview"
