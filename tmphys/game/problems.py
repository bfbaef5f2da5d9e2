"""Problems: which criteria cards sit before which verifier, and (optionally) the dealt verification cards.

A problem is Classic (one criteria card per verifier), Extreme (two criteria cards per verifier, the real
criterion on one of them) or Nightmare (one criteria card per verifier, but the pairing of cards to verifiers
is unknown). The player never sees the verification cards; a *hidden assignment* is what they hide: one
criterion per verifier (and, in Nightmare, the pairing), such that exactly one code passes every verifier and
no verifier is redundant.

>>> p = parse_problem("A 4 447 B 9 646 C 11 566 D 14 322")
>>> p.mode, p.cards, str(p.solution())
('classic', ((4,), (9,), (11,), (14,)), '241')
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from tmphys.game.book import BookError, book_line, not_in_book
from tmphys.game.codes import ALL_CODES, Code
from tmphys.game.criteria import Criterion, Library, UnknownIdError, VerificationCard, library
from tmphys.text import OneLineError, halfwidth, quote, whole_number

MODES: tuple[str, ...] = ("classic", "extreme", "nightmare")
VERIFIER_LETTERS = "ABCDEF"
#: A comment after a problem, as ``generate --answer`` writes one: "#" then a space, to the end (a verification
#: card typed "#577" or a book line's "#A46 NXF" has no space after its "#").
COMMENT = re.compile(r"(?:^|\s)#(?:\s.*)?$", re.S)
#: Verifier counts the game allows (the note sheet has columns A..F).
MIN_VERIFIERS, MAX_VERIFIERS = 1, 6
#: The verifiers of a published game's problem (a smaller one is read, for tests and study, when it has a game).
GAME_VERIFIERS = (4, 6)
_FULL = (1 << 125) - 1
#: The most codes an error names when several pass every verifier (the rest as "…"): the message stays one line.
CODES_NAMED = 10


class ProblemError(OneLineError):
    """A problem that cannot be read, or that no valid game matches (no / several solutions, redundancy)."""


@dataclass(frozen=True)
class HiddenAssignment:
    """A class of hidden assignments that no question can tell apart: the same criterion per verifier.

    ``weight`` is how many hidden assignments it stands for (Nightmare pairings that give every verifier the
    same truth table count separately). ``cards``: Nightmare's set of criteria cards (empty otherwise).
    """

    masks: tuple[int, ...]
    criteria: tuple[Criterion, ...]
    code: Code
    weight: int
    cards: tuple[int, ...] = ()
    #: Nightmare: the truth tables on each of ``cards`` (the same order), which the pairings are read from.
    pools: tuple[frozenset[int], ...] = ()

    @cached_property
    def pairings(self) -> tuple[tuple[int, ...], ...]:
        """Nightmare: the pairings it stands for, the criteria card before each verifier (in order): every one-to-one
        pairing under which each verifier's truth table is on its card (the class is valid whatever the pairing).
        Their count is the weight."""
        if not self.cards:
            return ()
        return tuple(tuple(self.cards[k] for k in perm) for perm in itertools.permutations(range(len(self.cards)))
                     if all(m in self.pools[k] for m, k in zip(self.masks, perm)))


@dataclass(frozen=True)
class Problem:
    """A problem: mode, criteria card numbers per verifier, and optionally the dealt verification cards.

    ``cards[i]`` are the criteria cards that may hold verifier i's criterion: one card in Classic, two in
    Extreme. In Nightmare ``cards[i]`` is one card of the set, in ascending order, *not* paired to verifier i.
    """

    mode: str
    cards: tuple[tuple[int, ...], ...]
    dealt: tuple[VerificationCard, ...] | None = None
    colour: str = "green"
    name: str = ""
    #: The criteria library its card numbers and IDs belong to (None: the published game's); users' criteria files
    #: add cards, and everything worked out from the problem reads them here.
    library: Library | None = field(default=None, compare=False, repr=False)

    @property
    def cards_library(self) -> Library:
        """The library the problem's criteria cards and verification cards come from."""
        return self.library or library()

    def criteria_of(self, number: int) -> tuple[Criterion, ...]:
        """The criteria printed on criteria card ``number`` of the problem's library."""
        return self.cards_library.criteria_card(number).criteria

    @property
    def verifiers(self) -> str:
        """The verifier letters, ``"ABCD"`` for four verifiers."""
        return VERIFIER_LETTERS[: len(self.cards)]

    def describe(self) -> str:
        """One line naming the mode, the criteria cards and the dealt verification cards."""
        if self.mode == "nightmare":
            text = "Nightmare, criteria cards " + " ".join(str(c[0]) for c in self.cards) + " (pairing unknown)"
        else:
            text = self.mode.capitalize() + ", " + "  ".join(
                f"{v}: {'/'.join(map(str, cs))}" for v, cs in zip(self.verifiers, self.cards))
        if self.dealt:
            text += "; verification cards " + " ".join(
                f"{v}={d.label(self.colour)}" for v, d in zip(self.verifiers, self.dealt))
        return text

    def candidates(self, verifier: int) -> tuple[Criterion, ...]:
        """The criteria verifier i may check (Classic/Extreme), one per distinct truth table, in printed order."""
        if self.mode == "nightmare":
            numbers = tuple(c[0] for c in self.cards)
        else:
            numbers = self.cards[verifier]
        return _distinct(c for n in numbers for c in self.criteria_of(n))

    def dealt_masks(self) -> tuple[int, ...]:
        """The truth tables (as bitsets) of the dealt verification cards, verifier by verifier."""
        if self.dealt is None:
            raise ProblemError("this problem has no verification cards (criteria cards only)")
        return tuple(d.criterion.mask for d in self.dealt)

    def solution(self) -> Code:
        """The one code passing every dealt verification card (the problem must have been validated)."""
        acc = _FULL
        for m in self.dealt_masks():
            acc &= m
        return Code.from_index(acc.bit_length() - 1)

    @cached_property
    def hidden(self) -> tuple[HiddenAssignment, ...]:
        """Every valid hidden assignment, merged into classes no question can tell apart (deterministic order)."""
        return hidden_assignments(self)

    def dealt_class(self) -> int:
        """The index in ``hidden`` of the class the dealt verification cards belong to."""
        masks = self.dealt_masks()
        for i, h in enumerate(self.hidden):
            if h.masks == masks:
                return i
        raise ProblemError("the dealt verification cards match no valid hidden assignment")


