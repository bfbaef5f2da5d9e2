"""tmphys: the Turing Machine board game as printable, checkable card geometry, and a solver."""

__version__ = "0.1.0"


def _quiet_exit(signum: int, frame: object) -> None:
    """Ctrl-C while the command's modules load (a few tenths of a second): exit 130 with the command's one line,
    without the KeyboardInterrupt traceback of an import cut short. At once: nothing is written yet, and an exception
    raised inside the import machinery would be printed as "Exception ignored"."""
    import os

    os.write(2, b"tmphys: aborted\n")
    os._exit(130)


def _is_the_command(argv0: str) -> bool:
    """Whether ``sys.argv[0]`` is the ``tmphys`` script (``tmphys``, ``tmphys.exe``, ``tmphys-script.py``) or
    ``python -m tmphys`` (``-m`` while it loads, then tmphys's ``__main__.py``)."""
    import os

    name, folder = os.path.basename(argv0), os.path.basename(os.path.dirname(argv0))
    return (argv0 == "-m" or name.removesuffix(".exe").removesuffix("-script.py") == "tmphys"
            or (name == "__main__.py" and folder == "tmphys"))


def _quiet_ctrl_c_while_loading() -> None:
    """The ``tmphys`` command's Ctrl-C handling, set as the first thing this package does (the first of its code to
    run: before numpy and the rest load): only when this is the command (its script, or ``python -m tmphys``), so a
    program importing tmphys keeps its own Ctrl-C; only in the main thread, over Python's own handler.
    ``tmphys.cli.main.main`` sets KeyboardInterrupt back as it starts. Through ``_signal``, loaded with Python
    itself: the ``signal`` module would load ``enum`` first."""
    import _signal
    import sys

    if not sys.argv or not _is_the_command(sys.argv[0]):
        return
    if _signal.getsignal(_signal.SIGINT) is not _signal.default_int_handler:
        return
    try:
        _signal.signal(_signal.SIGINT, _quiet_exit)
    except ValueError:  # not the main thread: no handler can be set here
        pass


_quiet_ctrl_c_while_loading()

#: Where each name of the package's own API lives: loaded when first asked for (``tmphys.Code``), so that the
#: ``tmphys`` command starts by setting its Ctrl-C handling (above) before numpy loads (this module imports nothing
#: at its top, not even typing, for the same reason).
_LAZY = {**dict.fromkeys(("ALL_CODES", "COLOURS", "Code", "CodeError"), "tmphys.game.codes"),
         **dict.fromkeys(("CriteriaCard", "Criterion", "UnknownIdError", "VerificationCard", "criteria_card",
                          "library", "verification_card"), "tmphys.game.criteria")}


def __getattr__(name: str) -> object:
    """``tmphys.Code`` and the rest of ``__all__``, from their modules on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tmphys' has no attribute {name!r}")

__all__ = [
    "ALL_CODES", "COLOURS", "Code", "CodeError", "CriteriaCard", "Criterion", "UnknownIdError",
    "VerificationCard", "criteria_card", "library", "verification_card", "__version__",
]
