/* The problem panel: a problem opened from what the player types (a book ID, the official app's text, criteria
 * cards), dealt from the book, or typed card by card; a problem that cannot be read says why.
 */
import { clearBest, clearOptima, stopWorker } from "./best.js";
import { D, facts, whenLoaded } from "./data.js";
import { prepare } from "./deduce.js";
import { $, el, fitted, say, textWidth, view } from "./dom.js";
import { _, fmt } from "./messages.js";
import { problemCriteria } from "./owncards.js";
import { changed } from "./play.js";
import { ProblemError, parseProblem } from "./problems.js";
import { LETTERS, game, linkNotes, newGame, plain } from "./state.js";

const N_ = (s) => s;
/** The core's refusals a player may meet, as the core writes them ({n}: a number), to translate. */
const CORE_WORDS = [N_("a problem has 4–6 verifiers, not {n}: no valid game uses these criteria cards"),
  N_("no valid game uses these criteria cards: no choice of criteria gives exactly one code without a redundant verifier")];

/** Why a problem cannot be read, in the reader's words: the parser's refusal through its msgid and placeholders
 * (those that are words translated too), the core's matched to its msgid; else as written. */
export function refusal(e) {
  if (e instanceof ProblemError && e.key) {
    const params = { ...e.params };
    for (const w of e.words) params[w] = _(String(params[w]));
    return fmt(_(e.key), params);
  }
  for (const key of CORE_WORDS) {
    const shape = new RegExp("^" + key.replace(/[.*+?^$()[\]\\|]/g, "\\$&").replace("{n}", "([0-9]+)") + "$");
    const m = shape.exec(e.message);
    if (m) return fmt(_(key), { n: m[1] });
  }
  return e.message;
}

/** Open a problem typed or given; false (with the reason shown) when it cannot be read. */
export function openProblem(text, write = true) {
  $("setup-error").textContent = "";
  let problem, setup;
  try {
    problem = parseProblem(facts.lib, text);
    setup = facts.core.setup(problem);
  } catch (e) {
    if (!(e instanceof ProblemError) && !(e instanceof Error)) throw e;
    $("setup-error").textContent = fmt(_("problem: {why}"), { why: refusal(e) });
    return false;
  }
  if (game.setup) game.setup.free();
  newGame(text, problem, setup);
  game.criteria = problemCriteria(problem);
  say(""); // the last problem's message goes with it
  prepare();
  stopWorker();
  clearBest();
  clearOptima();
  if (write) { linkNotes.keep = false; linkNotes.problems = []; changed(); }
  return true;
}

function dealOne() {
  const mode = $("deal-mode").value, n = Number($("deal-verifiers").value);
  const name = Object.keys(D.book.sets).find((s) => s.toLowerCase().startsWith(mode) && s.endsWith(`${n}V`));
  const list = facts.lib.sets[name];
  const pick = list[Math.floor(Math.random() * list.length)];
  $("problem-input").value = pick.id;
  openProblem(pick.id);
}

function typedProblem() {
  const mode = $("form-mode").value;
  const words = [];
  let n = 0;
  for (const row of document.querySelectorAll("#form-verifiers [data-form-verifier]")) {
    const cards = [...row.querySelectorAll("input.card")].map((i) => plain(i.value).trim()).filter((x) => x);
    const id = plain(row.querySelector("input.vid").value).trim();
    if (!cards.length && !id) continue;
    words.push(LETTERS[n++], ...cards.map((c) => (mode === "nightmare" ? "N" + c.replace(/^[Nn]/, "") : c)), ...(id ? [id] : []));
  }
  if (mode === "nightmare") { // the pairing is hidden: the cards as a set, the IDs in verifier order
    const cards = words.filter((w) => /^N/i.test(w) && !facts.lib.byId.has(Number(w.slice(1))));
    const ids = words.filter((w) => !LETTERS.includes(w) && !cards.includes(w));
    return [...cards, ...ids].join(" ");
  }
  return words.join(" ");
}

