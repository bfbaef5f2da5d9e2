"""Card layouts: every physical size of the deck, in millimetres, read from a TOML file.

Coordinates are millimetres from the card's top-left corner, x to the right and y down. A layout
names the card size, the grid of cells (pitch and where each row starts), the hole and mark sizes,
the tabs, the alignment marks, the design rules a maker wants, and which code each cell shows.

>>> load_layout("classic").cell_of(Code.parse("241")).index   # doctest: +SKIP
57
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from tmphys.files import NotAFileError, read_regular
from tmphys.game.codes import ALL_CODES, CODE_COUNT, COLOURS, Code, CodeError
from tmphys.text import OneLineError, path_text, quote, toml_nesting

#: Marker for a decoy cell (a cell no legal stack reveals) in a placement.
DECOY = "..."
ALIGNMENT_SHAPES = ("triangle", "square", "circle", "diamond", "cross")
ISOLATION_RULES = ("king", "diagonal", "none")
#: Every table of a layout file and the keys it may hold; anything else is refused as a likely typo.
SCHEMA: dict[str, tuple[str, ...]] = {
    "layout": ("name", "description", "estimated"),
    "card": ("width", "height", "corner_radius"),
    "grid": ("pitch_x", "pitch_y", "first_cell_x", "first_cell_y", "rows"),
    "hole": ("width", "height", "corner_radius"),
    "mark": ("gap",),
    "tab": ("width", "height", *COLOURS),
    "alignment_marks": ("shape", "x", "y", "size"),
    "rules": ("min_hole", "min_web", "min_edge", "min_mark_clearance", "isolation", "max_autocorrelation"),
    "placement": ("seed", "steps", "cells"),
}
#: Largest card side (mm): the longest side of the paper we print on (A4, 297 mm). A larger card could
#: be neither printed nor rasterised in reasonable memory.
MAX_CARD_SIZE = 300.0
#: The smallest length a layout may give a positive size (mm): a hundredth of a millimetre, finer than any cutter or
#: printer, and far above the tiny floats (``5e-324``) that would overflow the grid's arithmetic.
MIN_LENGTH = 0.01
#: Every length and position in a layout lies within this many mm of the card's corner (a card is at most
#: ``MAX_CARD_SIZE``): anything larger is a typo, and would be rasterised or drawn at a size no memory holds.
MAX_LENGTH = MAX_CARD_SIZE
#: The most cells a layout may have (the 125 codes and their decoys; the shipped layouts have 130 and 133): every
#: cell is drawn on each of the 95 verification cards, so a typo of a grid must not make a build of millions.
MAX_CELLS = 1000
#: The most alignment marks a layout may have (the shipped ones have four): each is drawn on every card.
MAX_ALIGNMENT_MARKS = 16
#: The range of ``rules.max_autocorrelation``: Moran's I lies between -1 and 1.
AUTOCORRELATION_RANGE = (-1.0, 1.0)
#: The most a layout file may hold, in bytes (and characters): three hundred times the shipped ones (about 3 kB
#: each), room for a thousand cells and every comment; past it, a file is refused before it is read whole or parsed.
MAX_LAYOUT_BYTES = 1024 * 1024
#: How deep arrays and inline tables may nest in a layout file (its deepest value, ``grid.rows``, nests 2): checked
#: before the TOML parser runs, which recurses once a level and would fail deep inside Python on thousands.
MAX_LAYOUT_NESTING = 8


class LayoutError(OneLineError):
    """A layout file that is missing, malformed or inconsistent; the message names the field."""


@dataclass(frozen=True)
class Cell:
    """One place on the card grid: its number (1.., reading order), row, column and centre (mm)."""

    index: int
    row: int
    column: int
    x: float
    y: float


@dataclass(frozen=True)
class AlignmentMark:
    """A symbol printed at the same place on every card, to square a stack up."""

    shape: str
    x: float
    y: float
    size: float


@dataclass(frozen=True)
class Rules:
    """What the maker's cutter and the table need: minimum sizes and the isolation rule."""

    min_hole: float
    min_web: float
    min_edge: float
    min_mark_clearance: float
    isolation: str
    max_autocorrelation: float


