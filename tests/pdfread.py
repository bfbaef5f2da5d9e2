"""Reading printed PDFs back in tests: millimetres and colours as pdfplumber gives them."""

from __future__ import annotations

import numpy as np

from tmphys.art import params as P


def mm(v: float) -> float:
    """PDF points as millimetres."""
    return v / P.PT_PER_MM


def rgb(colour: str) -> tuple[float, float, float]:
    """A ``#rrggbb`` colour as pdfplumber's 0-1 triple."""
    return tuple(int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))


def same_colour(a: object, colour: str) -> bool:
    """Whether a pdfplumber colour is this ``#rrggbb`` colour."""
    return isinstance(a, (tuple, list)) and len(a) == 3 and np.allclose(a, rgb(colour), atol=2e-3)
