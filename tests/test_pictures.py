"""Stack pictures: the SVG and PNG files re-read agree with what ``tmphys stack --json`` says shows."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tmphys.art import params as P
from tmphys.cards.deck import Deck, stack_for
from tmphys.cards.layout import load_layout
from tmphys.cards.stack import Placement
from tmphys.cli.main import main
from tmphys.game.codes import Code
from tmphys.game.criteria import verification_card
from tmphys.print.stack_picture import picture_png, picture_svg, stack_picture

SVG_NS = "{http://www.w3.org/2000/svg}"


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def subpaths(d: str) -> list[np.ndarray]:
    """The points (every coordinate pair) of each subpath of SVG path data as tmphys writes it (M L C Z)."""
    out = []
    for part in re.findall(r"M[^M]*", d):
        numbers = [float(v) for v in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", part)]
        out.append(np.array(numbers).reshape(-1, 2))
    return out


def svg_reading(svg_text: str, hole: float) -> tuple[list[int], dict[int, str]]:
    """Read a stack picture's SVG back: the cells (numbered by the marks' order) under a hole of every punch card.

    Each punch card's body is one even-odd path: its outline, then one rounded rectangle per hole; the card below
    draws its pass and its fail cells as one path each, in cell order (cell k is the k-th rectangle of either).
    """
    root = ET.fromstring(svg_text)
    paths = list(root.iter(f"{SVG_NS}path"))
    bodies = [p.get("d") for p in paths if p.get("class") == "punch-body"]
    assert len(bodies) == 3
    holes = [np.array([s.mean(axis=0) for s in subpaths(d)[1:]]) for d in bodies]
    marks = {}
    for mark in ("pass", "fail"):
        (d,) = [p.get("d") for p in paths if p.get("class") == f"mark-{mark}"]
        for rect in subpaths(d):
            marks[tuple(np.round(rect.mean(axis=0), 6))] = mark
    order = sorted(marks, key=lambda c: (c[1], c[0]))  # cells in reading order, as layouts number them
    opened, shown = [], {}
    for n, centre in enumerate(order, start=1):
        if all((np.abs(h - centre).max(axis=1) < hole / 2).any() for h in holes):
            opened.append(n)
            shown[n] = marks[centre]
    return opened, shown


CASES = [("classic", "241", "447", ()), ("classic", "231", "G447", ()), ("retail", "515", "P585", ()),
         ("classic", "241", "447", ("blue=6.4,0", "yellow=6.4,0", "purple=6.4,0")),
         ("classic", "335", "O577", ("blue=0.3,-0.2,0.5", "card=-0.2,0.1")),
         ("retail", "123", "B416", ("card=0,5",))]


@pytest.mark.parametrize("layout_name,code,verifier,shifts", CASES)
def test_svg_shows_the_cells_stack_json_opens(layout_name, code, verifier, shifts, tmp_path: Path, capsys) -> None:
    svg_file = tmp_path / "s.svg"
    args = ["stack", code, "--verifier", verifier, "--layout", layout_name, "--json", "--svg", str(svg_file)]
    status, out, _ = run([*args, *(f"--shift={s}" for s in shifts)], capsys)
    data = json.loads(out)
    layout = load_layout(layout_name)
    opened, shown = svg_reading(svg_file.read_text("utf-8"), layout.hole_width)
    assert opened == data["open_cells"] and opened
    assert {str(k): v for k, v in shown.items()} == data["marks"]
    assert status == (0 if data["mark"] and not data["misread"] else 1)


def test_a_shift_by_one_pitch_draws_the_window_on_the_next_cell(tmp_path: Path, capsys) -> None:
    """All three punch cards one pitch to the right: the picture shows the neighbour's mark, as the reading says."""
    layout = load_layout("classic")
    own = layout.cell_of(Code.parse("241")).index
    shift = f"{layout.pitch_x}"
    status, out, _ = run(["stack", "241", "--verifier", "447", "--json", "--svg", str(tmp_path / "s.svg"),
                          *(f"--shift={c}={shift},0" for c in ("blue", "yellow", "purple"))], capsys)
    data = json.loads(out)
    assert data["open_cells"] == [own + 1] and data["misread"] and status == 1
    assert svg_reading((tmp_path / "s.svg").read_text("utf-8"), layout.hole_width)[0] == [own + 1]


