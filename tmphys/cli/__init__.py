"""The ``tmphys`` command line: thin click commands that parse options, call one function elsewhere and print."""

import os
import signal
import sys
import threading


def _quiet_exit(signum: int, frame: object) -> None:
    """Ctrl-C while the command's modules load (a few tenths of a second): exit 130 as the command would, without
    the KeyboardInterrupt traceback of an import cut short. At once: nothing is written yet, and an exception raised
    inside the import machinery would be printed as "Exception ignored"."""
    os._exit(130)


#: Only when this is the ``tmphys`` command (its script, or ``python -m tmphys``): a program importing tmphys keeps
#: its own Ctrl-C. ``tmphys.cli.main.main`` sets KeyboardInterrupt back as it starts.
def _is_the_command(argv0: str) -> bool:
    """Whether ``sys.argv[0]`` is the ``tmphys`` script (``tmphys``, ``tmphys.exe``, ``tmphys-script.py``) or
    ``python -m tmphys`` (``-m`` while it loads, then tmphys's ``__main__.py``)."""
    name, folder = os.path.basename(argv0), os.path.basename(os.path.dirname(argv0))
    return (argv0 == "-m" or name.removesuffix(".exe").removesuffix("-script.py") == "tmphys"
            or (name == "__main__.py" and folder == "tmphys"))


if (threading.current_thread() is threading.main_thread() and sys.argv and _is_the_command(sys.argv[0])
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
    signal.signal(signal.SIGINT, _quiet_exit)

from tmphys.cli.main import main  # noqa: E402

__all__ = ["main"]