def _distinct(criteria: object) -> tuple[Criterion, ...]:
    """Keep the first criterion of each truth table (same table on one card, or on both Extreme cards)."""
    seen: dict[int, Criterion] = {}
    for c in criteria:  # type: ignore[attr-defined]
        seen.setdefault(c.mask, c)
    return tuple(seen.values())


# --- counting codes in 125-bit masks, vectorised -----------------------------------------------------

def _words(masks: list[int]) -> np.ndarray:
    """Masks as an (n, 2) uint64 array: low 64 bits, high 61 bits."""
    return np.array([[m & (2**64 - 1), m >> 64] for m in masks], dtype=np.uint64).reshape(len(masks), 2)


def _popcount(words: np.ndarray) -> np.ndarray:
    return np.bitwise_count(words).sum(axis=-1)


def valid_choices(candidates: list[list[int]]) -> list[tuple[int, ...]]:
    """All index tuples (one candidate mask per slot) with exactly one common code and no redundant slot, in
    lexicographic order (``valid_choice_array``, as tuples)."""
    return [tuple(row) for row in valid_choice_array(candidates).tolist()]


def valid_choice_array(candidates: list[list[int]]) -> np.ndarray:
    """All index tuples (one candidate mask per slot) with exactly one common code and no redundant slot, as the
    rows of an array, in lexicographic order.

    Partial products are pruned as soon as fewer than two codes remain: a valid choice keeps at least two
    codes whenever any slot is left out (otherwise that slot would be redundant). Each slot's candidates extend the
    rows kept so far in order, so the rows come out in lexicographic order.
    """
    n = len(candidates)
    if n == 0 or any(not c for c in candidates):
        return np.zeros((0, n), dtype=np.int64)
    words = [_words(c) for c in candidates]
    acc = np.array([[2**64 - 1, 2**61 - 1]], dtype=np.uint64)
    idx = np.zeros((1, 0), dtype=np.int64)
    for i, w in enumerate(words):
        new = acc[:, None, :] & w[None, :, :]
        count = _popcount(new)
        keep = count == 1 if i == n - 1 else count >= 2
        if n == 1:
            keep = count == 1
        rows, cols = np.nonzero(keep)
        acc = new[rows, cols]
        idx = np.column_stack([idx[rows], cols]) if idx.shape[1] else cols[:, None].astype(np.int64)
        if len(acc) == 0:
            return np.zeros((0, n), dtype=np.int64)
    if n > 1:
        chosen = [words[j][idx[:, j]] for j in range(n)]
        ok = np.ones(len(idx), dtype=bool)
        every = np.array([[2**64 - 1, 2**61 - 1]], dtype=np.uint64)
        for i in range(n):
            others = np.repeat(every, len(idx), axis=0)
            for j in range(n):
                if j != i:
                    others &= chosen[j]
            ok &= _popcount(others) >= 2
        idx = idx[ok]
    return idx


