"""Writing layout files: a layout's text with a new placement of the codes, as ``tmphys place`` saves it."""

from __future__ import annotations

import json
import shlex

import numpy as np
import tomlkit

from tmphys.cards.layout import DECOY, Layout, LayoutError, layout_names
from tmphys.game.codes import Code


def has_placement(text: str) -> bool:
    """Whether a layout file's TOML has a ``[placement]`` table (read as TOML, not by its lines)."""
    return isinstance(tomlkit.parse(text.removeprefix("\ufeff")).get("placement"), dict)


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
    """The layout file ``text`` with its placement (cells, seed, steps) replaced, edited as TOML (tomlkit keeps every
    other table, key, comment and their order; a multi-line string holding header-like lines stays one string).

    With ``drop_layout``, the opening comment and the ``[layout]`` table are left out (``place`` writes
    its own: a new layout must not carry its source's name and description).
    """
    rows: dict[int, list[str]] = {}
    for cell, code in zip(layout.cells, cell_codes):
        rows.setdefault(cell.row, []).append(str(Code.from_index(int(code))) if code >= 0 else DECOY)
    block = "\n".join("  " + " ".join(r) for _, r in sorted(rows.items()))
    doc = tomlkit.parse(text.removeprefix("\ufeff"))
    if not isinstance(doc.get("placement"), dict):
        raise LayoutError(f"layout {layout.source} has no [placement] table to replace")
    placement = tomlkit.table()
    placement.add(tomlkit.comment(f"Found by `tmphys place --seed {seed} --steps {steps}`."))
    placement.add("seed", seed)
    placement.add("steps", steps)
    placement.add(tomlkit.comment('The code each cell shows, row by row as on the card; "..." is a decoy cell.'))
    placement.add("cells", tomlkit.parse(f'cells = """\n{block}\n"""\n')["cells"])  # the rows as on the card
    out = tomlkit.document()
    opening = drop_layout
    for key, item in doc.body:
        if key is None:  # a comment or blank line between tables
            if not opening:
                out.add(item)
            continue
        opening = False
        name = key.key
        if drop_layout and name == "layout":
            continue
        out.append(name, placement if name == "placement" else item)
    text_out = tomlkit.dumps(out)
    return text_out if text_out.endswith("\n") else text_out + "\n"
