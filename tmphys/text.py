"""Words and numbers as tmphys reads and prints them: whole numbers in ASCII digits, plurals, fractions, codes in
the game's shapes, short quotes of long text, and plain ASCII for a terminal that cannot show the shapes."""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from fractions import Fraction
from typing import Any

#: The digits a number is written in, everywhere tmphys reads one: ``str.isdigit`` would also take ``⑤``, ``²``
#: and other scripts' digits, which ``int`` then refuses or reads as something else.
ASCII_DIGITS = "0123456789"
#: The most digits a whole number read from the user may have: far past any card, ID, seed or count, and far
#: short of Python's limit on converting digit strings (4,300), so a pasted megabyte of digits is refused at once.
MAX_DIGITS = 30
_WHOLE = re.compile(r"[0-9]+")
#: The longest quote of a user's text in a message; a longer one is cut to ``QUOTE_PREFIX`` characters and "…".
QUOTE_LIMIT = 60
QUOTE_PREFIX = 40


#: The full-width forms (U+FF01..U+FF5E: ５, Ｇ, ＃, ，) and the ideographic space, as a Japanese, Chinese or Korean
#: keyboard types them in its full-width mode.
_FULL_WIDTH = re.compile("[\uff01-\uff5e\u3000]")


def halfwidth(text: str) -> str:
    """``text`` with its full-width forms in their NFKC form, plain ASCII (``５１５`` → ``515``, ``Ｇ４４７`` →
    ``G447``, the ideographic space → a space), as a Japanese keyboard types a number; every other character as it
    is (``⑤``, ``²`` and other scripts' digits are not digits to tmphys)."""
    return _FULL_WIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)