@dataclass(frozen=True)
class HiddenTable:
    """A problem's classes of hidden assignments as arrays (the model the search core is held to): the distinct truth
    tables they use (``masks``, ascending as numbers), each class's table per verifier (``criteria``, indices into
    ``masks``), its code's index and its weight; classes in code order, then by their tables verifier by verifier.
    ``first`` gives, per class and verifier, the (slot, candidate) first seen with that table: the criterion shown."""

    masks: tuple[int, ...]
    criteria: np.ndarray
    codes: np.ndarray
    weights: np.ndarray
    first: np.ndarray


def _slots(problem: Problem) -> list[tuple[Criterion, ...]]:
    """The candidates of each slot: a verifier's criteria (Classic, Extreme), or a card's (Nightmare), distinct."""
    if problem.mode == "nightmare":
        return [_distinct(problem.criteria_of(c[0])) for c in problem.cards]
    return [problem.candidates(v) for v in range(len(problem.cards))]


def hidden_table(problem: Problem) -> HiddenTable:
    """Every valid hidden assignment of a problem, merged into classes, as arrays (``HiddenTable``).

    A valid choice takes one candidate a slot (``valid_choice_array``). In Classic and Extreme the slots are the
    verifiers and each choice is a class. In Nightmare the slots are the cards and every one-to-one pairing of cards
    to verifiers gives an assignment; assignments giving every verifier the same truth table are one class, weighing
    how many they are."""
    n = len(problem.cards)
    slots = _slots(problem)
    every = sorted({c.mask for cs in slots for c in cs})
    number = {m: i for i, m in enumerate(every)}
    choices = valid_choice_array([[c.mask for c in cs] for cs in slots])
    if not len(choices):
        empty = np.zeros((0, n), dtype=np.int64)
        return HiddenTable((), empty, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                           np.zeros((0, n, 2), dtype=np.int64))
    ids = [np.array([number[c.mask] for c in cs], dtype=np.int64) for cs in slots]
    chosen = np.stack([ids[k][choices[:, k]] for k in range(n)], axis=1)  # (choices, slots): table numbers
    both = _words(every)[chosen]  # (choices, slots, 2) words
    acc = np.bitwise_and.reduce(both, axis=1)  # the one common code, as a one-bit set
    low = acc[:, 0] != 0
    code = np.where(low, np.frexp(acc[:, 0].astype(np.float64))[1] - 1, 63 + np.frexp(acc[:, 1].astype(np.float64))[1])
    if problem.mode == "nightmare":  # verifier v checks the criterion chosen on card perm[v]
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64).reshape(-1, n)
        rows = chosen[:, perms].reshape(-1, n)
        slot_of = np.broadcast_to(perms, (len(chosen), *perms.shape)).reshape(-1, n)
        pick = choices[:, perms].reshape(-1, n)
        code = np.repeat(code, len(perms))
    else:
        rows, pick = chosen, choices
        slot_of = np.broadcast_to(np.arange(n), rows.shape)
    base = len(every)
    keys = code.astype(np.int64)
    for v in range(n):  # code first, then the tables verifier by verifier (numbers ascend with the tables)
        keys = keys * base + rows[:, v]
    _, first, weights = np.unique(keys, return_index=True, return_counts=True)
    rows = rows[first]
    used = np.unique(rows)
    return HiddenTable(tuple(every[i] for i in used), np.searchsorted(used, rows), code[first].astype(np.int64),
                       weights.astype(np.int64), np.stack([slot_of[first], pick[first]], axis=2))


