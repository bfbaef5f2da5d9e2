/* The page's side of the search: a Web Worker made from a blob (the worker's modules, inlined: so the page works
 * from file://) asked for the best move and both optima, its progress shown, cancelled by ending it; the answer shown.
 * The search itself is search.js and core.js in the worker (worker.js says its messages).
 *
 * The page's contract: #best-move [data-proposal, data-verifier, data-code, data-exact, data-end-round,
 * data-pending while a search runs]; #optima [data-json].
 */
import { facts } from "./data.js";
import { $ } from "./dom.js";
import { _, decimal, fmt, ngettext } from "./messages.js";
import { game, openRound, shaped } from "./state.js";

/** The worker, the id of the last ask (older answers are dropped), who waits for the answer or the memory. */
const search = { worker: null, asking: 0, memoryWanted: null, waiters: [], found: null, shown: null };
/** The position and objective a best move answers: an answer is kept for a new look at the same one. */
const positionKey = () => JSON.stringify([game.text, game.rounds, game.ended, game.objective]);

function startWorker() {
  if (search.worker) return search.worker;
  const url = URL.createObjectURL(new Blob([facts.worker], { type: "text/javascript" }));
  search.worker = new Worker(url);
  URL.revokeObjectURL(url);
  search.worker.postMessage({ type: "init", wasm: facts.wasm, library: facts.lib.cards });
  search.worker.onmessage = (e) => onWorker(e.data);
  search.worker.onerror = (e) => { showBestError(e.message || "the search stopped"); stopWorker(); };
  return search.worker;
}
export function stopWorker() {
  if (search.worker) search.worker.terminate();
  search.worker = null;
  $("cancel").hidden = true;
  $("progress").textContent = "";
}
export function clearBest() {
  const b = $("best-move");
  for (const k of ["proposal", "verifier", "code", "exact", "endRound"]) delete b.dataset[k];
  b.textContent = "";
  $("longer").hidden = true;
}
/** The problem's optimal play, not yet asked for (a problem opened: the last one's figures go). */
export function clearOptima() {
  $("optima").textContent = "";
  $("optima").dataset.json = "";
}

export function askBest(seconds = game.think) {
  if (!game.problem) return;
  clearBest();
  startWorker();
  search.asking += 1;
  // a longer look at the same position starts from the move shown (Stop keeps it until the search finds better)
  search.found = search.shown && search.shown.key === positionKey() ? search.shown.found : null;
  const atStart = !game.rounds.length;
  search.worker.postMessage({ type: "best", id: search.asking, problem: { mode: game.problem.mode, cards: game.problem.cards },
    library: [...new Set(game.problem.cards.flat())].map((n) => facts.lib.card(n)),
    rounds: game.rounds.map((r, i) => ({ ...r, ended: i === game.rounds.length - 1 && game.ended })),
    objective: game.objective, seconds, steps: null, optima: atStart });
  $("cancel").hidden = false;
  $("progress").textContent = _("Searching…");
  $("best-move").dataset.pending = "true";
}
function onWorker(msg) {
  if (msg.type === "memory") { if (search.memoryWanted) search.memoryWanted(msg.bytes); return; }
  if (msg.id !== search.asking) return;
  if (msg.type === "progress") {
    if (msg.found) search.found = { ...msg.found, objective: msg.objective };
    // numbers as the reader's language writes them: 20.480 steps and 2,279 rounds in German
    const scale = (c) => (msg.objective === "expected" ? `${decimal(c[0] / msg.weight, 3)} / ${decimal(c[1] / msg.weight, 3)}`
      : `${c[0]} / ${c[1]}`);
    $("progress").textContent = fmt(_("Searching ({objective}): {steps} steps; best found {up} rounds/questions, at least {low}"),
      { objective: msg.objective === "expected" ? _("on average") : _("worst case"), steps: decimal(msg.steps, 0),
        up: msg.up ? scale(msg.up) : "–", low: scale(msg.low) });
    return;
  }
  $("cancel").hidden = true;
  $("progress").textContent = "";
  delete $("best-move").dataset.pending;
  if (msg.type === "error") { showBestError(msg.message); return; }
  showBest(msg);
}
/** The player stops the search: the best move it found so far stays, said not proven (else: "cancelled"). */
export function stopBest() {
  const found = search.found;
  const waiting = $("best-move").dataset.pending;
  stopWorker();
  if (waiting && found) {
    delete $("best-move").dataset.pending;
    showBest({ move: found.move, exact: found.exact, bounds: found.bounds, objective: found.objective, stopped: true });
  } else {
    showBestError(_("cancelled"));
  }
}
export function showBestError(message) {
  const w = search.waiters;
  search.waiters = [];
  setTimeout(() => { for (const f of w) f(); }, 0);
  const b = $("best-move");
  delete b.dataset.pending;
  b.textContent = fmt(_("No best move: {why}"), { why: message });
}
function showBest(msg) {
  const b = $("best-move"), m = msg.move;
  search.shown = m.proposal ? { key: positionKey(), found: { move: m, exact: msg.exact, bounds: msg.bounds,
    objective: msg.objective } } : null;
  setTimeout(() => { const w = search.waiters; search.waiters = []; for (const f of w) f(); }, 0);
  b.dataset.exact = String(msg.exact);
  let text;
  if (m.contradiction) text = _("No move: the answers contradict every possible hidden assignment.");
  else if (m.code) {
    b.dataset.code = m.code;
    text = fmt(_("The code is known: {code}."), { code: shaped(m.code) });
  } else {
    b.dataset.proposal = m.proposal;
    b.dataset.verifier = m.verifier;
    if (m.endRound) b.dataset.endRound = "true";
    if (m.endRound) text = fmt(_("End this round; then propose {code} and ask {v}."), { code: shaped(m.proposal), v: m.verifier });
    else if (openRound()) text = fmt(_("Ask verifier {v}."), { v: m.verifier });
    else text = fmt(_("Propose {code} and ask {v}."), { code: shaped(m.proposal), v: m.verifier });
  }
  const searched = msg.objective || game.objective; // the search's own, whatever the toggle says now
  const objective = searched === "worst" ? _("best in the worst case") : _("best on average");
  let proof = "";
  const bounds = msg.exact ? null : msg.bounds;
  const mean = (c) => (searched === "worst" || !c ? c : c.map((x) => x / bounds.weight));
  if (bounds && bounds.up) {
    // the position's value between what is proven and what the move found reaches: "3–4 rounds, 8–10 questions"
    proof = ", " + fmt(_("not proven: the best found so far, {figures} from here"),
      { figures: figures(searched, mean(bounds.up), mean(bounds.low)) });
  } else if (!msg.exact) {
    // no strategy found yet: the move is the one-round bound's, and the value at least the floor (≥ 3 rounds)
    const floor = bounds ? figures(searched, null, mean(bounds.low)) : "";
    proof = ", " + (msg.stopped ? _("not proven: no strategy found yet") : _("not proven: the search stopped at its time limit")) +
      (floor ? "; " + floor : "");
  }
  b.textContent = `${text} (${objective}${proof})`;
  $("longer").hidden = msg.exact;
  if (msg.optima) {
    $("optima").dataset.json = JSON.stringify(msg.optima);
    const e = msg.optima.expected, w = msg.optima.worst;
    const lowE = e.lower_bound || {}, lowW = w.lower_bound || {};
    const avg = figures("expected", [e.rounds, e.questions], [lowE.rounds, lowE.questions]) || "?";
    const worst = figures("worst", [w.rounds, w.questions], [lowW.rounds, lowW.questions]) || "?";
    $("optima").textContent = fmt(_("Optimal play: {avg}; {worst}{proof}."),
      { avg, worst, proof: e.exact && w.exact ? "" : " (" + _("not proven") + ")" });
  }
}

