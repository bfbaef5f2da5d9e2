"""The homemade set: every file of ``tmphys build`` made in memory, then written atomically.

``plan`` checks the options (and that every card fits the paper) before anything is drawn;
``build_files`` returns {relative path: bytes}; ``folder.write_tree`` puts them in place so that a failed
build leaves nothing half-written and a repeated build gives the same bytes.

>>> files = build_files(plan(BuildOptions(layout="classic")))   # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from tmphys.art import draw, png, svg
from tmphys.art import params as P
from tmphys.art.draw import Box, CardArt
from tmphys.cards.deck import PUNCH_CARDS, Deck, PunchCard, stack_for
from tmphys.cards.layout import Layout, load_layout
from tmphys.game.codes import Code
from tmphys.game.criteria import Library, library, verification_card
from tmphys.lang.i18n import LANGUAGES, N_, _, language
from tmphys.print import sheets
from tmphys.print.folder import BuildError
from tmphys.print.pdf import Page, pdf_bytes
from tmphys.print.selection import Selection, full_selection
from tmphys.text import quote

#: Booklet problem 1's answer and its first verifier: the stack the preview shows.
PREVIEW_CODE = "241"
PREVIEW_VERIFIER = "447"
#: Lower resolution for the whole-sheet preview, dots per inch.
SHEET_PREVIEW_DPI = 60
MAX_COPIES = 20


@dataclass(frozen=True)
class BuildOptions:
    """What ``tmphys build`` was asked for (lengths in mm)."""

    layout: str = "classic"
    paper: str = "a4"
    bleed: float = 0.0
    duplex: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    kerf: float = 0.0
    copies: int = P.PUNCH_COPIES
    thickness: float = P.HOLDER_THICKNESS  # of the board the punch-card holder is cut from
    ink: str = "full"  # or "low": outlines and patterns instead of large solid fills (params.INKS)
    lang: str = "en"   # the language of every word a player reads (lang/i18n.py)
    #: The criteria library whose cards the set prints: the published game's (None), or with users' files' cards.
    criteria: Library | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Plan:
    """Checked options with the loaded layout and paper."""

    options: BuildOptions
    layout: Layout
    paper: P.Paper

    @property
    def cards(self) -> Library:
        """The criteria library the set's cards come from."""
        return self.options.criteria or library()