@dataclass(frozen=True)
class Layout:
    """The geometry of one card design (all lengths in mm)."""

    name: str
    description: str
    estimated: bool
    source: str
    card_width: float
    card_height: float
    corner_radius: float
    pitch_x: float
    pitch_y: float
    cells: tuple[Cell, ...]
    hole_width: float
    hole_height: float
    hole_radius: float
    mark_gap: float
    tab_width: float
    tab_height: float
    tab_x: dict[str, float]
    alignment_marks: tuple[AlignmentMark, ...]
    rules: Rules
    seed: int
    cell_codes: tuple[Code | None, ...]  # per cell (same order as ``cells``): its code, or None (decoy)

    @property
    def label(self) -> str:
        """How every command names the layout: its name, and the file it came from unless shipped."""
        return self.name if self.source == self.name else f"{self.name} ({path_text(self.source)})"

    # --- lookups -------------------------------------------------------------------------
    @cached_property
    def code_cells(self) -> np.ndarray:
        """Array of 125: the position in ``cells`` of each code (by code index)."""
        out = np.full(CODE_COUNT, -1, dtype=np.int64)
        for i, code in enumerate(self.cell_codes):
            if code is not None:
                out[code.index] = i
        return out

    def cell_of(self, code: Code) -> Cell:
        """The cell that shows ``code`` when its three punch cards are stacked."""
        return self.cells[int(self.code_cells[code.index])]

    @property
    def decoys(self) -> tuple[Cell, ...]:
        """Cells that hold no code: never open in a legal stack, still printed with a mark."""
        return tuple(c for c, code in zip(self.cells, self.cell_codes) if code is None)

    @property
    def rows(self) -> int:
        """How many grid rows the layout has."""
        return max(c.row for c in self.cells) + 1

    @property
    def columns(self) -> int:
        """How many grid columns the widest row spans."""
        return max(c.column for c in self.cells) + 1

    @cached_property
    def centres(self) -> np.ndarray:
        """Cell centres, shape (cells, 2), in mm."""
        return np.array([(c.x, c.y) for c in self.cells], dtype=float)

    def places(self) -> list[tuple[int, int]]:
        """(row, column) of every cell, in cell order."""
        return [(c.row, c.column) for c in self.cells]

    @property
    def hole_area(self) -> float:
        """Area (mm²) of one hole: the rounded rectangle, w·h less (4 − π)·r² at its four corners."""
        return self.hole_width * self.hole_height - (4 - np.pi) * self.hole_radius**2

    @property
    def mark_width(self) -> float:
        """Width of a filled result cell on a verification card."""
        return self.pitch_x - self.mark_gap

    @property
    def mark_height(self) -> float:
        """Height of a filled result cell on a verification card."""
        return self.pitch_y - self.mark_gap


# --- reading ---------------------------------------------------------------------------------

def shipped_folder() -> Any:
    """Where the shipped layouts are: the package data ``tmphys.layouts`` once installed, the checkout's top-level
    ``layouts/`` folder when tmphys runs from its source folder."""
    try:
        return resources.files("tmphys.layouts")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "layouts"


def shipped_text(name: str) -> str:
    """The text of a shipped layout file."""
    return shipped_folder().joinpath(f"{name}.toml").read_text("utf-8")


def layout_names() -> list[str]:
    """The names of the layouts that ship with tmphys."""
    return sorted(p.name[:-5] for p in shipped_folder().iterdir() if p.name.endswith(".toml"))


def shipped_alike(name: str) -> str | None:
    """The shipped layout whose name is ``name`` in any case (their build folders are one on macOS and Windows),
    or None."""
    return next((shipped for shipped in layout_names() if shipped.casefold() == name.casefold()), None)


def load_layout(name_or_path: str | Path = "classic") -> Layout:
    """Load a shipped layout by name (``classic``, ``retail``) or any layout file by path.

    A bare shipped name is always the shipped layout, even where the current folder holds something of that
    name (``output/`` holds the build folder ``classic/``); ``./classic`` reaches such a file.
    """
    text_name = str(name_or_path)
    if not text_name.strip():  # Path("") is the current folder
        raise LayoutError(f"no layout named {quote(text_name)} (known: {', '.join(layout_names())}; "
                          "or give the path of a .toml file)")
    path = Path(text_name)
    bare_name = not text_name.endswith(".toml") and "/" not in text_name and os.sep not in text_name
    if not (bare_name and text_name in layout_names()) and (not bare_name or path.exists()):
        shown = path_text(text_name)
        if path.is_dir():
            raise LayoutError(f"{shown} is a directory, not a layout file (give the path of a .toml file)")
        if path.exists() and not path.is_file():
            raise LayoutError(f"{shown} is not a regular file, not a layout file")
        if not path.is_file():
            raise LayoutError(f"no layout file {shown}")
        return parse_layout(_layout_text(path, shown), source=text_name)
    if text_name not in layout_names():
        raise LayoutError(f"unknown layout {quote(text_name)} (known: {', '.join(layout_names())}; "
                          "or give the path of a .toml file)")
    return parse_layout(shipped_text(text_name), source=text_name)


