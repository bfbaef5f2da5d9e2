"""The rest of the homemade kit that ``tmphys build`` writes beside the cards, read back from its PDFs.

Card backs (mirrored for a long-edge flip, offset, with duplex registration marks), and the table's printed parts.
Two builds per module: classic on A4 (backs after the fronts) and retail on Letter (duplex, bleed, an offset).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pytest

from tmphys.cards.layout import load_layout
from tmphys.cli.main import main
from tmphys.render import params as P
from tmphys.render import sheets

TOL = 0.01  # mm
OFFSET = (0.5, -1.0)
RETAIL_ARGS = ["--layout", "retail", "--paper", "letter", "--duplex", "--bleed", "2", "--kerf", "0.2",
               "--back-offset", f"{OFFSET[0]},{OFFSET[1]}", "--copies", "1"]


def run(args: list[str]) -> int:
    """Run ``tmphys`` in process; its exit status."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    return int(exit_info.value.code or 0)


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit-classic") / "set"
    assert run(["build", "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def retail(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit-retail") / "set"
    assert run(["build", *RETAIL_ARGS, "--out", str(out)]) == 0
    return out


@pytest.fixture(autouse=True)
def skip_glyph_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Letters and symbols are form XObjects and carry no geometry we check: pdfminer need not run them."""
    from pdfminer.pdfinterp import PDFPageInterpreter
    monkeypatch.setattr(PDFPageInterpreter, "do_Do", lambda self, xobjid: None)


def mm(v: float) -> float:
    return v / P.PT_PER_MM


def rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))


def same_colour(a: object, colour: str) -> bool:
    return isinstance(a, (tuple, list)) and len(a) == 3 and np.allclose(a, rgb(colour), atol=2e-3)


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
    with pdfplumber.open(path) as pdf:
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
    with pdfplumber.open(out / "punch-cards.pdf") as pdf:
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
    with pdfplumber.open(out / "criteria-cards.pdf") as pdf:
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
    with pdfplumber.open(out / name) as pdf:
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
