"""``tmphys build``: what we print is what we checked.

The set is built once a run (classic on A4 with the defaults; retail on Letter with duplex,
bleed, kerf, a back offset and a 1.5 mm holder board). The tests read the geometry back from the
written SVG and PDF files — hole rectangles, cell marks, page sizes, cut paths — and run the same
stack check as the model on it. The tests of the output folder build a game's cards (``GAME``).
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import numpy as np
import pdfplumber
import pytest
from conftest import built_pdf, run_tmphys
from pdfread import mm, rgb, same_colour

from tmphys.art import params as P
from tmphys.art import svg
from tmphys.cards.check import check_stacks
from tmphys.cards.deck import PUNCH_CARDS, Deck, stack_for
from tmphys.cards.layout import Layout, load_layout
from tmphys.game.codes import Code
from tmphys.game.criteria import library, verification_card

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.01  # mm: how close read-back geometry must be to the layout


run = run_tmphys

#: A game's cards (``build --for``): 17 files rather than the full set's few hundred, written, checked and replaced
#: by the same code (``check_target``, ``write_tree``), for the tests of the output folder.
GAME = ["--for", "#A46 NXF"]


# --- reading SVG back ---------------------------------------------------------------------------------

def subpaths(d: str) -> list[np.ndarray]:
    """The points (end and control points) of each subpath of SVG path data, and whether it closes."""
    out, current = [], []
    for op, args in re.findall(r"([MLCZ])([^MLCZ]*)", d):
        if op == "M" and current:
            out.append(np.array(current))
            current = []
        nums = [float(v) for v in args.split()]
        current += list(zip(nums[0::2], nums[1::2]))
    if current:
        out.append(np.array(current))
    return out


def closed(d: str) -> bool:
    """Every subpath ends with Z."""
    parts = re.split(r"(?=M)", d)
    return all(p.rstrip().endswith("Z") for p in parts if p)


def bbox(points: np.ndarray) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1."""
    return points[:, 0].min(), points[:, 1].min(), points[:, 0].max(), points[:, 1].max()


def nearest_cell(layout: Layout, x: float, y: float) -> int:
    """Position in ``layout.cells`` of the cell centred at (x, y); fails if none is within TOL."""
    dist = np.hypot(layout.centres[:, 0] - x, layout.centres[:, 1] - y)
    i = int(dist.argmin())
    assert dist[i] < TOL, f"({x:.3f}, {y:.3f}) is {dist[i]:.3f} mm from the nearest cell"
    return i


def svg_holes(path: Path, layout: Layout) -> np.ndarray:
    """Read a punch card SVG: its printed body's holes, checked against the layout's hole size."""
    root = ET.parse(path).getroot()
    body = root.find(f".//{SVG}path[@class='punch-body']")
    assert body.get("fill-rule") == "evenodd"
    holes = np.zeros(len(layout.cells), dtype=bool)
    outline, *rest = subpaths(body.get("d"))
    for points in rest:
        x0, y0, x1, y1 = bbox(points)
        assert x1 - x0 == pytest.approx(layout.hole_width, abs=TOL)
        assert y1 - y0 == pytest.approx(layout.hole_height, abs=TOL)
        holes[nearest_cell(layout, (x0 + x1) / 2, (y0 + y1) / 2)] = True
    return holes


def svg_marks(path: Path, layout: Layout) -> np.ndarray:
    """Read a verification front SVG: pass/fail per cell from the filled cells' colour."""
    root = ET.parse(path).getroot()
    marks = np.full(len(layout.cells), -1)
    for cls, fill, value in (("mark-pass", P.PASS_FILL, 1), ("mark-fail", P.FAIL_FILL, 0)):
        el = root.find(f".//{SVG}path[@class='{cls}']")
        assert el.get("fill") == fill
        for points in subpaths(el.get("d")):
            x0, y0, x1, y1 = bbox(points)
            assert abs(x1 - x0 - layout.mark_width) <= TOL, f"a mark {x1 - x0:.3f} mm wide"  # approx's, quicker
            i = nearest_cell(layout, (x0 + x1) / 2, (y0 + y1) / 2)
            assert marks[i] == -1, "two marks on one cell"
            marks[i] = value
    assert (marks >= 0).all(), "a cell without a mark"
    return marks.astype(bool)


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text("utf-8"))


def entries(out: Path, kind: str) -> list[dict]:
    return [e for e in manifest(out)["files"] if e["kind"] == kind]


# --- reading PDF back -----------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _glyphs_skipped(skip_glyph_forms: None) -> None:
    """Every test here reads geometry only (see conftest's ``skip_glyph_forms``)."""


def pdf_boxes(page: pdfplumber.page.Page, colour: str, stroked: bool) -> list[tuple[float, float, float, float]]:
    """Boxes (mm: x0, top, x1, bottom) of the paths stroked (or filled) in one colour on a page."""
    out = []
    for o in page.curves + page.rects:
        if stroked and o["stroke"] and same_colour(o["stroking_color"], colour):
            out.append((mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])))
        if not stroked and o["fill"] and same_colour(o["non_stroking_color"], colour):
            out.append((mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])))
    return out


def cards_on(boxes: list[tuple], width: float, height: float) -> list[tuple]:
    """The boxes the size of a card, in reading order (rows top to bottom, then left to right)."""
    found = [b for b in boxes if abs(b[2] - b[0] - width) < TOL and abs(b[3] - b[1] - height) < TOL]
    return sorted(found, key=lambda b: (round(b[1], 1), b[0]))