def _layout_text(path: Path, shown: str) -> str:
    """A layout file's text, read only when it is at most ``MAX_LAYOUT_BYTES`` and UTF-8 (one line of ours each)."""
    try:
        data = read_regular(path, MAX_LAYOUT_BYTES)
    except NotAFileError:
        raise LayoutError(f"{shown} is not a regular file, not a layout file") from None
    except OSError as e:
        raise LayoutError(f"cannot read layout file {shown}: {e.strerror or type(e).__name__}") from None
    if len(data) > MAX_LAYOUT_BYTES:
        raise LayoutError(f"layout {shown}: more than the {MAX_LAYOUT_BYTES:,} bytes a layout file may hold")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise LayoutError(f"layout {shown}: not UTF-8 text (byte 0x{data[e.start]:02x} on line {line}); save it as "
                          "UTF-8") from None


class _Fields:
    """Typed access to one TOML table, with errors that name the field."""

    def __init__(self, data: dict[str, Any], where: str, source: str) -> None:
        self.data, self.where, self.source = data, where, source

    def error(self, key: str, problem: str) -> LayoutError:
        return LayoutError(f"layout {self.source}: {self.where + '.' if self.where else ''}{key} {problem}")

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self.data:
            if default is None:
                raise self.error(key, "is missing")
            return default
        return self.data[key]

    def number(self, key: str, default: float | None, low: float, high: float, what: str) -> float:
        """A number (int or float, not a bool or string), finite and within ``low``..``high``."""
        value = self.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(key, f"must be {what}, not {_shown(value)}")
        if isinstance(value, int) and not -1e9 < value < 1e9:  # a 20-digit integer: past any float it makes sense as
            raise self.error(key, f"must be {low:g}..{high:g}, not {_shown(value)}")
        if not math.isfinite(value):  # nan would silently turn a rule off
            raise self.error(key, f"must be a finite number, {low:g}..{high:g}, not {_shown(value)}")
        if value < low:
            least = "zero or more" if low == 0 else f"{low:g} or more"
            raise self.error(key, f"must be {least}, not {_shown(value)}")
        if value > high:
            raise self.error(key, f"is {value:g}, more than the {high:g} it may be")
        return float(value)

    def mm(self, key: str, default: float | None = None, positive: bool = True) -> float:
        """A length or position in millimetres: above ``MIN_LENGTH`` when ``positive`` (a size), else 0 or more (a
        position, a radius, a gap); at most ``MAX_LENGTH`` either way."""
        value = self.get(key, default)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and -1e9 < value < 1e9:
            if value > MAX_LENGTH:
                raise self.error(key, f"is {value:g} mm, more than the {MAX_LENGTH:g} mm a length on a card may be")
            if positive and value < MIN_LENGTH:
                raise self.error(key, f"must be positive (at least {MIN_LENGTH:g} mm), not {_shown(value)}")
        return self.number(key, default, 0.0, MAX_LENGTH, "a number of millimetres")

    def table(self, key: str) -> _Fields:
        value = self.get(key, {}) if key == "rules" else self.get(key)
        if not isinstance(value, dict):
            raise self.error(key, "must be a table")
        return _Fields(value, f"{self.where}.{key}" if self.where else key, self.source)


def _shown(value: object) -> str:
    """A TOML value as a message quotes it (``quote``): a string in quote marks, another value as Python writes it;
    cut short when long (a pasted list of a thousand numbers)."""
    return quote(value) if isinstance(value, str) else quote(repr(value), marks=False)


def _known_keys(raw: dict[str, Any], source: str) -> None:
    """Refuse tables and keys a layout does not have (a typo would otherwise be ignored silently)."""
    def unknown(where: str, key: str, known: tuple[str, ...]) -> LayoutError:
        return LayoutError(f"layout {source}: {where}{key} is not a layout field (known here: {', '.join(known)})")

    for table, value in raw.items():
        if table not in SCHEMA:
            what = "table " if isinstance(value, (dict, list)) else "key "
            raise LayoutError(f"layout {source}: unknown {what}{quote(table)} (known tables: {', '.join(SCHEMA)})")
        entries = value if table == "alignment_marks" and isinstance(value, list) else [value]
        for k, entry in enumerate(entries):
            where = f"alignment_marks[{k}]." if table == "alignment_marks" else f"{table}."
            for key in entry if isinstance(entry, dict) else ():
                if key not in SCHEMA[table]:
                    raise unknown(where, key, SCHEMA[table])


