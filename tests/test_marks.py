"""✓ and ✗ anyone can read, measured on the printed files; verification cards findable by the IDs on their fronts.

The PDFs are rasterised (pypdfium2), and every mark kind's colour (✓ fill, ✗ fill, each glyph) is read from the
pixels where the drawing model puts it. Their luminance contrast is measured as printed, in greyscale (what a
black-and-white printer or copier gives: the pixels' luma), and under simulated protanopia and deuteranopia
(Machado, Oliveira and Fernandes 2009, "A Physiologically-based Model for Simulation of Color Vision Deficiency",
IEEE TVCG 15(6), severity 1) and tritanopia (Brettel, Viénot and Mollon 1997, "Computerized simulation of color
appearance for dichromats", JOSA A 14(10)), as ColorAide implements them.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from coloraide import Color
from conftest import built_pdf

from tmphys.art import draw
from tmphys.art import params as P
from tmphys.art.draw import GlyphRun, Shape
from tmphys.cards.deck import Deck
from tmphys.cards.layout import load_layout
from tmphys.cards.stack import Placement, Raster, stack_openings
from tmphys.game.criteria import ID_COLOURS, library
from tmphys.lang.glyphs import glyph
from tmphys.print import sheets
from tmphys.print.pdf import Page, pdf_bytes

DPI = 300
VIEWS = ("colour", "greyscale", "protanopia", "deuteranopia", "tritanopia")


def simulate(colour: Color, view: str) -> Color:
    """What a colour looks like in one view (the greyscale view is taken from the pixels, not here)."""
    if view == "protanopia":
        return colour.filter("protan", method="machado").convert("srgb").clip()  # Machado et al. 2009
    if view == "deuteranopia":
        return colour.filter("deutan", method="machado").convert("srgb").clip()  # Machado et al. 2009
    if view == "tritanopia":
        return colour.filter("tritan", method="brettel").convert("srgb").clip()  # Brettel et al. 1997
    return colour


def contrast(a: Color, b: Color) -> float:
    """WCAG 2.1's luminance contrast ratio, (L1 + 0.05) / (L2 + 0.05), the lighter over the darker."""
    return a.contrast(b, method="wcag21")


