"""Criteria files: the published library and users' files in the same TOML shape, read by the same code.

A file holds ``[criteria]`` (each an ``expr`` in the criterion language and a ``text``), ``[[criteria_cards]]`` and
``[[verification_cards]]``. Everything wrong with a user's file is a ``CriteriaFileError`` of one line,
``FILE:LINE: key: what is wrong``; docs/criteria.md describes the format, its rules and its bounds.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np

from tmphys.files import NotAFileError, read_regular
from tmphys.game.criteria_library import (
    ID_COLOURS,
    PUBLISHED_CARDS,
    CriteriaCard,
    Criterion,
    Library,
    VerificationCard,
)
from tmphys.game.expression import ExpressionError, expression_table
from tmphys.text import OneLineError, path_text, quote, toml_nesting

#: The largest criteria file, in bytes, checked before it is read (and no more than one byte past it is read).
MAX_FILE_BYTES = 1_000_000
#: The most criteria cards and verification cards all loaded files may hold together; and criteria likewise.
MAX_CARDS = 1000
MAX_CRITERIA = 1000
#: How deep arrays and inline tables may nest in a criteria file (a text's translations in a criterion nest 3).
MAX_TOML_NESTING = 8
#: The number a criteria file's first card may take, and the largest number and ID.
FIRST_USER_CARD = PUBLISHED_CARDS + 1
MAX_NUMBER = 9999
#: The most criteria a criteria card lists, as on the published cards.
MAX_CARD_CRITERIA = 9
#: The IDs the loader assigns to a verification card written without: four-digit, unlike every published one.
ASSIGNED_IDS = range(1000, MAX_NUMBER + 1)
#: The longest text or title, in characters.
MAX_TEXT = 200

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}")
_TOP = {"language": "the file's first language", "criteria": "a table", "criteria_cards": "an array of tables",
        "verification_cards": "an array of tables"}
_FIELDS = {"criteria": ("expr", "text", "printed_only"), "criteria_cards": ("number", "title", "criteria"),
           "verification_cards": ("ids", "criterion")}
_TOML_LINE = re.compile(r"\s*\(at line (\d+), column (\d+)\)|\s*\(at end of document\)")


class CriteriaFileError(OneLineError):
    """A criteria file that cannot be read or breaks a rule of the format: ``FILE[:LINE]: key: what is wrong``."""


@dataclass
class _Source:
    """One file's text and name, and how to point at a key in it."""

    name: str
    text: str
    published: bool = False
    language: str = "en"
    lines: list[str] = field(default_factory=list)

    def line_of(self, key: tuple[Any, ...]) -> int | None:
        """The line (from 1) where ``key`` (``("criteria", "x", "expr")``, ``("criteria_cards", 2, "number")``) is
        written, as far as a look at the text finds it; None when not found."""
        if not self.lines:
            self.lines = self.text.splitlines()
        top, rest = key[0], key[1:]
        if top == "criteria" and rest:
            name = re.escape(str(rest[0]))
            for pattern in (rf"\s*\[\s*criteria\s*\.\s*(?:{name}|\"{name}\"|'{name}')\s*\]",
                            rf"\s*(?:criteria\s*\.\s*)?(?:{name}|\"{name}\"|'{name}')\s*[.=]"):
                found = self._find(pattern)
                if found is not None:
                    return self._field(found, rest[1:]) if len(rest) > 1 else found
        if top in ("criteria_cards", "verification_cards") and rest:
            headers = [i for i, line in enumerate(self.lines, 1)
                       if re.match(rf"\s*\[\[\s*{top}\s*\]\]", line)]
            if len(headers) >= rest[0]:
                start = headers[rest[0] - 1]
                return self._field(start, rest[1:]) if len(rest) > 1 else start
            start = self._find(rf"\s*{top}\s*=")
            if start is not None:
                entries = [i for i, line in enumerate(self.lines[start - 1:], start) if "{" in line]
                if len(entries) >= rest[0]:
                    return entries[rest[0] - 1]
        return self._find(rf"\s*\[*\s*{re.escape(str(top))}\b")

    def _find(self, pattern: str, start: int = 1, stop: int | None = None) -> int | None:
        for i in range(start, min(stop or len(self.lines), len(self.lines)) + 1):
            if re.match(pattern, self.lines[i - 1]):
                return i
        return None

    def _field(self, start: int, rest: tuple[Any, ...]) -> int:
        """The line of a field of the entry starting at line ``start``: that line when inline, else the next
        ``field =`` line before the next table header."""
        name = re.escape(str(rest[0]))
        if re.search(rf"\b{name}\s*=", self.lines[start - 1]):
            return start
        stop = next((i for i in range(start + 1, len(self.lines) + 1) if re.match(r"\s*\[", self.lines[i - 1])),
                    len(self.lines))
        return self._find(rf"\s*{name}\s*=", start + 1, stop) or start

    def error(self, key: tuple[Any, ...], what: str) -> CriteriaFileError:
        """The one-line error for ``key``: ``FILE:LINE: criteria.x.expr: what``."""
        line = self.line_of(key)
        return CriteriaFileError(f"{self.where(line)}{_key_text(key)}: {what}")

    def where(self, line: int | None = None) -> str:
        return f"{path_text(self.name)}{f':{line}' if line else ''}: "