function drawForm() {
  const mode = $("form-mode").value;
  const box = $("form-verifiers");
  box.replaceChildren();
  for (let v = 0; v < 6; v++) {
    const row = el("div", { class: "form-row", data: { formVerifier: LETTERS[v] } }, el("span", { class: "letter" }, LETTERS[v]),
      el("input", { class: "card", inputmode: "numeric", maxlength: "4", placeholder: _("card"), "aria-label": fmt(_("verifier {v}: criteria card"), { v: LETTERS[v] }) }));
    if (mode === "extreme") row.append(el("input", { class: "card", inputmode: "numeric", maxlength: "4", placeholder: _("card"), "aria-label": fmt(_("verifier {v}: second criteria card"), { v: LETTERS[v] }) }));
    row.append(el("input", { class: "vid", maxlength: "5", placeholder: _("ID (optional)"), "aria-label": fmt(_("verifier {v}: verification card ID"), { v: LETTERS[v] }) }));
    box.append(row);
  }
  fitted(fitForm);
}

/** Each field of the open form at least as wide as its placeholder in the reader's words (the row wraps if need be). */
function fitForm() {
  if (!$("type-cards").open) return; // measured when the form is shown
  for (const input of $("form-verifiers").querySelectorAll("input")) {
    const cs = getComputedStyle(input);
    const room = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"].reduce((a, k) => a + parseFloat(cs[k]), 0);
    input.style.minWidth = `${Math.ceil(textWidth(input.placeholder, input) + room) + 2}px`;
  }
}

/** The problem panel's controls: Open (or Enter), Deal, the typed cards' form, Problem… in the header. */
export function wireSetup() {
  const opened = () => { delete $("setup").dataset.open; view.render(); };
  // what the player types is read in plain forms: full-width digits and letters (a Japanese keyboard's) as ASCII
  $("open-problem").addEventListener("click", () => whenLoaded(() => {
    if (openProblem(plain($("problem-input").value))) opened();
  }));
  $("problem-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("open-problem").click(); });
  $("deal").addEventListener("click", () => whenLoaded(() => { dealOne(); opened(); }));
  $("form-open").addEventListener("click", () => whenLoaded(() => {
    const text = typedProblem();
    $("problem-input").value = text;
    if (openProblem(text)) opened();
  }));
  $("form-mode").addEventListener("change", drawForm);
  $("type-cards").addEventListener("toggle", fitForm);
  $("change-problem").addEventListener("click", () => {
    $("setup").dataset.open = "true";
    view.render();
    fitExample();
    $("problem-input").focus();
  });
  const sets = Object.keys(D.book.sets);
  for (const mode of ["classic", "extreme", "nightmare"]) $("deal-mode").append(el("option", { value: mode }, _(mode)));
  $("deal-mode").addEventListener("change", () => {
    const mode = $("deal-mode").value;
    $("deal-verifiers").replaceChildren(...sets.filter((s) => s.toLowerCase().startsWith(mode)).map((s) => {
      const n = /([0-9])V$/.exec(s)[1];
      const level = /^[A-Z][a-z]+([A-Z][a-z]+)/.exec(s)[1].toLowerCase();
      return el("option", { value: n }, fmt(_("{n} verifiers, {level}"), { n, level: _(level) }));
    }));
  });
  $("deal-mode").dispatchEvent(new Event("change"));
  for (const mode of ["classic", "extreme", "nightmare"]) $("form-mode").append(el("option", { value: mode }, _(mode)));
  drawForm();
  fitted(fitExample);
  window.addEventListener("resize", fitExample);
}

/** The problem box's example (a book ID · cards typed), cut to the book ID where the whole does not fit the box. */
function fitExample() {
  const input = $("problem-input");
  const whole = (input.dataset.example ||= input.placeholder);
  const cs = getComputedStyle(input);
  const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  input.placeholder = !input.clientWidth || textWidth(whole, input) <= room ? whole : whole.split(" · ")[0];
}
