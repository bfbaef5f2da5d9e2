"""The words a player reads, in the language of the table: one gettext catalogue per language (Babel), English msgids.

The catalogues are the ``.po`` files of ``lang/locale/`` (``de.po``, ``pt-BR.po``, …), read at run time with Babel's
reader and turned into the standard library's ``GNUTranslations`` in memory: nothing is compiled at install time, so
``pip install .`` ships plain text files and stays a plain copy, and a translator's edit shows at the next command.
Every msgid is the English text itself (gettext's convention): an English build needs no catalogue, a missing
translation reads as English, and ``tests/test_languages.py`` fails on any msgid a catalogue leaves untranslated.

The language is set for a piece of work with ``language("de")`` (a context variable, like a locale): the drawing code
calls ``_`` and ``ngettext`` and the fonts follow the same setting (``glyphs``).

>>> with language("de"):
...     _("verification card")   # doctest: +SKIP
'Ergebniskarte'
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tmphys.game.criteria import CriteriaCard, Criterion, card_title, criterion_text
from tmphys.text import quote


@dataclass(frozen=True)
class Language:
    """One language of the table: its BCP 47 code, its own name, the script family its fonts come from, and
    gettext's plural rule (``Plural-Forms``)."""

    code: str
    name: str
    script: str  # "latin" (also Greek and Cyrillic), "thai", "ja", "ko", "zh-Hans", "zh-Hant"
    plural_forms: str


_TWO = "nplurals=2; plural=(n != 1);"
_ONE = "nplurals=1; plural=0;"
_FRENCH = "nplurals=2; plural=(n > 1);"
_SLAVIC = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")

#: The languages of the published criteria cards, in the order of the issue that asked for them.
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    Language("pt-BR", "Português (Brasil)", "latin", _FRENCH),
    Language("zh-Hans", "简体中文", "zh-Hans", _ONE),
    Language("zh-Hant", "繁體中文", "zh-Hant", _ONE),
    Language("cs", "Čeština", "latin", "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);"),
    Language("de", "Deutsch", "latin", _TWO),
    Language("en", "English", "latin", _TWO),
    Language("fr", "Français", "latin", _FRENCH),
    Language("el", "Ελληνικά", "latin", _TWO),
    Language("hu", "Magyar", "latin", _TWO),
    Language("it", "Italiano", "latin", _TWO),
    Language("ja", "日本語", "ja", _ONE),
    Language("ko", "한국어", "ko", _ONE),
    Language("nl", "Nederlands", "latin", _TWO),
    Language("pl", "Polski", "latin",
             "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
    Language("ru", "Русский", "latin", _SLAVIC),
    Language("es", "Español", "latin", _TWO),
    Language("th", "ไทย", "thai", _ONE),
    Language("uk", "Українська", "latin", _SLAVIC),
)}
DEFAULT = "en"
#: Where the catalogues are: ``lang/locale/<code>.po`` (package data).
LOCALE_FOLDER = "locale"

_current: ContextVar[str] = ContextVar("tmphys_language", default=DEFAULT)


class UnknownLanguageError(ValueError):
    """A language code that is not one of ``LANGUAGES``."""


def canonical_language(code: str) -> str | None:
    """The code of ``LANGUAGES`` that ``code`` names, read as BCP 47 reads a tag: in any case, with ``_`` for ``-``
    (``DE`` → ``de``, ``pt_BR`` → ``pt-BR``, ``zh-hant`` → ``zh-Hant``); None if it names none."""
    wanted = code.replace("_", "-").lower()
    return next((known for known in LANGUAGES if known.lower() == wanted), None)


def check_language(code: str) -> str:
    """The code of ``LANGUAGES`` that ``code`` names (``canonical_language``); else UnknownLanguageError listing
    them."""
    found = canonical_language(code)
    if found is None:
        raise UnknownLanguageError(f"unknown language {quote(code)} (known: {' '.join(LANGUAGES)})")
    return found


def po_text(code: str) -> str:
    """The catalogue of ``code`` as its ``.po`` source."""
    return resources.files("tmphys.lang").joinpath(LOCALE_FOLDER, f"{code}.po").read_text("utf-8")


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The translations of ``code``, read from its ``.po`` with Babel and compiled to gettext's form in memory
    (English: none, every msgid is the English text). Fuzzy entries are left out, as ``msgfmt`` leaves them."""
    check_language(code)
    if code == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.StringIO(po_text(code)), locale=None)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


#: The catalogue's sources whose words the table app shows (lang/catalogue.py): its own, the criteria cards'.
APP_SOURCES = ("app", "criteria")


@cache
def page_messages(code: str, sources: tuple[str, ...]) -> dict[str, str | list[str]]:
    """The translations a page carries (its script translates with them): the msgids of ``code``'s catalogue that
    come from ``sources`` (the sources ``lang/catalogue.py`` names in each entry's comment: ``app``, ``criteria``,
    ``machine page``), each to its translation or, for a plural, the list of its forms. English: none."""
    check_language(code)
    if code == DEFAULT:
        return {}
    from babel.messages.pofile import read_po

    out: dict[str, str | list[str]] = {}
    for message in read_po(io.StringIO(po_text(code)), locale=None):
        if not message.id or message.fuzzy or not set(message.auto_comments) & set(sources):
            continue
        if isinstance(message.id, tuple | list):
            if all(message.string):
                out[message.id[0]] = list(message.string)
        elif message.string:
            out[message.id] = message.string
    return out


def current() -> str:
    """The language set for the work in progress (``en`` unless ``language`` set another)."""
    return _current.get()


@contextmanager
def language(code: str) -> Iterator[None]:
    """Set the language of every word drawn or written inside the block."""
    token = _current.set(check_language(code))
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` (English) in the current language."""
    return translations(_current.get()).gettext(message)


def criterion_words(criterion: Criterion) -> str:
    """A criterion's words in the current language: the catalogue's for a published one, its own file's for a
    user's (in the file's first language where it has none for this one)."""
    return _(criterion.text) if criterion.source is None else criterion_text(criterion, _current.get())


def card_words(card: CriteriaCard) -> str:
    """A criteria card's title in the current language, from the catalogue or from its own file."""
    return _(card.title) if card.source is None else card_title(card, _current.get())


def ngettext(one: str, many: str, n: int) -> str:
    """The form of ``one``/``many`` (English singular and plural) that the current language uses for ``n``."""
    return translations(_current.get()).ngettext(one, many, n)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for it)
    """Mark a constant's English text for the catalogue, to be translated where it is used (``_(CONSTANT)``)."""
    return message


def plural_table(code: str, size: int = 200) -> list[int]:
    """The plural form index of ``code`` for n = 0 … size − 1, from its gettext rule: a page looks n up here (and
    n ≥ 200 at 100 + n % 100: every rule of ``LANGUAGES`` reads only n % 100, n % 10 and whether n is 0 or 1)."""
    rule = gettext.c2py(LANGUAGES[code].plural_forms.split("plural=", 1)[1].rstrip(";"))
    return [rule(n) for n in range(size)]
