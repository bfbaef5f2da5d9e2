"""Shared fixtures: the reference data beside the checkout, and the two shipped layouts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tmphys.cards.deck import Deck
from tmphys.cards.layout import Layout, load_layout

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"


def reference_path(name: str) -> Path:
    """A file of ../shared/reference; the tests need it (CI has it beside the clone)."""
    path = REFERENCE / name
    if not path.exists():
        raise FileNotFoundError(f"reference data missing: {path}")
    return path


@pytest.fixture(scope="session")
def reference() -> dict:
    """The published game's criteria and verification cards (reference/criteria.json)."""
    return json.loads(reference_path("criteria.json").read_text("utf-8"))


@pytest.fixture(scope="session", params=["classic", "retail"])
def layout(request: pytest.FixtureRequest) -> Layout:
    """Each shipped layout in turn."""
    return load_layout(request.param)


@pytest.fixture(scope="session")
def deck(layout: Layout) -> Deck:
    """The deck on each shipped layout."""
    return Deck(layout)
