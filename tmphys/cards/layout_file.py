"""Writing layout files: a layout's text with a new placement of the codes, as ``tmphys place`` saves it."""

from __future__ import annotations

import json
import re
import shlex

import numpy as np

from tmphys.cards.layout import DECOY, Layout, LayoutError, layout_names
from tmphys.game.codes import Code


def shipped_text(name: str) -> str:
    from importlib import resources

    return resources.files("tmphys.layouts").joinpath(f"{name}.toml").read_text("utf-8")


#: A TOML table header line: ``[name]`` or ``[[name]]``, maybe with a comment.
TABLE_HEADER = re.compile(r"^\[\[?\s*([A-Za-z_][\w.-]*)\s*\]\]?[ \t]*(?:#.*)?$", re.MULTILINE)


def layout_sections(text: str) -> list[tuple[str, str]]:
    """A layout file cut at its table headers: (table name, text) in order; "" names the lines before any."""
    heads = list(TABLE_HEADER.finditer(text))
    ends = [m.start() for m in heads[1:]] + [len(text)]
    first = heads[0].start() if heads else len(text)
    opening = [("", text[:first])] if first else []
    return opening + [(m.group(1), text[m.start():end]) for m, end in zip(heads, ends)]


def _toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def new_layout_header(source: Layout, name: str, seed: int, steps: int) -> str:
    """The opening comment and ``[layout]`` table of a layout made by ``place`` from ``source``."""
    estimated = ("# Its sizes are estimates, as in the source layout (estimated = true): measure your cards and "
                 "edit them.\n" if source.estimated else "")
    description = (f"A new placement of the codes on layout {source.name}'s grid (seed {seed}); "
                   f"its sizes and rules are {source.name}'s")
    origin = "" if source.source in layout_names() else f" (file {source.source})"
    command = shlex.join(["tmphys", "place", "--layout", source.source, "--seed", str(seed), "--steps", str(steps),
                          "--name", name])
    return (f"# tmphys layout {_toml_string(name)}: a new placement of the 125 codes on the grid of layout "
            f"{_toml_string(source.name)}{origin}.\n"
            f"# Made by `{command}`; every size and rule is {source.name}'s.\n{estimated}"
            "# All lengths are millimetres, measured from the card's top-left corner (x to the right, y down).\n\n"
            f"[layout]\nname = {_toml_string(name)}\ndescription = {_toml_string(description)}\n"
            f"estimated = {'true' if source.estimated else 'false'}\n\n")


def with_placement(text: str, layout: Layout, cell_codes: np.ndarray, seed: int, steps: int,
                   drop_layout: bool = False) -> str:
    """The layout file ``text`` with its placement (cells, seed, steps) replaced.

    With ``drop_layout``, the opening comment and the ``[layout]`` table are left out (``place`` writes
    its own: a new layout must not carry its source's name and description).
    """
    rows: dict[int, list[str]] = {}
    for cell, code in zip(layout.cells, cell_codes):
        rows.setdefault(cell.row, []).append(str(Code.from_index(int(code))) if code >= 0 else DECOY)
    block = "\n".join("  " + " ".join(r) for _, r in sorted(rows.items()))
    sections = layout_sections(text)
    if "placement" not in dict(sections):
        raise LayoutError(f"layout {layout.source} has no [placement] table to replace")
    placement = (f"[placement]\n# Found by `tmphys place --seed {seed} --steps {steps}`.\n"
                 f"seed = {seed}\nsteps = {steps}\n"
                 f"# The code each cell shows, row by row as on the card; \"...\" is a decoy cell.\n"
                 f"cells = \"\"\"\n{block}\n\"\"\"\n")
    kept = [placement if table == "placement" else body for table, body in sections
            if not (drop_layout and table in ("", "layout"))]
    out = "".join(kept)
    return out if out.endswith("\n") else out + "\n"
