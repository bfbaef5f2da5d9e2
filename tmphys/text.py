"""Words and numbers as tmphys reads and prints them: whole numbers in ASCII digits, plurals, fractions, codes in
the game's shapes, short quotes of long text, and plain ASCII for a terminal that cannot show the shapes."""

from __future__ import annotations

import codecs
import re
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


def whole_number(text: object, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` writes in ASCII digits only (no sign, no spaces, at most ``max_digits``), else None:
    ``whole_number("447") == 447``, ``whole_number("⑤") is None``."""
    s = str(text)
    if len(s) > max_digits or not _WHOLE.fullmatch(s):
        return None
    return int(s)


def quote(text: object) -> str:
    """``text`` quoted for a one-line message, cut to a short prefix when long: a pasted megabyte is not echoed."""
    s = str(text)
    if len(s) <= QUOTE_LIMIT:
        return repr(s)
    return f"{s[:QUOTE_PREFIX]!r}… ({len(s):,} characters)"


#: A run of text with no space, longer than any word a message needs: a pasted argument, cut by ``clip``.
_LONG_RUN = re.compile(rf"\S{{{QUOTE_LIMIT + 1},}}")


def clip(message: str, limit: int = 400) -> str:
    """A message cut to one short line: every run of more than ``QUOTE_LIMIT`` non-space characters (a huge
    argument click or a library quoted whole) to its first ``QUOTE_PREFIX`` and "…", the whole to ``limit``."""
    if len(message) <= limit and "\n" not in message:
        return message
    s = _LONG_RUN.sub(lambda m: f"{m.group(0)[:QUOTE_PREFIX]}…", " ".join(message.split("\n")))
    return s if len(s) <= limit else s[:limit - 1] + "…"


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
    already followed by its word (``✓ pass``) becomes the word alone."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text, out, end = error.object, [], error.end
    for k in range(error.start, error.end):
        out.append(ASCII_FOR.get(text[k], "?"))
    word = ASCII_FOR.get(text[end - 1], "")
    if word in ("pass", "fail") and text[end:end + len(word) + 1] == f" {word}":
        out[-1], end = "", end + 1  # "✓ pass" → "pass", not "pass pass"
    return "".join(out), end


codecs.register_error(FALLBACK_ERRORS, _fallback)


def plain(text: str) -> str:
    """``text`` in ASCII as ``ascii_fallback`` writes it: ``plain("▲2 ✓ pass") == "^2 pass"``."""
    return text.encode("ascii", FALLBACK_ERRORS).decode("ascii")


def ascii_fallback(stream: Any) -> None:
    """Make a text stream whose encoding lacks the game's symbols write them as ASCII instead of failing (a
    stream that has them, or cannot be reconfigured, is left as it is)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding or not hasattr(stream, "reconfigure"):
        return
    try:
        "▲■●✓✗·×≈…—◊".encode(encoding)
        return
    except UnicodeEncodeError:
        pass
    except LookupError:
        return
    try:
        stream.reconfigure(errors=FALLBACK_ERRORS)
    except (ValueError, OSError, AttributeError):
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
