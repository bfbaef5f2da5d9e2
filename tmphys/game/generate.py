"""Generate problems: criteria cards and dealt verification cards that make a valid game, reproducibly from a seed.

A problem is drawn as the problem book's are made: criteria cards from its difficulty's band (easy 1-17, standard
1-22, hard 1-48; all different; Classic and Nightmare in ascending order, Extreme in pairs), then one valid game of
that card set (a hidden assignment: exactly one code passes, no verifier redundant), each equally likely, dealt as
verification cards of one colour. Card sets that allow no valid game are drawn again. The draws use Python's
``random.Random(seed)``, so a seed gives the same problems on every machine.

>>> import random
>>> [problem_text(p) for p in generate("classic", 4, "easy", random.Random(1), count=2)]
['A 8 P651 B 11 P287 C 15 P404 D 16 P372', 'A 4 G447 B 9 G646 C 15 G609 D 16 G503']
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tmphys.game.criteria import ID_COLOURS, ID_LETTERS, Library, VerificationCard, library
from tmphys.game.problems import MODES, VERIFIER_LETTERS, HiddenAssignment, Problem, ProblemError, check_dealt
from tmphys.text import quote

#: The highest criteria card each difficulty deals from, as in the published problem book.
DIFFICULTIES: dict[str, int] = {"easy": 17, "standard": 22, "hard": 48}
#: Verifier counts a generated problem may have (those the game's app offers).
GENERATE_VERIFIERS: tuple[int, ...] = (4, 5, 6)
#: Card sets drawn for one problem before giving up (a band too small to hold a valid game).
MAX_DRAWS = 20_000


def band(difficulty: str, criteria: Library | None = None, only_files: bool = False) -> list[int]:
    """The criteria card numbers a difficulty deals from: the published cards up to its highest, and every card of
    users' criteria files (their cards join every band); ``only_files``: the files' cards alone."""
    lib = criteria or library()
    users = [c.number for c in lib.user_cards]
    return users if only_files else list(range(1, DIFFICULTIES[difficulty] + 1)) + users


def draw_cards(mode: str, verifiers: int, difficulty: str, rng: random.Random,
               numbers: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """A card set: ``verifiers`` criteria cards (two each in Extreme), all different, from the difficulty's band
    (or from ``numbers``)."""
    band = range(1, DIFFICULTIES[difficulty] + 1) if numbers is None else numbers
    if mode == "extreme":
        drawn = rng.sample(band, 2 * verifiers)
        return tuple((drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2))
    return tuple((c,) for c in sorted(rng.sample(band, verifiers)))


def _cards_for(criterion_mask: int, numbers: Sequence[int], lib: Library) -> list[VerificationCard]:
    """The verification cards carrying a criterion of these criteria cards with this truth table, in deck order."""
    found: dict[int, VerificationCard] = {}
    for n in numbers:
        for c in lib.criteria_card(n).criteria:
            if c.mask == criterion_mask:
                for v in lib.verification_cards_for(c):
                    found.setdefault(v.index, v)
    return [found[i] for i in sorted(found)]


def deal(problem: Problem, rng: random.Random) -> tuple[VerificationCard, ...] | None:
    """Verification cards for one valid game of the problem's card set, every game equally likely; None if none.

    A Nightmare class of hidden assignments stands for one game per pairing (``HiddenAssignment.weight``); the
    pairing drawn says which criteria card each verifier's card comes from.
    """
    hidden: tuple[HiddenAssignment, ...] = problem.hidden
    if not hidden:
        return None
    pick = rng.randrange(sum(h.weight for h in hidden))
    for h in hidden:
        if pick < h.weight:
            break
        pick -= h.weight
    if problem.mode == "nightmare":
        pairing = h.pairings[rng.randrange(len(h.pairings))]
        sources: list[Sequence[int]] = [(card,) for card in pairing]
    else:
        sources = list(problem.cards)
    dealt = []
    for mask, numbers in zip(h.masks, sources):
        cards = _cards_for(mask, numbers, problem.cards_library)
        if not cards:  # a criterion printed without a verification card: no game deals it
            return None
        dealt.append(cards[rng.randrange(len(cards))])
    return tuple(dealt)


def generate(mode: str, verifiers: int, difficulty: str, rng: random.Random, *, count: int = 1,
             colour: str | None = None, min_codes: int = 2, criteria: Library | None = None,
             only_files: bool = False) -> list[Problem]:
    """``count`` different validated problems with their verification cards, drawn from ``rng``.

    Different: no two are one game (``game_key``), though drawn in another colour or with the verifiers relabelled.
    ``colour``: the verification cards' ID colour (None: drawn for each problem). ``min_codes``: the fewest codes
    the card set leaves possible before any question (card sets that fix the code at once, a fifth of those drawn
    in Classic and Nightmare, make no puzzle; 1 keeps them). ``criteria``: a library with users' cards, which join
    every band (``only_files``: they alone are dealt). Raises ``ProblemError`` for an unknown mode or
    difficulty, a verifier count the game does not offer, or a band that yields too few problems.
    """
    if mode not in MODES:
        raise ProblemError(f"unknown mode {quote(mode)} (one of {', '.join(MODES)})")
    if difficulty not in DIFFICULTIES:
        raise ProblemError(f"unknown difficulty {quote(difficulty)} (one of {', '.join(DIFFICULTIES)})")
    if verifiers not in GENERATE_VERIFIERS:
        raise ProblemError(f"a generated problem has 4, 5 or 6 verifiers, not {verifiers}")
    if colour is not None and colour not in ID_COLOURS:
        raise ProblemError(f"unknown colour {quote(colour)} (one of {', '.join(ID_COLOURS)})")
    numbers = band(difficulty, criteria, only_files)
    if len(numbers) < verifiers * (2 if mode == "extreme" else 1):
        raise ProblemError(f"{len(numbers)} criteria cards to deal from, too few for {verifiers} {mode} verifiers")
    lib = None if criteria is None or criteria.published else criteria
    out: list[Problem] = []
    seen: set[tuple] = set()
    draws = 0
    while len(out) < count:
        draws += 1
        if draws > MAX_DRAWS * count:
            raise ProblemError(f"found only {len(out)} different {mode} problems with {verifiers} verifiers "
                               f"in the {difficulty} band in {draws - 1} draws")
        cards = draw_cards(mode, verifiers, difficulty, rng, None if lib is None else numbers)
        cards_only = Problem(mode, cards, library=lib)
        if len({h.code for h in cards_only.hidden}) < min_codes:
            continue
        dealt = deal(cards_only, rng)
        if dealt is None:
            continue
        problem = Problem(mode, cards, dealt, colour or rng.choice(ID_COLOURS), library=lib)
        check_dealt(problem)  # the card set has games (dealt from them): only the dealt cards to check
        key = game_key(problem)
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out


def game_key(problem: Problem) -> tuple:
    """What makes a dealt problem the game it is for a player, whatever the ID colour and the verifiers' letters:
    each verifier's criteria cards (in either order, in Extreme) with its verification card; in Nightmare, where the
    pairing is hidden, the criteria cards and the verification cards apart. Two problems with one key are one puzzle."""
    if problem.dealt is None:
        raise ProblemError("this problem has no verification cards")
    dealt = [d.index for d in problem.dealt]
    if problem.mode == "nightmare":
        return problem.mode, tuple(sorted(c[0] for c in problem.cards)), tuple(sorted(dealt))
    return problem.mode, tuple(sorted((tuple(sorted(cs)), i) for cs, i in zip(problem.cards, dealt)))


def problem_text(problem: Problem) -> str:
    """The problem as one line that ``solve``, ``play`` and ``prove`` read back.

    Classic and Extreme as the app writes them, verifier by verifier (``A 4 G447 B 9 G646 …``); Nightmare as its
    criteria cards, each with its N, then the verification cards in verifier order (``N3 N7 N10 N14 G447 …``). IDs
    carry their colour's letter.
    """
    if problem.dealt is None:
        raise ProblemError("this problem has no verification cards to write")
    ids = [f"{ID_LETTERS[problem.colour]}{d.ids[problem.colour]}" for d in problem.dealt]
    if problem.mode == "nightmare":
        return " ".join([f"N{c[0]}" for c in problem.cards] + ids)
    return " ".join(f"{v} {' '.join(map(str, cs))} {i}" for v, cs, i in zip(VERIFIER_LETTERS, problem.cards, ids))


__all__ = ["DIFFICULTIES", "GENERATE_VERIFIERS", "MAX_DRAWS", "band", "deal", "draw_cards", "game_key", "generate",
           "problem_text"]