def whole_number(text: object, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` writes in ASCII digits, or their full-width forms (``halfwidth``), only (no sign, no
    spaces, at most ``max_digits``), else None: ``whole_number("447") == whole_number("４４７") == 447``,
    ``whole_number("⑤") is None``."""
    s = halfwidth(str(text))
    if len(s) > max_digits or not _WHOLE.fullmatch(s):
        return None
    return int(s)


#: The longest message an error of tmphys's own carries (``OneLineError``): one line, read at a glance.
MESSAGE_LIMIT = 400
#: Lone surrogates U+DC80..U+DCFF: the bytes of a file name or of typed text that are not in the system's encoding,
#: as Python keeps them ("surrogateescape"); a message shows each as the byte it was (``\xe9``).
_SURROGATE_BYTES = range(0xDC80, 0xDD00)


def _shown_char(ch: str) -> str:
    r"""One character as a message shows it: as it is when printable, else escaped as Python writes it (``\x1b``,
    ``\n``, ``\u202e``), and a byte kept as a surrogate as that byte (``\xe9``): a terminal never acts on it."""
    if ch.isprintable():
        return ch
    if ord(ch) in _SURROGATE_BYTES:
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return repr(ch)[1:-1]


def quote(text: object, limit: int | None = QUOTE_LIMIT, marks: bool = True) -> str:
    r"""``text`` as every message of tmphys echoes a user's text (an argument, a path, a typed line, a token): in
    quote marks as Python's ``repr`` puts them (none with ``marks=False``), control characters and every other
    character a terminal would act on escaped (``\x1b[2J`` is shown, never sent raw), a file name's bytes that are
    not in the system's encoding as ``\xe9``, and a text of more than ``limit`` characters (None: no limit) cut to
    its first ``QUOTE_PREFIX``: a pasted megabyte is not echoed. ``quote("a\x1b") == "'a\\x1b'"``; printable text
    is quoted as ``repr`` quotes it (and as the table app's parser does)."""
    s = str(text)
    cut = limit is not None and len(s) > limit
    shown = s[:QUOTE_PREFIX] if cut else s
    if marks:
        mark = '"' if "'" in shown and '"' not in shown else "'"
        shown = mark + "".join("\\" + ch if ch in ("\\", mark) else _shown_char(ch) for ch in shown) + mark
    else:
        shown = "".join(map(_shown_char, shown))
    return f"{shown}… ({len(s):,} characters)" if cut else shown


#: The longest path a message shows whole; a longer one (a pasted argument, not a real file) is cut as ``quote`` cuts.
PATH_LIMIT = 240


def path_text(path: object) -> str:
    r"""A path as a message shows it: ``quote``'s escapes without its quote marks (``wrote caféé.pdf``: a file
    name's bytes not in the system's encoding as ``é``, never raw, so a terminal neither acts on them nor makes
    printing fail), cut only past ``PATH_LIMIT`` characters."""
    return quote(os.fspath(path) if isinstance(path, os.PathLike) else path, limit=PATH_LIMIT, marks=False)


#: A run of text with no space, longer than any word a message needs: a pasted argument, cut by ``clip``.
_LONG_RUN = re.compile(rf"\S{{{QUOTE_LIMIT + 1},}}")


def clip(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """A message made one short line of printable text, whoever wrote it (a library's several lines, a huge
    argument click quoted whole): its lines joined, characters a terminal would act on escaped as ``quote``
    escapes them, every run of more than ``QUOTE_LIMIT`` non-space characters cut to its first ``QUOTE_PREFIX``
    and "…", the whole to ``limit``."""
    if len(message) <= limit and message.isprintable():
        return message
    s = "".join(map(_shown_char, " ".join(message.strip().splitlines())))
    s = _LONG_RUN.sub(lambda m: f"{m.group(0)[:QUOTE_PREFIX]}…", s)
    return s if len(s) <= limit else s[:limit - 1] + "…"


class OneLineError(ValueError):
    """An error of tmphys's own, for a user to read: its message is one line of printable text of at most
    ``MESSAGE_LIMIT`` characters (``clip``), whatever went into it: a library's message of several lines, a pasted
    megabyte, a terminal's escape sequence. Every error a user's input raises (a problem, a code, a layout, …) is
    one."""

    def __init__(self, message: object = "") -> None:
        super().__init__(clip(str(message)))


def plural(n: object, word: str) -> str:
    """``n word``, the word in the plural unless n is one: ``plural(2, "round") == "2 rounds"``."""
    return f"{n} {word}{'' if str(n) == '1' else 's'}"


def fraction_text(x: Fraction) -> str:
    """A fraction as ``"9/7"``, or ``"2"`` when whole."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def shapes(code: object) -> str:
    """A code in the game's shapes and digits: ``shapes("241") == "▲2 ■4 ●1 (241)"``."""
    s = str(code)
    return f"▲{s[0]} ■{s[1]} ●{s[2]} ({s})"


# --- TOML read from users -------------------------------------------------------------------------------------

#: The pieces of TOML text that matter to its nesting: comments and strings (skipped whole: a bracket in them is
#: text), and the brackets and braces that open and close arrays and inline tables. A multi-line string may end in
#: up to two more quote marks than its delimiter; a string left open runs to the end of its line.
_TOML_PIECES = re.compile(r'''
    \#[^\n]*
  | """(?:[^"\\]|\\.|"(?!""))*"""(?:"{0,2})
  | \'\'\'(?:[^\']|\'(?!\'\'))*\'\'\'(?:\'{0,2})
  | "(?:[^"\\\n]|\\.)*"?
  | \'[^\'\n]*\'?
  | [\[\]{}]
''', re.VERBOSE | re.DOTALL)


def toml_nesting(text: str) -> int:
    """How deep arrays and inline tables nest in TOML text (``a = [[1], {b = [2]}]`` nests 3; a table header's
    brackets count while open): read from its brackets outside strings and comments, without parsing it, so that
    a file of a million ``[`` is refused before ``tomllib`` recurses into it. Every stage reading a user's TOML
    (layouts, criteria files) bounds it with this."""
    depth = deepest = 0
    for piece in _TOML_PIECES.finditer(text):
        ch = piece.group(0)
        if ch in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ("]", "}"):
            depth = max(0, depth - 1)
    return deepest


# --- terminals that cannot show the shapes -----------------------------------------------------------

#: Plain ASCII for each symbol tmphys prints, where the output's encoding lacks it (a Windows console redirected
#: to a file writes cp1252): the shapes as ``^ # o``, the marks as words.
ASCII_FOR: dict[str, str] = {
    "▲": "^", "■": "#", "●": "o", "✓": "pass", "✔": "pass", "✗": "fail", "✘": "fail", "·": ".", "×": "x",
    "≈": "~", "°": " deg", "…": "...", "—": "-", "–": "-", "→": "->", "◊": "G", "¤": "P", "²": "2",
}
#: The codec error handler ``ascii_fallback`` installs (registered once, by name).
FALLBACK_ERRORS = "tmphys-ascii"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: each character the encoding lacks as its ``ASCII_FOR`` text (else ``?``); a mark
    already followed by its word (``✓ pass``) becomes the word alone; a byte of a file name kept as a surrogate
    (which no encoding writes) as that byte, ``\\xe9``, as ``quote`` shows it."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text, out, end = error.object, [], error.end
    for k in range(error.start, error.end):
        ch = text[k]
        out.append(_shown_char(ch) if ord(ch) in _SURROGATE_BYTES else ASCII_FOR.get(ch, "?"))
    word = ASCII_FOR.get(text[end - 1], "")
    if word in ("pass", "fail") and text[end:end + len(word) + 1] == f" {word}":
        out[-1], end = "", end + 1  # "✓ pass" → "pass", not "pass pass"
    return "".join(out), end


codecs.register_error(FALLBACK_ERRORS, _fallback)


def plain(text: str) -> str:
    """``text`` in ASCII as ``ascii_fallback`` writes it: ``plain("▲2 ✓ pass") == "^2 pass"``."""
    return text.encode("ascii", FALLBACK_ERRORS).decode("ascii")


def ascii_fallback(stream: Any) -> None:
    """Make a text stream write what its encoding lacks instead of failing: the game's symbols as ASCII where it
    has no room for them, and on any stream a file name's bytes not in the system's encoding (lone surrogates) as
    ``\\xe9``, where a UTF-8 stream would raise ``UnicodeEncodeError`` after the work is done. A stream that
    cannot be reconfigured is left as it is."""
    if not getattr(stream, "encoding", None) or not hasattr(stream, "reconfigure"):
        return
    try:
        stream.reconfigure(errors=FALLBACK_ERRORS)
    except (ValueError, OSError, AttributeError, LookupError):
        return


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON for standard output: the game's symbols as they are where the output can show them, else
    as ``\\u`` escapes (the same data, still valid JSON, never a lossy ASCII stand-in)."""
    import json
    import sys

    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        "▲■●✓✗·×≈…—◊¤".encode(encoding)
        readable = True
    except (UnicodeEncodeError, LookupError):
        readable = False
    return json.dumps(data, indent=indent, ensure_ascii=not readable)