def _grid_cells(grid: _Fields, card: _Fields, hole: _Fields, placement: _Fields) -> list[Cell]:
    """The cells of ``grid.rows``, after checking (before making any) that every row fits on the card.

    A row reaching past the card's right edge, rows past its bottom edge, or a total that differs from
    the placement's cell count are refused at once, naming the field: a typo such as ``[0, 10000000]``
    must not build ten million cells first.
    """
    pitch_x, pitch_y = grid.mm("pitch_x"), grid.mm("pitch_y")
    first_x, first_y = grid.mm("first_cell_x"), grid.mm("first_cell_y")
    width, height = card.mm("width"), card.mm("height")
    for key, value in (("width", width), ("height", height)):
        if value > MAX_CARD_SIZE:
            raise card.error(key, f"is {value:g} mm, more than the {MAX_CARD_SIZE:g} mm a card may be")
    hole_w, hole_h = hole.mm("width"), hole.mm("height")
    if hole_w >= pitch_x or hole_h >= pitch_y:  # the hole's own fault, not the grid's: say so before the grid's fit
        raise LayoutError(f"layout {grid.source}: hole ({hole_w:g} × {hole_h:g} mm) must be smaller than the "
                          f"pitch ({pitch_x:g} × {pitch_y:g} mm, grid.pitch_x × grid.pitch_y)")
    half_w, half_h = hole_w / 2, hole_h / 2
    room_x = int(np.floor((width - first_x - half_w) / pitch_x + 1e-9)) if first_x + half_w <= width else -1
    room_y = int(np.floor((height - first_y - half_h) / pitch_y + 1e-9)) if first_y + half_h <= height else -1
    rows_spec = grid.get("rows")
    if not isinstance(rows_spec, list) or not rows_spec:
        raise grid.error("rows", "must be a list of [first column, number of cells] pairs")
    if len(rows_spec) - 1 > room_y:
        raise LayoutError(f"layout {grid.source}: grid puts holes beyond the card's top or bottom edge: grid.rows "
                          f"has {len(rows_spec)} rows, the card has room for {max(0, room_y + 1)}")
    for r, spec in enumerate(rows_spec):
        if (not isinstance(spec, list) or len(spec) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in spec)
                or spec[1] == 0):
            raise grid.error("rows", f"entry {r + 1} must be [first column, number of cells], not {_shown(spec)}")
        if spec[0] + spec[1] - 1 > room_x:
            room = f"columns 0 to {room_x}" if room_x >= 0 else "no column"
            raise LayoutError(f"layout {grid.source}: grid puts holes beyond the card's left or right edge: "
                              f"grid.rows entry {r + 1} {_shown(spec)} reaches column {spec[0] + spec[1] - 1}, "
                              f"the card has room for {room}")
    total = sum(spec[1] for spec in rows_spec)
    if total > MAX_CELLS:
        raise grid.error("rows", f"makes {total:,} cells, more than the {MAX_CELLS:,} a layout may have (the 125 "
                                 "codes and their decoys)")
    tokens = str(placement.get("cells")).split()
    if len(tokens) != total:
        raise placement.error("cells", f"lists {len(tokens)} cells but grid.rows has {total}")
    cells: list[Cell] = []
    for r, (start, count) in enumerate(rows_spec):
        for c in range(start, start + count):
            cells.append(Cell(len(cells) + 1, r, c, first_x + c * pitch_x, first_y + r * pitch_y))
    return cells


#: What a layout's name may not hold: it names its build folder, which must be a folder name on Linux, macOS and
#: Windows alike (Windows refuses these characters, and control characters, in a file name).
FORBIDDEN_IN_NAMES = frozenset('<>:"/\\|?*') | {chr(c) for c in range(32)} | {"\x7f"}
#: Names Windows keeps for devices, with any extension: no file or folder may take them.
WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                             *(f"LPT{i}" for i in range(1, 10))})
#: The longest name: the build's temp folder beside it adds some 15 characters, and 255 is the usual limit.
MAX_NAME_LENGTH = 100
#: What the error for a name that is not portable says it must be.
NAME_RULE = (f"a folder name on any system, in letters the cards can print (at most {MAX_NAME_LENGTH} characters "
             "of Latin-1 such as A-Z a-z 0-9 é ß, none of < > : \" / \\ | ? *, no leading dot, no trailing dot or "
             "space, not a Windows device name such as CON)")
