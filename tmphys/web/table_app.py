"""The table app: one self-contained page for any problem at the table, offline (``table.html``), and the same app as a
static site that installs on a phone (``tmphys app --out DIR``).

The page is assembled from the files of ``web/static/`` (the template, the style, the scripts, the search core
compiled to WebAssembly) and the facts of the Python model, written in as data at build time: the criteria cards and
their truth tables, the verification cards and their IDs, the published book, the layout's machine (which cell each
stack opens, which mark each card shows there, the parts of the cards' print art the page draws them from:
web/card_art.py) and the words a player reads. Its scripts
read and ask; the rules and the search are the core's (tmphys/solve/core), and the tests hold the page to the model.

Every inline script is allowed by its hash in the page's Content-Security-Policy, and nothing else is: no inline
event handler, no script from anywhere, no network request.
"""

from __future__ import annotations

import base64
import copy
import gzip
import hashlib
import io
import json
from importlib import resources
from typing import Any
from urllib.parse import quote

from tmphys.art import params as P
from tmphys.cards.deck import Deck
from tmphys.cards.layout import Layout
from tmphys.game.book import BOOK_SETS
from tmphys.game.codes import SHAPES
from tmphys.game.criteria import ID_ALIASES, ID_COLOURS, ID_LETTERS, ID_SYMBOLS, Library, library
from tmphys.game.problems import VERIFIER_LETTERS, Problem
from tmphys.lang.i18n import APP_SOURCES, DEFAULT, LANGUAGES, language, page_messages, plural_table
from tmphys.web.book_data import book_data
from tmphys.web.card_art import card_art
from tmphys.web.machine_page import FRAGMENT_LIMITS, MARK_COLOURS, machine_data, mark_css, script_text, web_file
from tmphys.web.modules import bundle

#: The module the page runs and the module the search worker runs, each inlined with the modules it imports into one
#: script (web/modules.py): the page's is main.js and what it imports, the worker's worker.js, search.js and core.js.
PAGE_MODULE = "main.js"
WORKER_MODULE = "worker.js"
#: The static site's files besides index.html.
MANIFEST = "manifest.webmanifest"
SERVICE_WORKER = "sw.js"
ICON_SIZES = (192, 512)
#: The site's cache name changes with its content, so a phone that installed an older app gets the new one.
CACHE_PREFIX = "tmphys-table-"


def _packed(data: bytes) -> str:
    """Bytes gzip-compressed (no timestamp, so the same bytes give the same page) and written in base64."""
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


def _words(source: str | None, texts: dict[str, str]) -> dict[str, Any]:
    """A user's card's words in every language its file gives (the page shows them as they are, never through the
    catalogue); nothing for a published card (the catalogue has its words)."""
    return {} if source is None else {"own": dict(texts)}


def _criteria_cards(lib: Library) -> list[dict[str, Any]]:
    return [{"number": c.number, "title": c.title, **_words(c.source, c.titles),
             "criteria": [{"key": k.key, "text": k.text, "mask": format(k.mask, "x"), **_words(k.source, k.texts)}
                          for k in c.criteria]}
            for c in lib.criteria_cards]


def _verification_cards(lib: Library) -> list[dict[str, Any]]:
    return [{"index": v.index, "ids": dict(v.ids), "criterion": v.criterion.key} for v in lib.verification_cards]