def pdf_punch_cards(path: Path, layout: Layout) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every punch card printed in a PDF, in order: (holes by cut line, holes in the printed body)."""
    out = []
    frame_h = layout.card_height + layout.tab_height
    with built_pdf(path) as pdf:
        for page in pdf.pages:
            assert (mm(page.width), mm(page.height)) == pytest.approx((210.0, 297.0), abs=0.01) or \
                   (mm(page.width), mm(page.height)) == pytest.approx((215.9, 279.4), abs=0.01)
            guides = pdf_boxes(page, P.CUT_GUIDE_COLOUR, stroked=True)
            for x0, top, _, _ in cards_on(guides, layout.card_width, frame_h):
                ox, oy = x0, top + layout.tab_height  # the card's top-left corner
                read = []
                for stroked in (True, False):
                    holes = np.zeros(len(layout.cells), dtype=bool)
                    if stroked:
                        boxes = guides
                    else:  # the printed body: every filled path in a card tint
                        boxes = [b for c in P.CARD_TINT.values() for b in pdf_boxes(page, c, stroked=False)]
                    for bx0, btop, bx1, bbottom in boxes:
                        cx, cy = (bx0 + bx1) / 2 - ox, (btop + bbottom) / 2 - oy
                        small = bx1 - bx0 < layout.pitch_x
                        if small and 0 < cx < layout.card_width and 0 < cy < layout.card_height:
                            assert bx1 - bx0 == pytest.approx(layout.hole_width, abs=TOL)
                            assert bbottom - btop == pytest.approx(layout.hole_height, abs=TOL)
                            holes[nearest_cell(layout, cx, cy)] = True
                    read.append(holes)
                out.append((read[0], read[1]))
    return out


def pdf_fronts(path: Path, layout: Layout, pages: int) -> list[np.ndarray]:
    """Pass marks of the verification fronts on the first ``pages`` pages, in printed order."""
    out = []
    with built_pdf(path) as pdf:
        for page in pdf.pages[:pages]:
            cards = cards_on(pdf_boxes(page, P.CUT_GUIDE_COLOUR, stroked=True), layout.card_width,
                             layout.card_height)
            marks = {True: pdf_boxes(page, P.PASS_FILL, False), False: pdf_boxes(page, P.FAIL_FILL, False)}
            for x0, top, _, _ in cards:
                face = np.full(len(layout.cells), -1)
                for value, boxes in marks.items():
                    for bx0, btop, bx1, bbottom in boxes:
                        cx, cy = (bx0 + bx1) / 2 - x0, (btop + bbottom) / 2 - top
                        if 0 < cx < layout.card_width and 0 < cy < layout.card_height:
                            assert bx1 - bx0 == pytest.approx(layout.mark_width, abs=TOL)
                            face[nearest_cell(layout, cx, cy)] = value
                assert (face >= 0).all()
                out.append(face.astype(bool))
    return out


# --- the tests --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["classic", "retail"])
def test_svg_read_back_passes_the_stack_check(which: str, request: pytest.FixtureRequest) -> None:
    out = request.getfixturevalue(which)
    layout = load_layout(which)
    punch = {(e["colour"], e["value"]): e["path"] for e in entries(out, "punch-card")}
    assert len(punch) == 15
    matrix = np.array([svg_holes(out / punch[c.colour, c.value], layout) for c in PUNCH_CARDS])
    fronts = sorted(entries(out, "verification-front"), key=lambda e: e["path"])
    assert len(fronts) == 95
    faces = np.array([svg_marks(out / e["path"], layout) for e in fronts])
    assert check_stacks(layout, matrix, faces) == []
    assert (matrix == Deck(layout).hole_matrix).all()


def test_svg_marks_read_through_a_stack(classic: Path) -> None:
    """Booklet problem 1: 241 over ◊447 shows a pass; over ◊646, ◊566, ◊322 too (241 is the answer)."""
    layout = load_layout("classic")
    punch = {(e["colour"], e["value"]): e["path"] for e in entries(classic, "punch-card")}
    code = Code.parse("241")
    through = np.logical_and.reduce([svg_holes(classic / punch[c.colour, c.value], layout)
                                     for c in stack_for(code)])
    assert through.sum() == 1
    for green in ("447", "646", "566", "322"):
        v = verification_card(green)
        face = svg_marks(classic / f"svg/verification-cards/{v.index:03d}-front.svg", layout)
        assert face[through].item() is True
    wrong = verification_card("201")  # ● = 4: 241 fails it
    face = svg_marks(classic / f"svg/verification-cards/{wrong.index:03d}-front.svg", layout)
    assert face[through].item() is False


@pytest.mark.parametrize("which", ["classic", "retail"])
def test_pdf_read_back_passes_the_stack_check(which: str, request: pytest.FixtureRequest) -> None:
    out = request.getfixturevalue(which)
    layout = load_layout(which)
    copies = P.PUNCH_COPIES if which == "classic" else 1
    printed = pdf_punch_cards(out / "punch-cards.pdf", layout)
    assert len(printed) == 15 * copies
    for by_cut, by_ink in printed:
        assert (by_cut == by_ink).all(), "cut lines and printed holes disagree"
    matrix = np.array([printed[k * copies][0] for k in range(15)])
    for k in range(15 * copies):  # every copy is the same card
        assert (printed[k][0] == matrix[k // copies]).all()
    faces = pdf_fronts(out / "verification-cards.pdf", layout, pages=1)
    assert len(faces) >= 4
    deck = Deck(layout)
    for k, face in enumerate(faces):
        assert (face == deck.faces[k]).all(), f"verification card {k + 1} printed wrong"
    assert check_stacks(layout, matrix) == []


def test_page_sizes_in_mm(classic: Path, retail: Path) -> None:
    for out, size in ((classic, (210.0, 297.0)), (retail, (215.9, 279.4))):
        for name in ("punch-cards.pdf", "verification-cards.pdf", "criteria-cards.pdf"):
            with built_pdf(out / name) as pdf:
                for page in pdf.pages:
                    assert (mm(page.width), mm(page.height)) == pytest.approx(size, abs=0.01)


@pytest.mark.parametrize("name", ["punch-cards.pdf", "verification-cards.pdf", "criteria-cards.pdf", "note-sheets.pdf",
                                  "player-aid.pdf", "machine-board.pdf", "machine-board-extreme.pdf",
                                  "holder-tray.pdf"])
def test_every_sheet_has_a_100_mm_ruler(classic: Path, name: str) -> None:
    """Every sheet printed to scale (cards, note sheets, player aid, both boards, the tray; the booklet's in
    test_booklet) carries a 100 mm ruler in its foot strip, a tick a millimetre."""
    with built_pdf(classic / name) as pdf:
        pages = pdf.pages if len(pdf.pages) <= 12 else [pdf.pages[0], pdf.pages[len(pdf.pages) // 2], pdf.pages[-1]]
        for page in pages:
            foot = mm(page.height) - P.PRINTABLE_MARGIN - P.RULER_AREA
            ticks = [o for o in page.lines + page.curves if o["stroke"] and mm(o["top"]) > foot
                     and abs(mm(o["linewidth"]) - P.RULER_STROKE) < 1e-3]
            xs = sorted({round(mm(o["x0"]), 3) for o in ticks if abs(o["x1"] - o["x0"]) < 1e-6})
            assert xs[-1] - xs[0] == pytest.approx(P.RULER_LENGTH, abs=TOL)
            assert len(xs) == 101


def test_everything_printed_stays_inside_the_printable_margin(classic: Path, retail: Path) -> None:
    """Every page (A4 and Letter, duplex backs too), rendered, is blank paper in the margin every desktop printer
    reaches (less a pixel's anti-aliasing): the ruler's 0 once sat 0.6 mm outside it. The margin is rendered as four
    strips of the page's pixels (a crop of the whole page's rendering: pdfium draws only what falls in them)."""
    import math

    import pypdfium2

    dpi = 150
    scale = dpi / 72.0
    edge = int((P.PRINTABLE_MARGIN - 0.3) * dpi / 25.4)  # pixels wholly inside the margin
    for out in (classic, retail):
        for name in ("punch-cards.pdf", "verification-cards.pdf", "criteria-cards.pdf"):
            doc = pypdfium2.PdfDocument(out / name)
            try:
                for k in range(len(doc)):
                    page = doc[k]
                    width, height = math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)

                    def off(pixels: int) -> float:
                        return (pixels - 0.5) / scale  # a crop (pt) of that many whole pixels

                    # (crop: left, bottom, right, top), the strip's top-left pixel, its size
                    for crop, corner, size in (((0, off(height - edge), 0, 0), (0, 0), (edge, width)),
                                               ((0, 0, 0, off(height - edge)), (height - edge, 0), (edge, width)),
                                               ((0, 0, off(width - edge), 0), (0, 0), (height, edge)),
                                               ((off(width - edge), 0, 0, 0), (0, width - edge), (height, edge))):
                        ink = np.asarray(page.render(scale=scale, crop=crop).to_pil().convert("L")) < 250
                        assert ink.shape == size
                        assert not ink.any(), (out.name, name, k, (np.argwhere(ink)[:3] + corner) * 25.4 / dpi)
            finally:
                doc.close()


def test_duplex_backs_mirror_the_fronts(retail: Path) -> None:
    """Letter, duplex: front and back pages alternate; each back sits at its front's mirror image."""
    layout = load_layout("retail")
    with built_pdf(retail / "verification-cards.pdf") as pdf:
        assert len(pdf.pages) % 2 == 0
        front, back = pdf.pages[0], pdf.pages[1]
        width = mm(front.width)
        fronts = cards_on(pdf_boxes(front, P.CUT_GUIDE_COLOUR, True), layout.card_width, layout.card_height)
        bleed = 2.0
        backs = cards_on(pdf_boxes(back, P.BACK_TINT, False), layout.card_width + 2 * bleed,
                         layout.card_height + 2 * bleed)
        assert not pdf_boxes(back, P.CUT_GUIDE_COLOUR, True), "no cut lines on backs"
    assert len(fronts) == len(backs) >= 2
    mirrored = sorted(((width - x1 + 0.5, top - 1.0) for x0, top, x1, _ in fronts), key=lambda p: (round(p[1]), p[0]))
    got = sorted(((x0 + bleed, top + bleed) for x0, top, _, _ in backs), key=lambda p: (round(p[1]), p[0]))
    assert np.allclose(mirrored, got, atol=TOL)