def hidden_assignments(problem: Problem) -> tuple[HiddenAssignment, ...]:
    """Enumerate the valid hidden assignments of a problem, merged by per-verifier truth tables."""
    table = hidden_table(problem)
    slots = _slots(problem)
    numbers = tuple(c[0] for c in problem.cards) if problem.mode == "nightmare" else ()
    pools = tuple(frozenset(c.mask for c in problem.criteria_of(n)) for n in numbers)
    masks = [tuple(table.masks[i] for i in row) for row in table.criteria.tolist()]
    shown = [tuple(slots[k][i] for k, i in row) for row in table.first.tolist()]
    new = object.__new__  # a frozen dataclass's __init__ sets each field through object.__setattr__: slow by the 10,000
    out = []
    for m, criteria, code, weight in zip(masks, shown, table.codes.tolist(), table.weights.tolist()):
        h = new(HiddenAssignment)
        h.__dict__.update(masks=m, criteria=criteria, code=ALL_CODES[code], weight=weight, cards=numbers,
                          pools=pools)
        out.append(h)
    return tuple(out)


def _code_of(masks: tuple[int, ...]) -> Code:
    acc = _FULL
    for m in masks:
        acc &= m
    return Code.from_index(acc.bit_length() - 1)


# --- validation ----------------------------------------------------------------------------------

def _some_pairing_fits(problem: Problem) -> bool:
    """Whether some one-to-one pairing of the criteria cards (first of each verifier's) to the verifiers fits the
    dealt verification cards: Nightmare's rule."""
    pools = [{c.mask for c in problem.criteria_of(cs[0])} for cs in problem.cards]
    masks = problem.dealt_masks()
    return any(all(masks[v] in pools[perm[v]] for v in range(len(masks)))
               for perm in itertools.permutations(range(len(masks))))


def check_dealt(problem: Problem) -> None:
    """Refuse dealt verification cards that break the rules: wrong card, no/several solutions, redundancy."""
    assert problem.dealt is not None
    letters = problem.verifiers
    if problem.mode == "nightmare":
        if not _some_pairing_fits(problem):
            raise ProblemError("no pairing of the criteria cards to the verifiers fits the verification cards")
    else:
        for v, (d, cs) in enumerate(zip(problem.dealt, problem.cards)):
            if d.criterion.mask not in {c.mask for c in problem.candidates(v)}:
                where = "criteria card " + " or ".join(map(str, cs))
                hint = ("; another pairing of the criteria cards fits: for Nightmare (the pairing hidden), give "
                        "--nightmare or write the cards N17 N34 …") \
                    if problem.mode == "classic" and _some_pairing_fits(problem) else ""
                raise ProblemError(f"verifier {letters[v]}: verification card {d.label(problem.colour)} "
                                   f"({d.criterion.text}) is not a criterion of {where}{hint}")
    masks = problem.dealt_masks()
    acc = _FULL
    for m in masks:
        acc &= m
    count = acc.bit_count()
    if count == 0:
        raise ProblemError("no code passes every verifier")
    if count > 1:
        passing = [str(Code.from_index(i)) for i in range(125) if acc >> i & 1]
        shown = " ".join(passing[:CODES_NAMED]) + (" …" if count > CODES_NAMED else "")
        raise ProblemError(f"{count} codes pass every verifier ({shown}); a problem has exactly one")
    for v in range(len(masks)):
        rest = _FULL
        for j, m in enumerate(masks):
            if j != v:
                rest &= m
        if rest.bit_count() == 1 and len(masks) > 1:
            raise ProblemError(f"verifier {letters[v]} is redundant: the others already fix the code")


def validate(problem: Problem) -> Problem:
    """Check a problem can be a real game; return it, or raise ProblemError with a one-line reason."""
    if problem.dealt is not None:
        check_dealt(problem)
    if not problem.hidden and len(problem.cards) < GAME_VERIFIERS[0]:
        raise ProblemError(f"a problem has {GAME_VERIFIERS[0]}–{GAME_VERIFIERS[1]} verifiers, not "
                           f"{len(problem.cards)}: no valid game uses these criteria cards")
    if not problem.hidden:
        raise ProblemError("no valid game uses these criteria cards: no choice of criteria gives exactly "
                           "one code without a redundant verifier")
    return problem