def _key_text(key: tuple[Any, ...]) -> str:
    """A key as messages write it: ``criteria.x.expr``, ``criteria_cards[2].number`` (entries counted from 1)."""
    out = str(key[0])
    for part in key[1:]:
        shown = quote(part, marks=False) if _KEY.fullmatch(str(part)) else quote(part)
        out += f"[{part}]" if isinstance(part, int) else f".{shown}"
    return out


def _kind(value: object) -> str:
    """What a TOML value is, in words."""
    if isinstance(value, bool):
        return "true/false"
    return {int: "a whole number", float: "a fraction", str: "a string", list: "an array", dict: "a table"}.get(
        type(value), "a date or time")


# --- reading -----------------------------------------------------------------------------------------------------

def read_criteria_file(path: str | os.PathLike[str]) -> str:
    """A criteria file's text: its size checked before reading, at most ``MAX_FILE_BYTES`` + 1 bytes read, UTF-8
    (a byte-order mark dropped); a folder, a named pipe or a device refused unopened; raises CriteriaFileError."""
    name = os.fspath(path)
    where = f"{path_text(name)}: "
    try:
        size = os.stat(name).st_size
        if size > MAX_FILE_BYTES and os.path.isfile(name):
            raise CriteriaFileError(f"{where}{size:,} bytes, more than the {MAX_FILE_BYTES:,} a criteria file "
                                    "may hold")
        data = read_regular(name, MAX_FILE_BYTES)
    except NotAFileError as e:
        raise CriteriaFileError(f"{where}{e.strerror}, not a criteria file") from None
    except OSError as e:
        raise CriteriaFileError(f"{where}{e.strerror or e}") from None
    return decode(data, name)


def decode(data: bytes, name: str) -> str:
    """Bytes of a criteria file as text, refusing more than ``MAX_FILE_BYTES`` or bytes that are not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        raise CriteriaFileError(f"{path_text(name)}: more than the {MAX_FILE_BYTES:,} bytes a criteria file may hold")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise CriteriaFileError(f"{path_text(name)}:{line}: not UTF-8 text: byte 0x{data[e.start]:02x} at offset "
                                f"{e.start:,}") from None


def _toml(source: _Source) -> dict[str, Any]:
    """The file's TOML, its nesting bounded before parsing."""
    nesting = toml_nesting(source.text)
    if nesting > MAX_TOML_NESTING:
        raise CriteriaFileError(f"{source.where()}arrays or inline tables nested {nesting} deep, more than the "
                                f"{MAX_TOML_NESTING} a criteria file may have")
    try:
        return tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as e:
        message = str(e).splitlines()[0] if str(e) else "not valid TOML"
        found = _TOML_LINE.search(message)
        line = int(found.group(1)) if found and found.group(1) else None
        column = f" (column {found.group(2)})" if found and found.group(2) else ""
        message = _TOML_LINE.sub("", message)
        raise CriteriaFileError(f"{source.where(line)}not valid TOML: {message}{column}") from None
    except (ValueError, RecursionError) as e:
        raise CriteriaFileError(f"{source.where()}not valid TOML: {e}") from None


# --- one file's entries, checked for shape ---------------------------------------------------------------------

@dataclass
class _Entries:
    """One file's entries, each checked for its keys and types, not yet against the other files."""

    source: _Source
    criteria: dict[str, tuple[str, dict[str, str], bool | None]]
    cards: list[tuple[int, int, dict[str, str], list[str]]]
    vcards: list[tuple[int, list[int] | None, str]]


def _table(source: _Source, value: object, key: tuple[Any, ...], what: str = "a table") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise source.error(key, f"should be {what}, not {_kind(value)}")
    return value