CUT_KINDS = ("punch-cards", "verification-cards", "criteria-cards")


def cut_files(out: Path, cards: str = "punch-cards", ext: str = "svg") -> list[Path]:
    """The cut files of a build for one PDF (``cards``.pdf) in one format, in sheet order, from the manifest."""
    found = sorted((e for e in entries(out, "cut") if e["pdf"] == f"{cards}.pdf" and e["path"].endswith(f".{ext}")),
                   key=lambda e: e["sheet"])
    assert [e["sheet"] for e in found] == list(range(1, len(found) + 1))
    assert [e["path"] for e in found] == [f"cut/{cards}-{k:02d}.{ext}" for k in range(1, len(found) + 1)]
    return [out / e["path"] for e in found]


def test_cut_paths_are_red_closed_hairlines_holes_first(classic: Path, retail: Path) -> None:
    for out, kerf, layout in ((classic, 0.0, load_layout("classic")), (retail, 0.2, load_layout("retail"))):
        files = [*(path for kind in CUT_KINDS for path in cut_files(out, kind)),
                 *(out / e["path"] for e in entries(out, "punch-card"))]
        for path in files:
            root = ET.parse(path).getroot()
            assert root.get("width").endswith("mm") and root.get("height").endswith("mm")
            cut = root.find(f".//{SVG}g[@id='cut']")
            paths = list(cut)
            assert paths
            roles = [p.get("class") for p in paths]
            assert roles == sorted(roles, key=lambda r: r != "cut-hole"), "holes must come before outlines"
            for p in paths:
                assert p.get("stroke") == P.CUT_COLOUR == "#ff0000"
                assert float(p.get("stroke-width")) <= 0.03
                assert p.get("fill") == "none"
                assert closed(p.get("d"))
            if path.name.startswith("punch") or path.parent.name == "punch-cards":
                hole = bbox(subpaths(next(p for p in paths if p.get("class") == "cut-hole").get("d"))[0])
                assert hole[2] - hole[0] == pytest.approx(layout.hole_width - kerf, abs=TOL)
            else:
                assert set(roles) == {"cut-outline"}, f"{path.name}: only punch cards have holes"
            width = P.CRITERIA_CARD_WIDTH if path.name.startswith("criteria") else layout.card_width
            outline = bbox(subpaths(paths[-1].get("d"))[0])
            assert outline[2] - outline[0] == pytest.approx(width + kerf, abs=TOL)


def polylines(d: str, steps: int = 16) -> list[np.ndarray]:
    """Each subpath of SVG path data (M, L, C, Z) as a polyline in mm, cubic curves flattened (all of them at once:
    ``steps`` points each, the curve's end the last)."""
    pieces: list[list[object]] = []  # per subpath: points (x, y) and, for a curve, its number
    curves: list[tuple] = []  # each curve's four control points
    for op, args in re.findall(r"([MLCZ])([^MLCZ]*)", d):
        v = [float(x) for x in args.split()]
        if op == "M":
            pieces.append([(v[0], v[1])])
        elif op == "L":
            pieces[-1].append((v[0], v[1]))
        elif op == "C":
            last = pieces[-1][-1]
            start = last if isinstance(last, tuple) else curves[last][3]  # a curve ends on its last control point
            curves.append((start, (v[0], v[1]), (v[2], v[3]), (v[4], v[5])))
            pieces[-1].append(len(curves) - 1)
        else:
            pieces[-1].append(pieces[-1][0])
    if curves:
        p0, p1, p2, p3 = (c[:, None, :] for c in np.array(curves).transpose(1, 0, 2))
        t = np.linspace(0, 1, steps + 1)[1:, None]
        flat = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3
    return [np.concatenate([flat[x] if isinstance(x, int) else np.array([x], dtype=float) for x in piece])
            for piece in pieces]


def along(poly: np.ndarray, step: float = 0.1) -> np.ndarray:
    """Points every ``step`` mm (or closer) along a polyline: each segment's start and n - 1 points evenly between,
    n = its length // step + 1, and the last point."""
    a, ab = poly[:-1], poly[1:] - poly[:-1]
    n = np.maximum(1, (np.hypot(ab[:, 0], ab[:, 1]) / step).astype(int) + 1)
    segment = np.repeat(np.arange(len(a)), n)
    k = np.arange(len(segment)) - np.repeat(np.cumsum(n) - n, n)  # 0 .. n - 1 within each segment
    return np.concatenate([a[segment] + (k / n[segment])[:, None] * ab[segment], poly[-1:]])


