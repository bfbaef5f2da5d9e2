/* The table app: any problem set up in seconds, a note sheet that is the player's, checked deductions on request, the
 * machine (the dealt verification cards answer by the stack), the best move from tmphys's exact search, and a game
 * that is a link. This module starts the page and wires it: the words in the player's language, the facts read, the
 * controls, the one drawing of the game (each panel's own module draws it), the tests' handle (window.tmphysApp).
 *
 * The page's contract (tests and other tools rely on it): the link (state.js); #game-state [data-problem,
 * data-assignments, data-codes]; #best-move and #optima (best.js); body[data-ready] once it is ready.
 */
import { askBest, showBestError, stopBest, stopWorker, whenBest, workerMemory } from "./best.js";
import { Core, codeText } from "./core.js";
import { D, facts, gunzip, gunzipBytes, later, loaded, whenLoaded } from "./data.js";
import { alive, why } from "./deduce.js";
import { $, el, say, view } from "./dom.js";
import { idLabel, watchInk } from "./ink.js";
import { useFonts } from "./fonts.js";
import { fromFragment, share, wireHistory, writeFragment } from "./link.js";
import * as M from "./machine.js";
import { art, drawMachine, wireMachine } from "./machineview.js";
import { drawMarks } from "./marks.js";
import { _, fmt, language, pickLanguage, useWords } from "./messages.js";
import { changed, checkNotes, endRound, guess, propose, showHint, undo } from "./play.js";
import { Library, parseProblem } from "./problems.js";
import { openProblem, wireSetup } from "./setup.js";
import { drawGuess, drawSheet } from "./sheet.js";
import { LETTERS, LONGER_SECONDS, config, game, linkNotes } from "./state.js";

/** The game drawn as it stands, and the address after it. */
function render() {
  const has = !!game.problem;
  $("setup").hidden = has && !$("setup").dataset.open;
  $("game").hidden = !has;
  const state = $("game-state");
  $("fragment-error").textContent = linkNotes.problems.length
    ? fmt(_("Part of the link could not be read, and was left out (the rest of the game is kept): {what}"),
      { what: linkNotes.problems.join("; ") }) : "";
  if (!has) {
    state.dataset.problem = "";
    state.dataset.assignments = "";
    state.dataset.codes = "";
    writeFragment();
    return;
  }
  const s = alive();
  state.dataset.problem = game.text;
  state.dataset.assignments = String(game.setup.weight(s));
  state.dataset.codes = game.setup.codesOf(s).map(codeText).join(" ");
  $("problem-line").textContent = problemLine();
  $("objective").value = game.objective; // as the link set it
  $("machine-note").textContent = game.problem.dealt
    ? (game.manual ? _("You stack real cards: note what each stack shows (an answer the dealt card cannot show is refused).")
      : _("The verification cards are dealt: the app is the machine. Propose, then tap a verifier to stack your code on its card."))
    : _("Criteria cards only: note the answers your machine gives; the app checks and solves, it cannot answer.");
  $("stacks").hidden = !game.problem.dealt;
  $("stacks").textContent = game.manual ? _("Let the app be the machine") : _("I stack real cards");
  $("contradiction").textContent = s.length ? "" : _("These answers contradict every possible hidden assignment: one of them must be wrong (a stack misread, or a mark noted under the wrong verifier). Undo answers until codes are possible again.");
  drawMarks(s);
  drawSheet();
  drawGuess();
  drawMachine();
  writeFragment();
}

/**
 * The problem in one line, in the player's language (as Problem.describe writes it in English): its book ID when it
 * is the book's, the mode, the criteria cards at each verifier, the dealt verification cards.
 */
function problemLine() {
  const p = game.problem, lib = facts.lib;
  const letters = LETTERS.slice(0, p.cards.length);
  const mode = _(p.mode);
  let text = mode.charAt(0).toLocaleUpperCase(language()) + mode.slice(1) + ", " + (p.mode === "nightmare"
    ? fmt(_("criteria cards (pairing unknown): {cards}"), { cards: p.cards.map((c) => c[0]).join(" ") })
    : p.cards.map((cs, v) => `${letters[v]}: ${cs.join("/")}`).join("  "));
  if (p.dealt) text += "; " + _("verification cards") + " " + p.dealt.map((d, v) => `${letters[v]}=${idLabel(d, p.colour)}`).join(" ");
  const book = lib.bookProblem(game.text);
  return book ? `${book.id} · ${text}` : text;
}

/** The game's controls (the problem panel's and the machine's are wired by their modules). */
function wire() {
  $("propose-go").addEventListener("click", propose);
  $("end-round").addEventListener("click", endRound);
  $("undo").addEventListener("click", undo);
  $("stacks").addEventListener("click", () => { game.manual = !game.manual; changed(); });
  $("check").addEventListener("click", checkNotes);
  $("hint-codes").addEventListener("click", () => showHint("codes"));
  $("hint-criteria").addEventListener("click", () => showHint("criteria"));
  $("best").addEventListener("click", () => askBest());
  $("best").title = _("the best next move, from tmphys's exact search in this page");
  $("longer").addEventListener("click", () => askBest(LONGER_SECONDS));
  $("cancel").addEventListener("click", () => stopBest());
  $("objective").addEventListener("change", () => { game.objective = $("objective").value; changed(); });
  $("guess-go").addEventListener("click", guess);
  $("share").addEventListener("click", share);
  $("message").addEventListener("click", () => say(""));
  window.addEventListener("hashchange", () => whenLoaded(() => fromFragment(location.hash)));
  wireSetup();
  wireMachine();
  wireHistory();
}