def parse_offset(text: str) -> tuple[float, float]:
    """Read ``DX,DY`` (mm) for the back offset."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(p) for p in parts)
    except ValueError:
        raise BuildError(f"--back-offset must be DX,DY in mm (e.g. 0.5,-1), not {quote(text)}") from None
    if not all(math.isfinite(v) and abs(v) <= P.MAX_BACK_OFFSET for v in (dx, dy)):
        raise BuildError(f"--back-offset must be within ±{P.MAX_BACK_OFFSET:g} mm, not {quote(text)}")
    return dx, dy


def plan(options: BuildOptions) -> Plan:
    """Check every option and that every card fits the paper; raise BuildError before any drawing."""
    if options.paper not in P.PAPERS:
        raise BuildError(f"unknown paper {quote(options.paper)} (known: {', '.join(P.PAPERS)})")
    for name, value, top in (("--kerf", options.kerf, P.MAX_KERF), ("--bleed", options.bleed, P.MAX_BLEED)):
        if not math.isfinite(value) or value < 0 or value > top:
            raise BuildError(f"{name} must be between 0 and {top:g} mm, not {value:g}")
    if options.ink not in P.INKS:
        raise BuildError(f"unknown ink {quote(options.ink)} (known: {', '.join(P.INKS)})")
    if options.lang not in LANGUAGES:
        raise BuildError(f"unknown language {quote(options.lang)} (known: {' '.join(LANGUAGES)})")
    if not 1 <= options.copies <= MAX_COPIES:
        raise BuildError(f"--copies must be 1..{MAX_COPIES}, not {options.copies}")
    parse_offset(f"{options.back_offset[0]},{options.back_offset[1]}")
    try:
        layout = load_layout(options.layout)
    except ValueError as e:
        raise BuildError(str(e)) from None
    paper = P.PAPERS[options.paper]
    narrow = min(layout.hole_width, layout.hole_height)  # shrunk by kerf/2 a side, a hole closes on this side
    if options.kerf >= narrow:
        holes = (f"{narrow:g} mm holes" if layout.hole_width == layout.hole_height
                 else f"{layout.hole_width:g} × {layout.hole_height:g} mm holes (their {narrow:g} mm side)")
        raise BuildError(f"--kerf {options.kerf:g} mm would close the {holes}")
    unfit = misfit(layout, paper, options.bleed, options.kerf) or kit_misfit(layout, paper, options)
    if unfit:
        raise BuildError(unfit)
    return Plan(options, layout, paper)


def misfit(layout: Layout, paper: P.Paper, bleed: float = 0.0, kerf: float = 0.0) -> str | None:
    """Why a card of the set does not fit on ``paper`` (with this bleed and kerf), or None when they all do."""
    sizes = [("punch card", layout.card_width, layout.card_height + layout.tab_height),
             ("verification card", layout.card_width, layout.card_height),
             ("criteria card", P.CRITERIA_CARD_WIDTH, P.CRITERIA_CARD_HEIGHT)]
    for what, w, h in sizes:
        try:
            sheets.grid_for(paper, w, h, bleed, kerf)
        except sheets.FitError as e:
            return f"{what}: {e}"
    return None


def kit_misfit(layout: Layout, paper: P.Paper, options: BuildOptions) -> str | None:
    """Why the machine board, the punch-card holder or its paper tray cannot be made on ``paper``, or None."""
    from tmphys.print import board, holder, tray

    if not (math.isfinite(options.thickness) and 0 < options.thickness <= P.MAX_HOLDER_THICKNESS):
        return f"--thickness must be above 0 and at most {P.MAX_HOLDER_THICKNESS:g} mm, not {options.thickness:g}"
    try:
        board.board_for(layout, paper)
        board.board_for(layout, paper, extreme=True)
        holder.holder_placement(layout, paper, options.thickness, options.kerf)
        tray.tray_sheets(layout, paper)
    except ValueError as e:
        return str(e)
    return None


def kit_files(the_plan: Plan) -> list[tuple[str, bytes, str, dict]]:
    """The table's printed parts beside the cards: note sheets, player aid, machine board, and the punch-card
    holder's cut files and its fold-up paper tray (path, bytes, manifest kind, manifest extras)."""
    from tmphys.print import aid, board, holder, notes, tray

    opts, layout, paper = the_plan.options, the_plan.layout, the_plan.paper
    out = [("note-sheets.pdf", notes.note_sheets_pdf(paper), "kit", {}),
           ("player-aid.pdf", aid.player_aid_pdf(paper), "kit", {}),
           ("machine-board.pdf", board.machine_board_pdf(layout, paper), "kit", {}),
           ("machine-board-extreme.pdf", board.machine_board_pdf(layout, paper, extreme=True), "kit", {}),
           ("holder-tray.pdf", tray.tray_pdf(layout, paper), "kit", {})]
    for path, data in holder.holder_files(layout, paper, opts.thickness, opts.kerf).items():
        out.append((path, data, "holder-cut", {"thickness": opts.thickness}))
    return out


# --- making the files --------------------------------------------------------------------------------

def _sheets_pdf(pages: list[sheets.Sheet], bleed: float, title: str) -> bytes:
    """The PDF of a kind's pages, each footed with its sheet's number (a front and its back are one sheet)."""
    total = sum(1 for s in pages if not s.back)
    numbers = {True: 0, False: 0}
    out = []
    for s in pages:
        numbers[s.back] += 1
        out.append(sheets.sheet_page(s, bleed, numbers[s.back], total))
    return pdf_bytes(out, title)


