/* Problems as a table types them, read as tmphys.game.problems.parse_problem reads them (the same forms, the same
 * one-line refusals): a book ID ("#C63 MO8 2", offline), the official app's text ("A 4 447 B 9 646 …"), a problem-book
 * line, criteria cards alone ("3 7 10 14", "13/17 15/45 …", "N3 N7 N10 N14"). The facts come from the Python model at
 * build time (the criteria cards, the verification cards and their IDs, the book); what a problem's hidden assignments
 * are, the search core works out. tests/test_app.py holds this file to the Python parser on every book problem and
 * on a corpus of typed mistakes.
 */
import { readBook } from "./book.js";

export const VERIFIER_LETTERS = "ABCDEF";
const MAX_VERIFIERS = 6;
const ID_PREFIX = "GOYBP◊#/¤";
const QUOTE_LIMIT = 60;
const CODES_NAMED = 10;  // tmphys.game.problems.CODES_NAMED: the codes a message names, the rest as "…"
const QUOTE_PREFIX = 40;
const MAX_DIGITS = 30;
/** Python's whitespace (str.isspace), so that tokens split where tmphys splits them. */
const WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const ID_SHAPE = new RegExp(`^#?[${WS}]*[A-I][4-6][0-9A-Z][${WS}]*[0-9A-Z]{1,3}(?:[${WS}]*[0-9A-Z])?$`, "i");
const COMMENT = new RegExp(`(?:^|[${WS}])#(?:[${WS}][^]*)?$`);
const SPLIT = new RegExp(`[${WS},;]+`);

/** A refusal: its line in English as tmphys.game.problems writes it (`message`), and for the page its msgid (`key`,
 * marked N_ for the catalogue) and placeholders (`params`; `words`, those that are words to translate too). */
export class ProblemError extends Error {
  constructor(message, key = null, params = {}, words = []) {
    super(message);
    Object.assign(this, { key, params, words });
  }
}
const N_ = (s) => s;
const refuse = (key, params = {}, words = []) =>
  new ProblemError(key.replace(/\{(\w+)\}/g, (m, k) => String(params[k])), key, params, words);

const strip = (s) => s.replace(new RegExp(`^[${WS}]+|[${WS}]+$`, "g"), "");
const upper = (s) => s.toUpperCase();

/** Full-width forms (a Japanese keyboard's ５１５, Ｇ４４７) as plain ASCII, every other character as it is
 * (tmphys.text.halfwidth). */
export const halfwidth = (text) => String(text).replace(/[\uff01-\uff5e\u3000]/g, (c) => c.normalize("NFKC"));

/** The number written in ASCII digits (or their full-width forms) only, else null (tmphys.text.whole_number). */
export function wholeNumber(text) {
  const s = halfwidth(text);
  if (s.length > MAX_DIGITS || !/^[0-9]+$/.test(s)) return null;
  return Number(s);
}

export const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
/** A string as Python's repr writes it. */
function repr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === q || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      out += c < 0x100 ? "\\x" + c.toString(16).padStart(2, "0")
        : c < 0x10000 ? "\\u" + c.toString(16).padStart(4, "0") : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return q + out + q;
}

/** A user's text quoted for a one-line message, cut when long (tmphys.text.quote). */
export function quote(text) {
  const s = String(text);
  const chars = [...s];
  if (chars.length <= QUOTE_LIMIT) return repr(s);
  return `${repr(chars.slice(0, QUOTE_PREFIX).join(""))}… (${chars.length.toLocaleString("en-US")} characters)`;
}

/** The line for a book ID not in the book (tmphys.game.book.not_in_book). */
const notInBook = (text) => refuse(N_("{id} is not an ID of the published problem book: only its IDs are read " +
  "offline; for another problem type its cards, e.g. 'A 4 447 B 9 646 C 11 566 D 14 322' or '3 7 10 14'"), { id: quote(strip(text)) });

/** The facts a problem is read with: criteria cards, verification cards and their IDs, the book. */
export class Library {
  /**
   * @param {object} data the page's data: cards, verification, ids, published (how many of each the game has)
   * @param {Array} book the problem book as web/book_data.py packs it, or null
   */
  constructor(data, book) {
    this.cards = data.cards;
    this.verification = data.verification;
    this.ids = data.ids;
    this.published = data.published ? data.published.verification : Infinity;
    this.criteria = {};
    this.byNumber = new Map();
    this.byId = new Map();
    this.addCards(data.cards, data.verification);
    this.setBook(book);
  }

