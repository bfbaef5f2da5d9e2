/* The game's state and its link: the problem, the rounds and their answers, the player's marks, what the best move is
 * asked for, and the fragment that holds it all (#problem=…&moves=…), written and read back. Pure: no page is needed
 * (tests/js/state.test.mjs); the page's side of the link (the address, the hashchange) is link.js.
 *
 * The link's contract (tests and other tools rely on it):
 *   #problem=<book ID or app text>[&criteria=<users' cards: cardlink.js>]&moves=<241:A:pass,C:fail;…>[&crossed=b1,…][&out=A17.2,…][&stacks=mine]
 *   [&objective=worst][&wrong=125,334][&guess=241][&think=seconds][&ask=best][&lang=de]
 */
import { VERIFIER_LETTERS, quote } from "./problems.js";
import { _, fmt } from "./messages.js";

export const LETTERS = VERIFIER_LETTERS;
export const COLOUR_KEYS = ["b", "y", "p"];
export const QUESTIONS = 3;
/** What a game's link may hold. */
export const FRAGMENT_KEYS = ["problem", "criteria", "moves", "crossed", "out", "stacks", "objective", "guess", "wrong", "ask",
  "think", "lang"];
/** The best move's search: seconds a search may take, then a longer look on request. */
export const BEST_SECONDS = 15;
export const LONGER_SECONDS = 120;

/**
 * Facts the page is built with (main.js sets them from its data): the code's three shapes, and what a fragment
 * holds at most (tmphys.web.machine_page.FRAGMENT_LIMITS: a game has a few dozen moves and marks, never more).
 */
export const config = { shapes: ["▲", "■", "●"], fragmentChars: 4000, maxRounds: 40 };

/** The game on the table. */
export const game = {
  text: "", // the problem as entered
  criteria: "", // its users' cards as its link carries them (cardlink.js), or ""
  problem: null,
  setup: null,
  rounds: [], // [{proposal: "241", answers: [[verifier index, passed]]}]
  ended: false, // the last round ended before its three questions
  crossed: new Set(), // digits: "b1" … "p5"
  out: new Set(), // criteria: "A17.2" (verifier, card, criterion 1..); Nightmare cards: "A17"
  manual: false, // with dealt cards: the player notes real stacks (refused when the card cannot show it)
  draft: [1, 1, 1],
  objective: "expected",
  think: BEST_SECONDS, // seconds the best move's search may take (think= in the link)
  guess: "", // the last code guessed
  wrong: [], // the codes guessed that were not the code, in order
  flagged: new Set(), // marks Check my notes found wrong
  revealed: "", // "codes" | "criteria" while a hint shows
};

/** What the link held that could not be read (said, not dropped silently); keep: while it is said, the address is
 * left as it was, until the player changes the game. */
export const linkNotes = { problems: [], keep: false };

/** A new problem on the table: everything of the last one goes. */
export function newGame(text, problem, setup) {
  Object.assign(game, { text: String(text).trim(), criteria: "", problem, setup, rounds: [], ended: false, crossed: new Set(),
    out: new Set(), manual: false, draft: [1, 1, 1], guess: "", wrong: [], flagged: new Set(), revealed: "" });
}

export const codeIndex = (t) => (t.charCodeAt(0) - 49) * 25 + (t.charCodeAt(1) - 49) * 5 + (t.charCodeAt(2) - 49);
/** A code with its colours' shapes: "▲2 ■4 ●1". */
export const shaped = (code) => config.shapes.map((s, i) => `${s}${code[i]}`).join(" ");
export const mark = (passed) => (passed ? "✓" : "✗");
/** Full-width digits (as a Japanese keyboard types them) and other compatibility forms as plain ones. */
export const plain = (text) => String(text).normalize("NFKC");

/** The round still asking (fewer than three answers, not ended), or null. */
export function openRound(g = game) {
  const r = g.rounds[g.rounds.length - 1];
  return r && !g.ended && r.answers.length < QUESTIONS ? r : null;
}

/** The questions asked in the whole game. */
export const questionsAsked = (g = game) => g.rounds.reduce((t, r) => t + r.answers.length, 0);

/** The rounds as the link writes them: "241:A:pass,C:fail;…", a last ";" when the last round ended early. */
export function movesText(g = game) {
  return g.rounds.map((r) => r.proposal + (r.answers.length ? ":" : "") +
    r.answers.map(([v, ok]) => `${LETTERS[v]}:${ok ? "pass" : "fail"}`).join(",")).join(";") +
    (g.ended && g.rounds.length ? ";" : "");
}

/**
 * The rounds of a link's moves=, each mistake said in `problems` and left out; `verifiers`: how many the problem has;
 * `refusal(v, passed, proposal)`: why the dealt card cannot show an answer, or "".
 */
