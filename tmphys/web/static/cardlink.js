/* Users' own criteria cards carried by a game's link, so that any copy of the app opens a problem made of them,
 * offline: the link's criteria= holds the problem's users' cards (numbers, titles and words in every language given,
 * each criterion's codes as hexadecimal) and its dealt users' verification cards (four IDs, the criterion as a card
 * and its place on it), as compact JSON in base64url. Written as tmphys.web.table_app.game_link writes it, and read
 * back with the criteria loader's rules (tmphys/game/criteria_file.py), bounded: a bad value is refused whole, in one
 * line. Pure: no page is needed (tests/js/cardlink.test.mjs).
 *
 *   {"cards":[{"number":49,"title":{"en":"…"},"criteria":[{"text":{"en":"…"},"mask":"1f…"},…]},…],
 *    "verification":[{"ids":[green,yellow,blue,purple],"card":49,"criterion":2},…]}
 */
import { NOT_PRINTABLE, quote } from "./problems.js";

/** What a link's criteria may hold (the loader's bounds; a problem has at most 6 verifiers of two cards each). */
export const LIMITS = { chars: 4096, cards: 12, verification: 6, criteria: 9, text: 200, languages: 40,
  numbers: [49, 9999], ids: [1, 9999] };
const FULL = (1n << 125n) - 1n;

export class CriteriaLinkError extends Error {}

const refuse = (why) => { throw new CriteriaLinkError(why); };
const isInt = (x, [lo, hi]) => Number.isInteger(x) && x >= lo && x <= hi;
const plainObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
function keysAre(x, keys, what) {
  if (!plainObject(x)) refuse(`${what}: not an object`);
  const extra = Object.keys(x).filter((k) => !keys.includes(k));
  if (extra.length) refuse(`${what}: unknown key ${quote(extra[0])}`);
  for (const k of keys) if (!(k in x)) refuse(`${what}: no ${k}`);
}

