"""The ``tmphys`` command: check, stack, build, solve, play, prove, generate.

Every usage error (bad code, unknown ID, unknown layout, bad option, an output path that cannot be
written) is reported as one line on stderr with exit status 2; a failed check exits 1, and so does a
file that cannot be written once the work is done (disk full, …). ``tmphys`` alone prints the help.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from typing import Any, NoReturn

import click

from tmphys import __version__
from tmphys.files import describe
from tmphys.text import ascii_fallback, clip

#: Raised by click (8.2 and later) for a group run without a command: its message is the whole help.
NO_COMMAND = getattr(click.exceptions, "NoArgsIsHelpError", ())


#: Exit status when the reader of standard output has gone (``tmphys solve … | head -1``): 128 + SIGPIPE, as a shell
#: reports a program that a closed pipe ended; every command the same.
PIPE_CLOSED = 128 + 13


class _PipeClosed(click.ClickException):
    """Standard output's reader has gone: raised past click, which would exit 1 for it (caught before any other
    ClickException, so never printed)."""

    def __init__(self) -> None:
        super().__init__("standard output is closed")


class _Commands(click.Group):
    """tmphys's commands: a closed pipe on standard output ends any of them alike (``PIPE_CLOSED``)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:  # ``tmphys --help``, ``--version``
        with _pipe_watched():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _pipe_watched():
            return super().invoke(ctx)


@contextlib.contextmanager
def _pipe_watched() -> Iterator[None]:
    """A closed pipe on standard output within the block raises ``_PipeClosed`` (click would exit 1 for it)."""
    try:
        yield
    except OSError as e:
        if e.errno == errno.EPIPE:
            raise _PipeClosed from None
        raise


def _pipe_closed() -> NoReturn:
    """End quietly with ``PIPE_CLOSED``: standard output pointed at nothing, so that Python's last flush of what is
    still buffered for the gone reader prints no "Exception ignored"."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no descriptor under it (a test's captured output)
        pass
    sys.exit(PIPE_CLOSED)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tmphys")
def cli() -> None:
    """tmphys: print, check and play the Turing Machine board game's punch cards."""


#: Exit status after SIGTERM (128 + its number), as a shell reports a process it ended.
TERMINATED = 128 + signal.SIGTERM
#: The signals that end a command as Ctrl-C does (SIGTERM: ``kill``, ``timeout``, a service manager; SIGHUP: the
#: terminal closed), each with the shell's exit status for it, 128 + its number.
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM or SIGHUP: end as Ctrl-C does, through every clean-up on the way (a second process ended, no
    half-written file), with the shell's exit status for it."""
    raise SystemExit(128 + signum)


def _set_unless_ignored(signum: int, handler: Any) -> Any:
    """Set ``handler`` for ``signum`` unless the signal is ignored (``nohup``, ``cmd &`` in a script: the shell's
    choice, kept); the handler before, for putting back."""
    before = signal.getsignal(signum)
    if before is signal.SIG_IGN:
        return before
    return signal.signal(signum, handler)


def error(message: str) -> None:
    """Print ``tmphys: error: MESSAGE`` on stderr as one short line (a huge argument quoted by its first
    characters)."""
    click.echo(f"tmphys: error: {clip(message)}", err=True)


def _warning(message: Warning | str, category: type[Warning], *args: object, **kwargs: object) -> None:
    """A warning (the compiled search not built, say) as one plain line on stderr, not Python's two."""
    click.echo(f"tmphys: warning: {clip(str(message)).removeprefix('tmphys: ')}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; turn every usage problem into one line and exit status 2."""
    warnings.showwarning = _warning
    main_thread = threading.current_thread() is threading.main_thread()
    # Ctrl-C from here on is KeyboardInterrupt, caught below (while the modules load: tmphys.cli's quiet exit); a
    # signal the shell started the command with ignored stays ignored
    interrupt = _set_unless_ignored(signal.SIGINT, signal.default_int_handler) if main_thread else None
    before = {s: _set_unless_ignored(s, _terminated) for s in ENDING_SIGNALS} if main_thread else {}
    for stream in (sys.stdout, sys.stderr):  # a terminal or file whose encoding lacks ▲ ■ ● ✓ ✗: ASCII instead
        ascii_fallback(stream)
    try:
        _main(argv)
    finally:
        if main_thread:  # as it was (a handler not set from Python: the default)
            for signum, handler in before.items():
                signal.signal(signum, signal.SIG_DFL if handler is None else handler)
            signal.signal(signal.SIGINT, signal.default_int_handler if interrupt is None else interrupt)


def _main(argv: list[str] | None) -> None:
    if sys.stdout is None:  # started with its standard output closed (``>&-``): all it prints would be lost
        click.echo("tmphys: error: standard output is closed", err=True)
        sys.exit(1)
    try:
        rv = cli.main(args=argv, prog_name="tmphys", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tmphys: aborted", err=True)
        sys.exit(130)
    except _PipeClosed:
        _pipe_closed()
    except NO_COMMAND as e:  # the help, plainly: not an error message
        click.echo(e.format_message(), err=True)
        sys.exit(2)
    except click.exceptions.UsageError as e:
        error(e.format_message())
        sys.exit(2)
    except click.exceptions.ClickException as e:
        error(e.format_message())
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        _pipe_closed()
    except OSError as e:  # a file that could not be read or written: one line, not a traceback
        error(describe(e))
        sys.exit(1)
    except ValueError as e:  # a path holding NUL, which no argv can (only a caller in Python), refused by Python
        if "null" not in str(e):
            raise
        error("a path cannot hold a NUL character")
        sys.exit(2)
    try:  # what is still buffered for a pipe: its reader may have gone meanwhile
        sys.stdout.flush()
    except BrokenPipeError:
        _pipe_closed()
    except (OSError, ValueError):
        pass
    sys.exit(rv if isinstance(rv, int) else 0)


# --- command registration: each feature module adds its commands here -------------------------
# (keep one line per module; modules own their commands)
from tmphys.cli.cards import check, layout_group, place, stack  # noqa: E402

cli.add_command(check)
cli.add_command(stack)
cli.add_command(place)
cli.add_command(layout_group)

from tmphys.cli.build import build  # noqa: E402

cli.add_command(build)

from tmphys.cli.solve import play_cmd, prove, solve  # noqa: E402

cli.add_command(solve)
cli.add_command(play_cmd, "play")
cli.add_command(prove)

from tmphys.cli.generate import generate_cmd  # noqa: E402

cli.add_command(generate_cmd, "generate")

from tmphys.cli.booklet import booklet  # noqa: E402

cli.add_command(booklet)

from tmphys.cli.app import app, serve  # noqa: E402

cli.add_command(app)
cli.add_command(serve)