  /** The book (web/book_data.py's form), read into sets and IDs when first asked for (8,500 problems: a slow
   * phone's tenth of a second). */
  setBook(book) {
    this._book = book || [];
    this._sets = null;
    this._byKey = null;
  }

  /** The book's sets, by name: each a list of its problems. */
  get sets() {
    if (!this._sets) [this._sets, this._byKey] = readBook(this, this._book);
    return this._sets;
  }

  /** The book's problems by the key of their ID (bookKey), the first of a key kept. */
  get byKey() {
    if (!this._byKey) [this._sets, this._byKey] = readBook(this, this._book);
    return this._byKey;
  }

  /** Criteria cards and verification cards joined to these (the page's data, a link's cards: checked already). */
  addCards(cards, verification) {
    if (cards !== this.cards) this.cards = [...this.cards, ...cards].sort((a, b) => a.number - b.number);
    if (verification !== this.verification) this.verification = [...this.verification, ...verification];
    for (const card of cards) {
      this.byNumber.set(card.number, card);
      for (const c of card.criteria) this.criteria[c.key] = c;
    }
    for (const v of verification) for (const colour of this.ids.colours) this.byId.set(v.ids[colour], [v, colour]);
  }

  /** The criteria card with this number, or undefined. */
  card(n) { return this.byNumber.get(n); }

  /** The book's problem for a printed ID, or null. */
  bookProblem(id) { return this.byKey.get(bookKey(id)) || null; }

  /** The book's line for a bare book ID, null when the text is not shaped as one (tmphys.game.book.book_line). */
  bookLine(text) {
    if (!ID_SHAPE.test(strip(text))) return null;
    const found = this.byKey.get(bookKey(text));
    if (found) return found.line;
    if (strip(text).startsWith("#") || /[A-Z]/i.test(bookKey(text).slice(1))) throw notInBook(text);
    return null;
  }

  /** [verification card, colour] for a printed ID (tmphys.game.criteria.parse_id). */
  parseId(text) {
    let s = strip(halfwidth(text));
    let want = null;
    const { colours, letters, symbols } = this.ids;
    const aliases = this.ids.aliases || {};
    if (s && !"0123456789".includes(s[0])) {
      const prefix = [...s][0];
      s = s.slice(prefix.length);
      for (const colour of colours) if (upper(prefix) === letters[colour] || prefix === symbols[colour]) want = colour;
      want = want || aliases[upper(prefix)] || null;
      if (!want) {
        const named = (c) => letters[c] + Object.keys(aliases).filter((a) => aliases[a] === c).map((a) => ` (or ${a})`).join("");
        const known = colours.map(named).join(" ") + " " + colours.map((c) => symbols[c]).join(" ");
        throw refuse(N_("unknown verification card ID {id} (prefixes: {known})"), { id: quote(text), known });
      }
    }
    const number = wholeNumber(s);
    if (number === null) throw refuse(N_("unknown verification card ID {id} (an ID is digits 0-9, e.g. 447 or G447)"), { id: quote(text) });
    const found = this.byId.get(number);
    if (!found) throw refuse(N_("no verification card has the ID {id}"), { id: quote(text) });
    if (want && found[1] !== want) {
      throw refuse(N_("ID {id} is printed in {colour}, not {want} (verification card {card})"),
        { id: s, colour: found[1], want, card: found[0].index }, ["colour", "want"]);
    }
    return found;
  }

  label(card, colour) { return `${this.ids.symbols[colour]}${card.ids[colour]}`; }
  maskOf(card) { return this.criteria[card.criterion].mask; }

  /** The distinct truth tables a verifier may check: its card's (Classic), its two cards' (Extreme), first kept. */
  candidates(cards) {
    const seen = new Map();
    for (const n of cards) for (const c of this.card(n).criteria) if (!seen.has(c.mask)) seen.set(c.mask, c);
    return [...seen.values()];
  }
}

export const bookKey = (id) => upper(String(id).replace(new RegExp(`[${WS}#]`, "g"), ""));