def _preview(cards: list[CardArt], frame: Box) -> bytes:
    """A PNG of cards drawn on top of each other in one frame (one card: with its cut line), from a PDF."""
    page = sheets.frame_page(cards, frame, margin=P.PREVIEW_MARGIN)
    outline = [] if len(cards) > 1 else [(s, P.PREVIEW_MARGIN - frame.x, P.PREVIEW_MARGIN - frame.y)
                                         for s in draw.guides(cards[0]) if s.role == "cut-outline"]
    page = Page(page.width, page.height,
                ((sheets.blank(page.width, page.height), 0.0, 0.0), *page.items, *outline))
    return png.pdf_page_png(pdf_bytes([page], "preview"))


def cut_placement(printed: sheets.Sheet, cards: list[CardArt]) -> list[tuple[CardArt, float, float]]:
    """``cards`` (cut art, one per slot of ``printed``, in order) at their frame corners on that sheet (mm).

    Each card lands exactly where the printed sheet has it, so a cut file made from this lines up with the
    print (print and cut); printed art (with bleed) and cut art (with kerf) share one trim box.
    """
    if len(cards) != len(printed.slots):
        raise ValueError(f"{len(cards)} cards to cut for {len(printed.slots)} printed on the sheet")
    return [(c, s.x - c.trim.x + c.frame.x, s.y - c.trim.y + c.frame.y) for s, c in zip(printed.slots, cards)]


@dataclass(frozen=True)
class CardSet:
    """Every card of a build drawn (per-card art: the bleed, cut paths with the kerf) and imposed on the printed
    sheets (art with the bleed, nominal cut lines), in the order the PDFs print them."""

    punch: dict[PunchCard, CardArt]
    fronts: list[CardArt]
    backs: list[CardArt]
    criteria: list[CardArt]
    punch_sheets: list[sheets.Sheet]         # each kind: fronts then backs, or alternating with --duplex
    verification_sheets: list[sheets.Sheet]
    criteria_sheets: list[sheets.Sheet]
    selection: Selection


def draw_set(the_plan: Plan, selection: Selection | None = None) -> CardSet:
    """Draw every card of ``selection`` (default: the full set) once, with one set of punch cards in ``copies``,
    and impose the printed sheets (gutters for the bleed and kerf)."""
    opts, layout, paper = the_plan.options, the_plan.layout, the_plan.paper
    chosen = selection or full_selection(the_plan.cards)
    deck, ink = Deck(layout, the_plan.cards), opts.ink
    bleed, kerf, label = opts.bleed, opts.kerf, f"tmphys {layout.name}"
    punch = {c: draw.punch_card(deck, c, bleed=bleed, kerf=kerf, ink=ink) for c in PUNCH_CARDS}
    fronts = [draw.verification_front(deck, v, bleed=bleed, kerf=kerf, ink=ink) for v in chosen.verification]
    backs = [draw.verification_back(layout, v, bleed=bleed, kerf=kerf, ink=ink) for v in chosen.verification]
    criteria = [draw.criteria_card(c, bleed=bleed, kerf=kerf, ink=ink) for c in chosen.criteria]

    same = kerf == 0  # then the per-card drawings serve the sheets too (sheets place cards by their trim)
    punch_print = [punch[c] if same else draw.punch_card(deck, c, bleed=bleed, ink=ink)
                   for c in PUNCH_CARDS for _ in range(opts.copies)]
    front_print = fronts if same else [draw.verification_front(deck, v, bleed=bleed, ink=ink)
                                       for v in chosen.verification]
    back_print = backs if same else [draw.verification_back(layout, v, bleed=bleed, ink=ink)
                                     for v in chosen.verification]
    criteria_print = criteria if same else [draw.criteria_card(c, bleed=bleed, ink=ink) for c in chosen.criteria]

    punch_backs = [draw.punch_back(deck, c, bleed=bleed, ink=ink) for c in PUNCH_CARDS for _ in range(opts.copies)]
    criteria_back = draw.criteria_back(bleed=bleed, ink=ink)

    def paired(cards: list[CardArt], backs: list[CardArt], what: str) -> list[sheets.Sheet]:
        """The sheets of one kind of card with their backs (mirrored, offset, with registration marks)."""
        fronts = sheets.impose(cards, paper, bleed, f"{label} · {_(what)}", opts.kerf)
        return sheets.with_backs(fronts, backs, opts.back_offset, f"{label} · {_(what)}", opts.duplex)

    return CardSet(punch, fronts, backs, criteria,
                   paired(punch_print, punch_backs, N_("punch cards")),
                   paired(front_print, back_print, N_("verification cards")),
                   paired(criteria_print, [criteria_back] * len(criteria_print), N_("criteria cards")), chosen)


