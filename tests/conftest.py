"""Shared fixtures: the published game's facts in tests/data/, and the two shipped layouts."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tmphys.cards.deck import Deck
from tmphys.cards.layout import Layout, load_layout

DATA = Path(__file__).resolve().parent / "data"


def data_rows(name: str) -> list[list[str]]:
    """The rows of a tab-separated file of tests/data/, its fields split, its "#" comments left out."""
    return [line.split("\t") for line in (DATA / name).read_text("utf-8").splitlines()
            if line and not line.startswith("#")]


@dataclass(frozen=True)
class PublishedCriterion:
    """A criterion as printed: its criteria card, its verification card (None when only printed), its codes."""

    card: int
    verification_card: int | None
    codes: int


@dataclass(frozen=True)
class PublishedVerificationCard:
    """A verification card as printed: its deck place, its four IDs by colour, the codes its criterion passes."""

    index: int
    ids: dict[str, int]
    codes: int


@dataclass(frozen=True)
class RetailCard:
    """The published card's grid: the cell (1..133) of each code by code index, and per verification card (by green
    ID) the cells printed with a pass mark."""

    code_cells: tuple[int, ...]
    pass_cells: dict[int, frozenset[int]]


@pytest.fixture(scope="session")
def published_criteria() -> tuple[tuple[PublishedCriterion, ...], ...]:
    """The 48 criteria cards' criteria as printed, card by card (tests/data/criteria.tsv)."""
    cards: dict[int, list[PublishedCriterion]] = {}
    for card, place, vcard, codes in data_rows("criteria.tsv"):
        criteria = cards.setdefault(int(card), [])
        assert int(place) == len(criteria) + 1
        criteria.append(PublishedCriterion(int(card), None if vcard == "-" else int(vcard), int(codes, 16)))
    assert sorted(cards) == list(range(1, 49))
    return tuple(tuple(cards[n]) for n in sorted(cards))


@pytest.fixture(scope="session")
def published_verification_cards() -> tuple[PublishedVerificationCard, ...]:
    """The 95 verification cards as printed, in deck order (tests/data/verification-cards.tsv)."""
    return tuple(PublishedVerificationCard(int(i), {"green": int(g), "yellow": int(y), "blue": int(b),
                                                    "purple": int(p)}, int(codes, 16))
                 for i, g, y, b, p, codes in data_rows("verification-cards.tsv"))


@pytest.fixture(scope="session")
def retail_card() -> RetailCard:
    """The published card's code cells and pass marks (tests/data/retail-card.tsv)."""
    rows = data_rows("retail-card.tsv")
    assert rows[0][0] == "cells"
    cells = tuple(int(x) for x in rows[0][1].split())
    marks = {int(green): frozenset(k + 1 for k in range(133) if int(bits, 16) >> k & 1) for green, bits in rows[1:]}
    return RetailCard(cells, marks)


@pytest.fixture(scope="session", params=["classic", "retail"])
def layout(request: pytest.FixtureRequest) -> Layout:
    """Each shipped layout in turn."""
    return load_layout(request.param)


@pytest.fixture(scope="session")
def deck(layout: Layout) -> Deck:
    """The deck on each shipped layout."""
    return Deck(layout)


@pytest.fixture(autouse=True)
def _away_from_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in a folder of its own: a process it starts (``python -m tmphys``, a Dask worker) imports the
    installed tmphys, not the checkout's source folder of that name (which has no compiled engine once installed
    with ``pip install .``), and nothing a test writes lands in the checkout."""
    monkeypatch.chdir(tmp_path)


def _no_glyph_forms(self: object, xobjid: object) -> None:
    """What pdfminer runs for a form XObject under ``skip_glyph_forms``: nothing."""


@pytest.fixture
def skip_glyph_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Letters and symbols are form XObjects and carry no geometry the PDF tests check: pdfminer need not run them."""
    from pdfminer.pdfinterp import PDFPageInterpreter

    monkeypatch.setattr(PDFPageInterpreter, "do_Do", _no_glyph_forms)


_BUILT_PDFS: dict[tuple[Path, bool], object] = {}


