/* What the answers rule out, read from the search core's set-up (never a rule kept here): the classes still possible,
 * whether a criterion, a Nightmare card's place or a digit still is, what a mark means, and in words why a criterion
 * is ruled out (tests/test_app.py holds Check my notes and Why? to the Python model).
 */
import { codeText } from "./core.js";
import { facts } from "./data.js";
import { _, cardWords, fmt, ngettext } from "./messages.js";
import { LETTERS, codeIndex, game, mark, shaped } from "./state.js";

/** The set-up's truth tables as hexadecimal, to meet the cards' criteria; Nightmare: per class, the cards a pairing
 * may put before each verifier (lazily). */
const known = { maskHex: [], cardPlaces: null };

/** A problem set up: what is read of its set-up once. */
export function prepare() {
  known.maskHex = game.setup.masks.map((w) => ((BigInt(w[3]) << 96n) | (BigInt(w[2]) << 64n) | (BigInt(w[1]) << 32n) |
    BigInt(w[0])).toString(16));
  known.cardPlaces = null;
}

/** The classes still possible after the answers (ascending indices). */
export function alive(rounds = game.rounds) {
  let s = game.setup.universe();
  for (const r of rounds) for (const [v, passed] of r.answers) s = game.setup.answer(s, v, codeIndex(r.proposal), passed);
  return s;
}

/** Nightmare: whether a pairing of class k puts the card in slot `slot` before verifier v. */
export function placeable(k, v, slot) {
  if (!known.cardPlaces) known.cardPlaces = new Map();
  let places = known.cardPlaces.get(k);
  if (!places) {
    places = new Array(game.setup.n).fill(0);
    const cards = game.problem.cards.map((c) => c[0]);
    for (const pairing of game.setup.pairings(k)) pairing.forEach((card, u) => { places[u] |= 1 << cards.indexOf(card); });
    known.cardPlaces.set(k, places);
  }
  return (places[v] >> slot) & 1;
}

/** The criteria each verifier may check, as shown: [{card, index (1..), key, text, mask}] per card. */
export function shownCards(v) {
  const numbers = game.problem.mode === "nightmare" ? game.problem.cards.map((c) => c[0]) : game.problem.cards[v];
  return numbers.map((n) => ({ number: n, title: facts.lib.card(n).title, own: facts.lib.card(n).own,
    criteria: facts.lib.card(n).criteria.map((c, i) => ({ ...c, index: i + 1 })) }));
}

/**
 * Whether class k gives verifier v the criterion `hex` (a truth table; null: any) from card `card` (Nightmare: a
 * pairing puts the card before v); v -1 (Nightmare): some verifier.
 */
export function fits(k, v, hex, card) {
  if (v < 0) {
    for (let u = 0; u < game.setup.n; u++) if (fits(k, u, hex, card)) return true;
    return false;
  }
  if (hex !== null && known.maskHex[game.setup.criteria[k * game.setup.n + v]] !== hex) return false;
  if (game.problem.mode !== "nightmare") return true;
  return placeable(k, v, game.problem.cards.findIndex((c) => c[0] === card)) === 1;
}

/** Whether a criterion (or, hex null, a Nightmare card before verifier v) is still possible among classes s. */
export function possible(s, v, hex, card) {
  for (const k of s) if (fits(k, v, hex, card)) return true;
  return false;
}

/** Whether a digit of a colour is still possible. */
export function digitPossible(s, colour, digit) {
  for (const k of s) if (codeText(game.setup.codes[k])[colour] === String(digit)) return true;
  return false;
}

/**
 * A mark's meaning. Classic and Extreme: "A17.2", verifier A's criterion 2 of card 17. Nightmare, where the pairing
 * is hidden: "17.2", criterion 2 is not card 17's, and "A17", card 17 is not before verifier A.
 */