#: The last character a layout name may use: ``build`` prints the name on every card in a font (Bitstream Vera)
#: that has every printable character up to here (Latin-1), and lacks most past it (``名前`` would fail mid-build).
LAST_NAME_CHARACTER = "\u00ff"


def portable_name(name: str) -> bool:
    """Whether ``name`` can name a folder on every system tmphys runs on."""
    return (0 < len(name) <= MAX_NAME_LENGTH and not FORBIDDEN_IN_NAMES & set(name) and not name.startswith((".", " "))
            and all(ch.isprintable() and ch <= LAST_NAME_CHARACTER for ch in name)
            and not name.endswith((".", " ")) and name.split(".")[0].strip().upper() not in WINDOWS_DEVICES)


def parse_layout(text: str, source: str = "<string>") -> Layout:
    """Parse and validate a layout from TOML text; raises LayoutError naming the field."""
    where = path_text(source)  # as messages show it
    if len(text) > MAX_LAYOUT_BYTES:
        raise LayoutError(f"layout {where}: {len(text):,} characters, more than the {MAX_LAYOUT_BYTES:,} a layout file "
                          "may hold")
    nesting = toml_nesting(text)
    if nesting > MAX_LAYOUT_NESTING:
        raise LayoutError(f"layout {where}: arrays or inline tables nested {nesting} deep, more than the "
                          f"{MAX_LAYOUT_NESTING} levels a layout file may have (grid.rows nests 2)")
    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"))  # a byte-order mark, as some Windows editors save
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"layout {where}: not valid TOML: {e}") from None
    _known_keys(raw, where)
    meta = _Fields(raw, "", where).table("layout") if "layout" in raw else _Fields({}, "layout", where)
    card = _Fields(raw, "", where).table("card")
    grid = _Fields(raw, "", where).table("grid")
    hole = _Fields(raw, "", where).table("hole")
    mark = _Fields(raw, "", where).table("mark")
    tab = _Fields(raw, "", where).table("tab")
    rules_f = _Fields(raw, "", where).table("rules")
    placement = _Fields(raw, "", where).table("placement")

    pitch_x, pitch_y = grid.mm("pitch_x"), grid.mm("pitch_y")
    cells = _grid_cells(grid, card, hole, placement)
    tokens = str(placement.get("cells")).split()
    cell_codes: list[Code | None] = []
    seen: dict[Code, int] = {}
    for cell, token in zip(cells, tokens):
        if token == DECOY:
            cell_codes.append(None)
            continue
        try:
            code = Code.parse(token)
        except CodeError:
            raise placement.error("cells", f"cell {cell.index} holds {_shown(token)}, not a code or "
                                  f"'{DECOY}'") from None
        if code in seen:
            raise placement.error("cells", f"code {code} is on cells {seen[code]} and {cell.index}")
        seen[code] = cell.index
        cell_codes.append(code)
    missing = [str(c) for c in ALL_CODES if c not in seen]
    if missing:
        raise placement.error("cells", f"misses code(s) {', '.join(missing[:5])}"
                              + (" …" if len(missing) > 5 else ""))

    marks = []
    raw_marks = raw.get("alignment_marks", [])
    if not isinstance(raw_marks, list):
        raise LayoutError(f"layout {where}: alignment_marks must be an array of tables")
    if len(raw_marks) > MAX_ALIGNMENT_MARKS:  # each is drawn on every card of a build
        raise LayoutError(f"layout {where}: alignment_marks has {len(raw_marks)} marks, more than the "
                          f"{MAX_ALIGNMENT_MARKS} a layout may have")
    for k, m in enumerate(raw_marks):
        f = _Fields(m if isinstance(m, dict) else {}, f"alignment_marks[{k}]", where)
        shape = f.get("shape")
        if shape not in ALIGNMENT_SHAPES:
            raise f.error("shape", f"must be one of {', '.join(ALIGNMENT_SHAPES)}, not {_shown(shape)}")
        marks.append(AlignmentMark(shape, f.mm("x", positive=False), f.mm("y", positive=False), f.mm("size")))

    isolation = rules_f.get("isolation", "diagonal")
    if isolation not in ISOLATION_RULES:
        raise rules_f.error("isolation", f"must be one of {', '.join(ISOLATION_RULES)}, not {_shown(isolation)}")
    rules = Rules(
        min_hole=rules_f.mm("min_hole", 3.0), min_web=rules_f.mm("min_web", 1.5),
        min_edge=rules_f.mm("min_edge", 2.0),
        min_mark_clearance=rules_f.mm("min_mark_clearance", 1.0, positive=False),
        isolation=isolation,
        max_autocorrelation=rules_f.number("max_autocorrelation", 0.3, *AUTOCORRELATION_RANGE, "a Moran's I, -1..1"),
    )
    tab_x = {colour: tab.mm(colour, positive=False) for colour in COLOURS}
    seed = placement.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise placement.error("seed", f"must be a whole number, 0 or more, not {_shown(seed)}")
    steps = placement.get("steps", 1)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise placement.error("steps", f"must be a whole number of annealing steps, not {_shown(steps)}")
    name, description = meta.get("name", Path(source).stem), meta.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise meta.error(key, f"must be a string, not {_shown(value)}")
    if not portable_name(name):
        raise meta.error("name", f"names the build's folder, so must be {NAME_RULE}, not {_shown(name)}")
    estimated = meta.get("estimated", False)
    if not isinstance(estimated, bool):
        raise meta.error("estimated", f"must be true or false, not {_shown(estimated)}")

    layout = Layout(
        name=name, description=description, estimated=estimated,
        source=source,
        card_width=card.mm("width"), card_height=card.mm("height"),
        corner_radius=card.mm("corner_radius", 0.0, positive=False),
        pitch_x=pitch_x, pitch_y=pitch_y, cells=tuple(cells),
        hole_width=hole.mm("width"), hole_height=hole.mm("height"),
        hole_radius=hole.mm("corner_radius", 0.0, positive=False),
        mark_gap=mark.mm("gap", 0.0, positive=False),
        tab_width=tab.mm("width"), tab_height=tab.mm("height"), tab_x=tab_x,
        alignment_marks=tuple(marks), rules=rules, seed=seed, cell_codes=tuple(cell_codes),
    )
    _validate(layout, where)
    return layout