/** Whether a token is a verification card ID: a colour's letter or symbol and digits, or a number that is an ID of
 * the library; a number on no card reads as an ID from three digits on (tmphys.game.problems._is_id). */
function isId(tok, lib) {
  if (tok && ID_PREFIX.includes(upper([...tok][0])) && wholeNumber(tok.slice([...tok][0].length)) !== null) return true;
  const n = wholeNumber(tok);
  if (n === null) return false;
  if (lib.byId.has(n)) return true;
  return !lib.byNumber.has(n) && n >= 100;
}

/** Sorted numbers as runs: "1..48, 50, 52..53" (tmphys.game.criteria_library._ranges). */
function ranges(numbers) {
  const runs = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    if (runs.length && n === runs[runs.length - 1][1] + 1) runs[runs.length - 1][1] = n;
    else runs.push([n, n]);
  }
  return runs.slice(0, 6).map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(", ") + (runs.length > 6 ? ", …" : "");
}

function cardNumber(tok, lib) {
  let t = upper(tok);
  if (t.startsWith("N")) t = t.slice(1);
  const n = wholeNumber(t);
  if (n === null) throw refuse(N_("not a criteria card number or verification card ID: {token}"), { token: quote(tok) });
  if (!lib.byNumber.has(n)) {
    throw refuse(N_("no criteria card {n} (criteria cards are numbered {numbers})"), { n, numbers: ranges(lib.byNumber.keys()) });
  }
  return n;
}

// 125-bit truth tables as BigInt, for the dealt cards' checks
const big = (hex) => BigInt("0x" + hex);
const popcount = (x) => { let n = 0; while (x) { x &= x - 1n; n++; } return n; };
const FULL = (1n << 125n) - 1n;
export const codeText = (i) => `${Math.floor(i / 25) + 1}${(Math.floor(i / 5) % 5) + 1}${(i % 5) + 1}`;

