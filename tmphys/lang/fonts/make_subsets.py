"""Make the Noto subsets tmphys ships (a developer's tool): run it after a catalogue gains characters.

    apt-get install fonts-noto-core fonts-noto-cjk      # the full fonts (Debian), read from /usr/share/fonts
    python tmphys/lang/fonts/make_subsets.py          # writes tmphys/lang/fonts/*.ttf and app-*.woff2
    python tmphys/lang/fonts/make_subsets.py --app    # only the table app's (needs only fonts-noto-cjk)

Each script's fonts keep only the characters its languages' catalogues use (``lang/locale/*.po``, translations and
msgids), printable ASCII and a few marks of the layout's own text: Noto Sans for the Latin, Greek and Cyrillic
languages; Noto Sans merged with Noto Sans Thai for Thai (so one font sets a Thai line with its digits and IDs);
Noto Sans CJK JP, KR, SC and TC (regular only: their bold would double what ships), their PostScript outlines turned
into TrueType's (reportlab embeds only TrueType), for Japanese, Korean and the two Chinese. Layout tables are kept
(HarfBuzz shapes Thai with them); hinting is not (the glyphs are drawn as paths or embedded in PDFs). The outputs
are reproducible: no timestamp, the same input gives the same bytes. ``tests/test_languages.py`` fails when a
catalogue holds a character its font lacks.

The table app's fonts (``app-*.woff2``, WOFF2) are smaller still: for each language whose script a phone may lack
(``APP_SCRIPTS``), the characters of its words the app shows (``i18n.APP_SOURCES``), PostScript outlines
kept (the smallest), no layout features but Thai's; and ``app-names-*.woff2``, the letters of every language's name
in its own script, for the language picker.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.scaleUpem import scale_upem

HERE = Path(__file__).resolve().parent
LOCALE = HERE.parent / "locale"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto")
#: The index of each language's face in Noto Sans CJK's collections.
CJK_FACES = {"ja": ("jp", 0), "ko": ("kr", 1), "zh-Hans": ("sc", 2), "zh-Hant": ("tc", 3)}
#: What any line may hold besides the catalogues' words: printable ASCII (IDs, codes, layout names) and the marks the
#: renderer writes itself (·, …, –, ×, −, °, ±, the typographic quotes).
EXTRA = "".join(chr(c) for c in range(0x20, 0x7F)) + "·…–—×−°±“”„‘’«»\u00a0"


#: Characters a shaper writes in place of others, which the font must hold too: HarfBuzz splits Thai's SARA AM
#: (U+0E33) into NIKHAHIT and SARA AA before it looks them up.
DECOMPOSED = {"\u0e33": "\u0e4d\u0e32"}


def script_of(code: str) -> str:
    """The script family of a language code, as ``i18n.LANGUAGES`` says (read from its file, no import needed)."""
    sys.path.insert(0, str(HERE.parents[2]))
    from tmphys.lang.i18n import LANGUAGES

    return LANGUAGES[code].script


def catalogue_characters(codes: list[str]) -> set[str]:
    """Every character of these languages' ``.po`` files (their quoted strings: msgids and translations)."""
    found: set[str] = set()
    for code in codes:
        text = (LOCALE / f"{code}.po").read_text("utf-8")
        for quoted in re.findall(r'^(?:msgid|msgstr|msgid_plural|msgstr\[\d\])? ?"(.*)"$', text, flags=re.M):
            found |= set(quoted.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8"))
    return found | {c for k, parts in DECOMPOSED.items() if k in found for c in parts}


def _options() -> subset.Options:
    options = subset.Options()
    options.layout_features = ["*"]
    options.hinting = False
    options.desubroutinize = True
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.name_languages = [0x409]
    options.glyph_names = False
    return options


#: Characters a font may lack, each drawn with another's glyph: Noto Sans has no minus sign (U+2212), the sheets'
#: registration scales print one; its en dash stands in.
STAND_INS = {0x2212: 0x2013}


def subsetted(font: TTFont, characters: set[str]) -> TTFont:
    """``font`` cut to ``characters`` (those it holds, or has a stand-in for)."""
    cmap = font.getBestCmap()
    for missing, stand_in in STAND_INS.items():
        if missing not in cmap and stand_in in cmap:
            for table in font["cmap"].tables:
                if table.isUnicode():
                    table.cmap[missing] = cmap[stand_in]
    sub = subset.Subsetter(_options())
    cmap = font.getBestCmap()
    sub.populate(unicodes=sorted(ord(c) for c in characters if ord(c) in cmap))
    sub.subset(font)
    return font


def to_truetype(font: TTFont) -> TTFont:
    """A font with PostScript (CFF) outlines given TrueType (quadratic) ones, as fontTools' otf2ttf does."""
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    for table in ("VORG",):
        if table in font:
            del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, g in glyf.glyphs.items():
        hmtx[name] = (hmtx[name][0], getattr(g, "xMin", 0))
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones",):
        setattr(maxp, field, 1)
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements",
                  "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth"):
        setattr(maxp, field, 0)
    font["maxp"] = maxp
    post = font["post"]
    post.formatType = 2.0
    post.extraNames, post.mapping, post.glyphOrder = [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


def save(font: TTFont, name: str) -> int:
    """Write ``font`` as ``name`` beside this script without timestamps (the same input, the same bytes)."""
    font.recalcTimestamp = False  # the source font's dates stay: the same input, the same bytes
    buf = io.BytesIO()
    font.save(buf, reorderTables=True)
    TTFont(io.BytesIO(buf.getvalue()))  # it reads back
    (HERE / name).write_bytes(buf.getvalue())
    return len(buf.getvalue())


#: The languages the table app carries a font for (a phone may have none for their script), each with its source:
#: a face of Noto Sans CJK (its index in the collection), or a font this folder ships.
APP_SCRIPTS = {"ja": 0, "ko": 1, "zh-Hans": 2, "zh-Hant": 3, "th": "NotoSansThai-Regular.ttf",
               "el": "NotoSans-Regular.ttf"}


#: The picker's fonts: the letters of the languages' names in each range, from a font that draws them.
NAME_SOURCES = {"latin": ("NotoSans-Regular.ttf", 0x80, 0x052F), "thai": ("NotoSansThai-Regular.ttf", 0x0E00, 0x0E7F),
                "cjk": (0, 0x2E80, 0xFFEF)}
#: The CJK fonts' units per em in the app (1,000 in Noto): coarser units take fewer bytes (a quarter less), and a
#: 256th of an em is a sixteenth of a pixel at the app's 16 px.
APP_CJK_UPEM = 256


def app_characters(code: str) -> set[str]:
    """The characters past ASCII of what the table app shows in ``code``: its words and the language's name."""
    sys.path.insert(0, str(HERE.parents[2]))
    from tmphys.lang.i18n import APP_SOURCES, LANGUAGES, page_messages

    def flat(v: object) -> str:
        return "".join(map(flat, v)) if isinstance(v, list) else str(v)

    words = page_messages(code, APP_SOURCES)
    found = set("".join(flat(v) for v in words.values())) | set(LANGUAGES[code].name)
    return {c for c in found if ord(c) > 0x7E} | {c for k, parts in DECOMPOSED.items() if k in found for c in parts}


def app_font(source: int | str, characters: set[str], features: bool) -> bytes:
    """A WOFF2 font of ``characters`` from ``source`` (a Noto Sans CJK face or a font of this folder)."""
    font = (TTFont(CJK / "NotoSansCJK-Regular.ttc", fontNumber=source, recalcTimestamp=False)
            if isinstance(source, int) else TTFont(HERE / source, recalcTimestamp=False))
    options = _options()
    options.flavor = "woff2"
    options.layout_features = ["*"] if features else []
    options.desubroutinize = False
    options.name_IDs = [1, 2]
    sub = subset.Subsetter(options)
    cmap = font.getBestCmap()
    sub.populate(unicodes=sorted(ord(c) for c in characters if ord(c) in cmap))
    sub.subset(font)
    if isinstance(source, int):
        scale_upem(font, APP_CJK_UPEM)
    font.flavor = "woff2"
    buf = io.BytesIO()
    font.save(buf, reorderTables=True)
    return buf.getvalue()


def app_fonts() -> None:
    """The table app's fonts: one a language of ``APP_SCRIPTS``, and the picker's names (see the module's text)."""
    sys.path.insert(0, str(HERE.parents[2]))
    from tmphys.lang.i18n import LANGUAGES

    for code, source in APP_SCRIPTS.items():
        data = app_font(source, app_characters(code), features=code == "th")
        (HERE / f"app-{code}.woff2").write_bytes(data)
        print(f"app-{code}.woff2", len(data))
    names = {c for lang in LANGUAGES.values() for c in lang.name if ord(c) > 0x7E}
    for name, (source, low, high) in NAME_SOURCES.items():
        data = app_font(source, {c for c in names if low <= ord(c) <= high}, features=name == "thai")
        (HERE / f"app-names-{name}.woff2").write_bytes(data)
        print(f"app-names-{name}.woff2", len(data))


def main() -> None:
    sys.path.insert(0, str(HERE.parents[2]))
    from tmphys.lang.glyphs import SCRIPT_FONTS
    from tmphys.lang.i18n import DEFAULT, LANGUAGES

    by_script: dict[str, list[str]] = {}
    for code, lang in LANGUAGES.items():
        if code != DEFAULT:
            by_script.setdefault(lang.script, []).append(code)
    latin_chars = catalogue_characters(by_script["latin"] + by_script["thai"]) | set(EXTRA)
    for weight, k in (("Regular", 0), ("Bold", 1)):
        latin = subsetted(TTFont(NOTO / f"NotoSans-{weight}.ttf", recalcTimestamp=False), latin_chars)
        print(SCRIPT_FONTS["latin"][k], save(latin, SCRIPT_FONTS["latin"][k]))
        thai_chars = catalogue_characters(by_script["thai"])
        thai = subsetted(TTFont(NOTO / f"NotoSansThai-{weight}.ttf", recalcTimestamp=False), thai_chars)
        parts = []
        for font in (thai, subsetted(TTFont(NOTO / f"NotoSans-{weight}.ttf", recalcTimestamp=False), latin_chars)):
            buf = io.BytesIO()
            font.save(buf)
            buf.seek(0)
            parts.append(buf)
        merged = Merger().merge(parts)
        print(SCRIPT_FONTS["thai"][k], save(merged, SCRIPT_FONTS["thai"][k]))
        for code, (_tag, face) in CJK_FACES.items():
            if k and SCRIPT_FONTS[code][1] == SCRIPT_FONTS[code][0]:
                continue  # one weight ships for this script
            chars = catalogue_characters([code]) | set(EXTRA)
            font = TTFont(CJK / f"NotoSansCJK-{weight}.ttc", fontNumber=face, recalcTimestamp=False)
            out = to_truetype(subsetted(font, chars))
            print(SCRIPT_FONTS[code][k], save(out, SCRIPT_FONTS[code][k]))


if __name__ == "__main__":
    if sys.argv[1:] == ["--app"]:
        app_fonts()
    else:
        main()
        app_fonts()