def cut_files(the_plan: Plan, cards: CardSet | None = None) -> list[tuple[str, bytes, dict]]:
    """The cut files, each with its manifest entry's extras: for every printed sheet of punch cards, verification
    card fronts and criteria cards, a paper-sized SVG and a DXF of its cards' cut paths (holes first) where that
    sheet prints them, so any bed or plotter that takes the paper takes the file, and print and cut line up."""
    from tmphys.print import dxf  # ezdxf takes a third of a second to import: only a build pays for it

    cards = cards or draw_set(the_plan)
    opts, paper, label = the_plan.options, the_plan.paper, f"tmphys {the_plan.layout.name}"
    page_box = Box(0.0, 0.0, paper.width, paper.height)
    kinds = [("punch-cards", "punch cards", [(k, s) for k, s in enumerate(cards.punch_sheets, 1) if not s.back],
              [cards.punch[c] for c in PUNCH_CARDS for _ in range(opts.copies)]),  # in the printed order
             ("verification-cards", "verification cards (fronts)",
              [(k, s) for k, s in enumerate(cards.verification_sheets, 1) if not s.back], cards.fronts),
             ("criteria-cards", "criteria cards",
              [(k, s) for k, s in enumerate(cards.criteria_sheets, 1) if not s.back], cards.criteria)]
    out = []
    for name, what, pages, art in kinds:
        start = 0
        for number, (page, sheet) in enumerate(pages, start=1):
            placed = cut_placement(sheet, art[start:start + len(sheet.slots)])
            start += len(sheet.slots)
            title = (f"{label}: {what} to cut, sheet {number} of {len(pages)} "
                     f"(page {page} of {name}.pdf, {paper.name})")
            extra = {"sheet": number, "pdf": f"{name}.pdf", "page": page}
            out.append((f"cut/{name}-{number:02d}.svg", svg.cut_svg(placed, page_box, title).encode(), extra))
            paths = draw.cut_order((c, x - c.frame.x, y - c.frame.y) for c, x, y in placed)
            out.append((f"cut/{name}-{number:02d}.dxf", dxf.cut_dxf(paths, page_box), extra))
    return out


def sheet_files(the_plan: Plan, cards: CardSet) -> list[tuple[str, bytes, str, dict]]:
    """The printed sheets of the cards (punch, verification and criteria cards, each with their backs: nominal cut
    lines, bleed when asked, gutters that keep the cut paths apart), a cut file pair per sheet of fronts, and the
    index of where each card is printed (path, bytes, manifest kind, manifest extras)."""
    from tmphys.print.index import index_pdf

    opts, label = the_plan.options, f"tmphys {the_plan.layout.name}"
    out: list[tuple[str, bytes, str, dict]] = [
        ("punch-cards.pdf", _sheets_pdf(cards.punch_sheets, opts.bleed, f"{label}: punch cards"), "sheet", {}),
        ("verification-cards.pdf", _sheets_pdf(cards.verification_sheets, opts.bleed,
                                               f"{label}: verification cards"), "sheet", {}),
        ("criteria-cards.pdf", _sheets_pdf(cards.criteria_sheets, opts.bleed, f"{label}: criteria cards"), "sheet",
         {})]
    out += [(path, data, "cut", extra) for path, data, extra in cut_files(the_plan, cards)]
    out.append(("index.pdf", index_pdf(the_plan.layout, the_plan.paper, cards.verification_sheets,
                                       cards.criteria_sheets, cards.selection), "index", {}))
    return out