export function markOf(key) {
  if (!game.problem) return null;
  const nightmare = game.problem.mode === "nightmare";
  const m = (nightmare ? /^([A-F]?)([0-9]{1,4})(?:\.([0-9]))?$/ : /^([A-F])([0-9]{1,4})\.([0-9])$/).exec(key);
  if (!m || (nightmare && Boolean(m[1]) === (m[3] !== undefined))) return null; // Nightmare: "A17" or "17.2"
  const v = m[1] ? LETTERS.indexOf(m[1]) : -1;
  if (v >= game.problem.cards.length) return null;
  const card = Number(m[2]);
  const shown = shownCards(Math.max(v, 0)).find((c) => c.number === card);
  if (!shown) return null;
  if (m[3] === undefined) return { v, card, index: 0, hex: null };
  const crit = shown.criteria[Number(m[3]) - 1];
  return crit ? { v, card, index: crit.index, hex: crit.mask, crit } : null;
}


/** In words, what rules a criterion out for its verifier (Nightmare: for its card), or a card out before a verifier. */
export function why(key) {
  const m = markOf(key);
  if (!m) return "";
  const su = game.setup;
  const s = alive();
  const name = m.crit ? `“${cardWords(m.crit)}”` : fmt(_("card {card}"), { card: m.card });
  const whose = m.v >= 0 ? fmt(_("verifier {v}"), { v: LETTERS[m.v] }) : fmt(_("card {card}"), { card: m.card });
  if (possible(s, m.v, m.hex, m.card)) return fmt(_("Nothing rules {name} out for {whose} yet: the answers so far fit it."), { name, whose });
  const u = su.universe().filter((k) => fits(k, m.v, m.hex, m.card));
  if (!u.length) {
    return m.crit
      ? fmt(_("No game can give {whose} {name}: with it, no choice of the other criteria leaves exactly one code with every verifier needed (the rules allow no other problem)."), { name, whose })
      : fmt(_("No game can put card {card} before verifier {v}: with it there, no choice of criteria leaves exactly one code with every verifier needed."), { card: m.card, v: LETTERS[m.v] });
  }
  if (m.crit && m.v >= 0) { // the verifier's own answers
    const table = BigInt("0x" + m.hex);
    for (const [i, r] of game.rounds.entries()) for (const [v, passed] of r.answers) {
      if (v !== m.v) continue;
      const passes = ((table >> BigInt(codeIndex(r.proposal))) & 1n) === 1n;
      if (passes !== passed) {
        return fmt(_("Round {round}: verifier {v} said {said} to {code}, but {name} would say {would}."),
          { round: i + 1, v: LETTERS[m.v], said: mark(passed), code: shaped(r.proposal), name, would: mark(passes) });
      }
    }
  }
  // every game with it needs the verifiers' criteria to be one of these; an answer rules each out
  const lines = [];
  for (const k of u.slice(0, 3)) {
    let found = null;
    game.rounds.forEach((r, i) => r.answers.forEach(([v, passed]) => {
      if (!found && su.passes(k, v, codeIndex(r.proposal)) !== (passed ? 1 : 0)) found = { i, v, passed, r };
    }));
    const others = [];
    for (let v = 0; v < su.n; v++) {
      if (v === m.v) continue;
      const hex = known.maskHex[su.criteria[k * su.n + v]];
      const cards = game.problem.mode === "nightmare" ? shownCards(0) : shownCards(v);
      const crit = cards.flatMap((c) => c.criteria).find((c) => c.mask === hex);
      others.push(`${LETTERS[v]}: ${crit ? cardWords(crit) : "?"}`);
    }
    lines.push(fmt(_("with {others}, the code would be {code}; but round {round}: verifier {v} said {said} to {proposal}"),
      { others: others.join("; "), code: codeText(su.codes[k]), round: found.i + 1, v: LETTERS[found.v], said: mark(found.passed), proposal: shaped(found.r.proposal) }));
  }
  const more = u.length > 3 ? fmt(ngettext(" (and {n} more way, ruled out alike)", " (and {n} more ways, ruled out alike)", u.length - 3), { n: u.length - 3 }) : "";
  return fmt(_("{name} for {whose} needs the verifiers' criteria to be ones that, with the answers, leave no code: {ways}{more}."),
    { name, whose, ways: lines.join(" · "), more });
}