@contextlib.contextmanager
def built_pdf(path: Path) -> Iterator:
    """A PDF of a session's build (``classic``, ``retail``: only read), opened once a session and left open, as
    ``pdfplumber.open`` would give it: pdfplumber keeps the objects of each page it parsed, so the tests that read
    the same pages parse them once. Kept apart by whether glyph forms are skipped (``skip_glyph_forms``), which
    changes what a page parses to."""
    import pdfplumber
    from pdfminer.pdfinterp import PDFPageInterpreter

    key = (Path(path), PDFPageInterpreter.do_Do is _no_glyph_forms)
    if key not in _BUILT_PDFS:
        _BUILT_PDFS[key] = pdfplumber.open(path)
    yield _BUILT_PDFS[key]


@pytest.fixture(scope="session", autouse=True)
def _built_pdfs_closed() -> Iterator[None]:
    yield
    for pdf in _BUILT_PDFS.values():
        pdf.close()
    _BUILT_PDFS.clear()


#: The retail set the build and kit tests read back: Letter, duplex, a bleed and a kerf, backs offset, the punch-card
#: holder cut for a 1.5 mm board (not the default thickness).
RETAIL_ARGS = ["--layout", "retail", "--paper", "letter", "--duplex", "--bleed", "2", "--kerf", "0.2",
               "--back-offset", "0.5,-1", "--copies", "1", "--thickness", "1.5"]


def run_tmphys(args: list[str]) -> int:
    """Run ``tmphys`` in process; its exit status."""
    from tmphys.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(args)
    return int(exit_info.value.code or 0)


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder ``make`` fills once for the whole run, for tests that only read it: with pytest-xdist, by the first
    worker to ask for it while any other that asks waits for it (a lock file beside it, in the temporary folder the
    run's workers share); where there is no ``fcntl`` (Windows), once a worker."""
    try:
        import fcntl
    except ImportError:
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's, above each worker's own
    folder, done = root / f"{name}-once", root / f"{name}-once.done"
    with open(root / f"{name}-once.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def _build(*args: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        assert run_tmphys(["build", *args, "--out", str(folder / "set")]) == 0

    return make


@pytest.fixture(scope="session")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default set, built once a run (classic on A4, the defaults); tests only read it."""
    return made_once(tmp_path_factory, "classic", _build()) / "set"


@pytest.fixture(scope="session")
def retail(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The retail set, built once a run with ``RETAIL_ARGS``; tests only read it."""
    return made_once(tmp_path_factory, "retail", _build(*RETAIL_ARGS)) / "set"


#: Chromium's flags for the tests: headless, and nothing of its own on the network.
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (each test worker's), shared by every page test; a skip with the
    reason where there is none (a failure in CI, where ``TMPHYS_REQUIRE_BROWSER=1``)."""
    why = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        why = "Python playwright is not installed (pip install '.[test]')"
    executable = _chromium()
    if why is None and executable is None:
        why = "no Chromium found (apt-get install chromium)"
    if why is not None:
        if os.environ.get("TMPHYS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"TMPHYS_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(f"browser tests need a browser: {why}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def classic_machine() -> dict:
    """The classic layout's ``machine_data`` (every card drawn), worked out once: the pages copy what they are given."""
    from tmphys.web.machine_page import machine_data

    return machine_data(load_layout("classic"))


@pytest.fixture(scope="session")
def table_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The table app of the classic layout, written once a run (what tmphys build writes as table.html)."""
    from tmphys.web.table_app import table_html

    def make(folder: Path) -> None:
        (folder / "table.html").write_bytes(table_html(load_layout("classic")))

    return made_once(tmp_path_factory, "table-page", make) / "table.html"


#: Tabs a test closed, left open at about:blank for the worker's next ``open_app``: each test still loads the app
#: afresh (a new document, its data read, its search worker started), without a new renderer each time.
_IDLE_TABS: list = []


def reused_tab(browser, viewport: dict):
    """A tab of ``browser`` at ``viewport`` whose ``close()`` hands it back, cleared, for the next test."""
    while _IDLE_TABS:
        page = _IDLE_TABS.pop()
        if page.browser_of is browser and not page.is_closed():
            page.set_viewport_size(viewport)
            return page
    page = browser.new_page(viewport=viewport)
    page.browser_of, added, on, close = browser, [], page.on, page.close
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: page.requests.append(r.url))

    def on_for_this_test(event: str, handler) -> None:
        added.append((event, handler))
        on(event, handler)

    def hand_back() -> None:
        for event, handler in added:  # what the test listened to goes with it
            page.remove_listener(event, handler)
        added.clear()
        try:
            page.goto("about:blank")  # the app's document, its worker and any search in it end here
        except Exception:
            close()
            return
        _IDLE_TABS.append(page)

    page.on, page.close = on_for_this_test, hand_back
    return page