def app_words() -> dict[str, Any]:
    """The app's words in every language: the English words once (``ids``), then each language's translations in
    their order (null where it has none), packed apart so the script unpacks only its reader's; each language's
    plural rule as a table, and the languages' names for the picker."""
    every = {code: page_messages(code, APP_SOURCES) for code in LANGUAGES}
    ids = sorted({msgid for words in every.values() for msgid in words})

    def packed(data: object) -> str:
        return _packed(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    return {"languages": [{"code": lang.code, "name": lang.name} for lang in LANGUAGES.values()],
            "plurals": {code: plural_table(code) for code in LANGUAGES},
            "messages": {"ids": packed(ids),
                         **{code: packed([words.get(i) for i in ids]) for code, words in every.items() if words}}}


def app_data(layout: Layout, site: bool = False, machine: dict[str, Any] | None = None,
             lang: str = DEFAULT, criteria: Library | None = None) -> dict[str, Any]:
    """Everything the app reads, JSON-ready: the facts of the game, the book, the machine on this layout, the search
    core, the words in every language; ``site``: the static site's form (it registers its service worker);
    ``machine``: the layout's ``machine_data`` when already worked out (not changed); ``lang``: the page's own
    language (the cards' pictures, and the app's when the browser asks for none it has); ``criteria``: a library
    with users' cards, which the app carries as it does the published ones."""
    lib = criteria or library()
    if machine is None:
        with language(lang):
            machine = machine_data(layout, criteria, pictures=False)
    machine = copy.deepcopy(machine)
    for card in (*machine["punch"], *machine["cards"]):
        card.pop("svg", None)
    with language(lang):
        art = card_art(Deck(layout, criteria))
    return {
        "site": site,
        "fragment": dict(FRAGMENT_LIMITS),
        "published": {"cards": len(library().criteria_cards), "verification": len(library().verification_cards)},
        "cards": _criteria_cards(lib),
        "verification": _verification_cards(lib),
        "machine": machine,
        "ids": {"colours": list(ID_COLOURS), "letters": dict(ID_LETTERS), "symbols": dict(ID_SYMBOLS),
                "aliases": dict(ID_ALIASES)},
        "shapes": dict(SHAPES),
        "colours": {"ink": dict(P.CODE_INK)},
        "book": {"sets": dict(BOOK_SETS)},
        "bookPacked": _packed(json.dumps(book_data(library()), separators=(",", ":")).encode("ascii")),
        "art": _packed(json.dumps(art, separators=(",", ":")).encode()),
        "wasm": _packed(web_file("search.wasm")),
        "worker": _packed(bundle([WORKER_MODULE], script_text).encode("utf-8")),
        "lang": lang,
        "fonts": {"languages": list(APP_FONTS), "names": dict(NAME_FONTS)},
        "translated": [code for code in LANGUAGES if code != DEFAULT],
        **app_words(),
    }


def problem_text(problem: Problem) -> str:
    """A problem as the app's text that reads back as it (``A 49 1201 B 50 1205 …``, ``N49 N50 N51 1201 …``,
    ``49/50 52/53``): its criteria cards, then the dealt verification cards' IDs in the game's colour."""
    ids = [str(d.ids[problem.colour]) for d in problem.dealt or ()]
    if problem.mode == "nightmare":
        return " ".join([*(f"N{c[0]}" for c in problem.cards), *ids])
    if not ids:
        return " ".join("/".join(map(str, cs)) for cs in problem.cards)
    return " ".join(f"{v} {' '.join(map(str, cs))} {i}" for v, cs, i in zip(VERIFIER_LETTERS, problem.cards, ids))


def link_criteria(problem: Problem) -> str:
    """The users' cards a problem's link carries (its ``criteria=``, read by the app's cardlink.js): compact JSON in
    base64url, "" when the problem uses only published cards. The problem's users' criteria cards by number (their
    titles and criteria's words in every language of their file, each criterion's codes in hexadecimal) and its dealt
    users' verification cards (four IDs and the criterion, as a card number and its place on that card)."""
    lib = problem.cards_library
    every = sorted({n for cs in problem.cards for n in cs})
    numbers = [n for n in every if lib.criteria_card(n).source is not None]
    dealt = list({d.index: d for d in problem.dealt or () if d.source is not None}.values())
    if not numbers and not dealt:
        return ""

    def words(texts: dict[str, str], source: str | None, text: str) -> dict[str, str]:
        return dict(texts) if source is not None else {"en": text}

    out: dict[str, Any] = {"cards": [
        {"number": n, "title": words(card.titles, card.source, card.title),
         "criteria": [{"text": words(k.texts, k.source, k.text), "mask": format(k.mask, "x")} for k in card.criteria]}
        for n in numbers for card in [lib.criteria_card(n)]]}

    def find(among: list[int], fits: Any) -> tuple[int, int] | None:
        for n in among:
            for j, k in enumerate(lib.criteria_card(n).criteria):
                if fits(k):
                    return n, j + 1
        return None

    if dealt:
        out["verification"] = []
        for d in dealt:
            card, place = (find(numbers, lambda k, d=d: k.key == d.criterion.key)
                           or find(every, lambda k, d=d: k.mask == d.criterion.mask))  # type: ignore[misc]
            out["verification"].append({"ids": [d.ids[c] for c in ID_COLOURS], "card": card, "criterion": place})
    blob = json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=")


def game_link(problem: Problem, moves: str = "", text: str | None = None) -> str:
    """The fragment of the app's link to a problem (``#problem=…&criteria=…&moves=…``), as the app's Share writes it:
    ``text``, the problem as typed (default: ``problem_text``); its users' cards carried (``link_criteria``), so any
    copy of the app opens it; ``moves``: the rounds as the link writes them (``241:A:pass,C:fail;…``)."""
    parts = ["problem=" + quote(problem_text(problem) if text is None else text, safe="-_.!~*'()")]
    if criteria := link_criteria(problem):
        parts.append("criteria=" + criteria)
    if moves:
        parts.append("moves=" + quote(moves, safe="-_.!~*'()"))
    return "#" + "&".join(parts)


#: The languages the app carries a font for (a phone may have none for their script: lang/fonts/make_subsets.py),
#: and the fonts of the picker's names, each with the characters it is for (CSS unicode-range).
APP_FONTS = ("ja", "ko", "zh-Hans", "zh-Hant", "th", "el")
NAME_FONTS = {"names-latin": "U+0080-052F", "names-thai": "U+0E00-0E7F", "names-cjk": "U+2E80-FFEF"}


def app_fonts(names: tuple[str, ...]) -> str:
    """The app's fonts ``names`` as inert elements the script reads only for its reader's language (fonts.js), WOFF2
    in base64: a phone without Japanese, Korean, Chinese, Thai or Greek fonts still draws those words."""
    out = []
    for name in names:
        data = resources.files("tmphys.lang.fonts").joinpath(f"app-{name}.woff2").read_bytes()
        out.append(f'<script type="font/woff2" id="font-{name}">{base64.b64encode(data).decode("ascii")}</script>')
    return "".join(out)


#: What the page reads only once its first screen is drawn (the book, the search core and worker, the cards' parts,
#: the words of the languages that have a catalogue): written after its script, so that the browser runs the script
#: before it has parsed them (data.js's ``later``).
LATE = ("bookPacked", "wasm", "worker", "art", "messages", "plurals")


#: The inline script that unpacks the page's script and runs it (as an inline script: the page's policy allows it
#: by its hash).
LOADER = """(async () => {
  const text = atob(document.getElementById("app-code").textContent), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const script = document.createElement("script");
  script.textContent = await new Response(stream).text();
  document.body.appendChild(script);
})();"""


def _ink_css() -> str:
    """The code's colours (▲ blue, ■ yellow, ● purple, as printed) as CSS custom properties for a light page; a dark
    page lightens them in app.css."""
    names = " ".join(f"--{colour}: {ink};" for colour, ink in P.CODE_INK.items())
    return f":root {{ {names} }}"


def _json_for_script(data: object) -> str:
    """JSON that is safe inside a ``<script>`` element."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return blob.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _csp(scripts: list[str], site: bool) -> str:
    """The page's policy: its own inline scripts (by hash), WebAssembly, a worker from a blob, pictures from data; no
    network, no inline event handler, no other script."""
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
                      for s in scripts)
    workers = "blob: 'self'" if site else "blob:"
    return (f"default-src 'none'; script-src {hashes} 'wasm-unsafe-eval'; worker-src {workers}; "
            "style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; base-uri 'none'; form-action 'none'"
            + ("; manifest-src 'self'" if site else ""))


def table_html(layout: Layout, site: bool = False, machine: dict[str, Any] | None = None,
               lang: str = DEFAULT, criteria: Library | None = None) -> bytes:
    """The whole app for one layout, as UTF-8 bytes (the same layout gives the same bytes); ``machine``: the
    layout's ``machine_data`` when already worked out; ``lang``: the page's own language; ``criteria``: users'
    cards to carry (``app_data``)."""
    template = web_file("table.html").decode("utf-8").replace('<html lang="en">', f'<html lang="{lang}">', 1)
    code = "\n" + bundle([PAGE_MODULE], script_text)
    # the page's script travels packed (a fifth of its size) and the loader runs it as an inline script, allowed by
    # its hash like the loader's own
    scripts = [LOADER, code]
    data = app_data(layout, site, machine, lang, criteria)
    early = _json_for_script({k: v for k, v in data.items() if k not in LATE})
    late = _json_for_script({k: data[k] for k in LATE})
    style = web_file("app.css").decode("utf-8").replace(MARK_COLOURS, mark_css() + "\n" + _ink_css())
    parts = {
        "<!--STYLE-->": f"<style>\n{style}</style>",
        "<!--DATA-->": f'<script id="app-data" type="application/json">{early}</script>' + app_fonts(tuple(NAME_FONTS)),
        "<!--SCRIPTS-->": f'<script type="application/gzip" id="app-code">{_packed(code.encode("utf-8"))}</script>'
                          f"<script>{LOADER}</script>"
                          f'<script id="app-data-late" type="application/json">{late}</script>' + app_fonts(APP_FONTS),
        "<!--CSP-->": f'<meta http-equiv="Content-Security-Policy" content="{_csp(scripts, site)}">',
        "<!--MANIFEST-->": f'<link rel="manifest" href="{MANIFEST}">' if site else "",
    }
    for mark, text in parts.items():
        if template.count(mark) != 1:
            raise ValueError(f"the app's template must hold {mark} once")
        template = template.replace(mark, text)
    return template.encode("utf-8")


def _icon(size: int) -> bytes:
    """The app's icon: a verification card's grid with one open cell, as a PNG (the same bytes each time)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), "#1d2430")
    draw = ImageDraw.Draw(img)
    cell, gap = size // 6, size // 24
    for row in range(4):
        for col in range(4):
            x, y = size // 8 + col * (cell + gap), size // 8 + row * (cell + gap)
            fill = P.PASS_FILL if (row, col) == (1, 2) else "#3a4454"
            draw.rounded_rectangle((x, y, x + cell, y + cell), radius=cell // 5, fill=fill)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=False)
    return out.getvalue()


def site_files(layout: Layout, lang: str = DEFAULT, criteria: Library | None = None) -> dict[str, bytes]:
    """The static site: index.html, the web manifest, the service worker that keeps every file offline, the icons
    (``lang``: the page's own language; ``criteria``: users' cards to carry; ``app_data``)."""
    index = table_html(layout, site=True, lang=lang, criteria=criteria)
    icons = {f"icon-{n}.png": _icon(n) for n in ICON_SIZES}
    manifest = {"name": f"tmphys table · {layout.name}", "short_name": "tmphys", "start_url": "./index.html",
                "scope": "./", "display": "standalone", "background_color": "#1d2430", "theme_color": "#1d2430",
                "icons": [{"src": name, "sizes": f"{n}x{n}", "type": "image/png"}
                          for name, n in zip(icons, ICON_SIZES)]}
    files = {"index.html": index, MANIFEST: json.dumps(manifest, indent=2).encode(), **icons}
    version = hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()[:12]
    worker = web_file("sw.js").decode("utf-8")
    worker = worker.replace("__CACHE__", CACHE_PREFIX + version).replace("__FILES__", json.dumps(["./", *files]))
    files[SERVICE_WORKER] = worker.encode()
    return files
