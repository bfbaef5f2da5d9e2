/* The table app's search, in a Web Worker (a blob: this module and those it imports, inlined by
 * tmphys/web/modules.py): the page posts a problem and a position, the worker answers with the best move and the
 * optima, reporting progress on the way. A cancel is the page ending the worker; a budget is seconds (or steps), after
 * which the move is the best the search found, labelled so.
 *
 * Messages in:  {type: "init", wasm: bytes, library: cards}
 *               {type: "best", id, problem: {mode, cards}, library: the problem's cards, rounds: [{proposal, answers: [[v, passed]]}], objective,
 *                seconds, steps, optima: bool}
 * Messages out: {type: "progress", id, objective, steps, low, up, weight, found}
 *               {type: "best", id, move: {proposal, verifier, endRound, code}, exact, bounds?, optima?}
 *               {type: "error", id, message}
 * and {type: "memory"} → {type: "memory", bytes}: the module's memory (benchmarks/app.py reads it).
 * `found` is the best move found so far ({move, exact, bounds} or null): what the page shows if the player stops the
 * search; `bounds` ({low, up, weight}: the position's value, as costs and the weight that makes them means) are the
 * ones still open where the move is not proven.
 */
import * as S from "./search.js";

let core = null;
let current = null; // {key, setup, solvers: {objective: Solver}}

const codeIndex = (text) => (text.charCodeAt(0) - 49) * 25 + (text.charCodeAt(1) - 49) * 5 + (text.charCodeAt(2) - 49);

function setupFor(problem) {
  const key = JSON.stringify([problem.mode, problem.cards]);
  if (current && current.key === key) return current;
  if (current) {
    for (const s of Object.values(current.solvers)) s.free();
    current.setup.free();
  }
  current = { key, setup: core.setup(problem), solvers: {} };
  return current;
}

/**
 * What the ask under way has found: the position, the stage (the move, then the optima), the best move found so far
 * and the position's bounds. The progress hook reads the engine's own (its best found's proposal and first question,
 * or verifier inside a round), so a stop keeps them.
 */
const ask = { at: null, stage: "move", round: false, chosen: -1, found: null, bounds: null, weight: 1, exact: false };

function noteFound(p, what) {
  const { at } = ask;
  if (ask.stage !== "move" || !at) return;
  if (what === "round" && ask.round) {
    // the search for the round to open: its bounds, its best proposal so far and the verifier that one asks first
    ask.bounds = { low: p.low, up: p.up, weight: ask.weight };
    if (!p.up || p.move < 0) return;
    const first = p.question >= 0 ? p.question : (current.setup.dividing(at.s, p.move)[0] ?? 0);
    ask.found = { proposal: S.codeText(p.move), verifier: S.LETTERS[first], endRound: at.proposal >= 0 };
  } else if (what === "inside" && (ask.chosen >= 0 || at.proposal >= 0)) {
    // the question to ask with the round's proposal: the one just chosen, or the open round's
    if (ask.chosen < 0) ask.bounds = { low: p.low, up: p.up, weight: ask.weight };
    const proposal = ask.chosen >= 0 ? ask.chosen : at.proposal;
    if (p.up && p.move >= 0) {
      ask.found = { proposal: S.codeText(proposal), verifier: S.LETTERS[p.move],
        endRound: ask.chosen >= 0 && at.proposal >= 0 };
    }
  }
}

function solverFor(objective, id) {
  let last = 0;
  const onProgress = (p, o, what, ended) => {
    noteFound(p, what);
    const now = Date.now();
    if (ended || now - last < 200) return false;
    last = now;
    const weight = ask.stage === "move" ? ask.weight : current.setup.weight(current.setup.universe());
    const found = ask.found ? { move: ask.found, exact: ask.stage !== "move" && ask.exact, bounds: ask.bounds } : null;
    postMessage({ type: "progress", id, objective: o, steps: p.steps, low: p.low, up: p.up, weight, found });
    return false;
  };
  if (!current.solvers[objective]) current.solvers[objective] = new S.Solver(current.setup, objective, { onProgress });
  const s = current.solvers[objective];
  s.onProgress = onProgress;
  return s;
}