def close(pixels: np.ndarray, colour: str, within: int = 12) -> np.ndarray:
    """Bool per pixel: within ``within`` of the ``#rrggbb`` colour in every channel."""
    rgb = np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)])
    return (np.abs(pixels.astype(int) - rgb) <= within).all(axis=-1)


@pytest.fixture(scope="module")
def classic() -> Deck:
    return Deck(load_layout("classic"))


@pytest.mark.parametrize("code,verifier", [("241", "447"), ("231", "447"), ("514", "O577")])
def test_png_shows_the_mark_through_the_window_and_card_elsewhere(code, verifier, classic: Deck, tmp_path: Path,
                                                                  capsys) -> None:
    png_file = tmp_path / "s.png"
    status, out, _ = run(["stack", code, "--verifier", verifier, "--json", "--png", str(png_file)], capsys)
    data = json.loads(out)
    image = Image.open(png_file)
    dpi = image.info["dpi"][0]
    pixels = np.asarray(image.convert("RGB"))
    frame = stack_picture(classic, Code.parse(code), verification_card(verifier)).frame
    layout = classic.layout

    def window(cell_number: int, half: float) -> np.ndarray:
        cell = layout.cells[cell_number - 1]
        x0, x1 = ((cell.x - half - frame.x) * dpi / 25.4, (cell.x + half - frame.x) * dpi / 25.4)
        y0, y1 = ((cell.y - half - frame.y) * dpi / 25.4, (cell.y + half - frame.y) * dpi / 25.4)
        return pixels[round(y0):round(y1), round(x0):round(x1)].reshape(-1, 3)

    (cell,) = data["open_cells"]
    seen = window(cell, layout.hole_width * 0.35)
    mark = P.PASS_FILL if data["mark"] == "pass" else P.FAIL_FILL
    other = P.FAIL_FILL if data["mark"] == "pass" else P.PASS_FILL
    assert close(seen, mark).mean() > 0.1  # the fill, around the white ✓/✗ drawn on it
    assert not close(seen, other).any()
    assert not any(close(seen, tint, within=8).any() for tint in P.CARD_TINT.values())  # no card over it
    purple = classic.holes(stack_for(Code.parse(code))[2])
    covered = [k + 1 for k in np.flatnonzero(~purple)[:: 9]]
    for n in covered:  # the top card (●) covers every cell it has no hole at
        assert close(window(n, layout.hole_width * 0.35), P.CARD_TINT["purple"], within=2).all(), n
    assert status == 0


def test_pictures_are_reproducible_and_a_turned_layer_is_drawn_turned(classic: Deck) -> None:
    code, card = Code.parse("241"), verification_card("447")
    turned = {"yellow": Placement(0.0, 0.0, 2.0)}
    a, b = stack_picture(classic, code, card, turned), stack_picture(classic, code, card, turned)
    assert picture_png(a) == picture_png(b) and picture_svg(a) == picture_svg(b)
    straight = stack_picture(classic, code, card)
    assert a.frame.height > straight.frame.height  # a turned card's corners reach further
    def yellow_outline(picture) -> np.ndarray:
        bodies = [e.get("d") for e in ET.fromstring(picture_svg(picture).decode()).iter(f"{SVG_NS}path")
                  if e.get("class") == "punch-body"]
        return subpaths(bodies[1])[0]  # ▲ ■ ●: the second body is the yellow card's, its outline first

    t = np.radians(2.0)
    centre = np.array([classic.layout.card_width / 2, classic.layout.card_height / 2])
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    expected = (yellow_outline(straight) - centre) @ turn.T + centre
    assert np.abs(yellow_outline(a) - expected).max() < 0.002  # 2° clockwise (y down) about the card's centre


