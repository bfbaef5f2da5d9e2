"""Where the catalogue's msgids come from, and how the ``.po`` files are kept in step with them (a developer's tool).

Babel extracts every word a player reads from the sources that show it: the renderer's Python (``_``, ``N_``,
``ngettext``), the table app's script (``_``, ``N_``, ``ngettext``) and its page (elements marked ``data-t``, labels
marked ``data-t-label``), the machine page's, and the criteria library (card titles and the criteria written in words;
the ones in symbols only, "▲ < 3", read the same in every language). ``python -m tmphys.lang.catalogue`` merges them
into every ``lang/locale/<code>.po`` (new msgids untranslated, changed ones fuzzy) and says what each still lacks.

>>> sorted(m.id for m in template() if m.id)[:1]   # doctest: +SKIP
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from tmphys.game.criteria import library
from tmphys.lang.i18n import DEFAULT, LANGUAGES, LOCALE_FOLDER

#: The package's folder: the msgids are read from every trade's sources (Python, the pages' scripts and templates).
PACKAGE = Path(__file__).resolve().parents[1]
PYTHON_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
SCRIPT_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
#: Words the app's script translates from a variable (``_(mode)``): the modes, the book's levels, the colours.
APP_WORDS = ("classic", "extreme", "nightmare", "easy", "standard", "hard", "blue", "yellow", "purple")
#: A criterion written in words (not only symbols and digits) is translated.
WORDED = re.compile(r"[^\W\d_]", re.UNICODE)
#: Words machine.html translates from a variable: the colours.
MACHINE_WORDS = ("blue", "yellow", "purple")
MessageId = str | tuple[str, str]
#: The date the catalogues' headers carry: fixed, so that an update changes a .po only where its words change.
STAMP = datetime(2026, 1, 1, tzinfo=UTC)


def _extracted(method: str, text: str, keywords: dict) -> Iterator[MessageId]:
    for _line, message, _comments, _context in extract(method, io.BytesIO(text.encode("utf-8")), keywords=keywords):
        yield message


class _Marked(HTMLParser):
    """The words of a page's elements marked ``data-t`` (their text, spaces collapsed as the page's script does),
    ``data-t-label`` (their aria-label) and ``data-t-title`` (their title)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._open: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if "data-t-label" in names and names.get("aria-label"):
            self.found.append(str(names["aria-label"]))
        if "data-t-title" in names and names.get("title"):
            self.found.append(str(names["title"]))
        if "data-t" in names:
            self._open.append((tag, []))
        elif self._open and tag not in ("br", "input", "img", "meta"):
            self._open.append((tag, self._open[-1][1]))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, parts = self._open.pop()
            if not self._open or parts is not self._open[-1][1]:
                self.found.append(" ".join("".join(parts).split()))


def marked_words(html: str) -> list[str]:
    """The translatable words of a page: ``data-t`` texts, ``data-t-label`` labels, ``data-t-title`` titles, in page
    order."""
    parser = _Marked()
    parser.feed(html)
    return [w for w in parser.found if w]


def _scripts(html: str) -> str:
    """The inline scripts of a page, one after another (what the JavaScript extractor reads)."""
    return "\n".join(re.findall(r"<script>(.*?)</script>", html, flags=re.S))


def kit_messages() -> list[MessageId]:
    """The printed kit's words: every ``_``, ``N_`` and ``ngettext`` of the Python that draws and writes them."""
    out: list[MessageId] = []
    sources = [path for room in ("lang", "art", "web", "print") for path in (PACKAGE / room).glob("*.py")]
    for path in sorted(sources, key=lambda path: path.name):
        out += _extracted("python", path.read_text("utf-8"), PYTHON_KEYWORDS)
    return out


def criteria_messages() -> list[str]:
    """The criteria cards' titles and the criteria written in words."""
    lib = library()
    titles = [c.title for c in lib.criteria_cards]
    texts = [c.text for card in lib.criteria_cards for c in card.criteria if WORDED.search(c.text)]
    return titles + texts


