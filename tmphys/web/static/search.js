/* tmphys's exact search in a Web Worker or in Node: the solver that drives the core (core.js), as
 * tmphys.solve.solver.Solver does: both optima, the best move from any state of a game, the strategy, in the shapes
 * `tmphys solve --json` prints. The worker side of the table app's search (worker.js runs it; the page asks through
 * best.js).
 *
 * Nothing here knows a rule of the game: the core sets a problem up and searches it, and the tests hold both to the
 * Python model (tests/test_wasm.py, tests/test_app.py).
 */
import { Core, Setup, Engine, Stopped, OutOfMemory, codeText, tableWords, MEMO_BYTES, LETTERS, QUESTIONS, CODES }
  from "./core.js";

export { Core, Setup, Engine, Stopped, OutOfMemory, codeText, tableWords, MEMO_BYTES, LETTERS, QUESTIONS, CODES };

const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return Math.abs(a); };
/** A fraction as "9/7", or "2" when whole (as tmphys.text.fraction_text). */
export const fractionText = (n, d) => { const g = gcd(n, d) || 1; return d / g === 1 ? `${n / g}` : `${n / g}/${d / g}`; };
const cmp = (a, b) => (a[0] - b[0]) || (a[1] - b[1]);

/**
 * The optimal strategy of a problem for one objective, as tmphys.solve.solver.Solver plays it: from the exact
 * search where it finished within its limits, else from the best strategy it found (`stopped` says so), else the
 * proposal with the best one-round bound.
 */
export class Solver {
  constructor(setup, objective, options = {}) {
    this.d = setup;
    this.objective = objective;
    this.expected = objective === "expected";
    this.engine = new Engine(setup, this.expected, options.memoBytes, options.tableBytes);
    this.stopped = false;
    this.onProgress = options.onProgress || null;
  }

  free() { this.engine.free(); }

  /** Limits from now: seconds, or a budget of steps (null: none). */
  limit({ seconds = null, steps = null } = {}) {
    this.engine.limit(seconds, steps);
    this.stopped = false;
  }

  /**
   * One search of the engine, its progress reported as it goes and once more when it ends (`what`: "round" or
   * "inside", the value searched; `last` true that once).
   */
  _run(search, what = "round") {
    const core = this.d.core;
    core.polled = this.onProgress ? () => this.onProgress(this.engine.progress(), this.objective, what) : null;
    try {
      return search();
    } catch (e) {
      if (e instanceof Stopped) this.stopped = true;
      throw e;
    } finally {
      core.polled = null;
      if (this.onProgress) this.onProgress(this.engine.progress(), this.objective, what, true);
    }
  }

  roundValue(s) {
    if (this.d.known(s)) return [0, 0];
    const v = this._run(() => this.engine.roundValue(s));
    return [v.rounds, v.questions];
  }

  /** The optimum as the CLI's JSON entry (tmphys.solve.runner.optimal_value, without the greedy strategy). */
  optimalValue() {
    const u = this.d.universe();
    try {
      const [r, q] = this.roundValue(u);
      return { ...this.entry(r, q), exact: true };
    } catch (e) {
      if (!(e instanceof Stopped)) throw e;
    }
    const f = this.engine.floor(u);
    const low = [f.rounds, f.questions];
    if (f.exact) return { ...this.entry(...low), exact: true };
    const found = this.engine.knownMove(u).up;
    if (!found) {
      const none = this.expected ? { rounds: null, questions: null, rounds_fraction: null, questions_fraction: null }
        : { rounds: null, questions: null };
      return { ...none, exact: false, lower_bound: this.entry(...low) };
    }
    return { ...this.entry(...found), exact: cmp(found, low) === 0, lower_bound: this.entry(...low), strategy: "search" };
  }

  /** A cost as the CLI writes it: means (floats and fractions) over the assignments, or the worst pair. */
  entry(r, q) {
    if (!this.expected) return { rounds: r, questions: q };
    const w = this.d.weight(this.d.universe());
    return { rounds: r / w, questions: q / w, rounds_fraction: fractionText(r, w), questions_fraction: fractionText(q, w) };
  }