def _validate(layout: Layout, source: str) -> None:
    """Reject layouts that are not even geometry (overlapping holes, cells off the card…)."""
    def bad(field: str, problem: str) -> LayoutError:
        return LayoutError(f"layout {source}: {field} {problem}")

    if layout.hole_width >= layout.pitch_x or layout.hole_height >= layout.pitch_y:
        raise bad("hole", f"({layout.hole_width} × {layout.hole_height} mm) must be smaller than the "
                  f"pitch ({layout.pitch_x} × {layout.pitch_y} mm)")
    if 2 * layout.hole_radius > min(layout.hole_width, layout.hole_height):
        raise bad("hole.corner_radius", "is more than half the hole")
    if layout.mark_gap >= min(layout.pitch_x, layout.pitch_y):
        raise bad("mark.gap", "must be smaller than the pitch")
    xy = layout.centres
    hw, hh = layout.hole_width / 2, layout.hole_height / 2
    if (xy[:, 0] - hw < 0).any() or (xy[:, 0] + hw > layout.card_width).any():
        raise bad("grid", "puts holes beyond the card's left or right edge")
    if (xy[:, 1] - hh < 0).any() or (xy[:, 1] + hh > layout.card_height).any():
        raise bad("grid", "puts holes beyond the card's top or bottom edge")
    if 2 * layout.corner_radius > min(layout.card_width, layout.card_height):  # before the tabs it would squeeze
        raise bad("card.corner_radius", f"({layout.corner_radius:g} mm) is more than half the card "
                  f"({layout.card_width:g} × {layout.card_height:g} mm)")
    for colour, x in layout.tab_x.items():
        if x + layout.tab_width > layout.card_width:
            raise bad(f"tab.{colour}", "puts the tab beyond the card's right edge")
        if x < layout.corner_radius or x + layout.tab_width > layout.card_width - layout.corner_radius:
            raise bad(f"tab.{colour}", f"reaches into a rounded corner of the card (card.corner_radius "
                      f"{layout.corner_radius:g} mm): a tab sits on the straight part of the top edge")
    xs = sorted(layout.tab_x.values())
    if any(b - a < layout.tab_width for a, b in zip(xs, xs[1:])):
        raise bad("tab", "positions overlap: the three tabs must sit side by side")