def _known(source: _Source, entry: Mapping[str, Any], key: tuple[Any, ...], allowed: Sequence[str]) -> None:
    for name in entry:
        if name not in allowed:
            holder = "a criteria file has" if not key else "an entry here has"
            raise source.error((*key, name), f"unknown key ({holder} {', '.join(allowed)})")


def _whole(source: _Source, value: object, key: tuple[Any, ...], low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise source.error(key, f"should be a whole number, not {_kind(value)}")
    if not low <= value <= high:
        raise source.error(key, f"{value} is out of range ({low}..{high})")
    return value


def _words(source: _Source, value: object, key: tuple[Any, ...]) -> dict[str, str]:
    """A text or title: a string in the file's first language, or a table of translations by language."""
    texts = {source.language: value} if isinstance(value, str) else _table(
        source, value, key, "a string or a table of translations (en = \"…\")")
    if not texts:
        raise source.error(key, "no text")
    for language, text in texts.items():
        if not _LANGUAGE.fullmatch(language):
            raise source.error((*key, language), "not a language code (en, de, pt-BR, …)")
        if not isinstance(text, str):
            raise source.error((*key, language), f"should be a string, not {_kind(text)}")
        if not text.strip() or len(text) > MAX_TEXT or not text.isprintable():
            raise source.error((*key, language), f"should be one line of printable text, 1 to {MAX_TEXT} characters")
    if source.language not in texts:
        raise source.error(key, f"no {quote(source.language)} text (the file's first language, which every text "
                                "falls back to)")
    return {source.language: texts[source.language], **texts}


def _first_language(raw: Mapping[str, Any]) -> str | None:
    """The first language a file's text tables name, in file order (criteria first, then card titles)."""
    entries = [*(raw.get("criteria") or {}).values(), *(raw.get("criteria_cards") or [])] if \
        isinstance(raw.get("criteria", {}), dict) and isinstance(raw.get("criteria_cards", []), list) else []
    for entry in entries:
        for name in ("text", "title"):
            words = entry.get(name) if isinstance(entry, dict) else None
            if isinstance(words, dict) and words:
                return str(next(iter(words)))
    return None


def _entries(source: _Source, raw: dict[str, Any]) -> _Entries:
    """A file's entries checked for their shape: keys, types, ranges."""
    _known(source, raw, (), list(_TOP))
    if "language" in raw:
        if not isinstance(raw["language"], str) or not _LANGUAGE.fullmatch(raw["language"]):
            raise source.error(("language",), "should be a language code (en, de, pt-BR, …)")
        source.language = raw["language"]
    else:
        source.language = _first_language(raw) or "en"
    criteria_raw = _table(source, raw.get("criteria", {}), ("criteria",))
    cards_raw, vcards_raw = raw.get("criteria_cards", []), raw.get("verification_cards", [])
    for name, value in (("criteria_cards", cards_raw), ("verification_cards", vcards_raw)):
        if not isinstance(value, list):
            raise source.error((name,), f"should be an array of tables ([[{name}]]), not {_kind(value)}")
    criteria: dict[str, tuple[str, dict[str, str], bool | None]] = {}
    for key, spec in criteria_raw.items():
        where = ("criteria", key)
        if not _KEY.fullmatch(key):
            raise source.error(where, "a criterion's key is a letter then up to 39 letters, digits, _ or -")
        spec = _table(source, spec, where, "a table with expr and text")
        _known(source, spec, where, _FIELDS["criteria"])
        for name in ("expr", "text"):
            if name not in spec:
                raise source.error(where, f"no {name}")
        if not isinstance(spec["expr"], str):
            raise source.error((*where, "expr"), f"should be a string, not {_kind(spec['expr'])}")
        printed_only = spec.get("printed_only")
        if printed_only is not None and not isinstance(printed_only, bool):
            raise source.error((*where, "printed_only"), f"should be true or false, not {_kind(printed_only)}")
        criteria[key] = (spec["expr"], _words(source, spec["text"], (*where, "text")), printed_only)
    cards = []
    low, high = (1, PUBLISHED_CARDS) if source.published else (FIRST_USER_CARD, MAX_NUMBER)
    for i, entry in enumerate(cards_raw, 1):
        where = ("criteria_cards", i)
        entry = _table(source, entry, where)
        _known(source, entry, where, _FIELDS["criteria_cards"])
        for name in _FIELDS["criteria_cards"]:
            if name not in entry:
                raise source.error(where, f"no {name}")
        number = _whole(source, entry["number"], (*where, "number"), low, high)
        names = entry["criteria"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise source.error((*where, "criteria"), "should be an array of criterion keys (strings)")
        if not names:
            raise source.error((*where, "criteria"), "a criteria card needs at least one criterion")
        if len(names) > MAX_CARD_CRITERIA:
            raise source.error((*where, "criteria"), f"{len(names)} criteria, more than the {MAX_CARD_CRITERIA} a "
                                                     "card holds")
        twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
        if twice is not None:
            raise source.error((*where, "criteria"), f"{quote(twice)} is listed twice")
        cards.append((i, number, _words(source, entry["title"], (*where, "title")), names))
    vcards = []
    for i, entry in enumerate(vcards_raw, 1):
        where = ("verification_cards", i)
        entry = _table(source, entry, where)
        _known(source, entry, where, _FIELDS["verification_cards"])
        if "criterion" not in entry:
            raise source.error(where, "no criterion")
        if not isinstance(entry["criterion"], str):
            raise source.error((*where, "criterion"), f"should be a criterion key, not {_kind(entry['criterion'])}")
        ids = entry.get("ids")
        if ids is None and source.published:
            raise source.error(where, "no ids")
        if ids is not None:
            if not isinstance(ids, list) or len(ids) != 4:
                got = f"{len(ids)}" if isinstance(ids, list) else _kind(ids)
                raise source.error((*where, "ids"), f"should be four IDs (green, yellow, blue, purple), not {got}")
            ids = [_whole(source, n, (*where, "ids"), 1, MAX_NUMBER) for n in ids]
            if len(set(ids)) < 4:
                raise source.error((*where, "ids"), "the four IDs should differ")
        vcards.append((i, ids, entry["criterion"]))
    return _Entries(source, criteria, cards, vcards)


# --- all files together ------------------------------------------------------------------------------------------

def _assign_ids(key: str, occurrence: int, taken: set[int]) -> list[int]:
    """Four free IDs for the ``occurrence``-th card (from 0) of a criterion written without IDs: drawn from a hash
    of the criterion's key and that count, so the same file gives the same IDs, and editing other cards moves none;
    an ID already taken moves to the next candidate."""
    out: list[int] = []
    for k in range(4):
        digest = hashlib.sha256(f"{key}\n{occurrence}\n{k}".encode()).digest()
        start = int.from_bytes(digest[:8], "big") % len(ASSIGNED_IDS)
        for step in range(len(ASSIGNED_IDS)):
            candidate = ASSIGNED_IDS[(start + step * 7919) % len(ASSIGNED_IDS)]  # 7919 is prime to 9,000
            if candidate not in taken:
                break
        taken.add(candidate)
        out.append(candidate)
    return out


def _mask(table: np.ndarray) -> int:
    """A bool[125] truth table as a Python int, bit i set when code index i passes."""
    return int.from_bytes(np.packbits(np.asarray(table, dtype=bool), bitorder="little").tobytes(), "little")


@lru_cache(maxsize=256)
def _published_table(expr: str) -> np.ndarray:
    """A published criterion's table, worked out once however many libraries are loaded (read-only)."""
    table = expression_table(expr)
    table.flags.writeable = False
    return table


def _criterion(source: _Source, key: str, spec: tuple[str, dict[str, str], bool | None],
               carried: bool) -> Criterion:
    expr, texts, printed_only = spec
    try:
        table = _published_table(expr) if source.published else expression_table(expr)
    except ExpressionError as e:
        raise source.error(("criteria", key, "expr"), str(e)) from None
    if not source.published and (table.all() or not table.any()):
        raise source.error(("criteria", key, "expr"), f"true for {'every' if table.all() else 'no'} code: a "
                                                      "criterion must tell codes apart")
    if printed_only and carried:
        raise source.error(("criteria", key, "printed_only"), "true, but a verification card carries it")
    if printed_only is False and not carried and source.published:
        raise source.error(("criteria", key, "printed_only"), "false, but no verification card carries it")
    return Criterion(key, expr, texts[source.language], not carried, table, _mask(table), texts,
                     None if source.published else source.name)


def _build(sources: Sequence[_Source], raws: Sequence[dict[str, Any]]) -> Library:
    """A library from the published file's entries and each user file's, checked against each other."""
    all_entries = [_entries(s, r) for s, r in zip(sources, raws)]
    criteria: dict[str, Criterion] = {}
    cards: dict[int, CriteriaCard] = {}
    owner: dict[int, str | None] = {}  # an ID → the file that wrote it (None: the published game)
    warnings: list[str] = []
    numbers: dict[int, str | None] = {}  # a card number → its file: a plain number in a problem is a card or an ID
    for entries in all_entries:
        for _, number, _, _ in entries.cards:
            numbers.setdefault(number, None if entries.source.published else entries.source.name)
    for entries in all_entries:  # every written ID first, so assigned ones never take one a later file writes
        for i, ids, _ in entries.vcards:
            for n in ids or ():
                if n in owner:
                    other = "a published card" if owner[n] is None else path_text(owner[n])
                    raise entries.source.error(("verification_cards", i, "ids"), f"the ID {n} is taken ({other})")
                if n in numbers and not entries.source.published:  # a user's card: told at its number
                    of = "a published criteria card" if numbers[n] is None else \
                        f"a criteria card of {path_text(numbers[n])}"
                    raise entries.source.error(("verification_cards", i, "ids"), f"{n} is the number of {of}: a "
                                               "problem could not tell the ID from the card")
                owner[n] = None if entries.source.published else entries.source.name
    for entries in all_entries:
        for i, number, _, _ in entries.cards:
            if number in owner:
                other = "a published verification card" if owner[number] is None else \
                    f"a verification card of {path_text(owner[number])}"
                raise entries.source.error(("criteria_cards", i, "number"), f"{number} is an ID of {other}: a "
                                           "problem could not tell the card from the ID")
    taken, vcards, index = set(owner) | set(numbers), [], 0
    for entries in all_entries:
        source = entries.source
        carried = {criterion for _, _, criterion in entries.vcards}
        for key, spec in entries.criteria.items():
            if key in criteria:
                first = criteria[key].source
                where = "the published library" if first is None else path_text(first)
                raise source.error(("criteria", key), f"the key {quote(key)} is already a criterion of {where}: "
                                                      "choose another key")
            criteria[key] = _criterion(source, key, spec, key in carried)
        on_cards: set[str] = set()
        for i, number, titles, names in entries.cards:
            if number in cards:
                first = cards[number].source
                where = "a published card" if first is None else \
                    "a card of this file" if first == source.name else f"a card of {path_text(first)}"
                raise source.error(("criteria_cards", i, "number"), f"card {number} is already {where}")
            for name in names:
                if name not in entries.criteria and (name not in criteria or criteria[name].source is not None):
                    raise source.error(("criteria_cards", i, "criteria"), f"unknown criterion {quote(name)} (a card "
                                       "names criteria of its own file or the published ones)")
            on_cards.update(names)
            cards[number] = CriteriaCard(number, titles[source.language], tuple(criteria[n] for n in names), titles,
                                         None if source.published else source.name)
        if source.published and sorted(cards) != list(range(1, PUBLISHED_CARDS + 1)):
            raise source.error(("criteria_cards",), f"the published cards are numbered 1..{PUBLISHED_CARDS}")
        occurrences: dict[str, int] = {}
        for i, ids, key in entries.vcards:
            if key not in entries.criteria:
                raise source.error(("verification_cards", i, "criterion"), f"unknown criterion {quote(key)} (a "
                                   "verification card names a criterion of its own file)")
            if key not in on_cards:
                raise source.error(("verification_cards", i, "criterion"), f"{quote(key)} is on no criteria card "
                                   "of this file")
            assigned = ids is None
            if ids is None:
                ids = _assign_ids(key, occurrences.get(key, 0), taken)
                occurrences[key] = occurrences.get(key, 0) + 1
            index += 1
            vcards.append(VerificationCard(index, dict(zip(ID_COLOURS, ids)), criteria[key],
                                           None if source.published else source.name, assigned))
        if not source.published:
            warnings += _warnings(entries, criteria, on_cards, carried)
    by_id = {n: (v, colour) for v in vcards for colour, n in v.ids.items()}
    return Library(criteria, tuple(cards[n] for n in sorted(cards)), tuple(vcards), by_id,
                   tuple(s.name for s in sources if not s.published), tuple(warnings))


def _warnings(entries: _Entries, criteria: Mapping[str, Criterion], on_cards: set[str],
              carried: set[str]) -> list[str]:
    """What is worth a look in one file: a criterion equal to another, one no card uses, one only printed."""
    source, out = entries.source, []
    for key in entries.criteria:
        crit, found = criteria[key], []
        for other in criteria.values():
            if other.key == key:
                break
            if other.mask == crit.mask:
                of = "the published criterion" if other.source is None else "the criterion"
                at = "" if other.source in (None, source.name) else f" of {path_text(other.source)}"
                found.append(f"passes the same codes as {of} {quote(other.key)}{at}")
                break
        if key not in on_cards and key not in carried:
            found.append("no card uses it")
        elif key not in carried and entries.criteria[key][2] is None:
            found.append("on no verification card: add one, or write printed_only = true")
        if found:  # finding the line reads the text: only for a criterion with something to say
            where = f"{source.where(source.line_of(('criteria', key)))}criteria.{key}: "
            out += [where + what for what in found]
    return out


@cache
def _published_toml() -> dict[str, Any]:
    """The published file's TOML, parsed once (never changed by the loader)."""
    return _toml(_published_source())


def _parse(sources: Sequence[_Source]) -> Library:
    raws, cards, criteria = [], 0, 0
    for source in sources:
        raw = _published_toml() if source.published else _toml(source)
        if not source.published:
            n_cards = sum(len(v) for k in ("criteria_cards", "verification_cards")
                          if isinstance(v := raw.get(k), list))
            n_criteria = len(raw["criteria"]) if isinstance(raw.get("criteria"), dict) else 0
            cards, criteria = cards + n_cards, criteria + n_criteria
            if cards > MAX_CARDS:
                raise CriteriaFileError(f"{source.where()}{cards:,} cards in the loaded files, more than {MAX_CARDS:,}")
            if criteria > MAX_CRITERIA:
                raise CriteriaFileError(f"{source.where()}{criteria:,} criteria in the loaded files, more than "
                                        f"{MAX_CRITERIA:,}")
        raws.append(raw)
    return _build(sources, raws)


@cache
def _published_text() -> str:
    return resources.files("tmphys.game").joinpath("data/criteria.toml").read_text("utf-8")


def _published_source() -> _Source:
    return _Source("tmphys/game/data/criteria.toml", _published_text(), published=True)


def published_library() -> Library:
    """The published game's 48 criteria cards and 95 verification cards, read from the package's data file."""
    return library_from_texts([])


def library_from_texts(files: Sequence[tuple[str, str | bytes]]) -> Library:
    """The published library with criteria files given as (name, content) pairs, for tests and callers holding text;
    raises CriteriaFileError."""
    sources = [_published_source()]
    for name, content in files:
        text = decode(content, name) if isinstance(content, bytes) else content
        if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise CriteriaFileError(f"{path_text(name)}: more than the {MAX_FILE_BYTES:,} bytes a criteria file may "
                                    "hold")
        sources.append(_Source(name, text.removeprefix("\ufeff")))
    return _parse(sources)


def load_library(files: Sequence[str | os.PathLike[str]]) -> Library:
    """The published library and these criteria files' cards after it; raises CriteriaFileError naming the file,
    line and key of the first thing wrong. The library's ``warnings`` list what is not wrong but worth a look."""
    return library_from_texts([(os.fspath(f), read_criteria_file(f)) for f in files])


def criteria_warnings(library: Library) -> list[str]:
    """The loader's warnings for a library, one line each (``FILE:LINE: criteria.x: no card uses it``)."""
    return list(library.warnings)


def criterion_text(criterion: Criterion, language: str) -> str:
    """A criterion's wording in ``language``, else in its file's first language."""
    return criterion.texts.get(language, criterion.text)


def card_title(card: CriteriaCard, language: str) -> str:
    """A criteria card's title in ``language``, else in its file's first language."""
    return card.titles.get(language, card.title)


def untranslated(library: Library, language: str) -> list[str]:
    """What of the criteria files' cards falls back to its file's first language in ``language``: ``criterion KEY``
    and ``criteria card N``, each with the language it shows in (``criterion x (en)``). The published cards are
    worded in English here and translated with the rest of tmphys's words, so they are not listed."""
    out = [f"criterion {c.key} ({next(iter(c.texts), 'en')})" for c in library.user_criteria
           if language not in c.texts]
    out += [f"criteria card {c.number} ({next(iter(c.titles), 'en')})" for c in library.user_cards
            if language not in c.titles]
    return out


__all__ = [
    "ASSIGNED_IDS", "FIRST_USER_CARD", "MAX_CARDS", "MAX_CARD_CRITERIA", "MAX_CRITERIA", "MAX_FILE_BYTES",
    "MAX_NUMBER", "MAX_TEXT", "MAX_TOML_NESTING", "CriteriaFileError", "card_title", "criteria_warnings",
    "criterion_text", "library_from_texts", "load_library", "published_library", "read_criteria_file",
    "untranslated",
]