/** The state after the rounds played, and where the last round stands. */
function position(setup, rounds) {
  let s = setup.universe();
  let opened = s;
  for (const r of rounds) {
    opened = s;
    for (const [v, passed] of r.answers) s = setup.answer(s, v, codeIndex(r.proposal), passed);
  }
  const last = rounds[rounds.length - 1];
  const open = last && last.answers.length < S.QUESTIONS && !last.ended;
  return { s, opened, proposal: open ? codeIndex(last.proposal) : -1, left: open ? S.QUESTIONS - last.answers.length : 0 };
}

function best(msg) {
  // One time budget for the whole ask (the move, then both optima), not a fresh one for each search in it.
  const started = core.now();
  const left = () => (msg.seconds == null ? null : Math.max(0, msg.seconds - (core.now() - started) / 1000));
  const { setup } = setupFor(msg.problem);
  const solver = solverFor(msg.objective, msg.id);
  solver.limit({ seconds: left(), steps: msg.steps });
  const at = position(setup, msg.rounds);
  void setup.pattern; // read before the search: the progress hook's fallback reads it without calling the core
  Object.assign(ask, { at, stage: "move", round: false, chosen: -1, found: null, bounds: null, weight: setup.weight(at.s) });
  const move = {};
  if (!at.s.length) {
    move.contradiction = true;
  } else if (setup.known(at.s)) {
    move.code = S.codeText(setup.codes[at.s[0]]);
  } else {
    let v = -1;
    if (at.proposal >= 0) v = solver.bestQuestion(at.s, at.proposal, at.left, at.opened);
    if (v >= 0) {
      move.proposal = S.codeText(at.proposal);
      move.verifier = S.LETTERS[v];
    } else {
      move.endRound = at.proposal >= 0;
      ask.round = true;
      const p = solver.bestProposal(at.s);
      Object.assign(ask, { round: false, chosen: p });
      move.proposal = S.codeText(p);
      const first = solver.bestQuestion(at.s, p, S.QUESTIONS, at.s);
      move.verifier = first >= 0 ? S.LETTERS[first] : "";
    }
  }
  const out = { type: "best", id: msg.id, objective: msg.objective, move, exact: !solver.stopped };
  if (solver.stopped && ask.bounds) {
    out.bounds = ask.bounds;
    if (at.proposal < 0) { // a round start: the engine's floor there may be higher than the search's (deep bounds)
      const f = solver.engine.floor(at.s), low = out.bounds.low;
      if (f.rounds > low[0] || (f.rounds === low[0] && f.questions > low[1])) out.bounds.low = [f.rounds, f.questions];
    }
  }
  Object.assign(ask, { stage: "optima", exact: out.exact, found: move.proposal ? move : null });
  if (msg.optima) {
    out.optima = {};
    for (const o of ["expected", "worst"]) {
      const s = solverFor(o, msg.id);
      s.limit({ seconds: left(), steps: msg.steps });
      out.optima[o] = s.optimalValue();
    }
  }
  postMessage(out);
}

self.onmessage = (event) => {
  const msg = event.data;
  try {
    if (msg.type === "init") {
      core = new S.Core(msg.wasm, { now: () => performance.now() });
      core.setLibrary(msg.library);
    } else if (msg.type === "best") {
      if (msg.library) core.setLibrary(msg.library); // the problem's cards (a link's own among them)
      best(msg);
    } else if (msg.type === "memory") { // the module's memory now (it only grows): for benchmarks
      postMessage({ type: "memory", id: msg.id, bytes: core.x.memory.buffer.byteLength });
    }
  } catch (e) {
    postMessage({ type: "error", id: msg.id, message: e instanceof S.OutOfMemory ? e.message : String(e.message || e) });
  }
};