def app_messages() -> list[MessageId]:
    """The table app's words: its modules' (every script of web/static, by name), its page's marked elements, the
    words it translates from variables."""
    web = PACKAGE / "web" / "static"
    out: list[MessageId] = []
    for path in sorted(web.glob("*.js"), key=lambda path: path.name):
        out += _extracted("javascript", path.read_text("utf-8"), SCRIPT_KEYWORDS)
    return out + marked_words((web / "table.html").read_text("utf-8")) + list(APP_WORDS)


def machine_page_messages() -> list[MessageId]:
    """machine.html's words: its marked elements and its inline script's ``_``."""
    html = (PACKAGE / "web" / "templates" / "machine.html").read_text("utf-8")
    return (marked_words(html) + list(_extracted("javascript", _scripts(html), SCRIPT_KEYWORDS))
            + list(MACHINE_WORDS))


def _unique(messages: Iterable[MessageId]) -> list[MessageId]:
    return list(dict.fromkeys(messages))


def template() -> Catalog:
    """Every msgid of the catalogue, once, in the order of the sources above (English, no translation)."""
    catalog = Catalog(project="tmphys", locale=None, fuzzy=False, creation_date=STAMP, revision_date=STAMP)
    for source, messages in (("kit", kit_messages()), ("criteria", criteria_messages()), ("app", app_messages()),
                             ("machine page", machine_page_messages())):
        for message in _unique(messages):
            found = catalog.get(msgid_key(message))
            if found is None:
                catalog.add(message, auto_comments=[source])
            elif source not in found.auto_comments:
                found.auto_comments.append(source)
    return catalog


def msgid_key(message: MessageId) -> str:
    """The key a catalogue files a message under: its singular."""
    return message[0] if isinstance(message, tuple) else message


def po_path(code: str) -> Path:
    """The ``.po`` source of a language."""
    return PACKAGE / "lang" / LOCALE_FOLDER / f"{code}.po"


def read_catalog(code: str) -> Catalog:
    """A language's catalogue as Babel reads it."""
    with po_path(code).open("rb") as f:
        return read_po(f, locale=None)


def new_catalog(code: str) -> Catalog:
    """An empty catalogue for ``code``: its header names the language and its gettext plural rule."""
    header = "\n".join(f'"{line}\\n"' for line in (
        "Project-Id-Version: tmphys", "POT-Creation-Date: 2026-01-01 00:00+0000",
        "PO-Revision-Date: 2026-01-01 00:00+0000", f"Language: {code.replace('-', '_')}",
        f"Language-Team: {LANGUAGES[code].name} (not yet reviewed by a native speaker)", "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit",
        f"Plural-Forms: {LANGUAGES[code].plural_forms}"))
    return read_po(io.StringIO(f'msgid ""\nmsgstr ""\n{header}\n'), locale=None)


def write_catalog(code: str, catalog: Catalog) -> None:
    """Write ``catalog`` as ``code``'s ``.po`` (sorted as the template, no line numbers: edits elsewhere leave it)."""
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, omit_header=False, ignore_obsolete=True, include_lineno=False)
    po_path(code).write_bytes(buf.getvalue())


def missing(code: str, catalog: Catalog | None = None) -> list[str]:
    """The msgids of the template that ``code``'s catalogue leaves untranslated (or only fuzzy)."""
    catalog = catalog if catalog is not None else read_catalog(code)
    out = []
    for message in template():
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = found.string if found is not None else None
        texts = list(strings) if isinstance(strings, tuple | list) else [strings]
        if found is None or found.fuzzy or not all(texts):
            out.append(msgid_key(message.id))
    return out


def update() -> dict[str, int]:
    """Merge the template into every language's ``.po``; how many msgids each still lacks."""
    tmpl = template()
    out = {}
    for code in LANGUAGES:
        if code == DEFAULT:
            continue
        catalog = read_catalog(code) if po_path(code).exists() else new_catalog(code)
        catalog.update(tmpl, no_fuzzy_matching=False)
        write_catalog(code, catalog)
        out[code] = len(missing(code))
    return out


if __name__ == "__main__":
    for lang, count in update().items():
        print(f"{lang}: {count} untranslated", file=sys.stdout)