function permutations(n) {
  const out = [];
  const walk = (prefix, rest) => {
    if (!rest.length) { out.push(prefix); return; }
    rest.forEach((x, i) => walk([...prefix, x], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  walk([], [...Array(n).keys()]);
  return out;
}

/**
 * Read a problem: {mode, cards, dealt: [verification card] | null, colour, name}; throws ProblemError with the
 * CLI's one-line reason. The hidden assignments (and so "no valid game") are the search core's to check.
 */
export function parseProblem(lib, text, { nightmare = false, extreme = false, cardsOnly = false } = {}) {
  let raw = halfwidth(Array.isArray(text) ? text.join(" ") : String(text));
  raw = raw.replace(COMMENT, "").replaceAll("→", "->");
  raw = lib.bookLine(raw) || raw;
  let name = "";
  if (raw.includes("->")) {
    const at = raw.indexOf("->");
    const head = raw.slice(0, at);
    raw = raw.slice(at + 2);
    const m = /#[^,]*/.exec(head);
    name = m ? strip(m[0]) : head.replace(/^[ ,]+|[ ,]+$/g, "");
  } else {
    const m = new RegExp(`(?:^|[${WS},])(#[^0-9${WS},][^,]*)`).exec(raw);
    if (m && strip(m[1]) === strip(raw)) throw notInBook(raw);  // a book ID mistyped (tmphys.game.problems)
    if (m) throw refuse(N_("a problem-book line reads 'number,#ID,->,cards,…,verification cards': no '->' after {id}"),
      { id: quote(strip(m[1])) });
  }
  const tokens = strip(raw).split(SPLIT).filter((t) => t);
  if (!tokens.length) throw refuse(N_("empty problem: give criteria cards, e.g. '3 7 10 14' or 'A 4 447 B 9 646 …'"));
  const groups = [];
  const letter1 = (t) => [...t].length === 1 && VERIFIER_LETTERS.includes(upper(t)) && upper(t).length === 1;
  const lettered = letter1(tokens[0]);
  if (lettered) {
    for (const tok of tokens) {
      if (letter1(tok)) {
        if (groups.length === MAX_VERIFIERS)
          throw refuse(N_("verifier {v} after F: a problem has at most 6 verifiers, A to F"), { v: upper(tok) });
        if (upper(tok) !== VERIFIER_LETTERS[groups.length])
          throw refuse(N_("verifier {v} out of order (expected {expected})"), { v: upper(tok), expected: VERIFIER_LETTERS[groups.length] });
        groups.push([]);
      } else groups[groups.length - 1].push(tok);
    }
  }
  let cards = [];
  let ids = [];
  let isNightmare = nightmare;
  if (lettered) {
    groups.forEach((group, v) => {
      const cs = group.filter((t) => !isId(t, lib));
      const vs = group.filter((t) => isId(t, lib));
      if (!cs.length || cs.length > 2 || vs.length > 1)
        throw refuse(group.length ? N_("verifier {v}: want one or two criteria cards and at most one verification card ID, got {got}")
          : N_("verifier {v}: want one or two criteria cards and at most one verification card ID, got nothing"),
        { v: VERIFIER_LETTERS[v], got: quote(group.join(" ")) });
      cards.push(cs.map((t) => cardNumber(t, lib)));
      ids.push(...vs);
    });
    if (ids.length && ids.length !== cards.length) throw refuse(N_("give a verification card ID for every verifier, or for none"));
    if (extreme && cards.some((c) => c.length !== 2))
      throw refuse(N_("--extreme needs two criteria cards for every verifier, e.g. A 13 17 O496 …"));
  } else {
    const cs = tokens.filter((t) => !isId(t, lib));
    ids = tokens.filter((t) => isId(t, lib));
    const marked = cs.map((t) => upper(t).startsWith("N"));
    if (marked.some((x) => x) && !marked.every((x) => x))
      throw refuse(N_("in Nightmare every criteria card is written with its N (N17 N34 N36 N44); or give --nightmare"));
    if (marked.some((x) => x)) isNightmare = true;
    if (cs.some((t) => t.includes("/"))) {
      for (const t of cs) {
        const parts = t.split("/");
        if (parts.length !== 2) throw refuse(N_("Extreme cards are written as pairs like 13/17, not {token}"), { token: quote(t) });
        cards.push(parts.map((t) => cardNumber(t, lib)));
      }
    } else {
      const numbers = cs.map((t) => cardNumber(t, lib));
      if (ids.length && numbers.length === 2 * ids.length && !isNightmare) extreme = true;
      if (extreme) {
        if (numbers.length % 2 || (ids.length && numbers.length !== 2 * ids.length)) {
          throw refuse(ids.length ? N_("Extreme needs two criteria cards per verifier, got {n} for {ids} verification cards")
            : N_("Extreme needs two criteria cards per verifier, got {n} (an odd number)"), { n: numbers.length, ids: ids.length });
        }
        for (let i = 0; i < numbers.length; i += 2) cards.push(numbers.slice(i, i + 2));
      } else {
        if (ids.length && numbers.length !== ids.length)
          throw refuse(N_("{n} criteria cards but {ids} verification cards"), { n: numbers.length, ids: ids.length });
        cards = numbers.map((x) => [x]);
      }
    }
  }
  const dealt = ids.map((t) => lib.parseId(t));
  if (cardsOnly && dealt.length) throw refuse(N_("--cards takes criteria cards only, but verification card IDs were given"));
  if (cards.length < 1 || cards.length > MAX_VERIFIERS) {
    const pairs = cards.length > MAX_VERIFIERS && cards.length % 2 === 0 && cards.every((c) => c.length === 1);
    throw refuse(pairs ? N_("a problem has 1..6 verifiers, not {n} (Extreme without verification cards? write each " +
      "verifier's two cards as 13/17, or give --extreme)") : N_("a problem has 1..6 verifiers, not {n}"), { n: cards.length });
  }
  const every = cards.flat();
  const twice = every.find((n) => every.filter((m) => m === n).length > 1);
  if (twice !== undefined) throw refuse(N_("criteria card {n} is given twice: a problem's criteria cards all differ"), { n: twice });
  let mode = cards.some((c) => c.length === 2) ? "extreme" : "classic";
  if (isNightmare) {
    if (mode === "extreme") throw refuse(N_("Nightmare takes one criteria card per verifier"));
    mode = "nightmare";
    cards.sort((a, b) => a[0] - b[0]);
  } else if (cards.some((c) => c.length !== cards[0].length)) {
    throw refuse(N_("Extreme needs two criteria cards for every verifier"));
  }
  const colour = dealt.length ? dealt[0][1] : "green";
  const other = dealt.findIndex(([, c]) => c !== colour);
  if (other >= 0)
    throw refuse(N_("verification card IDs {first} ({colour}) and {id} ({other}) differ in colour: a game reads all its " +
      "verification cards in one colour"), { first: ids[0], colour, id: ids[other], other: dealt[other][1] }, ["colour", "other"]);
  const problem = { mode, cards, dealt: dealt.length ? dealt.map(([card]) => card) : null, colour, name };
  if (problem.dealt) checkDealt(lib, problem);
  return problem;
}

/** Refuse dealt verification cards that break the rules (tmphys.game.problems.check_dealt). */
export function checkDealt(lib, problem) {
  const letters = VERIFIER_LETTERS.slice(0, problem.cards.length);
  const masks = problem.dealt.map((d) => lib.maskOf(d));
  const pools = problem.cards.map((cs) => new Set(lib.card(cs[0]).criteria.map((c) => c.mask)));
  const pairingFits = () => permutations(masks.length).some((perm) => masks.every((m, v) => pools[perm[v]].has(m)));
  if (problem.mode === "nightmare") {
    if (!pairingFits()) throw refuse(N_("no pairing of the criteria cards to the verifiers fits the verification cards"));
  } else {
    problem.dealt.forEach((d, v) => {
      const cs = problem.cards[v];
      if (!lib.candidates(cs).some((c) => c.mask === masks[v])) {
        const key = problem.mode === "classic" && pairingFits()
          ? N_("verifier {v}: verification card {card} ({criterion}) is not a criterion of criteria card {cards}; another " +
            "pairing of the criteria cards fits: for Nightmare (the pairing hidden), give --nightmare or write the cards N17 N34 …")
          : N_("verifier {v}: verification card {card} ({criterion}) is not a criterion of criteria card {cards}");
        throw refuse(key, { v: letters[v], card: lib.label(d, problem.colour), criterion: lib.criteria[d.criterion].text,
          cards: cs.join(" or ") }, ["criterion"]);
      }
    });
  }
  const tables = masks.map(big);
  const acc = tables.reduce((a, m) => a & m, FULL);
  const count = popcount(acc);
  if (count === 0) throw refuse(N_("no code passes every verifier"));
  if (count > 1) {
    const shown = [];
    for (let i = 0; i < 125; i++) if ((acc >> BigInt(i)) & 1n) shown.push(codeText(i));
    const named = shown.slice(0, CODES_NAMED).join(" ") + (count > CODES_NAMED ? " …" : "");
    throw refuse(N_("{n} codes pass every verifier ({codes}); a problem has exactly one"), { n: count, codes: named });
  }
  tables.forEach((_, v) => {
    const rest = tables.reduce((a, m, j) => (j === v ? a : a & m), FULL);
    if (popcount(rest) === 1 && tables.length > 1)
      throw refuse(N_("verifier {v} is redundant: the others already fix the code"), { v: letters[v] });
  });
}

/** The one code every dealt verification card passes (the problem checked), as its index. */
export function solution(lib, problem) {
  const acc = problem.dealt.map((d) => big(lib.maskOf(d))).reduce((a, m) => a & m, FULL);
  for (let i = 0; i < 125; i++) if ((acc >> BigInt(i)) & 1n) return i;
  return -1;
}

/** One line naming the mode, the criteria cards and the dealt verification cards (Problem.describe). */
export function describe(lib, problem) {
  const letters = VERIFIER_LETTERS.slice(0, problem.cards.length);
  let text = problem.mode === "nightmare"
    ? "Nightmare, criteria cards " + problem.cards.map((c) => c[0]).join(" ") + " (pairing unknown)"
    : problem.mode[0].toUpperCase() + problem.mode.slice(1) + ", " +
      problem.cards.map((cs, v) => `${letters[v]}: ${cs.join("/")}`).join("  ");
  if (problem.dealt) text += "; verification cards " + problem.dealt.map((d, v) => `${letters[v]}=${lib.label(d, problem.colour)}`).join(" ");
  return text;
}
