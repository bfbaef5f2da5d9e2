"""``machine.html``: the machine in a browser, one self-contained file that stacks the cards of a layout.

The page embeds, as JSON, the SVG of each punch card and verification card front exactly as ``art.svg``
writes them (without their cut lines), the layout's hole and cell geometry in mm, which cells each punch card is
punched at and which marks each verification card shows, the printed-ID table and the layout's tolerance
(``cards.check``). Its script only places, shifts and turns those pictures, and reads the stack from the embedded
geometry: aligned, the cells every punch card is punched at (as ``read_stack``); shifted or turned, the same
pixel grid as ``cards.stack.Raster`` (so ``tmphys stack --shift`` and the page agree).

>>> html = machine_html(load_layout("classic"))   # doctest: +SKIP
"""

from __future__ import annotations

import json
from importlib import resources

from tmphys.art import draw, svg
from tmphys.art import params as P
from tmphys.art.draw import Box
from tmphys.cards.check import tolerance
from tmphys.cards.deck import PUNCH_CARDS, Deck
from tmphys.cards.layout import Layout
from tmphys.cards.stack import DEFAULT_PX_PER_MM, Raster
from tmphys.game.codes import SHAPES
from tmphys.game.criteria import ID_ALIASES, ID_COLOURS, ID_LETTERS, ID_SYMBOLS, Library
from tmphys.lang.i18n import current, page_messages
from tmphys.web.modules import bundle

#: Where the template takes the page's data (a JSON object).
DATA_MARK = "__MACHINE_DATA__"
#: The template, package data beside this module.
TEMPLATE = "templates/machine.html"
#: The most characters a page reads from its URL fragment (``#code=241&card=G447…``, ``#moves=…``): a game's whole
#: moves take well under a thousand, even with every mark percent-encoded; a longer link is refused in one line at
#: once, never parsed (a 400 kB link took the companion page 54 s). The table app's own cap is the same.
MAX_FRAGMENT_CHARS = 4096
#: The most rounds a link may hold: a game ends within a few dozen moves, three questions a round.
MAX_FRAGMENT_ROUNDS = 40
#: Both caps as every page takes them, in its data: ``D.fragment.chars`` and ``D.fragment.rounds``.
FRAGMENT_LIMITS = {"chars": MAX_FRAGMENT_CHARS, "rounds": MAX_FRAGMENT_ROUNDS}


#: Where a template's style sheet takes the marks' colours (CSS custom properties from ``params.MARKS``).
MARK_COLOURS = "/*__MARK_COLOURS__*/"


def mark_css() -> str:
    """The ✓ and ✗ colours as CSS custom properties (``--pass-fill``, ``--pass-glyph``, ``--fail-fill``,
    ``--fail-glyph``): the pages show the marks in the print files' colours, read from one place."""
    names = " ".join(f"--{kind}-{part}: {getattr(ink, part)};" for kind, ink in P.MARKS.items()
                     for part in ("fill", "glyph"))
    return f":root {{ {names} }}"


def template(name: str) -> str:
    """A page template shipped in ``tmphys/web/templates``, its style sheet given the marks' colours."""
    text = resources.files("tmphys.web").joinpath(name).read_text("utf-8")
    return text.replace(MARK_COLOURS, mark_css())


def web_file(name: str) -> bytes:
    """A file of ``web/static`` (package data): the pages' scripts, style and templates, the search core."""
    return resources.files("tmphys.web").joinpath("static", name).read_bytes()


def script_text(name: str) -> str:
    """A script of ``web/static``, as text (for the module inliner)."""
    return web_file(name).decode("utf-8")


#: The catalogue's source whose words the page shows (lang/catalogue.py).
MESSAGE_SOURCES = ("machine page",)
#: The modules machine.html runs before its own script, each as the global its script reads: IDs read as the table
#: app reads them, the stack's reading and picture (inlined by web/modules.py).
SCRIPTS = {"TmphysProblems": "problems.js", "TmphysMachine": "machine.js"}