# --- parsing -------------------------------------------------------------------------------------

_ID_PREFIX = "GOYBP◊#/¤"


def _is_id(tok: str, lib: Library) -> bool:
    """Whether a token is written as a verification card ID: a colour's letter or symbol and digits, or a number that
    is an ID of the library (a criteria card number never is one); a number on no card reads as an ID from three
    digits on (the published cards are 1..48). ASCII digits only."""
    if tok and tok[0].upper() in _ID_PREFIX and whole_number(tok[1:]) is not None:
        return True
    number = whole_number(tok)
    if number is None:
        return False
    if number in lib.by_id:
        return True
    return not lib.has_card(number) and number >= 100


def parse_problem(text: str | list[str] | tuple[str, ...], *, nightmare: bool = False,
                  extreme: bool = False, cards_only: bool = False, criteria: Library | None = None) -> Problem:
    """Read a problem from the app's text, a problem-book line, or criteria cards alone; validate it.

    Accepted forms (commas and spaces both separate):
      ``A 4 447 B 9 646 C 11 566 D 14 322`` (app: per verifier, criteria card(s) then verification ID),
      ``1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754`` (problem book, Classic/Extreme/Nightmare),
      ``3 7 10 14`` / ``13/17 15/45 27/22 20/8`` / ``N3 N7 N10 N14`` (criteria cards only),
      ``#A46 NXF`` (a problem of the published book by its printed ID, read from the book shipped with tmphys).
    ``criteria``: the criteria library whose card numbers and IDs the text names (None: the published game's).
    """
    lib = criteria or library()
    raw = halfwidth(text if isinstance(text, str) else " ".join(text))  # as a full-width keyboard types it too
    raw = COMMENT.sub("", raw).replace("→", "->")
    try:
        raw = book_line(raw) or raw
    except BookError as e:  # shaped as a book ID but not one: a usage error, not a misread card
        raise ProblemError(str(e)) from None
    name = ""
    if "->" in raw:
        head, _, raw = raw.partition("->")
        m = re.search(r"#[^,]*", head)
        name = m.group(0).strip() if m else head.strip(" ,")
    elif book_id := re.search(r"(?:^|[\s,])(#[^0-9\s,][^,]*)", raw):  # '#577' is a yellow ID, '#A46 NXF' a book's
        if book_id.group(1).strip() == raw.strip():  # the whole text: a book ID mistyped ('#Z99 ZZZ', '#A46-NXF')
            raise ProblemError(not_in_book(raw))
        raise ProblemError(f"a problem-book line reads 'number,#ID,->,cards,…,verification cards': "
                           f"no '->' after {quote(book_id.group(1).strip())}")
    tokens = [t for t in re.split(r"[\s,;]+", raw.strip()) if t]
    if not tokens:
        raise ProblemError("empty problem: give criteria cards, e.g. '3 7 10 14' or 'A 4 447 B 9 646 …'")
    groups: list[list[str]] = []
    lettered = len(tokens[0]) == 1 and tokens[0].upper() in VERIFIER_LETTERS
    if lettered:
        for tok in tokens:
            if len(tok) == 1 and tok.upper() in VERIFIER_LETTERS:
                if len(groups) == MAX_VERIFIERS:
                    raise ProblemError(f"verifier {tok.upper()} after {VERIFIER_LETTERS[-1]}: a problem has at most "
                                       f"{MAX_VERIFIERS} verifiers, {VERIFIER_LETTERS[0]} to {VERIFIER_LETTERS[-1]}")
                if tok.upper() != VERIFIER_LETTERS[len(groups)]:
                    raise ProblemError(f"verifier {tok.upper()} out of order (expected "
                                       f"{VERIFIER_LETTERS[len(groups)]})")
                groups.append([])
            else:
                groups[-1].append(tok)
    cards: list[tuple[int, ...]] = []
    ids: list[str] = []
    is_nightmare = nightmare
    try:
        if lettered:
            for letter, group in zip(VERIFIER_LETTERS, groups):
                cs = [t for t in group if not _is_id(t, lib)]
                vs = [t for t in group if _is_id(t, lib)]
                if not cs or len(cs) > 2 or len(vs) > 1:
                    raise ProblemError(f"verifier {letter}: want one or two criteria cards and at most one "
                                       f"verification card ID, got {quote(' '.join(group)) if group else 'nothing'}")
                cards.append(tuple(_card(t, lib) for t in cs))
                ids.extend(vs)
            if ids and len(ids) != len(cards):
                raise ProblemError("give a verification card ID for every verifier, or for none")
            if extreme and any(len(c) != 2 for c in cards):
                raise ProblemError("--extreme needs two criteria cards for every verifier, e.g. A 13 17 O496 …")
        else:
            cs = [t for t in tokens if not _is_id(t, lib)]
            ids = [t for t in tokens if _is_id(t, lib)]
            marked = [t.upper().startswith("N") for t in cs]
            if any(marked) and not all(marked):
                raise ProblemError("in Nightmare every criteria card is written with its N (N17 N34 N36 N44); "
                                   "or give --nightmare")
            if any(marked):
                is_nightmare = True
            if any("/" in t for t in cs):
                for t in cs:
                    parts = t.split("/")
                    if len(parts) != 2:
                        raise ProblemError(f"Extreme cards are written as pairs like 13/17, not {quote(t)}")
                    cards.append(tuple(_card(p, lib) for p in parts))
            else:
                numbers = [_card(t, lib) for t in cs]
                if ids and len(numbers) == 2 * len(ids) and not is_nightmare:
                    extreme = True
                if extreme:
                    if len(numbers) % 2 or (ids and len(numbers) != 2 * len(ids)):
                        per = f"for {len(ids)} verification cards" if ids else "(an odd number)"
                        raise ProblemError(f"Extreme needs two criteria cards per verifier, got {len(numbers)} "
                                           f"{per}")
                    cards = [tuple(numbers[i:i + 2]) for i in range(0, len(numbers), 2)]
                else:
                    if ids and len(numbers) != len(ids):
                        raise ProblemError(f"{len(numbers)} criteria cards but {len(ids)} verification cards")
                    cards = [(x,) for x in numbers]
        dealt = [lib.parse_id(t) for t in ids]
    except UnknownIdError as e:
        raise ProblemError(str(e)) from None
    if cards_only and dealt:
        raise ProblemError("--cards takes criteria cards only, but verification card IDs were given")
    if not MIN_VERIFIERS <= len(cards) <= MAX_VERIFIERS:
        hint = ""
        if len(cards) > MAX_VERIFIERS and len(cards) % 2 == 0 and all(len(c) == 1 for c in cards):
            hint = " (Extreme without verification cards? write each verifier's two cards as 13/17, or give --extreme)"
        raise ProblemError(f"a problem has 1..6 verifiers, not {len(cards)}{hint}")
    every = [n for c in cards for n in c]
    twice = next((n for n in every if every.count(n) > 1), None)
    if twice is not None:  # the box holds one of each, and a second copy of a criterion would be redundant
        raise ProblemError(f"criteria card {twice} is given twice: a problem's criteria cards all differ")
    mode = "extreme" if any(len(c) == 2 for c in cards) else "classic"
    if is_nightmare:
        if mode == "extreme":
            raise ProblemError("Nightmare takes one criteria card per verifier")
        mode = "nightmare"
        cards = sorted(cards)
    elif any(len(c) != len(cards[0]) for c in cards):
        raise ProblemError("Extreme needs two criteria cards for every verifier")
    colour = dealt[0][1] if dealt else "green"
    other = next((i for i, (_, c) in enumerate(dealt) if c != colour), None)
    if other is not None:  # a game uses one colour for all its verifiers: a second one is a misread ID
        raise ProblemError(f"verification card IDs {ids[0]} ({colour}) and {ids[other]} ({dealt[other][1]}) differ "
                           "in colour: a game reads all its verification cards in one colour")
    problem = Problem(mode, tuple(cards), tuple(d for d, _ in dealt) if dealt else None, colour, name,
                      None if lib.published else lib)
    return validate(problem)


def _card(tok: str, lib: Library) -> int:
    """A criteria card number of the library (1..48 published, users' after), in ASCII digits, with Nightmare's N or
    without."""
    n = whole_number(tok.upper().removeprefix("N"))
    if n is None:
        raise ProblemError(f"not a criteria card number or verification card ID: {quote(tok)}")
    lib.criteria_card(n)  # UnknownIdError names the numbers there are
    return n