/**
 * An objective's figures, [rounds, questions] (means on average), with the lower bounds still open beside them where
 * not proven: "2.50–2.83 rounds", "3–4 rounds, 8–10 questions". The bounds are the game's ranking, rounds first: a
 * lower bound on the questions holds only where it has the value's rounds. With no value (no strategy found yet),
 * the floor on the rounds alone ("at least 3 rounds"); "" where nothing is known.
 */
function figures(objective, value, low) {
  const known = (c) => !!c && c[0] !== null && c[0] !== undefined;
  const write = objective === "expected" ? decimal : (n) => String(n);
  const span = (v, l) => (l === undefined || l === null || l <= 0 || write(l) === write(v) ? write(v) : `${write(l)}–${write(v)}`);
  if (!known(value)) {
    if (!known(low) || low[0] <= 0) return "";
    return objective === "expected" ? fmt(_("at least {r} rounds on average"), { r: write(low[0]) })
      : fmt(ngettext("at least {n} round at worst", "at least {n} rounds at worst", low[0]), { n: write(low[0]) });
  }
  const lowQ = known(low) && write(low[0]) === write(value[0]) ? low[1] : undefined;
  const r = span(value[0], known(low) ? low[0] : undefined), q = span(value[1], lowQ);
  if (objective === "expected") return fmt(_("{r} rounds, {q} questions on average"), { r, q });
  return fmt(_("{rounds}, {questions} at worst"), {
    rounds: fmt(ngettext("{n} round", "{n} rounds", value[0]), { n: r }),
    questions: fmt(ngettext("{n} question", "{n} questions", value[1]), { n: q }) });
}

/** A promise kept when the best move asked for now is shown (or its search ends in an error). */
export function whenBest() {
  return new Promise((resolve) => {
    if (!$("best-move").dataset.pending) resolve(); else search.waiters.push(resolve);
  });
}

/** The search worker's memory in bytes (null without a worker): what a search took of the tab. */
export function workerMemory() {
  return new Promise((resolve) => {
    if (!search.worker) { resolve(null); return; }
    search.memoryWanted = resolve;
    search.worker.postMessage({ type: "memory" });
  });
}
