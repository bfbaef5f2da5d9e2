"""The fit report: every text of the printed kit laid out in one language, without writing the kit (a few seconds).

It draws each kind of face once (the punch cards of each colour, a verification card, every criteria card, the backs),
the note sheets, the player aid, both machine boards, the tray, a sheet's foot with its registration marks, the index
of a game's cards and of a set, and a booklet of three problems, and returns what did not fit its box at its smallest
size (``fit``) or needed a glyph its font lacks. ``tmphys build --lang xx --check-fit`` prints it; the tests run it for
every language.

>>> fit_report("de", load_layout("classic"), PAPERS["a4"])   # doctest: +SKIP
[]
"""

from __future__ import annotations

from collections.abc import Callable

from tmphys.art import params as P
from tmphys.cards.deck import Deck, PunchCard
from tmphys.cards.layout import Layout
from tmphys.game.criteria import Library, library
from tmphys.game.problems import parse_problem
from tmphys.lang.fit import Misfit, collecting, report
from tmphys.lang.i18n import _, language

#: The problems the report's index and booklet show: a Classic problem and a Nightmare one, with their cards.
PROBLEMS = ("A 4 447 B 9 646 C 11 566 D 14 322", "430,#I49 WCO,->,N19,N27,N36,N44,G751,G670,G286,G632")


def _pieces(layout: Layout, paper: P.Paper, criteria: Library | None = None) -> list[tuple[str, Callable[[], object]]]:
    """Each part of the kit as (name, a call that lays it out)."""
    from tmphys.art import draw
    from tmphys.print import aid, board, booklet, index, notes, sheets, tray
    from tmphys.print.selection import Selection, for_problems

    lib = criteria or library()
    deck = Deck(layout, lib)
    card = lib.verification_cards[0]
    punch = [PunchCard(colour, 1) for colour in ("blue", "yellow", "purple")]
    problems = [parse_problem(p) for p in PROBLEMS]
    game = for_problems(problems)
    few = Selection(lib.verification_cards[:4], lib.criteria_cards[:4])

    def index_of(selection: Selection) -> object:
        """The selection's cards imposed as a duplex build does (no punch cards: their text is drawn above), a front
        sheet and its back with their registration notes, and the index of where they are."""
        fronts = [draw.verification_front(deck, v) for v in selection.verification]
        backs = [draw.verification_back(layout, v) for v in selection.verification]
        label = f"tmphys {layout.name} · {_('verification cards')}"  # as the build labels its sheets
        printed = sheets.with_backs(sheets.impose(fronts, paper, label=label), backs, (0.0, 0.0), label, True)
        criteria = [draw.criteria_card(c) for c in selection.criteria]
        criteria_sheets = sheets.impose(criteria, paper, label=f"tmphys {layout.name} · {_('criteria cards')}")
        pages = [sheets.sheet_page(s, 0.0, 1, 1) for s in printed[:2]]
        return pages, index.index_pages(layout, paper, printed, criteria_sheets, selection)

    rated = {"rounds": 2.5, "questions": 5.25, "exact": True}
    bound = {"rounds": 3.0, "questions": 6.0, "exact": False, "lower_bound": {"rounds": 2.0, "questions": 4.0}}
    unrated = {"rounds": None, "lower_bound": {"rounds": 2.0, "questions": 4.0}}
    printed = [booklet.BookletProblem(k + 1, p.mode, text, "241", tuple(p.cards),
                                      tuple(str(v.ids["green"]) for v in p.dealt or ()), "green", rating)
               for k, (p, text, rating) in enumerate(zip(problems * 2, PROBLEMS * 2, (rated, bound, unrated)))]
    extreme = booklet.BookletProblem(4, "extreme", PROBLEMS[0], "241", ((4, 9), (9, 11), (11, 14), (14, 4)),
                                     ("447", "646", "566", "322"), "green", rated)
    return [
        ("punch cards", lambda: [draw.punch_card(deck, c) for c in punch] + [draw.punch_back(deck, c) for c in punch]),
        ("verification card", lambda: (draw.verification_front(deck, card), draw.verification_back(layout, card))),
        ("criteria cards", lambda: [draw.criteria_card(c) for c in lib.criteria_cards] + [draw.criteria_back()]),
        ("note sheets", lambda: notes.note_page(paper)),
        ("player aid", lambda: aid.aid_page(paper)),
        ("machine board", lambda: board.board_pages(board.board_for(layout, paper))),
        ("machine board (Extreme)", lambda: board.board_pages(board.board_for(layout, paper, extreme=True))),
        ("tray", lambda: tray.tray_pages(tray.tray_sheets(layout, paper))),
        ("index of a game", lambda: index_of(game)),
        ("index of a set", lambda: index_of(few)),
        ("booklet", lambda: booklet.booklet_pdf([*printed, extreme], booklet.booklet_heading(
            "classic", 4, "easy", 1, 4), paper, steps=1000)),
    ]


def fit_report(lang: str, layout: Layout, paper: P.Paper, criteria: Library | None = None) -> list[Misfit]:
    """Every text of the kit laid out in ``lang`` (users' criteria cards too, with ``criteria``): what does not fit
    (or lacks a glyph), in the kit's order."""
    with language(lang), collecting() as found:
        for name, lay_out in _pieces(layout, paper, criteria):
            try:
                lay_out()
            except ValueError as e:  # a character no font of the language holds
                report(Misfit(name, str(e), 0.0, 0.0, 0.0))
    return found
