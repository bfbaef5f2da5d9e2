"""tmphys: the Turing Machine board game as printable, checkable card geometry, and a solver."""

__version__ = "0.1.0"

#: Where each name of the package's own API lives: loaded when first asked for (``tmphys.Code``), so that the
#: ``tmphys`` command starts by setting its Ctrl-C handling (``tmphys.cli``) before numpy loads (this module imports
#: nothing itself, not even typing, for the same reason).
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