export function base64url(text) {
  let s = "";
  for (const b of new TextEncoder().encode(text)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(value) {
  if (!/^[A-Za-z0-9_-]*$/.test(value) || value.length % 4 === 1) refuse("not base64url");
  const s = atob(value.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((value.length + 3) % 4));
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
  try { return new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { return refuse("not UTF-8 text"); }
}

/** The words of a title or criterion in each language, the first language first (as the criteria file gives them). */
function texts(x, what) {
  if (!plainObject(x)) refuse(`${what}: not a table of languages`);
  const entries = Object.entries(x);
  if (!entries.length || entries.length > LIMITS.languages) refuse(`${what}: 1 to ${LIMITS.languages} languages`);
  for (const [lang, t] of entries) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/.test(lang)) refuse(`${what}: not a language ${quote(lang)}`);
    const printable = typeof t === "string" && [...t].every((ch) => ch === " " || !NOT_PRINTABLE.test(ch));
    if (!printable || !t.trim() || [...t].length > LIMITS.text)
      refuse(`${what}.${lang}: should be one line of printable text, 1 to ${LIMITS.text} characters`);
  }
  return { first: entries[0][1], own: Object.fromEntries(entries) };
}

function mask(x, what) {
  if (typeof x !== "string" || !/^[0-9a-f]{1,32}$/.test(x)) refuse(`${what}: not a set of codes in hexadecimal`);
  const m = BigInt("0x" + x);
  if (m > FULL) refuse(`${what}: more than the 125 codes`);
  if (m === 0n) refuse(`${what}: true for no code: a criterion must tell codes apart`);
  if (m === FULL) refuse(`${what}: true for every code: a criterion must tell codes apart`);
  return m.toString(16);
}

/**
 * A link's criteria read against the page's library `lib` (problems.js): {cards, verification}, the cards and
 * verification cards the page lacks, in the page's shapes (criteria keys "link:49.2"); a card the page has must be
 * the same card. Throws CriteriaLinkError with the reason in one line.
 */
export function readCriteria(value, lib) {
  const raw = String(value);
  if (raw.length > LIMITS.chars) refuse(`${raw.length.toLocaleString("en-US")} characters, more than the ${LIMITS.chars.toLocaleString("en-US")} a link's criteria may hold`);
  let data;
  try { data = JSON.parse(unbase64url(raw)); } catch (e) { refuse(e instanceof CriteriaLinkError ? e.message : "not JSON"); }
  if (!plainObject(data)) refuse("not an object");
  keysAre(data, Object.keys(data).filter((k) => k === "cards" || k === "verification"), "criteria");
  const cards = data.cards || [], verification = data.verification || [];
  if (!Array.isArray(cards) || cards.length > LIMITS.cards) refuse(`cards: a list of at most ${LIMITS.cards}`);
  if (!Array.isArray(verification) || verification.length > LIMITS.verification)
    refuse(`verification: a list of at most ${LIMITS.verification}`);
  if (!cards.length && !verification.length) refuse("no card");
  const numbers = new Map(); // number → the card (the page's or the link's)
  const added = [];
  cards.forEach((c, i) => {
    const what = `cards[${i + 1}]`;
    keysAre(c, ["number", "title", "criteria"], what);
    if (!isInt(c.number, LIMITS.numbers)) refuse(`${what}.number: out of range (${LIMITS.numbers.join("..")})`);
    if (numbers.has(c.number)) refuse(`${what}.number: card ${c.number} is given twice`);
    if (lib.byId.has(c.number)) refuse(`${what}.number: ${c.number} is a verification card's ID`);
    const title = texts(c.title, `${what}.title`);
    if (!Array.isArray(c.criteria) || !c.criteria.length || c.criteria.length > LIMITS.criteria)
      refuse(`${what}.criteria: 1 to ${LIMITS.criteria} criteria`);
    const criteria = c.criteria.map((k, j) => {
      const at = `${what}.criteria[${j + 1}]`;
      keysAre(k, ["text", "mask"], at);
      const words = texts(k.text, `${at}.text`);
      return { key: `link:${c.number}.${j + 1}`, text: words.first, own: words.own, mask: mask(k.mask, `${at}.mask`) };
    });
    const mine = lib.card(c.number);
    if (mine) {
      const same = mine.criteria.length === criteria.length && mine.criteria.every((k, j) => k.mask === criteria[j].mask);
      if (!same) refuse(`${what}: card ${c.number} is not this page's card ${c.number} (its criteria differ)`);
      numbers.set(c.number, mine);
      return;
    }
    const card = { number: c.number, title: title.first, own: title.own, criteria };
    numbers.set(c.number, card);
    added.push(card);
  });
  const ids = new Set();
  const dealt = [];
  const colours = lib.ids.colours;
  verification.forEach((v, i) => {
    const what = `verification[${i + 1}]`;
    keysAre(v, ["ids", "card", "criterion"], what);
    const card = Number.isInteger(v.card) ? numbers.get(v.card) || lib.card(v.card) : undefined;
    if (!card) refuse(`${what}.card: no criteria card ${quote(String(v.card))} in the link or the page`);
    if (!isInt(v.criterion, [1, card.criteria.length])) refuse(`${what}.criterion: card ${v.card} has criteria 1..${card.criteria.length}`);
    const criterion = card.criteria[v.criterion - 1];
    if (!Array.isArray(v.ids) || v.ids.length !== colours.length || !v.ids.every((x) => isInt(x, LIMITS.ids)) ||
        new Set(v.ids).size !== colours.length) refuse(`${what}.ids: four different whole numbers ${LIMITS.ids.join("..")}`);
    const mine = lib.byId.get(v.ids[0]);
    if (mine && colours.every((c, k) => mine[0].ids[c] === v.ids[k]) && lib.maskOf(mine[0]) === criterion.mask) {
      return; // a verification card of the page's own
    }
    for (const id of v.ids) {
      if (ids.has(id) || lib.byId.has(id)) refuse(`${what}.ids: the ID ${id} is taken`);
      if (numbers.has(id) || lib.card(id)) refuse(`${what}.ids: ${id} is a criteria card's number`);
      ids.add(id);
    }
    dealt.push({ index: lib.verification.length + dealt.length + 1,
      ids: Object.fromEntries(colours.map((c, k) => [c, v.ids[k]])), criterion: criterion.key });
  });
  return { cards: added, verification: dealt };
}

/**
 * The criteria= value for a problem (lib: the page's library; published: how many criteria cards and verification
 * cards the published game has), "" when it uses none of users' (tmphys.web.table_app.link_criteria).
 */
export function criteriaText(lib, problem, published) {
  const all = [...new Set(problem.cards.flat())].sort((a, b) => a - b);
  const numbers = all.filter((n) => n > published.cards);
  const dealt = [];
  for (const v of problem.dealt || []) if (v.index > published.verification && !dealt.includes(v)) dealt.push(v);
  if (!numbers.length && !dealt.length) return "";
  const words = (x, text) => x.own || { en: text };
  const out = { cards: numbers.map((n) => lib.card(n)).map((c) => ({ number: c.number, title: words(c, c.title),
    criteria: c.criteria.map((k) => ({ text: words(k, k.text), mask: k.mask })) })) };
  if (dealt.length) {
    out.verification = dealt.map((v) => {
      const m = lib.maskOf(v);
      const find = (list, fits) => {
        for (const n of list) { const j = lib.card(n).criteria.findIndex(fits); if (j >= 0) return [n, j + 1]; }
        return null;
      };
      const [card, criterion] = find(numbers, (k) => k.key === v.criterion) || find(all, (k) => k.mask === m);
      return { ids: lib.ids.colours.map((c) => v.ids[c]), card, criterion };
    });
  }
  return base64url(JSON.stringify(out));
}

/** A verification card's face as the machine reads it (tmphys.cards.deck.Deck.faces): each code's cell shows the
 * criterion's truth; the decoy cells, which no aligned stack opens, show ✗. */
export function machineCard(machine, index, ids, hex) {
  const m = BigInt("0x" + hex);
  const codeIndex = (t) => (t.charCodeAt(0) - 49) * 25 + (t.charCodeAt(1) - 49) * 5 + (t.charCodeAt(2) - 49);
  const face = machine.layout.codes.map((c) => (c !== null && (m >> BigInt(codeIndex(c))) & 1n ? "1" : "0")).join("");
  return { index, ids, face, frame: machine.cards[0].frame };
}