export function parseMoves(text, problems, { verifiers, refusal = () => "" }) {
  const rounds = [];
  let ended = false;
  const groups = text.split(";");
  groups.forEach((group, gi) => {
    if (!group.trim()) { if (gi === groups.length - 1 && gi > 0) ended = true; return; }
    if (rounds.length >= config.maxRounds) {
      problems.push(fmt(_("more than {n} rounds: the rest left out"), { n: config.maxRounds }));
      return;
    }
    const at = group.indexOf(":");
    const proposal = (at < 0 ? group : group.slice(0, at)).trim();
    if (!/^[1-5]{3}$/.test(proposal)) {
      problems.push(fmt(_("not a code: {text} (want three digits 1..5, e.g. 241)"), { text: quote(proposal) }));
      return;
    }
    const round = { proposal, answers: [] };
    const items = at < 0 ? [] : group.slice(at + 1).split(",").filter((a) => a.trim());
    const said = (why) => problems.push(fmt(_("round {round}: {why}"), { round: rounds.length + 1, why }));
    for (const item of items) {
      const m = /^\s*([A-Fa-f])\s*:\s*(pass|fail|✓|✗)\s*$/.exec(item);
      const v = m ? LETTERS.indexOf(m[1].toUpperCase()) : -1;
      if (!m || v >= verifiers) {
        problems.push(fmt(_("round {round}: not an answer {text} (want a verifier {letters}, ':' and pass or fail)"),
          { round: rounds.length + 1, text: quote(item), letters: LETTERS.slice(0, verifiers).split("").join(", ") }));
        continue;
      }
      const passed = m[2] === "pass" || m[2] === "✓";
      if (round.answers.length >= QUESTIONS) {
        problems.push(fmt(_("round {round}: more than three questions"), { round: rounds.length + 1 }));
        continue;
      }
      if (round.answers.some((a) => a[0] === v)) {
        problems.push(fmt(_("round {round}: verifier {v} asked twice"), { round: rounds.length + 1, v: LETTERS[v] }));
        continue;
      }
      const refused = refusal(v, passed, proposal);
      if (refused) { said(refused); continue; }
      round.answers.push([v, passed]);
    }
    rounds.push(round);
  });
  return { rounds, ended };
}

/** The game as a fragment ("" with no problem and no language to keep); `lang`: the language to write, or "". */
export function fragmentOf(g = game, lang = "") {
  const langPart = lang ? `lang=${lang}` : "";
  if (!g.problem) return langPart ? "#" + langPart : "";
  const parts = [`problem=${encodeURIComponent(g.text)}`];
  if (g.criteria) parts.push(`criteria=${g.criteria}`);
  if (g.rounds.length) parts.push(`moves=${encodeURIComponent(movesText(g))}`);
  if (g.crossed.size) parts.push(`crossed=${[...g.crossed].sort().join(",")}`);
  if (g.out.size) parts.push(`out=${[...g.out].sort().join(",")}`);
  if (g.manual) parts.push("stacks=mine");
  if (g.objective === "worst") parts.push("objective=worst");
  if (g.wrong.length) parts.push(`wrong=${g.wrong.join(",")}`);
  if (g.guess) parts.push(`guess=${g.guess}`);
  if (g.think !== BEST_SECONDS) parts.push(`think=${g.think}`);
  if (langPart) parts.push(langPart);
  return "#" + parts.join("&");
}

/**
 * A fragment read: its parameters, and what could not be read said in `problems` (a link cut at its limit, keys no
 * game's link holds); `game`: whether it holds anything of a game at all.
 */
export function readFragment(fragment, problems) {
  let text = String(fragment || "").replace(/^#/, "");
  const own = /(?:^|&)criteria=([^&]*)/.exec(text); // users' cards: bounded on their own (cardlink.js)
  if (own) text = text.slice(0, own.index) + text.slice(own.index + own[0].length);
  if (text.length > config.fragmentChars) {
    problems.push(fmt(_("the link is {n} characters long; a game's link holds at most {limit}: the rest was left out"),
      { n: text.length.toLocaleString("en-US"), limit: config.fragmentChars.toLocaleString("en-US") }));
    text = text.slice(0, config.fragmentChars);
  }
  let params;
  try { params = new URLSearchParams(text); } catch (e) { params = new URLSearchParams(); problems.push(String(e.message)); }
  if (own) params.set("criteria", own[1]);
  const unknown = [...new Set([...params.keys()].filter((k) => !FRAGMENT_KEYS.includes(k)))];
  if (unknown.length) problems.push(fmt(_("not part of a game's link: {what}"), { what: unknown.slice(0, 3).map(quote).join(", ") }));
  return { params, game: !text || FRAGMENT_KEYS.some((k) => params.has(k)) };
}

/**
 * What a link says of the game on its problem (set up already): its rounds, marks, objective, guesses; each
 * mistake said in `problems` and left out. `markOf(key)`: a criterion mark's meaning, or null; `refusal` as
 * parseMoves's; `dealt`: whether the problem's verification cards are dealt.
 */
export function gameOf(params, problems, { verifiers, dealt, markOf, refusal }) {
  const out = {};
  out.manual = params.get("stacks") === "mine" && dealt;
  out.objective = params.get("objective") === "worst" ? "worst" : "expected";
  Object.assign(out, parseMoves(params.get("moves") || "", problems, { verifiers, refusal }));
  out.crossed = new Set();
  for (const t of (params.get("crossed") || "").split(",").filter((x) => x)) {
    if (/^[byp][1-5]$/.test(t)) out.crossed.add(t);
    else problems.push(fmt(_("not a digit mark: {text} (want b, y or p and a digit, e.g. b3)"), { text: quote(t) }));
  }
  out.out = new Set();
  for (const t of (params.get("out") || "").split(",").filter((x) => x)) {
    if (markOf(t)) out.out.add(t);
    else problems.push(fmt(_("not a criterion of this problem: {text}"), { text: quote(t) }));
  }
  const think = Number(params.get("think"));
  out.think = params.has("think") && Number.isFinite(think) && think >= 0.05 && think <= 600 ? think : BEST_SECONDS;
  if (params.has("think") && out.think !== think) {
    problems.push(fmt(_("think={text}: want seconds from 0.05 to 600"), { text: quote(params.get("think")) }));
  }
  const guess = params.get("guess");
  out.guess = guess && /^[1-5]{3}$/.test(guess) ? guess : "";
  out.wrong = (params.get("wrong") || "").split(",").filter((c) => /^[1-5]{3}$/.test(c)).slice(0, 125);
  return out;
}