def test_prove_draws_every_verifiers_stack_side_by_side(tmp_path: Path, capsys) -> None:
    """Each stack's window shows its mark: one green window per passing verifier, one red per failing one."""
    problem = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]
    for code in ("241", "231"):
        png_file = tmp_path / f"{code}.png"
        status, out, _ = run(["prove", code, *problem, "--png", str(png_file)], capsys)
        fails = out.count("✗ fail")
        pixels = np.asarray(Image.open(png_file).convert("RGB"))
        for colour, count in ((P.PASS_FILL, 4 - fails), (P.FAIL_FILL, fails)):
            columns = close(pixels, colour).any(axis=0)
            runs = int((np.diff(columns.astype(int)) == 1).sum())
            assert runs == count, (code, colour)
        assert status == (1 if fails else 0)


def test_picture_options_refuse_bad_paths_in_one_line(tmp_path: Path, capsys) -> None:
    status, out, err = run(["stack", "241", "--verifier", "447", "--png", ""], capsys)
    assert status == 2 and "--png is empty" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "dir").mkdir()
    status, out, err = run(["stack", "241", "--verifier", "447", "--svg", str(tmp_path / "dir")], capsys)
    assert status == 2 and "--svg" in err and len(err.strip().splitlines()) == 1 and not out
    status, out, err = run(["prove", "241", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322",
                            "--png", ""], capsys)
    assert status == 2 and "--png is empty" in err


def test_picture_png_bytes_are_a_png(classic: Deck) -> None:
    data = picture_png(stack_picture(classic, Code.parse("111"), verification_card("447")))
    assert Image.open(io.BytesIO(data)).format == "PNG"


def ring_centres(svg_text: str) -> list[tuple[float, float]]:
    """The centres of the dark rings a picture draws around open cells (each ring a circle of four cubics)."""
    root = ET.fromstring(svg_text)
    rings = [p for p in root.iter(f"{SVG_NS}path") if p.get("class") == "open-ring" and p.get("stroke") == P.RING_INK]
    return [tuple(np.round((s.min(axis=0) + s.max(axis=0)) / 2, 3)) for p in rings for s in subpaths(p.get("d"))]


def legend_lines(svg_text: str) -> set[str]:
    """The baselines (as written) of the legend's glyphs: one for a one-line legend."""
    root = ET.fromstring(svg_text)
    uses = [u for g in root.iter(f"{SVG_NS}g") if g.get("class") == "legend" for u in g.iter(f"{SVG_NS}use")]
    assert uses
    return {u.get("transform").split()[-1] for u in uses}


def test_pictures_ring_the_open_cell_name_the_printed_id_and_carry_one_legend(tmp_path: Path, capsys) -> None:
    """tmphys stack: the open cell ringed where the card lies (shifted: every cell that shows), a one-line legend, the
    SVG's title naming the ID as typed in its colour; prove --svg: every verifier's cell ringed, one legend under the
    row, the IDs in the title; a picture named for another format is refused in one line."""
    layout = load_layout("classic")
    for shift, card, expected in (((0.0, 0.0), "447", [107]), ((3.2, 3.2), "O577", [96, 97, 106, 107])):
        svg_file = tmp_path / "s.svg"
        args = ["stack", "241", "--verifier", card, "--svg", str(svg_file)]
        if shift != (0.0, 0.0):
            args += ["--shift", f"card={shift[0]},{shift[1]}"]
        run(args, capsys)
        text = svg_file.read_text("utf-8")
        cells = [layout.cells[n - 1] for n in expected]
        assert sorted(ring_centres(text)) == sorted((round(c.x + shift[0], 3), round(c.y + shift[1], 3))
                                                   for c in cells)
        assert len(legend_lines(text)) == 1
        label = verification_card(card).label("yellow" if card.startswith("O") else "green")
        assert f"<title>tmphys classic: 241 over verification card {label}</title>" in text
    problem = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]
    status, _, _ = run(["prove", "241", *problem, "--svg", str(tmp_path / "p.svg")], capsys)
    text = (tmp_path / "p.svg").read_text("utf-8")
    assert status == 0 and len(ring_centres(text)) == 4 and len(legend_lines(text)) == 1
    assert "◊447 ◊646 ◊566 ◊322</title>" in text
    for command in (["stack", "241", "--verifier", "447"], ["prove", "241", *problem]):
        status, out, err = run([*command, "--png", str(tmp_path / "s.jpg")], capsys)
        assert status == 2 and not out and err.count("\n") == 1 and "name it .png" in err
        assert not (tmp_path / "s.jpg").exists()