/** The page's own words (marked data-t, data-t-label in table.html) in the reader's language, and the picker. */
function translatePage() {
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = _(e.textContent.trim().replace(/\s+/g, " "));
  for (const e of document.querySelectorAll("[data-t-label]")) e.setAttribute("aria-label", _(e.getAttribute("aria-label")));
  for (const e of document.querySelectorAll("[data-t-title]")) e.title = _(e.title);
  document.documentElement.lang = language();
  document.title = `tmphys · ${_("table")}`;
  const pick = $("lang-pick");
  for (const l of D.languages || []) pick.append(el("option", { value: l.code, lang: l.code }, l.name));
  pick.value = language();
  pick.addEventListener("change", () => { // the game is in the link: the page comes back in the new language
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    params.set("lang", pick.value);
    location.hash = params.toString();
    location.reload();
  });
}

/** A language's words: {English: translation or plural forms}, none for English (D.messages: web/table_app.py). */
async function wordsOf(lang) {
  if (!D.messages || !D.messages[lang]) return {};
  const [ids, texts] = await Promise.all([gunzip(D.messages.ids), gunzip(D.messages[lang])]).then((t) => t.map(JSON.parse));
  return Object.fromEntries(ids.map((id, i) => [id, texts[i]]).filter(([, text]) => text !== null));
}

async function start() {
  const lang = pickLanguage((D.languages || []).map((l) => l.code), location.hash,
    navigator.languages || [navigator.language || ""], D.lang);
  // English needs no catalogue: its first screen does not wait for the rest of the page to be parsed
  const words = (D.translated || []).includes(lang) ? later().then(() => wordsOf(lang)) : Promise.resolve({});
  if (D.fonts) {
    document.documentElement.style.setProperty("--own-font", `"tmphys-${lang}"`);
    useFonts(lang); // drawn with the system's fonts until it is ready, where they have the script
  }
  useWords(lang, await words, (D.plurals || {})[lang]);
  Object.assign(config, { shapes: [D.shapes.blue, D.shapes.yellow, D.shapes.purple], fragmentChars: D.fragment.chars,
    maxRounds: D.fragment.rounds });
  view.render = render;
  watchInk(document.body);
  translatePage();
  facts.lib = new Library(D, null);
  facts.reader = M.reader(D.machine);
  wire();
  if (D.site && "serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  const stamp = (what) => { document.body.dataset[what + "At"] = String(Math.round(performance.now())); };
  // the first screen is usable (a problem can be typed) before the search core has compiled: what is asked of it
  // meanwhile waits for it (whenLoaded); a link's game is drawn once it has
  const linked = new URLSearchParams(location.hash.replace(/^#/, "")).has("problem");
  if (!linked) stamp("usable");
  await later();
  const book = gunzip(D.bookPacked), wasm = gunzipBytes(D.wasm), worker = gunzip(D.worker);
  facts.wasm = await wasm;
  facts.core = await Core.load(facts.wasm, { now: () => performance.now() });
  facts.core.setLibrary(facts.lib.cards);
  facts.lib.setBook(JSON.parse(await book));
  facts.worker = await worker;
  loaded();
  await fromFragment(location.hash);
  if (linked) stamp("usable");
  stamp("ready"); // ms from the navigation's start
  document.body.dataset.ready = "true";
}

/** A set-up's classes, truth tables and weights in one number (a polynomial hash mod 2**32, as the tests take it). */
function digest(su) {
  let h = 0;
  const add = (x) => { h = (Math.imul(h, 0x01000193) + (x >>> 0)) >>> 0; };
  add(su.K); add(su.n); add(su.masks.length);
  for (const w of su.masks) for (const x of w) add(x);
  for (let k = 0; k < su.K; k++) {
    add(su.codes[k]); add(su.weights[k]);
    for (let v = 0; v < su.n; v++) add(su.criteria[k * su.n + v]);
  }
  return [su.K, h];
}

window.tmphysApp = {
  open: (text) => openProblem(text),
  /** Show the game a fragment holds, as a link opened on this page does. */
  show: (fragment) => fromFragment(fragment),
  whenBest,
  /** A problem read and set up as the page does: {mode, cards, dealt (deck places), colour} or {error}. */
  parse(text) {
    try {
      const p = parseProblem(facts.lib, text);
      facts.core.setup(p).free();
      return { mode: p.mode, cards: p.cards, dealt: p.dealt ? p.dealt.map((d) => d.index) : null, colour: p.colour };
    } catch (e) {
      return { error: e.message };
    }
  },
  state: () => ({ rounds: game.rounds, crossed: [...game.crossed], out: [...game.out], flagged: [...game.flagged] }),
  why,
  /** Set every book problem up as the page would and digest each (tests compare them with the Python model). */
  setupDigests(ids) {
    return ids.map((id) => {
      const su = facts.core.setup(parseProblem(facts.lib, id));
      const d = digest(su);
      su.free();
      return d;
    });
  },
  bookLines: () => Object.values(facts.lib.sets).flat().map((p) => [p.id, p.line, p.answer]),
  workerMemory,
  /** A card's picture as the page draws it (cardart.js): kind "punch" (0..14) or "cards" (0-based). */
  cardSvg: async (kind, index) => (await art()).svg(kind, index),
};

start().catch((e) => { $("setup-error").textContent = String(e && e.message ? e.message : e); });