def fill(text: str, mark: str, data: object) -> str:
    """The template with ``mark`` replaced by ``data`` as JSON that is safe inside a ``<script>`` element."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    blob = blob.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    if text.count(mark) != 1:
        raise ValueError(f"template must hold {mark} once")
    return text.replace(mark, blob)


def _box(box: Box) -> list[float]:
    return [round(v, 4) for v in (box.x, box.y, box.width, box.height)]


def _bits(row: object) -> str:
    """A bool row as a string of 0 and 1 (short in JSON, easy to read in the page)."""
    return "".join("1" if b else "0" for b in row)  # type: ignore[attr-defined]


def machine_data(layout: Layout, criteria: Library | None = None, pictures: bool = True) -> dict:
    """Everything the page needs, JSON-ready: geometry in mm, holes, faces, ID table, card pictures (``pictures``:
    each card's print SVG; the table app draws its own, web/card_art.py), tolerance; the verification cards of
    ``criteria`` (the published game's, with users' cards after them)."""
    deck = Deck(layout, criteria)
    raster = Raster(layout, DEFAULT_PX_PER_MM)
    tol = tolerance(layout, deck.hole_matrix)
    punch = []
    for card in PUNCH_CARDS:
        art = draw.punch_card(deck, card)
        punch.append({"colour": card.colour, "value": card.value, "label": card.label,
                      "holes": _bits(deck.holes(card)), "frame": _box(art.frame),
                      **({"svg": svg.card_svg(art, with_cut=False)} if pictures else {})})
    cards = []
    for v in deck.verification_cards:
        art = draw.verification_front(deck, v)
        cards.append({"index": v.index, "ids": dict(v.ids), "face": _bits(deck.face(v)), "frame": _box(art.frame),
                      **({"svg": svg.card_svg(art, with_cut=False)} if pictures else {})})
    return {
        "layout": {"name": layout.name, "label": layout.label, "card_width": layout.card_width,
                   "card_height": layout.card_height, "pitch_x": layout.pitch_x, "pitch_y": layout.pitch_y,
                   "rows": layout.rows, "columns": layout.columns,
                   "hole": {"width": layout.hole_width, "height": layout.hole_height, "radius": layout.hole_radius},
                   "mark": {"width": layout.mark_width, "height": layout.mark_height},
                   "cells": [[c.x, c.y, c.row, c.column] for c in layout.cells],
                   "codes": [str(c) if c is not None else None for c in layout.cell_codes]},
        "raster": {"x0": raster.x0, "y0": raster.y0, "width": raster.width, "height": raster.height,
                   "px_per_mm": raster.px_per_mm},
        "tolerance": {"mm": tol.mm, "rotation_deg": tol.rotation_deg, "limited_by": tol.limited_by},
        "shapes": dict(SHAPES),
        "fragment": FRAGMENT_LIMITS,
        "ids": {"colours": list(ID_COLOURS), "letters": dict(ID_LETTERS), "symbols": dict(ID_SYMBOLS),
                "aliases": dict(ID_ALIASES)},
        "colours": {"pass": P.PASS_FILL, "fail": P.FAIL_FILL, "ink": dict(P.CODE_INK),
                    "marks": {kind: {"fill": ink.fill, "glyph": ink.glyph} for kind, ink in P.MARKS.items()}},
        "punch": punch,
        "cards": cards,
    }


def machine_html(layout: Layout, data: dict | None = None, criteria: Library | None = None) -> bytes:
    """The whole page for one layout in the current language, as UTF-8 bytes (the same layout gives the same
    bytes); ``data``: its ``machine_data``, when already worked out (not changed)."""
    data = data if data is not None else machine_data(layout, criteria)
    words = {**data, "messages": page_messages(current(), MESSAGE_SOURCES)}
    page = fill(template(TEMPLATE), DATA_MARK, words).replace('<html lang="en">', f'<html lang="{current()}">', 1)
    scripts = "<script>\n" + bundle(SCRIPTS.values(), script_text, expose=SCRIPTS) + "</script>\n"
    return page.replace("<!--SCRIPTS-->", scripts, 1).encode()