def render(pdf: bytes | Path, page: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """One page at ``DPI``: its RGB pixels, and the greyscale (luma) a black-and-white print gives."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        image = doc[page].render(scale=DPI / 72.0, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        doc.close()
    return np.asarray(image), np.asarray(image.convert("L"))


def mark_points(page: Page) -> dict[str, list[tuple[float, float]]]:
    """Where on a page (mm) each mark kind's colour shows solid, from the drawing model: a ✓ or ✗ fill near its
    cell's corner (clear of the glyph), and a point on each glyph's stroke (✗: where its bars cross; ✓: its lowest
    bend)."""
    out: dict[str, list[tuple[float, float]]] = {k: [] for k in ("pass-fill", "fail-fill", "pass-glyph", "fail-glyph")}
    for item, dx, dy in page.items:
        if isinstance(item, Shape) and item.role in ("mark-pass", "mark-fail") and item.fill:
            points = [cmd[1:3] for cmd in item.path if cmd[0] in "ML"]
            for k in range(0, len(points), 4):  # each cell a rectangle of four corners
                x0 = min(p[0] for p in points[k:k + 4])
                y0 = min(p[1] for p in points[k:k + 4])
                out[item.role.removeprefix("mark-") + "-fill"].append((x0 + dx + 0.35, y0 + dy + 0.35))
        if isinstance(item, GlyphRun) and item.role.startswith("mark-glyph-"):
            kind = item.role.removeprefix("mark-glyph-")
            at = (0.5, 0.5) if kind == "fail" else (0.38, 0.14)  # em units, y up: on the stroke (glyphs.SYMBOLS)
            for _, x, baseline, size in item.glyphs:
                out[f"{kind}-glyph"].append((x + dx + at[0] * size, baseline + dy - at[1] * size))
    return out


def sampled(rgb: np.ndarray, grey: np.ndarray, points: list[tuple[float, float]]) -> tuple[Color, Color]:
    """The median colour, and the median grey, of 3 × 3 pixels around each point (mm)."""
    px = [(round(y * DPI / 25.4), round(x * DPI / 25.4)) for x, y in points]
    colour = np.median([rgb[r - 1:r + 2, c - 1:c + 2].reshape(-1, 3) for r, c in px], axis=(0, 1)) / 255
    level = float(np.median([grey[r - 1:r + 2, c - 1:c + 2] for r, c in px])) / 255
    return Color("srgb", list(colour)), Color("srgb", [level] * 3)


def mark_contrasts(pdf: bytes | Path, model: Page, page: int = 0) -> dict[str, dict[str, float]]:
    """Per view, the contrast of the two fills, and of each fill and its glyph, as the page prints them."""
    rgb, grey = render(pdf, page)
    seen = {kind: sampled(rgb, grey, points) for kind, points in mark_points(model).items() if points}
    assert set(seen) == {"pass-fill", "fail-fill", "pass-glyph", "fail-glyph"}, sorted(seen)
    out = {}
    for view in VIEWS:
        c = {k: (v[1] if view == "greyscale" else simulate(v[0], view)) for k, v in seen.items()}
        out[view] = {"fills": contrast(c["pass-fill"], c["fail-fill"]),
                     "pass": contrast(c["pass-fill"], c["pass-glyph"]),
                     "fail": contrast(c["fail-fill"], c["fail-glyph"])}
    return out


def first_sheet(layout_name: str, paper: str, bleed: float = 0.0, ink: str = "full") -> sheets.Sheet:
    """The first sheet of verification card fronts as a build imposes it (its first cards, in deck order)."""
    deck = Deck(load_layout(layout_name))
    fronts = [draw.verification_front(deck, v, bleed=bleed, ink=ink) for v in library().verification_cards[:4]]
    return sheets.impose(fronts, P.PAPERS[paper], bleed)[0]


# --- contrast --------------------------------------------------------------------------------------------

def test_the_palette_itself_keeps_three_to_one_in_every_view() -> None:
    """params.MARKS as colours: ≥ MIN_MARK_CONTRAST between the fills and between each fill and its glyph, in colour,
    greyscale (ITU-R 601 luma, as a printer driver or PIL makes it) and the three simulations."""
    marks = {k: (Color(m.fill), Color(m.glyph)) for k, m in P.MARKS.items()}
    for view in VIEWS:
        def seen(c: Color, view: str = view) -> Color:
            if view == "greyscale":
                r, g, b = c.convert("srgb").coords()
                return Color("srgb", [0.299 * r + 0.587 * g + 0.114 * b] * 3)
            return simulate(c, view)
        (pf, pg), (ff, fg) = ((seen(f), seen(g)) for f, g in (marks["pass"], marks["fail"]))
        for pair, value in (("fills", contrast(pf, ff)), ("pass", contrast(pf, pg)), ("fail", contrast(ff, fg))):
            assert value >= P.MIN_MARK_CONTRAST, (view, pair, value)
    assert marks["pass"][0].luminance() > marks["fail"][0].luminance(), "✓ the light one, ✗ the dark one"


@pytest.mark.parametrize("which", ["classic", "retail"])
def test_printed_marks_keep_three_to_one_in_greyscale_and_for_colour_blind_players(which: str,
                                                                                   request: pytest.FixtureRequest
                                                                                   ) -> None:
    """Rasterised from the built verification-cards.pdf (retail: Letter, bleed, duplex), every mark kind keeps at least
    3:1 against the other fill and against its glyph, as printed, in greyscale and in the three simulations."""
    out = request.getfixturevalue(which)
    paper, bleed = ("a4", 0.0) if which == "classic" else ("letter", 2.0)
    model = sheets.sheet_page(first_sheet(which, paper, bleed), bleed, 1, 1)
    found = mark_contrasts(out / "verification-cards.pdf", model)
    for view, pairs in found.items():
        for pair, value in pairs.items():
            assert value >= P.MIN_MARK_CONTRAST, (which, view, pair, round(value, 2))


def test_the_readme_gives_the_measured_contrast(classic: Path) -> None:
    """docs/printing.md's line of figures (the README links it) is what the built sheet measures (to one decimal)."""
    model = sheets.sheet_page(first_sheet("classic", "a4"), 0.0, 1, 1)
    found = mark_contrasts(classic / "verification-cards.pdf", model)
    readme = " ".join((Path(__file__).resolve().parents[1] / "docs" / "printing.md").read_text("utf-8").split())
    for view, pairs in found.items():
        said = f"{view} {pairs['fills']:.1f} : 1 ({pairs['pass']:.1f}, {pairs['fail']:.1f})"
        assert said in readme, said


def test_the_player_aid_shows_the_marks_as_the_cards_print_them() -> None:
    """The player aid's sample ✓ and ✗ cells are the cards' marks: the same contrasts, rasterised."""
    from tmphys.print import aid

    page = aid.aid_page(P.PAPERS["a4"])
    for view, pairs in mark_contrasts(pdf_bytes([page], "aid"), page).items():
        assert min(pairs.values()) >= P.MIN_MARK_CONTRAST, ("aid", view, pairs)


def test_low_ink_outlines_pass_and_hatches_fail_in_the_same_cells() -> None:
    """--ink low: the same cells, ✓ outlined with a blank inside, ✗ hatched over a quarter of its area or more, each
    glyph dark on paper (≥ 3:1 in every view), and no large solid fill on the card."""
    layout = load_layout("classic")
    full = first_sheet("classic", "a4")
    low = first_sheet("classic", "a4", ink="low")
    page = sheets.sheet_page(low, 0.0, 1, 1)
    _, grey = render(pdf_bytes([page], "low"))
    paper = Color("srgb", [1, 1, 1])
    px = DPI / 25.4
    coverage: dict[str, list[float]] = {"pass": [], "fail": []}
    deck = Deck(layout)
    g = P.MARK_GLYPH_SCALE * min(layout.mark_width, layout.mark_height)
    for v, f_slot, l_slot in zip(library().verification_cards, full.slots, low.slots):
        assert (f_slot.x, f_slot.y) == (l_slot.x, l_slot.y), "the same places on the sheet"
        for cell, passed in zip(layout.cells, deck.face(v)):
            x0 = l_slot.x + cell.x - layout.mark_width / 2
            y0 = l_slot.y + cell.y - layout.mark_height / 2
            edge = round((P.LOW_INK_OUTLINE + 0.15) * px)  # inside the outline
            box = grey[round(y0 * px) + edge:round((y0 + layout.mark_height) * px) - edge,
                       round(x0 * px) + edge:round((x0 + layout.mark_width) * px) - edge]
            ring = np.ones(box.shape, dtype=bool)  # the cell less its glyph's square (and the glyph's mitres)
            inner = (round(((layout.mark_height - g) / 2 - 0.25) * px) - edge,
                     round(((layout.mark_width - g) / 2 - 0.25) * px) - edge)
            ring[inner[0]:box.shape[0] - inner[0], inner[1]:box.shape[1] - inner[1]] = False
            coverage["pass" if passed else "fail"].append(float((box[ring] < 200).mean()))
    assert max(coverage["pass"]) < 0.05, "a ✓ cell is blank inside its outline, around its glyph"
    assert min(coverage["fail"]) > 0.25, "a ✗ cell is hatched around its glyph"
    for kind, colour in P.LOW_INK_GLYPH.items():
        for view in VIEWS:
            c = simulate(Color(colour), view) if view != "greyscale" else Color("srgb", [
                sum(w * v for w, v in zip((0.299, 0.587, 0.114), Color(colour).coords()))] * 3)
            assert contrast(c, paper) >= P.MIN_MARK_CONTRAST, (kind, view)
    _, full_grey = render(pdf_bytes([sheets.sheet_page(full, 0.0, 1, 1)], "full"))
    assert (1 - grey / 255).mean() < 0.5 * (1 - full_grey / 255).mean(), "less than half the ink"
    filled = [s for slot in low.slots for s in slot.card.art if isinstance(s, Shape) and s.fill
              and s.role not in ("alignment", "mark-knockout")]
    assert not filled, [s.role for s in filled]


# --- IDs on the fronts, where no stack's window reaches -----------------------------------------------------

def glyph_boxes(card: draw.CardArt, role: str) -> list[tuple[float, float, float, float]]:
    """The boxes (x0, y0, x1, y1, mm on the card) of the glyphs of a card's runs of one role."""
    out = []
    for item in card.art:
        if isinstance(item, GlyphRun) and item.role == role:
            for key, x, baseline, size in item.glyphs:
                weight, char = key.split(":", 1)
                points = np.array([cmd[k:k + 2] for cmd in glyph(char, weight if weight != "symbol" else "regular")
                                   .path for k in range(1, len(cmd), 2)])
                out.append((x + points[:, 0].min() * size, baseline - points[:, 1].max() * size,
                            x + points[:, 0].max() * size, baseline - points[:, 1].min() * size))
    return out


@pytest.mark.parametrize("name", ["classic", "retail"])
def test_front_ids_lie_where_no_stack_can_show_them(name: str) -> None:
    """Every verification card front prints its four IDs; no glyph of them lies within the layout's tolerance of any
    window a stack can open: clear of every code cell's hole grown by twice the tolerance (each layer may shift that
    far, the card the other way), and, on a raster of the whole card, off every pixel the 125 stacks open with the
    punch cards shifted by the tolerance each way."""
    from tmphys.cards.check import tolerance

    layout = load_layout(name)
    deck = Deck(layout)
    delta = tolerance(layout, deck.hole_matrix).mm
    cards = library().verification_cards
    boxes = {}
    for v in (cards[0], cards[46], cards[-1]):
        art = draw.verification_front(deck, v)
        runs = [i for i in art.art if isinstance(i, GlyphRun) and i.role == "front-id"]
        assert {r.fill for r in runs} == {P.ID_INK[c] for c in ID_COLOURS}
        boxes[v.index] = glyph_boxes(art, "front-id")
        assert len(boxes[v.index]) == sum(len(str(v.ids[c])) + 1 for c in ID_COLOURS)
        for x0, y0, x1, y1 in boxes[v.index]:
            assert 0 <= x0 and x1 <= layout.card_width and 0 <= y0 and y1 <= layout.card_height
    reach_x, reach_y = layout.hole_width / 2 + 2 * delta, layout.hole_height / 2 + 2 * delta
    for cell in (layout.cells[i] for i in layout.code_cells):
        for box in (b for found in boxes.values() for b in found):
            apart = box[2] < cell.x - reach_x or box[0] > cell.x + reach_x or box[3] < cell.y - reach_y \
                or box[1] > cell.y + reach_y
            assert apart, (name, cell.index, box)
    xs, ys = layout.centres[:, 0], layout.centres[:, 1]
    margin = max(xs.min(), ys.min(), layout.card_width - xs.max(), layout.card_height - ys.max()) + 1.0
    raster = Raster(layout, 4.0, margin=margin)  # the whole card
    x, y = raster.points
    ink = np.zeros(x.shape, dtype=bool)
    for x0, y0, x1, y1 in (b for found in boxes.values() for b in found):
        ink |= (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    assert ink.any()
    # the punch cards shifted by the tolerance one way and the card the other: 2δ between them, every direction
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1), (0, 0)):
        windows = stack_openings(raster.all_masks(deck, Placement(2 * delta * dx, 2 * delta * dy)).reshape(15, -1))
        assert windows.any(axis=1).all(), "every stack opens its window"
        assert not (windows.any(axis=0).reshape(x.shape) & ink).any(), (name, dx, dy)