def distance(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Distance (mm) from each point to the nearest point of a polyline."""
    ax, ay, bx, by = poly[:-1, 0], poly[:-1, 1], np.diff(poly[:, 0]), np.diff(poly[:, 1])
    length2 = np.maximum(bx * bx + by * by, 1e-18)
    dx, dy = points[:, :1] - ax, points[:, 1:] - ay  # point minus segment start, a point a row
    t = np.clip((dx * bx + dy * by) / length2, 0, 1)
    dx -= t * bx
    dy -= t * by
    return np.sqrt((dx * dx + dy * dy).min(1))


def inside(points: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Which points lie inside a closed polyline (even-odd rule)."""
    x, y = points[:, :1], points[:, 1:]
    x0, y0, x1, y1 = ring[:-1, 0], ring[:-1, 1], ring[1:, 0], ring[1:, 1]
    spans = (y0 > y) != (y1 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    return (spans & (x < at)).sum(1) % 2 == 1


def crossing(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a segment of polyline ``a`` crosses (or touches) a segment of polyline ``b``, not parallel to it."""
    p, r = a[:-1, None, :], (a[1:] - a[:-1])[:, None, :]
    q, s = b[None, :-1, :], (b[1:] - b[:-1])[None, :, :]

    def cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    denom, qp = cross(r, s), q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t, u = cross(qp, s) / denom, cross(qp, r) / denom
    return bool(((denom != 0) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)).any())


def cut_outlines_apart(svg_text: bytes | str, clearance: float) -> None:
    """Every card's cut outline (kerf and all) keeps ``clearance`` mm of paper from every other card's; no
    cut path lies inside another card; every hole lies inside its own card only.

    Two outlines that do not cross are nearest at a vertex of one of them: their gap is the least distance from
    either one's vertices to the other's segments (each pair is taken both ways round), and one that crosses the
    other is 0 mm from it; points every 0.1 mm along each outline must lie outside every other card."""
    root = ET.fromstring(svg_text)
    paths = [(p.get("class"), polylines(p.get("d"))[0]) for p in root.iter(f"{SVG}path")]
    outlines = [ring for role, ring in paths if role == "cut-outline"]
    assert outlines
    boxes = [np.r_[ring.min(0), ring.max(0)] for ring in outlines]
    for i, a in enumerate(outlines):
        points = along(a)
        for j, b in enumerate(outlines):
            reach = boxes[j] + (-clearance - 1, -clearance - 1, clearance + 1, clearance + 1)
            points_near = points[((points >= reach[:2]) & (points <= reach[2:])).all(1)]
            if i == j or not len(points_near):
                continue  # no point of a comes near b's box: none lies inside b or within reach of it
            assert not inside(points_near, b).any(), f"outline {i + 1} cuts into card {j + 1}"
            corners = a[((a >= reach[:2]) & (a <= reach[2:])).all(1)]
            gap = 0.0 if crossing(a, b) else distance(corners, b).min() if len(corners) else np.inf
            assert gap >= clearance - 0.01, f"outlines {i + 1} and {j + 1} are {gap:.3f} mm apart"
    for role, ring in paths:
        if role == "cut-hole":  # a card whose box does not hold the hole's cannot hold the hole
            low, high = ring.min(0), ring.max(0)
            cards = [o for o, box in zip(outlines, boxes) if (box[:2] <= low).all() and (high <= box[2:]).all()]
            assert sum(bool(inside(ring, o).all()) for o in cards) == 1, "a hole inside no card or two"


CUT_CASES = [dict(layout=name, paper=paper, kerf=kerf, copies=1)
             for name in ("classic", "retail") for paper in ("a4", "letter") for kerf in (0.0, P.MAX_KERF)]
CUT_CASES += [dict(layout="classic", paper="a4", kerf=0.25, copies=4, bleed=0.1),
              dict(layout="retail", paper="letter", kerf=P.MAX_KERF, copies=2, bleed=P.MAX_BLEED)]


@pytest.mark.parametrize("options", CUT_CASES, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_no_length_is_cut_twice_and_no_cut_enters_another_card(options: dict) -> None:
    """Neighbouring cards on a cut sheet never share a cut line, nor come within CUT_CLEARANCE of each other,
    with or without kerf (the outlines grow by kerf/2), bleed or copies; on every layout and paper.

    Every sheet of a kind puts its cards on the same grid (a part-filled last one on its first places), and only
    punch cards have holes: every punch card is cut here, and 12 verification and 12 criteria cards, a full sheet
    of each and more, not all 95 and 48."""
    from tmphys.game.criteria import library
    from tmphys.print.build import BuildOptions, draw_set, plan
    from tmphys.print.build import cut_files as make_cut_files  # what build_files writes (a test below)
    from tmphys.print.selection import Selection

    the_plan = plan(BuildOptions(**options))
    chosen = Selection(library().verification_cards[:12], library().criteria_cards[:12])
    made = make_cut_files(the_plan, draw_set(the_plan, chosen))
    svgs = [data for name, data, _ in made if name.endswith(".svg")]
    assert len(svgs) == len(made) // 2 and {e["pdf"] for _, _, e in made} == {f"{k}.pdf" for k in CUT_KINDS}
    sheets_of = [e["pdf"] for name, _, e in made if name.endswith(".svg")]
    assert sheets_of.count("verification-cards.pdf") >= 2 and sheets_of.count("criteria-cards.pdf") >= 2, \
        "the first sheet of each kind is full"
    for data in svgs:
        cut_outlines_apart(data, P.CUT_CLEARANCE)


def cut_sheet_cards(path: Path, layout: Layout, kerf: float) -> list[tuple[tuple[float, float], np.ndarray]]:
    """Read one cut sheet: per card outline (in order), its card's top-left corner (mm) and its holes."""
    root = ET.parse(path).getroot()
    paths = list(root.find(f".//{SVG}g[@id='cut']"))
    outlines = [bbox(subpaths(p.get("d"))[0]) for p in paths if p.get("class") == "cut-outline"]
    corners = [(x0 + kerf / 2, y1 - kerf / 2 - layout.card_height) for x0, _, _, y1 in outlines]
    holes = [np.zeros(len(layout.cells), dtype=bool) for _ in outlines]
    for p in paths:
        if p.get("class") != "cut-hole":
            continue
        x0, y0, x1, y1 = bbox(subpaths(p.get("d"))[0])
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        inside = [k for k, (ox, oy) in enumerate(corners)
                  if 0 < cx - ox < layout.card_width and 0 < cy - oy < layout.card_height]
        assert len(inside) == 1, "every hole lies in exactly one card"
        ox, oy = corners[inside[0]]
        holes[inside[0]][nearest_cell(layout, cx - ox, cy - oy)] = True
    return list(zip(corners, holes))


@pytest.mark.parametrize("which", ["classic", "retail"])
def test_cut_sheets_fit_the_paper_and_cut_the_right_holes(which: str, request: pytest.FixtureRequest) -> None:
    """One cut file per printed sheet, paper-sized; every card's holes are its own, in the printed order."""
    out = request.getfixturevalue(which)
    layout, kerf, copies = ((load_layout("classic"), 0.0, P.PUNCH_COPIES) if which == "classic"
                            else (load_layout("retail"), 0.2, 1))
    paper = (210.0, 297.0) if which == "classic" else (215.9, 279.4)
    cards = []
    for path in cut_files(out):
        root = ET.parse(path).getroot()
        assert (root.get("width"), root.get("height")) == (f"{paper[0]:g}mm", f"{paper[1]:g}mm")
        assert root.get("viewBox") == f"0 0 {paper[0]:g} {paper[1]:g}"
        for p in root.iter(f"{SVG}path"):  # nothing off the sheet
            x0, y0, x1, y1 = bbox(np.concatenate(subpaths(p.get("d"))))
            assert 0 <= x0 and x1 <= paper[0] and 0 <= y0 and y1 <= paper[1]
        cards += cut_sheet_cards(path, layout, kerf)
    assert len(cards) == 15 * copies
    matrix = Deck(layout).hole_matrix
    for k, (_, holes) in enumerate(cards):
        assert (holes == matrix[k // copies]).all(), f"card {k + 1} of the cut files has the wrong holes"
    with built_pdf(out / "punch-cards.pdf") as pdf:
        assert len(pdf.pages) == 2 * len(cut_files(out)), "one cut file per printed sheet of fronts, each with a back"


def test_cut_sheets_line_up_with_the_printed_sheets(classic: Path, retail: Path) -> None:
    """Print and cut: each cut file's holes sit exactly on the printed cut lines of the sheet of that number."""
    for out, layout in ((classic, load_layout("classic")), (retail, load_layout("retail"))):
        pages = {e["path"]: e["page"] for e in entries(out, "cut")}
        with built_pdf(out / "punch-cards.pdf") as pdf:
            for path in cut_files(out):
                page = pdf.pages[pages[f"cut/{path.name}"] - 1]
                printed = sorted((round((x0 + x1) / 2, 2), round((t + b) / 2, 2))
                                 for x0, t, x1, b in pdf_boxes(page, P.CUT_GUIDE_COLOUR, stroked=True)
                                 if x1 - x0 < layout.pitch_x)
                root = ET.parse(path).getroot()
                cut = []
                for p in root.iter(f"{SVG}path"):
                    if p.get("class") == "cut-hole":
                        x0, y0, x1, y1 = bbox(subpaths(p.get("d"))[0])
                        cut.append((round((x0 + x1) / 2, 2), round((y0 + y1) / 2, 2)))
                assert len(cut) == len(printed) > 0
                assert np.allclose(sorted(cut), printed, atol=TOL)


def test_verification_and_criteria_cut_files_line_up_with_their_pages(classic: Path, retail: Path) -> None:
    """Print and cut: each verification and criteria cut file (fronts only) holds the outlines, kerf/2 out, of the
    cards its PDF page prints, at the same places; the backs (every other page with --duplex) have none."""
    for out, layout, kerf in ((classic, load_layout("classic"), 0.0), (retail, load_layout("retail"), 0.2)):
        for kind, size in (("verification-cards", (layout.card_width, layout.card_height)),
                           ("criteria-cards", (P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT))):
            found = [e for e in entries(out, "cut") if e["path"] in {f"cut/{p.name}" for p in cut_files(out, kind)}]
            found.sort(key=lambda e: e["sheet"])
            with built_pdf(out / f"{kind}.pdf") as pdf:
                pages = len(pdf.pages)
                # fronts then backs, or alternating with --duplex
                fronts = list(range(1, pages + 1, 2)) if out == retail else list(range(1, pages // 2 + 1))
                assert [e["page"] for e in found] == fronts
                for number in sorted({fronts[0], fronts[1], fronts[-1], *(set(range(1, 4)) - set(fronts))}):
                    page = pdf.pages[number - 1]
                    guides = cards_on(pdf_boxes(page, P.CUT_GUIDE_COLOUR, stroked=True), *size)
                    if number not in fronts:
                        assert not guides, f"page {number} of {kind}.pdf is a back: nothing to cut"
                        continue
                    e = found[fronts.index(number)]
                    root = ET.parse(out / e["path"]).getroot()
                    assert all(p.get("class") == "cut-outline" for p in root.iter(f"{SVG}path"))
                    k = kerf / 2
                    cut = sorted(((x0 + k, y0 + k, x1 - k, y1 - k) for x0, y0, x1, y1 in
                                  (bbox(subpaths(p.get("d"))[0]) for p in root.iter(f"{SVG}path"))),
                                 key=lambda b: (round(b[1], 1), b[0]))
                    assert len(cut) == len(guides) > 0
                    assert np.allclose(cut, guides, atol=TOL), e["path"]


def dxf_polylines(doc: object, paper_height: float) -> list[tuple[str, np.ndarray]]:
    """A DXF cut file read back with ezdxf: each entity's layer and its points, flattened, in sheet mm (y down)."""
    from ezdxf import path as dxf_path

    out = []
    for entity in doc.modelspace():
        assert entity.dxftype() == "LWPOLYLINE" and entity.closed
        points = np.array([(v.x, paper_height - v.y) for v in dxf_path.make_path(entity).flattening(0.001)])
        out.append((entity.dxf.layer, points))
    return out


def test_dxf_cut_files_are_the_svg_cut_files(classic: Path, retail: Path) -> None:
    """Each DXF beside a cut SVG: millimetres ($INSUNITS), red cut layers, holes on their own layer and first, the
    sheet's size in its limits, and the same paths in the same places as the SVG, read back with ezdxf."""
    import ezdxf
    from ezdxf.colors import aci2rgb

    layer_of = {"cut-hole": "CUT-HOLES", "cut-outline": "CUT-OUTLINES"}
    for out, paper in ((classic, (210.0, 297.0)), (retail, (215.9, 279.4))):
        for kind in CUT_KINDS:
            svgs, dxfs = cut_files(out, kind, "svg"), cut_files(out, kind, "dxf")
            assert [p.with_suffix("") for p in svgs] == [p.with_suffix("") for p in dxfs]
            for svg_path, dxf_path in zip(svgs, dxfs):
                doc = ezdxf.readfile(dxf_path)
                assert doc.header["$INSUNITS"] == 4 and doc.header["$MEASUREMENT"] == 1  # millimetres, metric
                assert tuple(doc.header["$LIMMIN"])[:2] == (0, 0) and tuple(doc.header["$LIMMAX"])[:2] == paper
                red = tuple(round(255 * c) for c in rgb(P.CUT_COLOUR))
                assert all(tuple(aci2rgb(doc.layers.get(name).color)) == red for name in layer_of.values())
                want = [(p.get("class"), polylines(p.get("d"), steps=32)) for p in ET.parse(svg_path).getroot()
                        .iter(f"{SVG}path")]
                got = dxf_polylines(doc, paper[1])
                layers = [layer for layer, _ in got]
                assert layers == [layer_of[role] for role, rings in want for _ in rings]
                assert layers == sorted(layers, key=lambda n: n != "CUT-HOLES"), "holes first"
                for (_, points), ring in zip(got, (ring for _, rings in want for ring in rings)):
                    assert distance(points, ring).max() <= P.DXF_CURVE_TOLERANCE
                    assert distance(along(ring, 1.0), points).max() <= P.DXF_CURVE_TOLERANCE  # every curve point too


def test_per_card_svgs_share_one_frame_that_holds_their_cut(classic: Path, retail: Path) -> None:
    """Punch and verification cards share one mm frame (overlaying the files is stacking the cards): the card
    and its tab, grown on every side by the bleed or kerf/2, whichever is more, so that the bleed art and the
    kerf-grown cut outline lie inside it (both were clipped); the cards stay where the layout puts them, the cut
    outline kerf/2 outside the card. Criteria cards have their own frame, grown the same way."""
    for out, name, bleed, kerf in ((classic, "classic", 0.0, 0.0), (retail, "retail", 2.0, 0.2)):
        layout = load_layout(name)
        k, g = kerf / 2, max(bleed, kerf / 2)
        tall = (0.0, -layout.tab_height, layout.card_width, layout.card_height + layout.tab_height)
        expected = {"punch-card": tall, "verification-front": tall, "verification-back": tall,
                    "criteria-card": (0.0, 0.0, P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)}
        frames: dict[str, set] = {kind: set() for kind in expected}
        for e in manifest(out)["files"]:
            if e["kind"] not in expected:
                continue
            root = ET.parse(out / e["path"]).getroot()
            frames[e["kind"]].add((root.get("width"), root.get("height"), root.get("viewBox")))
            x, y, w, h = (float(v) for v in root.get("viewBox").split())
            x0, y0, width, height = expected[e["kind"]]
            assert (x, y, w, h) == pytest.approx((x0 - g, y0 - g, width + 2 * g, height + 2 * g), abs=1e-9)
            assert (root.get("width"), root.get("height")) == (f"{svg.num(w)}mm", f"{svg.num(h)}mm")
            for group in ("art", "cut"):
                for p in root.find(f"{SVG}g[@id='{group}']").iter(f"{SVG}path"):
                    px0, py0, px1, py1 = bbox(np.concatenate(polylines(p.get("d"))))
                    assert x - 1e-9 <= px0 and px1 <= x + w + 1e-9 and y - 1e-9 <= py0 and py1 <= y + h + 1e-9, \
                        f"{e['path']}: a {group} path leaves the frame"
            outline = bbox(polylines(root.find(f".//{SVG}path[@class='cut-outline']").get("d"))[0])
            top = y0 if e["kind"] != "verification-front" and e["kind"] != "verification-back" else 0.0
            assert outline == pytest.approx((x0 - k, top - k, x0 + width + k, y0 + height + k), abs=TOL)
            if e["kind"] != "verification-front":  # the tinted background (a front has none) reaches the bleed
                body, = (q for q in root.iter(f"{SVG}path") if q.get("class") in ("punch-body", "background"))
                tint = bbox(polylines(body.get("d"))[0])
                assert tint == pytest.approx((x0 - bleed, top - bleed, x0 + width + bleed, y0 + height + bleed),
                                             abs=TOL), e["path"]
        assert all(len(found) == 1 for found in frames.values()), frames
        assert frames["punch-card"] == frames["verification-front"] == frames["verification-back"]


def test_previews_show_the_cards_as_cut_whatever_the_bleed(classic: Path) -> None:
    """The per-card SVGs carry the bleed, the card previews do not: a preview shows the card (or the stack) as
    cut, the same pixels with or without --bleed; only the sheet's preview shows the printed bleed."""
    from tmphys.print.build import BuildOptions, build_files, plan

    files = build_files(plan(BuildOptions(bleed=P.MAX_BLEED, copies=1)))
    previews = sorted(p for p in files if p.startswith("previews/"))
    assert previews == sorted(str(p.relative_to(classic)) for p in (classic / "previews").iterdir())
    for rel in previews:
        same = files[rel] == (classic / rel).read_bytes()
        assert same is (rel != "previews/sheet-punch-cards.png"), rel


def test_manifest_lists_every_file(classic: Path) -> None:
    data = manifest(classic)
    assert data["layout"] == "classic" and data["paper"] == "a4"
    listed = {e["path"] for e in data["files"]}
    on_disk = {str(p.relative_to(classic)) for p in classic.rglob("*") if p.is_file()}
    assert on_disk == listed | {"manifest.json"}
    kinds = {"punch-card", "punch-back", "verification-front", "verification-back", "criteria-card", "criteria-back",
             "sheet", "cut", "preview", "page", "kit", "holder-cut", "index"}
    assert {e["kind"] for e in data["files"]} == kinds
    for e in data["files"]:
        extra = set(e) - {"path", "kind"}
        if e["kind"] in ("punch-card", "punch-back"):
            assert extra == {"colour", "value"} and e["colour"] in ("blue", "yellow", "purple")
        elif e["kind"] == "cut":
            assert extra == {"sheet", "pdf", "page"} and e["page"] == e["sheet"]  # no duplex: fronts come first
            stem = f"cut/{e['pdf'].removesuffix('.pdf')}-{e['sheet']:02d}"
            assert e["path"] in (f"{stem}.svg", f"{stem}.dxf") and e["pdf"] in listed
        elif e["kind"] == "holder-cut":
            assert extra == {"thickness"} and e["path"] in ("cut/holder.svg", "cut/holder.dxf")
        elif e["kind"].startswith("verification"):
            assert extra == {"ids"} and set(e["ids"]) == {"green", "yellow", "blue", "purple"}
        else:
            assert not extra
    assert len(entries(classic, "criteria-card")) == 48
    ids = {e["ids"]["green"] for e in entries(classic, "verification-back")}
    assert ids == {v.ids["green"] for v in library().verification_cards}
    assert {e["path"] for e in entries(classic, "sheet")} == {
        "punch-cards.pdf", "verification-cards.pdf", "criteria-cards.pdf"}
    assert any("stack" in e["path"] for e in entries(classic, "preview"))
    # an SVG and a DXF per sheet: 15 punch cards and 95 verification fronts 4 to an A4 sheet, 48 criteria cards 9
    counts = [len(cut_files(classic, kind, ext)) for kind in CUT_KINDS for ext in ("svg", "dxf")]
    assert counts == [4, 4, 24, 24, 6, 6]
    assert len(entries(classic, "cut")) == 68
    assert "cut/punch-cards.svg" not in listed


def test_build_files_is_what_the_cli_writes(classic: Path) -> None:
    """Every caller (CLI, benchmark, library) gets the same set, and the same command the same bytes: a second build
    of the default set, in this process, is byte for byte the session's ``tmphys build`` (made in another process),
    every kind of file."""
    from tmphys.print.build import BuildOptions, build_files, plan

    files = build_files(plan(BuildOptions()))
    on_disk = {str(p.relative_to(classic)): p.read_bytes() for p in classic.rglob("*") if p.is_file()}
    assert sorted(files) == sorted(on_disk)
    assert {Path(rel).suffix for rel in files} == {".json", ".pdf", ".png", ".svg", ".dxf", ".html"}
    assert [k for k in files if k.startswith("cut/") and not k.startswith("cut/holder.")] == sorted(
        f"cut/{kind}-{k:02d}.{ext}" for kind, sheets in zip(CUT_KINDS, (4, 24, 6)) for k in range(1, sheets + 1)
        for ext in ("dxf", "svg"))
    for rel, data in files.items():
        assert data == on_disk[rel], rel


def test_readme_picture_is_the_build_preview(classic: Path) -> None:
    """docs/stack-241-on-447.png, shown in the README, is the preview the default build makes (same pixels)."""
    from PIL import Image

    docs = Path(__file__).resolve().parents[1] / "docs" / "stack-241-on-447.png"
    with Image.open(docs) as shown, Image.open(classic / "previews" / "stack-241-on-447.png") as built:
        assert shown.size == built.size
        assert shown.convert("RGB").tobytes() == built.convert("RGB").tobytes(), (
            "docs/stack-241-on-447.png is stale: copy output/classic/previews/stack-241-on-447.png over it")


def test_readme_print_figures_are_the_builds(classic: Path) -> None:
    """The README's print section says how many files the default build writes, and docs/printing.md (which it links)
    how far apart the cards sit."""
    from tmphys.print import sheets

    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8").split())
    said = re.search(r"The default build writes (\d+) files", readme)
    assert said and int(said.group(1)) == sum(1 for p in classic.rglob("*") if p.is_file())
    readme = " ".join((Path(__file__).resolve().parents[1] / "docs" / "printing.md").read_text("utf-8").split())
    a4 = sheets.grid_for(P.PAPERS["a4"], P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)
    gap = a4.xs[1] - a4.xs[0] - P.CRITERIA_CARD_WIDTH
    assert (f"they sit {P.SHEET_GUTTER:g} mm apart on the sheets ({gap:g} mm between the criteria cards' columns "
            f"on A4, where nine still fit) and never closer than the kerf plus {P.CUT_CLEARANCE:g} mm") in readme
    assert a4.per_page == 9
    for kerf, nine in ((0.25, True), (0.26, False)):
        assert (sheets.grid_for(P.PAPERS["a4"], P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT, 0.0, kerf).per_page
                == 9) is nine
    assert "nine while kerf plus bleed is at most 0.25 mm" in readme
    # how many a sheet holds with a bleed, as docs/printing.md says: criteria cards on A4 six from 0.3 mm and four from
    # 1.05 mm, on Letter four from 1.25 mm; the classic layout's punch cards on Letter two from 4.15 mm
    assert ("criteria cards on A4 six from a bleed of 0.3 mm (nine while kerf plus bleed is at most 0.25 mm, the usual "
            "0.15 mm kerf included) and four from 1.05 mm, on Letter four from 1.25 mm; the classic layout's punch "
            "cards on Letter two from 4.15 mm") in readme
    from tmphys.art import draw

    punch = draw.punch_card(Deck(load_layout("classic")), PUNCH_CARDS[0]).trim
    for paper, width, height, counts in (
            ("a4", P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT, {0.25: 9, 0.3: 6, 1.0: 6, 1.05: 4, 5.0: 4}),
            ("letter", P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT, {0.0: 6, 1.2: 6, 1.25: 4, 5.0: 4}),
            ("letter", punch.width, punch.height, {0.0: 4, 4.1: 4, 4.15: 2}),
            ("a4", punch.width, punch.height, {0.0: 4, 5.0: 4})):
        for bleed, n in counts.items():
            assert sheets.grid_for(P.PAPERS[paper], width, height, bleed).per_page == n, (paper, width, bleed)


def test_previews_record_their_resolution(classic: Path) -> None:
    """Each preview PNG says its dpi, so that it is shown and printed at true size: the sheet's is A4 wide."""
    from PIL import Image

    for path in sorted((classic / "previews").glob("*.png")):
        with Image.open(path) as image:
            dpi = image.info.get("dpi")
            assert dpi is not None and round(dpi[0]) == round(dpi[1]) > 0, path.name
            if path.name == "sheet-punch-cards.png":
                assert abs(image.width / dpi[0] * 25.4 - 210.0) < 0.5


def test_rebuild_replaces_the_set_whole(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A rebuild over an earlier build (every file in it listed by its manifest) replaces it whole: the files the
    new build does not write (here the sheets of the second copy) are gone. The builds are a game's cards (``GAME``):
    a full set is written and replaced the same way."""
    out = tmp_path / "set"
    assert run(["build", *GAME, "--copies", "2", "--out", str(out)]) == 0
    before = {e["path"] for e in manifest(out)["files"]}
    assert run(["build", *GAME, "--copies", "1", "--out", str(out)]) == 0
    after = {e["path"] for e in manifest(out)["files"]}
    assert before - after, "the two builds should differ in their files"
    assert {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} == after | {"manifest.json"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"], "no temp dirs left behind"
    assert capsys.readouterr().err == "", "quiet when not on a terminal"


def test_refuses_to_replace_a_build_holding_other_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A file (or folder) put into an earlier build, which its manifest does not list, would be deleted with it:
    refused in one line naming one of them and how many, exit 2, every file kept; without them, it builds. (The
    builds are a game's cards, ``GAME``: a full set is checked and replaced the same way.)"""
    out = tmp_path / "set"
    args = ["build", *GAME, "--out", str(out)]
    assert run(args) == 0
    (out / "Notes.txt").write_text("mine")
    (out / "cut" / "zz-mine.svg").write_text("<svg/>")
    (out / "photos").mkdir()
    (out / "photos" / "cut.jpg").write_bytes(b"jpeg")
    (out / "cut" / "empty").mkdir()
    before = {p.relative_to(tmp_path): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    capsys.readouterr()
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err == (f"tmphys: error: refusing to replace {out}: it holds Notes.txt (and 3 more) that no build "
                   "wrote: move them, or choose another --out\n")
    after = {p.relative_to(tmp_path): p.read_bytes() if p.is_file() else None for p in tmp_path.rglob("*")}
    assert after == before, "nothing written, nothing removed"
    (out / "Notes.txt").unlink()
    shutil.rmtree(out / "photos")
    (out / "cut" / "empty").rmdir()
    assert run(args) == 2
    assert capsys.readouterr().err.endswith(
        "it holds cut/zz-mine.svg that no build wrote: move it, or choose another --out\n")
    (out / "cut" / "zz-mine.svg").unlink()
    (out / ".DS_Store").write_bytes(b"\0")  # what a file browser leaves is no one's work: replaced with the build
    (out / "cut" / "Thumbs.db").write_bytes(b"\0")
    (out / "cut" / "._punch-cards-01.svg").write_bytes(b"\0")  # macOS on a USB stick
    assert run(args) == 0
    assert (out / "manifest.json").is_file() and not (out / ".DS_Store").exists()


def test_a_new_folder_holding_only_a_file_browsers_clutter_takes_a_build(tmp_path: Path) -> None:
    """A folder just made in Finder or Explorer (a .DS_Store, a desktop.ini in it) is taken as an empty one is (it
    was refused as "not a tmphys build"); with a file of someone's beside the clutter, or a folder, it is refused."""
    from tmphys.print.folder import BuildError, check_target

    out = tmp_path / "new"
    out.mkdir()
    (out / ".DS_Store").write_bytes(b"\0")
    (out / "desktop.ini").write_bytes(b"\0")
    check_target(out)  # no error
    for mine in (out / "notes.txt", out / "photos"):
        if mine.suffix:
            mine.write_text("mine")
        else:
            mine.mkdir()
        with pytest.raises(BuildError, match="it exists and is not a tmphys build"):
            check_target(out)
        mine.unlink() if mine.suffix else mine.rmdir()


def test_a_file_that_comes_in_while_building_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    """A file saved into the earlier build while the new set is drawn is looked for again before the swap: one line
    (its name quoted when it holds a line break), exit 1, the file and the earlier build kept. (The set is a game's
    cards, ``GAME``, drawn by game_files: a full set, drawn by build_files, is written the same way.)"""
    from tmphys.cli import build as build_cli

    out = tmp_path / "set"
    args = ["build", *GAME, "--out", str(out)]
    assert run(args) == 0
    drawn = build_cli.game_files

    def drawing(*a: object) -> dict[str, bytes]:
        (out / "a\nnote.txt").write_text("mine")
        return drawn(*a)

    monkeypatch.setattr(build_cli, "game_files", drawing)
    capsys.readouterr()
    assert run(args) == 1
    assert capsys.readouterr().err == (f"tmphys: error: refusing to replace {out}: it holds 'a\\nnote.txt' that no "
                                       "build wrote: move it, or choose another --out\n")
    assert (out / "a\nnote.txt").read_text() == "mine" and (out / "manifest.json").is_file()


def too_wide_layout(tmp_path: Path) -> Path:
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    path = tmp_path / "wide.toml"
    path.write_text(text.replace("width = 75.0", "width = 260.0", 1), "utf-8")
    return path


@pytest.mark.parametrize("args, message", [
    (["--paper", "a5"], "--paper"),
    (["--kerf", "-0.1"], "--kerf"),
    (["--bleed", "-1"], "--bleed"),
    (["--back-offset", "1"], "--back-offset"),
    (["--back-offset", "x,2"], "--back-offset"),
    (["--back-offset", "50,0"], "--back-offset"),
    (["--copies", "0"], "--copies"),
    (["--layout", "nosuch"], "nosuch"),
    (["--layout", "WIDE"], "does not fit"),
])
def test_bad_options_one_line_no_files(args: list[str], message: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture) -> None:
    args = [str(too_wide_layout(tmp_path)) if a == "WIDE" else a for a in args]
    before = set(tmp_path.iterdir())
    out = tmp_path / "out"
    assert run(["build", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tmphys: error: ") and err.count("\n") == 1 and message in err
    assert set(tmp_path.iterdir()) == before, "no files written"


def test_refuses_to_replace_a_directory_that_is_not_a_build(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert run(["build", "--out", str(tmp_path)]) == 2
    assert "refusing" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_refuses_a_folder_whose_manifest_is_not_a_builds(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A web app's manifest.json does not make its folder a build: refused, every file kept."""
    app = tmp_path / "webapp"
    (app / "src").mkdir(parents=True)
    (app / "src" / "app.js").write_text("code")
    for manifest in ('{"name": "My PWA"}', "{}", "not json", '{"layout": "classic", "paper": "a4", "files": 3}'):
        (app / "manifest.json").write_text(manifest)
        assert run(["build", "--out", str(app)]) == 2
        err = capsys.readouterr().err
        assert err == f"tmphys: error: refusing to replace {app}: it exists and is not a tmphys build\n"
        assert (app / "src" / "app.js").read_text() == "code"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["webapp"]


def test_refuses_the_current_folder(tmp_path: Path, capsys: pytest.CaptureFixture,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """--out . (or a folder holding it) would be renamed away under the shell: refused, exit 2, nothing left
    behind, even when it is an earlier build (here a game's cards, ``GAME``)."""
    build = tmp_path / "set"
    assert run(["build", *GAME, "--out", str(build)]) == 0
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    monkeypatch.chdir(build)
    for out in (".", "..", str(build)):
        assert run(["build", *GAME, "--out", out]) == 2
        err = capsys.readouterr().err
        assert "it is the current directory or holds it" in err and err.count("\n") == 1
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_unwritable_out_refused_before_building(tmp_path: Path, capsys: pytest.CaptureFixture,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import tmphys.cli.build

    def no_build(*args: object, **kwargs: object) -> dict:
        raise AssertionError("the output directory must be checked before building")

    monkeypatch.setattr(tmphys.cli.build, "build_files", no_build)
    (tmp_path / "afile").write_text("not a folder")
    (tmp_path / "old-build").mkdir()
    (tmp_path / "old-build" / "manifest.json").write_text(
        '{"layout": "classic", "paper": "a4", "files": [{"path": "punch-cards.pdf"}]}')
    (tmp_path / "link").symlink_to(tmp_path / "old-build")
    for out, needle in ((tmp_path / "afile" / "sub", "not a directory"), (tmp_path / "link", "symbolic link"),
                        ("", "--out is empty")):
        assert run(["build", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tmphys: error: --out ") and err.count("\n") == 1 and needle in err, err
    assert (tmp_path / "link").is_symlink() and (tmp_path / "afile").read_text() == "not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "link", "old-build"]


def test_failed_write_is_one_line_naming_the_directory(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import tmphys.cli.build

    def full(files: dict, out: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(out / "punch-cards.pdf"))

    monkeypatch.setattr(tmphys.cli.build, "build_files", lambda *a, **k: {"manifest.json": b"{\"files\": []}\n"})
    monkeypatch.setattr(tmphys.cli.build, "write_tree", full)
    out = tmp_path / "set"
    assert run(["build", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tmphys: error: cannot write {out}/") and err.count("\n") == 1
    assert "No space left on device" in err and "Errno" not in err


def test_default_out_follows_the_layout_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture) -> None:
    """A layout made by place builds into output/<its name>/ (a game's cards into output/<its name>-game/), never
    over a shipped layout's build."""
    from tmphys.cards.layout import load_layout as load
    from tmphys.cli.build import default_out

    monkeypatch.chdir(tmp_path)
    assert run(["place", "--layout", "retail", "--seed", "8", "--steps", "2000", "--out", "p1.toml"]) == 0
    assert default_out(load("p1.toml")) == Path("output/p1")
    assert run(["build", "--layout", "p1.toml", *GAME]) == 0
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == ["p1-game"]
    assert manifest(tmp_path / "output" / "p1-game")["layout"] == "p1"
    with pdfplumber.open(tmp_path / "output" / "p1-game" / "punch-cards.pdf") as pdf:
        assert pdf.metadata["Title"] == "tmphys p1: punch cards"
    capsys.readouterr()
    # a copy of classic, edited but still named "classic", must not replace classic's build
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    (tmp_path / "copy.toml").write_text(text.replace("min_web = 1.5", "min_web = 1.6"), "utf-8")
    assert run(["build", "--layout", "copy.toml"]) == 2
    err = capsys.readouterr().err
    assert "named 'classic' like the shipped layout 'classic'" in err and err.count("\n") == 1
    # in another case too: output/Classic/ is output/classic/ on macOS and Windows
    (tmp_path / "upper.toml").write_text(text.replace('name = "classic"', 'name = "Classic"'), "utf-8")
    assert run(["build", "--layout", "upper.toml"]) == 2
    assert "named 'Classic' like the shipped layout 'classic'" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == ["p1-game"]
    (tmp_path / "same.toml").write_text(text.replace("# Copy this", "# copied. Copy this"), "utf-8")
    assert default_out(load("same.toml")) == Path("output/classic"), "the same layout may use its name"


def test_a_layout_that_fails_check_builds_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Warned of in one line before the drawing (here of a game's cards, ``GAME``: a full set is warned of the
    same way), then written, exit 0."""
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    path = tmp_path / "close.toml"
    path.write_text(text.replace("pitch_x = 6.4", "pitch_x = 3.05").replace('name = "classic"', 'name = "close"'),
                    "utf-8")
    capsys.readouterr()
    assert run(["build", "--layout", str(path), *GAME, "--out", str(tmp_path / "set")]) == 0
    out, err = capsys.readouterr()
    assert "wrote" in out and (tmp_path / "set" / "manifest.json").is_file()
    # holes 0.05 mm apart, and marks 2.75 mm wide under 3 mm holes
    assert err.startswith(f"tmphys: warning: layout close ({path}) breaks 2 rules of tmphys check (web, mark-size): ")
    assert err.count("\n") == 1 and "0.05 mm, under the 1.50 mm minimum" in err