def game_files(the_plan: Plan, selection: Selection) -> dict[str, bytes]:
    """The cards a game needs (``tmphys build --for``): the printed sheets of ``selection``'s verification and
    criteria cards and of one set of punch cards (``copies``), as the full set prints them, their cut files, the
    index (each problem's cards, then every ID, to sheet and place), and ``manifest.json``; in the plan's language
    (a text that does not fit is told to the caller's ``fit.collecting``)."""
    with language(the_plan.options.lang):
        return _game_files(the_plan, selection)


def _game_files(the_plan: Plan, selection: Selection) -> dict[str, bytes]:
    cards = draw_set(the_plan, selection)
    made = sheet_files(the_plan, cards)
    files = {path: data for path, data, _, _ in made}
    entries = [{"path": path, "kind": kind, **extra} for path, _, kind, extra in made]
    manifest = {"layout": the_plan.layout.name, "paper": the_plan.paper.name, "lang": the_plan.options.lang,
                "for": [p.describe() for p in selection.problems],
                "files": sorted(entries, key=lambda e: e["path"])}
    files["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return dict(sorted(files.items()))


def build_files(the_plan: Plan, progress: Callable[[int], None] | None = None) -> dict[str, bytes]:
    """Every file of the set, by relative path, plus ``manifest.json``, in the plan's language (a text that does
    not fit its box is told to the caller's ``fit.collecting``)."""
    with language(the_plan.options.lang):
        return _build_files(the_plan, progress)


def _build_files(the_plan: Plan, progress: Callable[[int], None] | None = None) -> dict[str, bytes]:
    opts, layout, paper = the_plan.options, the_plan.layout, the_plan.paper
    step = progress or (lambda n: None)
    lib = the_plan.cards
    cards = draw_set(the_plan)
    punch, fronts, backs, criteria = cards.punch, cards.fronts, cards.backs, cards.criteria
    files: dict[str, bytes] = {}
    entries: list[dict] = []

    def add(path: str, data: bytes, kind: str, **extra: object) -> None:
        files[path] = data
        entries.append({"path": path, "kind": kind, **extra})

    # Per-card SVGs, all in the layout's one frame (criteria cards in theirs).
    for c, art in punch.items():
        add(f"svg/punch-cards/{c.colour}-{c.value}.svg", svg.card_svg(art).encode(), "punch-card",
            colour=c.colour, value=c.value)
    step(len(punch))
    for v, f, b in zip(lib.verification_cards, fronts, backs):
        add(f"svg/verification-cards/{v.index:03d}-front.svg", svg.card_svg(f).encode(), "verification-front",
            ids=dict(v.ids))
        add(f"svg/verification-cards/{v.index:03d}-back.svg", svg.card_svg(b).encode(), "verification-back",
            ids=dict(v.ids))
    step(len(fronts))
    for c, art in zip(lib.criteria_cards, criteria):
        add(f"svg/criteria-cards/{c.number:02d}.svg", svg.card_svg(art).encode(), "criteria-card")
    step(len(criteria))
    deck = Deck(layout, lib)  # the backs, mirrored as a long-edge flip shows them, each in its front's frame
    for c in PUNCH_CARDS:
        art = draw.punch_back(deck, c, bleed=opts.bleed, kerf=opts.kerf, ink=opts.ink)
        add(f"svg/punch-cards/{c.colour}-{c.value}-back.svg", svg.card_svg(art).encode(), "punch-back",
            colour=c.colour, value=c.value)
    add("svg/criteria-cards/back.svg", svg.card_svg(draw.criteria_back(opts.bleed, opts.kerf, opts.ink)).encode(),
        "criteria-back")
    step(len(PUNCH_CARDS) + 1)

    # Printed sheets, their cut files and the index of the cards on them.
    for path, data, kind, extra in sheet_files(the_plan, cards):
        add(path, data, kind, **extra)
    punch_pdf = files["punch-cards.pdf"]
    step(len(PUNCH_CARDS) * opts.copies + len(fronts) + len(criteria) + 3)

    # Previews, rasterised from PDFs of the same drawings: the cards as cut, so without the bleed.
    code, vcard, blue2 = Code.parse(PREVIEW_CODE), verification_card(PREVIEW_VERIFIER), PunchCard("blue", 2)
    shown, front, back, criterion = punch, fronts[vcard.index - 1], backs[vcard.index - 1], criteria[3]
    if opts.bleed:  # the per-card art carries the bleed: the few cards shown are drawn again without it
        deck = Deck(layout)
        shown = {c: draw.punch_card(deck, c, kerf=opts.kerf, ink=opts.ink) for c in (*stack_for(code), blue2)}
        front = draw.verification_front(deck, vcard, kerf=opts.kerf, ink=opts.ink)
        back = draw.verification_back(layout, vcard, kerf=opts.kerf, ink=opts.ink)
        criterion = draw.criteria_card(lib.criteria_cards[3], kerf=opts.kerf, ink=opts.ink)
    add(f"previews/stack-{PREVIEW_CODE}-on-{PREVIEW_VERIFIER}.png",
        _preview([front, *(shown[c] for c in stack_for(code))], front.frame), "preview")
    add("previews/punch-card-blue-2.png", _preview([shown[blue2]], front.frame), "preview")
    add(f"previews/verification-front-{PREVIEW_VERIFIER}.png", _preview([front], front.frame), "preview")
    add(f"previews/verification-back-{PREVIEW_VERIFIER}.png", _preview([back], front.frame), "preview")
    add("previews/criteria-card-04.png", _preview([criterion], criterion.frame), "preview")
    add("previews/sheet-punch-cards.png", png.pdf_page_png(punch_pdf, 0, dpi=SHEET_PREVIEW_DPI), "preview")
    step(6)

    # The table's printed parts: note sheets, player aid, machine board, punch-card holder.
    for path, data, kind, extra in kit_files(the_plan):
        add(path, data, kind, **extra)
        if path.endswith(".pdf"):  # a picture of each one's first page, as the sheets' preview
            add(f"previews/{path.removesuffix('.pdf')}.png", png.pdf_page_png(data, 0, dpi=SHEET_PREVIEW_DPI),
                "preview")
    step(1)

    # The machine in a browser: one self-contained page stacking this layout's cards (machine_page), and the table
    # app for any problem on this layout (table_app).
    from tmphys.web.machine_page import machine_data, machine_html
    from tmphys.web.table_app import table_html

    machine = machine_data(layout, opts.criteria)
    add("machine.html", machine_html(layout, machine), "page")
    add("table.html", table_html(layout, machine=machine, lang=opts.lang, criteria=opts.criteria), "page")

    manifest = {"layout": layout.name, "paper": paper.name, "lang": opts.lang,
                "files": sorted(entries, key=lambda e: e["path"])}
    files["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return dict(sorted(files.items()))


def total_steps(the_plan: Plan) -> int:
    """How many progress steps ``build_files`` reports (for a progress bar)."""
    lib = the_plan.cards
    cards = len(PUNCH_CARDS)
    return (cards + 2 * len(lib.verification_cards) + 2 * len(lib.criteria_cards)
            + cards * the_plan.options.copies + 3 + 6 + cards + 1 + 1)
