"""tmphys: the Turing Machine board game as printable, checkable card geometry, and a solver."""

from tmphys.game.codes import ALL_CODES, COLOURS, Code, CodeError
from tmphys.game.criteria import (
    CriteriaCard,
    Criterion,
    UnknownIdError,
    VerificationCard,
    criteria_card,
    library,
    verification_card,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_CODES", "COLOURS", "Code", "CodeError", "CriteriaCard", "Criterion", "UnknownIdError",
    "VerificationCard", "criteria_card", "library", "verification_card", "__version__",
]