  /** The proposal to open the next round with (a code index), or -1 when the code is known. */
  bestProposal(s) {
    if (this.d.known(s)) return -1;
    if (!this.stopped) {
      try {
        return this._run(() => this.engine.roundValue(s)).move;
      } catch (e) {
        if (!(e instanceof Stopped)) throw e;
      }
    }
    const found = this.engine.knownMove(s);
    if (found.up && found.move >= 0) return found.move;
    const bounds = this.engine.roundBounds(s);
    let best = 0;
    for (let p = 1; p < CODES; p++) if (cmp(bounds[p], bounds[best]) < 0 || (cmp(bounds[p], bounds[best]) === 0 && bounds[p][2] < bounds[best][2])) best = p;
    return best;
  }

  /**
   * The verifier (0..5) to ask next with proposal p and `left` questions left, or -1 to end the round (or the game);
   * `opened`: the state at the round's start (ending the round is right when a new round is at least as good).
   */
  bestQuestion(s, p, left, opened = s) {
    if (this.d.known(s) || left === 0) return -1;
    const dividing = this.d.dividing(s, p);
    if (!dividing.length) return -1;
    if (!this.stopped) {
      try {
        const v = this._run(() => this.engine.insideValue(s, p, left), "inside");
        if (opened.length !== s.length && cmp(this.roundValue(s), [v.rounds, v.questions]) < 0) return -1;
        return v.move;
      } catch (e) {
        if (!(e instanceof Stopped)) throw e;
      }
    }
    const inside = this.engine.knownMove(s, p, left);
    if (opened.length !== s.length) {
      const round = this.engine.knownMove(s);
      if (round.up && (inside.up ? cmp(round.up, inside.up) < 0 : cmp(round.up, inside.low) <= 0)) return -1;
    }
    if (inside.up && inside.move >= 0) return inside.move;
    return dividing[0];
  }

  /** The strategy from a round start, as tmphys.solve.strategy.strategy_json writes it. */
  strategy(s = this.d.universe(), round = 1) {
    if (this.d.known(s)) return this._solved(s);
    const p = this.bestProposal(s);
    return { round, proposal: codeText(p), codes: this.d.codesOf(s).length, assignments: this.d.weight(s),
      then: this._questions(s, s, p, QUESTIONS, round) };
  }

  _solved(s) { return { code: codeText(this.d.codes[s[0]]), assignments: this.d.weight(s) }; }

  _questions(s, opened, p, left, round) {
    const v = this.bestQuestion(s, p, left, opened);
    if (v < 0) return this.d.known(s) ? this._solved(s) : this.strategy(s, round + 1);
    return { ask: LETTERS[v], pass: this._questions(this.d.answer(s, v, p, true), opened, p, left - 1, round),
      fail: this._questions(this.d.answer(s, v, p, false), opened, p, left - 1, round) };
  }
}

/**
 * Both optima of a set-up as `tmphys solve --json` gives them ({expected, worst}), each objective's search held to
 * `seconds` or to a budget of `steps`; with `tree`, the strategy of `objective`.
 */
export function solve(setup, { objective = "expected", seconds = null, steps = null, tree = false, onProgress = null,
  memoBytes = MEMO_BYTES } = {}) {
  const u = setup.universe();
  const out = { assignments: setup.weight(u), possible_codes: setup.codesOf(u).map(codeText), optimal: {} };
  const solvers = {};
  try {
    for (const o of [objective, objective === "expected" ? "worst" : "expected"]) {
      solvers[o] = new Solver(setup, o, { onProgress, memoBytes });
      solvers[o].limit({ seconds, steps });
      out.optimal[o] = solvers[o].optimalValue();
    }
    out.optimal = { expected: out.optimal.expected, worst: out.optimal.worst };
    if (tree) {
      const s = solvers[objective];
      s.limit({ seconds, steps });
      out.tree = s.strategy();
      out.played_optimally = !s.stopped;
    }
  } finally {
    for (const s of Object.values(solvers)) s.free();
  }
  return out;
}
