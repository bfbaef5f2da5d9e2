/* The problem book as the page carries it (web/book_data.py packs it), read back into the book's problems: their IDs,
 * sets, lines (as tmphys.game.book writes them) and answers.
 */

/** The digits of a packed book's places and card numbers (web/book_data.PLACES). */
const PLACES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The book as web/book_data.py packs it: a set a [name, IDs, cards, dealt, answers], each column's entries
 * joined by ",": a problem's criteria cards a character each (extreme: verifier by verifier, two each), its dealt
 * cards the colour's initial and each one's place among the cards its verifier may be dealt. `lib`: the Library
 * (its published cards); `keyOf`: an ID's key (problems.js's bookKey). Returns [sets by name, problems by key].
 */
export function readBook(lib, book, keyOf) {
  const sets = {}, byKey = new Map();
  const dealable = new Map(), places = new Map();
  for (const card of lib.cards) {
    const keys = new Set(card.criteria.map((c) => c.key));
    dealable.set(card.number, lib.verification.filter((v) => v.index <= lib.published && keys.has(v.criterion)));
  }
  const candidates = (numbers) => { // the cards a verifier of these criteria cards may be dealt, in the deck's order
    const key = numbers.join(" ");
    if (!places.has(key)) {
      const found = new Map(numbers.flatMap((n) => dealable.get(n)).map((v) => [v.index, v]));
      places.set(key, [...found.values()].sort((a, b) => a.index - b.index));
    }
    return places.get(key);
  };
  for (const [name, ids, cards, dealt, answers] of book) {
    const mode = /^[A-Z][a-z]+/.exec(name)[0].toLowerCase();
    const list = sets[name] = [];
    const C = cards.split(","), V = dealt.split(","), A = answers.split(",");
    ids.split(",").forEach((id, r) => {
      const numbers = [...C[r]].map((ch) => PLACES.indexOf(ch));
      const every = [...new Set(numbers)].sort((a, b) => a - b);
      const own = (i) => (mode === "nightmare" ? every : mode === "extreme" ? numbers.slice(2 * i, 2 * i + 2) : [numbers[i]]);
      const colour = lib.ids.colours.find((c) => c[0] === V[r][0]);
      const printed = [...V[r].slice(1)].map((ch, i) => candidates(own(i))[PLACES.indexOf(ch)].ids[colour]);
      const prefix = mode === "nightmare" ? "N" : "";
      const letter = lib.ids.letters[colour];
      const line = [String(r + 1), `#${id}`, "->", ...numbers.map((n) => prefix + n), ...printed.map((i) => letter + i)].join(",");
      const problem = { id: `#${id}`, set: name, number: r + 1, line, answer: A[r], mode };
      list.push(problem);
      const key = keyOf(problem.id);
      if (!byKey.has(key)) byKey.set(key, problem);
    });
  }
  return [sets, byKey];
}
