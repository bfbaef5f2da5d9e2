"""What a player types at ``tmphys play``: one line at a time, read as bytes and refused in one line when it is not
text in the terminal's encoding or is far too long, so a mistyped byte never ends the game."""

from __future__ import annotations

import sys

import click

from tmphys.solve.table import Refused
from tmphys.text import quote

#: The longest line ``play`` reads as a move, in bytes: far past any ("propose 241", "A y"); a longer line (a paste
#: gone wrong) is refused whole, never held in memory.
MAX_TYPED = 1000


def typed_line(prompt: str) -> str | None:
    """One line typed at the table, stripped; None at the end of input, or with no input at all (started with
    stdin closed); Ctrl-C still aborts. A line that is not text in the input's encoding (Latin-1 bytes where UTF-8
    is read, ✓ typed where ASCII is) or is over ``MAX_TYPED`` bytes is refused in one line (``Refused``): the game
    goes on at the same question."""
    stdin = sys.stdin
    if stdin is None:
        return None
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    if stdin.isatty():  # line editing and history at the prompt, where the platform has readline
        try:
            import readline  # noqa: F401
        except ImportError:
            pass
        try:
            return input(f"{prompt}: ").strip()
        except EOFError:
            return None
        except UnicodeDecodeError as e:  # input() reads the line whole, then decodes it
            raise Refused(_unreadable(e.object, e.start, encoding)) from None
    click.echo(f"{prompt}: ", nl=False)
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text stream with no bytes under it (a test's StringIO): its own text
        line = stdin.readline(MAX_TYPED + 1)
        if not line:
            return None
        raw = line.encode(encoding, "surrogateescape") if len(line) <= MAX_TYPED else b"x" * (MAX_TYPED + 1)
        rest = not line.endswith("\n") and len(line) > MAX_TYPED
        while rest and (more := stdin.readline(MAX_TYPED)) and not more.endswith("\n"):
            pass
    else:
        raw = buffer.readline(MAX_TYPED + 1)
        if not raw:
            return None
        if len(raw) > MAX_TYPED and not raw.endswith(b"\n"):
            while (more := buffer.readline(MAX_TYPED)) and not more.endswith(b"\n"):
                pass  # the rest of the line, let go of piece by piece
    if len(raw) > MAX_TYPED:
        raise Refused(f"That line is over {MAX_TYPED:,} characters: type a move (y, n, 'A y', 'end', 'undo', …).")
    try:
        return raw.decode(encoding).strip()
    except UnicodeDecodeError as e:
        raise Refused(_unreadable(raw, e.start, encoding)) from None
    except LookupError:  # an encoding Python does not know: the line as UTF-8
        return raw.decode("utf-8", "replace").strip()


def _unreadable(raw: bytes, at: int, encoding: str) -> str:
    """The line for typed bytes that are not text in ``encoding``: which byte, and what to do."""
    return (f"Cannot read that line: byte 0x{raw[at]:02x} is not {quote(encoding, marks=False)} text (the "
            "terminal's encoding); type the move again.")
