/* The problem book as the page carries it (web/book_data.py packs it), read back into the book's problems: their IDs,
 * sets, lines (as tmphys.game.book writes them) and answers. A problem is read out when first asked for: a link's
 * one problem does not wait for the 8,500.
 */

/** The digits of a packed book's places and card numbers (web/book_data.PLACES). */
const PLACES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The book as web/book_data.py packs it: a set a [name, IDs, cards, dealt, answers], each column's entries
 * joined by ",": a problem's criteria cards a character each (extreme: verifier by verifier, two each), its dealt
 * cards the colour's initial and each one's place among the cards its verifier may be dealt. `lib`: the Library
 * (its published cards). Returns [sets by name (each its problems, read out when first asked for), the problems
 * by their ID's key (its letters and digits in capitals, problems.js's bookKey): {get, has}].
 */
export function readBook(lib, book) {
  let dealable = null;
  const places = new Map();
  const candidates = (numbers) => { // the cards a verifier of these criteria cards may be dealt, in the deck's order
    if (!dealable) {
      dealable = new Map();
      for (const card of lib.cards) {
        const keys = new Set(card.criteria.map((c) => c.key));
        dealable.set(card.number, lib.verification.filter((v) => v.index <= lib.published && keys.has(v.criterion)));
      }
    }
    const key = numbers.join(" ");
    if (!places.has(key)) {
      const found = new Map(numbers.flatMap((n) => dealable.get(n)).map((v) => [v.index, v]));
      places.set(key, [...found.values()].sort((a, b) => a.index - b.index));
    }
    return places.get(key);
  };
  const columns = book.map(([name, ids, cards, dealt, answers]) =>
    ({ name, mode: /^[A-Z][a-z]+/.exec(name)[0].toLowerCase(), ids: ids.split(","), cards: cards.split(","),
      dealt: dealt.split(","), answers: answers.split(","), made: [] }));

  function problem(set, r) {
    if (set.made[r]) return set.made[r];
    const { mode } = set;
    const numbers = [...set.cards[r]].map((ch) => PLACES.indexOf(ch));
    const every = [...new Set(numbers)].sort((a, b) => a - b);
    const own = (i) => (mode === "nightmare" ? every : mode === "extreme" ? numbers.slice(2 * i, 2 * i + 2) : [numbers[i]]);
    const colour = lib.ids.colours.find((c) => c[0] === set.dealt[r][0]);
    const printed = [...set.dealt[r].slice(1)].map((ch, i) => candidates(own(i))[PLACES.indexOf(ch)].ids[colour]);
    const prefix = mode === "nightmare" ? "N" : "";
    const letter = lib.ids.letters[colour];
    const id = set.ids[r];
    const line = [String(r + 1), `#${id}`, "->", ...numbers.map((n) => prefix + n), ...printed.map((i) => letter + i)].join(",");
    return (set.made[r] = { id: `#${id}`, set: set.name, number: r + 1, line, answer: set.answers[r], mode });
  }

  const sets = {};
  for (const set of columns) {
    let list = null;
    Object.defineProperty(sets, set.name, { enumerable: true, get: () => (list ||= set.ids.map((_, r) => problem(set, r))) });
  }
  const at = new Map(); // an ID's key: its set and row (an ID is letters, digits and single spaces; the first kept)
  columns.forEach((set, s) => set.ids.forEach((id, r) => {
    const key = id.split(" ").join("");
    if (!at.has(key)) at.set(key, [s, r]);
  }));
  const byKey = { has: (key) => at.has(key), get: (key) => (at.has(key) ? problem(columns[at.get(key)[0]], at.get(key)[1]) : undefined) };
  return [sets, byKey];
}
