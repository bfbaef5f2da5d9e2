"""The cards' pictures as the table app draws them: the print art's parts as data, the rest from the layout.

The app's pictures are the print art without its words (a punch card's colour name, the footer): they name things in
the build's language, and the app speaks its reader's; the marks, digits and IDs stay.

The app shows the machine with the print files' pictures (``art.draw``), but 140 SVG files would be most of its
weight. So the page gets the parts the cards share once (letters and symbols as glyph outlines, the alignment marks,
the footers, each colour's punch card outline) and each card's own few (its tab and labels, its printed IDs), and
draws what the layout already says (each punch card's holes, each verification card's ✓ and ✗ cells) itself, in
``static/cardart.js``: the same shapes, in the same order, in the same millimetre frame as ``art.svg`` writes them.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import replace
from typing import Any

from tmphys.art import draw
from tmphys.art import params as P
from tmphys.art.draw import CardArt, GlyphRun, Item, Shape
from tmphys.art.svg import _glyph_data, num, path_data
from tmphys.cards.deck import PUNCH_CARDS, Deck
from tmphys.lang.glyphs import key_name

#: The roles of the parts the page draws from the layout's data, not from the print art's.
MARK_ROLES = ("mark-pass", "mark-fail", "mark-glyph-pass", "mark-glyph-fail")
BODY_ROLE = "punch-body"


def _worded(run: GlyphRun) -> bool:
    """Whether a run of glyphs writes a word (a letter of any script, or a glyph shaping put in a word's place)."""
    chars = [key.split(":", 1)[1] for key, *_ in run.glyphs]
    return any(c.startswith("#") and len(c) > 1 or unicodedata.category(c[0]).startswith("L") for c in chars)


def without_words(art: CardArt) -> CardArt:
    """A card's print art as the app draws it: without the runs of glyphs that write words."""
    return replace(art, art=tuple(i for i in art.art if not (isinstance(i, GlyphRun) and _worded(i))))


class _Parts:
    """The parts of every card, each written once: glyph outlines by name, drawn items by their text."""

    def __init__(self) -> None:
        self.glyphs: dict[str, str] = {}
        self.items: list[list[Any]] = []
        self._index: dict[str, int] = {}

    def item(self, item: list[Any]) -> int:
        key = json.dumps(item, separators=(",", ":"))
        if key not in self._index:
            self._index[key] = len(self.items)
            self.items.append(item)
        return self._index[key]

    def glyph_run(self, run: GlyphRun) -> int:
        placed = []
        for key, x, baseline, size in run.glyphs:
            name = key_name(key)
            self.glyphs.setdefault(name, _glyph_data(key))
            placed.append([name, num(x), num(baseline), num(size)])
        return self.item(["g", run.fill, run.role, placed])

    def shape(self, shape: Shape, d: str | None = None) -> int:
        return self.item(["p", path_data(shape.path) if d is None else d, shape.fill or "none", shape.stroke or "",
                          num(shape.stroke_width) if shape.stroke else "", 1 if shape.evenodd else 0, shape.role])

    def add(self, item: Item) -> int:
        return self.glyph_run(item) if isinstance(item, GlyphRun) else self.shape(item)


def _punch_items(parts: _Parts, deck: Deck, art: CardArt, colour: str) -> list[int]:
    """A punch card's items; its body is its colour's outline, to which the page adds the holes (``["holes"]``)."""
    out = []
    for item in art.art:
        if isinstance(item, Shape) and item.role == BODY_ROLE:
            outline = path_data(draw.card_outline(deck.layout, colour))
            out += [parts.shape(item, outline), parts.item(["holes"])]
        else:
            out.append(parts.add(item))
    return out


def _front_items(parts: _Parts, art: CardArt) -> list[int]:
    """A verification card's front's items; its ✓ and ✗ cells are one ``["cells"]`` the page draws from its face."""
    out: list[int] = []
    for item in art.art:
        if item.role in MARK_ROLES:
            if not out or parts.items[out[-1]] != ["cells"]:
                out.append(parts.item(["cells"]))
        else:
            out.append(parts.add(item))
    return out


def card_art(deck: Deck) -> dict[str, Any]:
    """What ``cardart.js`` draws every punch card and verification card front of ``deck`` from (with the layout's
    cells and each card's frame and holes or face, in ``machine_data``), JSON-ready, in the current language."""
    layout = deck.layout
    parts = _Parts()
    punch = [_punch_items(parts, deck, without_words(draw.punch_card(deck, card)), card.colour) for card in PUNCH_CARDS]
    fronts = [_front_items(parts, without_words(draw.verification_front(deck, v))) for v in deck.verification_cards]
    mw, mh = layout.mark_width, layout.mark_height
    glyph = P.MARK_GLYPH_SCALE * min(mw, mh)
    kinds = []
    for kind, ink in P.MARKS.items():  # drawn in this order, as art.draw.mark_cells draws them
        key = draw.glyph_key(ink.glyph_char)
        parts.glyph_run(GlyphRun(((key, 0.0, 0.0, 1.0),), fill=ink.glyph))
        kinds.append({"kind": kind, "fill": ink.fill, "glyph": key_name(key), "ink": ink.glyph})
    return {"glyphs": parts.glyphs, "items": parts.items, "punch": punch,
            "fronts": fronts, "marks": {"size": round(glyph, 4), "kinds": kinds}}