def test_every_pdf_sets_its_words_as_text_in_an_embedded_subset(classic: Path, skip_glyph_forms: None) -> None:
    """Every PDF of the build is searchable text in embedded subsets of the cards' font (no font left unembedded);
    the cut files stay outlines (no text, no glyphs). The text is read without running the glyphs' drawings (form
    XObjects, conftest's ``skip_glyph_forms``): the words are the page's own text."""
    for path in sorted(classic.glob("*.pdf")):
        data = path.read_bytes()
        fonts = set(re.findall(rb"/BaseFont /([^\s/]+)", data))
        assert fonts and all(b"+" in f for f in fonts), (path.name, fonts)
        assert data.count(b"/FontFile2") == len(fonts), path.name
        with built_pdf(path) as pdf:
            assert "tmphys" in (pdf.pages[0].extract_text() or ""), path.name
    for path in sorted((classic / "cut").glob("*.svg"))[:6]:
        text = path.read_text("utf-8")
        assert "<text" not in text and "<use" not in text, path.name


def test_the_pages_take_the_marks_colours_from_params(classic_machine: dict) -> None:
    """machine.html and the companion page show ✓ and ✗ in params.MARKS's colours, read from there (the templates name
    none of their own)."""
    from importlib import resources

    from tmphys.web.machine_page import MARK_COLOURS, machine_html, template

    for name in ("templates/machine.html", "templates/companion.html", "static/app.css"):
        raw = resources.files("tmphys.web").joinpath(name).read_text("utf-8")
        assert raw.count(MARK_COLOURS) == 1
        for old in ("#2e9d4a", "#d63b2f"):  # the colours the marks had before they differed in lightness
            assert old not in raw.lower()
        page = template(name)
        for kind, ink in P.MARKS.items():
            assert f"--{kind}-fill: {ink.fill};" in page and f"--{kind}-glyph: {ink.glyph};" in page
        assert "var(--pass-fill)" in raw or "var(--pass-glyph)" in raw
    layout = load_layout("classic")
    html = machine_html(layout, classic_machine).decode()  # its machine_data, worked out once, as build does
    assert f'"marks":{{"pass":{{"fill":"{P.PASS_FILL}","glyph":"{P.PASS_GLYPH}"}}' in html
    from tmphys.web.table_app import table_html

    app = table_html(layout, machine=classic_machine).decode()
    for kind, ink in P.MARKS.items():
        assert f"--{kind}-fill: {ink.fill};" in app and f"--{kind}-glyph: {ink.glyph};" in app
