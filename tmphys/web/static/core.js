/* The search core compiled to WebAssembly (search.wasm, built from tmphys/solve/core by build-wasm.sh), in a page, a
 * Web Worker or Node: the module, the criteria cards, a problem's set-up (its hidden assignments in classes, their
 * codes, weights, truth tables and answers to every proposal) and one objective's search (an engine and its memo).
 * The page reads set-ups with it; the worker (search.js, worker.js) searches.
 *
 * Nothing here knows a rule of the game: the core sets a problem up and searches it; this file reads the core's
 * arrays and asks it, and the tests hold both to the Python model (tests/test_wasm.py, tests/test_app.py).
 */
const MODES = { classic: 0, extreme: 1, nightmare: 2 };
export const LETTERS = "ABCDEF";
export const CODES = 125;
export const QUESTIONS = 3;
const STATUS = { OK: 0, STOPPED: 1, NO_MEMORY: 2, INTERRUPTED: 3, ERROR: 4 };
/** The memo's share of a tab's memory (the module stops growing at 512 MiB). */
export const MEMO_BYTES = 320 * 1024 * 1024;
export const TABLE_BYTES = 48 * 1024 * 1024;
/** The criteria cards the core's library holds for a problem (tm.h's TM_CARDS). */
const LIBRARY_CARDS = 48;

/** A search that ran past its time or its budget of steps. */
export class Stopped extends Error {}
/** A search that ran out of the tab's memory budget. */
export class OutOfMemory extends Error {}

export const codeText = (i) => `${Math.floor(i / 25) + 1}${(Math.floor(i / 5) % 5) + 1}${(i % 5) + 1}`;

/** A truth table written as hexadecimal (a 125-bit number) as four 32-bit words, lowest first. */
export function tableWords(hex) {
  const padded = hex.padStart(32, "0");
  const words = [];
  for (let i = 3; i >= 0; i--) words.push(parseInt(padded.slice(i * 8, i * 8 + 8), 16) >>> 0);
  return words;
}


/** The compiled core: its memory, the criteria cards, problems set up, engines made. */
export class Core {
  /**
   * @param {BufferSource} bytes search.wasm
   * @param {{now?: () => number}} host a clock in milliseconds (a page's performance.now)
   */
  constructor(bytes, host = {}) {
    const now = host.now || (() => Date.now());
    this.polled = null; // (engine pointer) => true to stop: set by a solver while it searches
    const imports = {
      env: { tm_now: () => now(), tm_poll: (e) => (this.polled && this.polled(e) ? 1 : 0) },
    };
    this.x = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports;
    this.scratch = this.x.tm_malloc(8 * 3 * CODES);
    this.now = now;
  }

  /** The core compiled asynchronously, as a page's own thread requires (a worker or Node may use the constructor). */
  static async load(bytes, host = {}) {
    const core = Object.create(Core.prototype);
    const now = host.now || (() => Date.now());
    core.polled = null;
    const imports = { env: { tm_now: () => now(), tm_poll: (e) => (core.polled && core.polled(e) ? 1 : 0) } };
    core.x = (await WebAssembly.instantiate(bytes, imports)).instance.exports;
    core.scratch = core.x.tm_malloc(8 * 3 * CODES);
    core.now = now;
    return core;
  }

  f64(ptr, n) { return new Float64Array(this.x.memory.buffer, ptr, n); }

  /** The core's message for its last error. */
  error() {
    const bytes = new Uint8Array(this.x.memory.buffer);
    let end = this.x.tm_error_text();
    const start = end;
    while (bytes[end]) end++;
    return new TextDecoder().decode(bytes.subarray(start, end));
  }

  /** Criteria cards the core may be asked about, kept by number: [{number, criteria: [{mask: hex}, …]}, …] (cards
   * without a number: the published 48 in card order). */
  setLibrary(cards) {
    if (!this.cards) this.cards = new Map();
    cards.forEach((card, i) => this.cards.set(card.number ?? i + 1, card));
  }

  /** The core's library for one problem: its cards, renumbered 1, 2, … in ascending order of their own numbers (as
   * tmphys.solve.engine.core_cards gives them, so that any card, a user's numbered past 48 too, is a card like any
   * other); returns the numbers in that order. */
  _useCards(numbers) {
    const per = 1 + 9 * 4;
    const ptr = this.x.tm_malloc(LIBRARY_CARDS * per * 4);
    const words = new Uint32Array(this.x.memory.buffer, ptr, LIBRARY_CARDS * per);
    words.fill(0);
    numbers.forEach((n, c) => {
      const card = this.cards && this.cards.get(n);
      if (!card) throw new Error(`no criteria card ${n}`);
      words[c * per] = card.criteria.length;
      card.criteria.forEach((crit, i) => words.set(tableWords(crit.mask), c * per + 1 + i * 4));
    });
    this.x.tm_library(ptr);
    this.x.tm_free(ptr);
  }

  /** A problem {mode, cards: [[n], …] or [[a, b], …]} set up; throws Error(the core's message) if it cannot be. */
  setup(problem) {
    const numbers = [...new Set(problem.cards.flat())].sort((a, b) => a - b);
    if (numbers.length > LIBRARY_CARDS) throw new Error(`a problem has at most ${LIBRARY_CARDS} criteria cards`);
    this._useCards(numbers);
    const local = (n) => numbers.indexOf(n) + 1;
    const ptr = this.x.tm_malloc(14 * 4);
    const spec = new Int32Array(this.x.memory.buffer, ptr, 14);
    spec.fill(0);
    spec[0] = MODES[problem.mode];
    spec[1] = problem.cards.length;
    problem.cards.forEach((cs, v) => { spec[2 + 2 * v] = local(cs[0]); spec[3 + 2 * v] = cs[1] ? local(cs[1]) : 0; });
    const su = this.x.tm_setup(ptr);
    this.x.tm_free(ptr);
    if (!su) throw new Error(this.error());
    return new Setup(this, su, problem, numbers);
  }
}

/** A problem's hidden assignments, in classes (the core's set-up): codes, weights, criteria, answer patterns. */
export class Setup {
  constructor(core, ptr, problem, numbers) {
    const x = core.x;
    this.numbers = numbers; // the problem's card numbers, in the order the core numbers them 1, 2, …
    this.core = core;
    this.ptr = ptr;
    this.problem = problem;
    this.K = x.tm_setup_classes(ptr);
    this.n = problem.cards.length;
    const mem = () => x.memory.buffer;
    this.codes = new Int32Array(mem(), x.tm_setup_codes(ptr), this.K).slice();
    this.weights = Float64Array.from(new BigInt64Array(mem(), x.tm_setup_weights(ptr), this.K), Number);
    this.criteria = new Int32Array(mem(), x.tm_setup_criteria(ptr), this.K * this.n).slice();
    const nm = x.tm_setup_masks(ptr, 0);
    const mp = x.tm_malloc(nm * 16);
    x.tm_setup_masks(ptr, mp);
    const words = new Uint32Array(mem(), mp, nm * 4).slice();
    x.tm_free(mp);
    /** Each distinct truth table the classes use, as four words. */
    this.masks = Array.from({ length: nm }, (_, i) => words.subarray(4 * i, 4 * i + 4));
    this._pattern = null;
  }

  /** K x 125 bytes: bit v set when verifier v passes proposal p in class k. */
  get pattern() {
    if (!this._pattern) {
      const at = this.core.x.tm_setup_pattern(this.ptr);
      if (!at) throw new OutOfMemory("not enough memory in this tab to set the problem up");
      this._pattern = new Uint8Array(this.core.x.memory.buffer, at, this.K * CODES).slice();
    }
    return this._pattern;
  }

  /** Nightmare: the pairings of class k, the criteria card before each verifier, pairing by pairing. */
  pairings(k) {
    const x = this.core.x;
    const room = this.weights[k] * this.n;
    const ptr = x.tm_malloc(room * 4 + 4);
    const found = x.tm_setup_pairings(this.ptr, k, ptr);
    const flat = new Int32Array(x.memory.buffer, ptr, found * this.n).slice();
    x.tm_free(ptr);
    return Array.from({ length: found }, (_, i) => Array.from(flat.subarray(i * this.n, (i + 1) * this.n),
      (c) => this.numbers[c - 1]));
  }

  free() {
    this.core.x.tm_setup_free(this.ptr);
    this.ptr = 0;
  }

  // -- states: ascending Uint32Arrays of class indices ---------------------------------------------------
  universe() { return Uint32Array.from({ length: this.K }, (_, k) => k); }
  known(s) { return s.length > 0 && this.codes[s[0]] === this.codes[s[s.length - 1]]; }
  weight(s) { let w = 0; for (const k of s) w += this.weights[k]; return w; }
  /** The codes still possible (indices, ascending). */
  codesOf(s) { const out = []; for (const k of s) if (out[out.length - 1] !== this.codes[k]) out.push(this.codes[k]); return out; }
  passes(k, v, p) { return (this.pattern[k * CODES + p] >> v) & 1; }
  /** The state after verifier v answered the proposal p. */
  answer(s, v, p, passed) { return s.filter((k) => this.passes(k, v, p) === (passed ? 1 : 0)); }
  /** Whether verifier v's answer to p can still tell the state's classes apart. */
  divides(s, v, p) {
    let yes = 0;
    for (const k of s) yes += this.passes(k, v, p);
    return yes > 0 && yes < s.length;
  }
  /** The verifiers (0..n-1) whose answer to p can still tell the state's classes apart, in order. */
  dividing(s, p) {
    const out = [];
    for (let v = 0; v < this.n; v++) if (this.divides(s, v, p)) out.push(v);
    return out;
  }
}

/** One objective's search of a set-up, with its memo (the core's engine). */
export class Engine {
  constructor(setup, expected, memoBytes = MEMO_BYTES, tableBytes = TABLE_BYTES) {
    const x = setup.core.x;
    this.core = setup.core;
    this.setup = setup;
    this.ptr = x.tm_engine(setup.ptr, expected ? 1 : 0, memoBytes, tableBytes);
    if (!this.ptr) {
      const status = x.tm_status();
      const why = this.core.error();
      throw status === STATUS.NO_MEMORY ? new OutOfMemory(why) : new Error(why);
    }
    this.state = x.tm_malloc(setup.K * 4 + 4);
  }

  free() {
    const x = this.core.x;
    x.tm_free(this.state);
    x.tm_engine_free(this.ptr);
    this.ptr = 0;
  }

  _put(s) {
    new Uint32Array(this.core.x.memory.buffer, this.state, s.length).set(s);
    return [this.ptr, this.state, s.length];
  }

  _check(status) {
    if (status === STATUS.OK) return;
    if (status === STATUS.STOPPED || status === STATUS.INTERRUPTED) throw new Stopped("search stopped");
    if (status === STATUS.NO_MEMORY) throw new OutOfMemory(`the search needs more memory than this tab allows (${this.core.error()})`);
    throw new Error(this.core.error());
  }

  _out(n) { return Array.from(this.core.f64(this.core.scratch, n)); }

  /** The exact value of a round start and its best proposal: {rounds, questions, move}; Stopped past the limit. */
  roundValue(s) {
    this._check(this.core.x.tm_round_value(...this._put(s), this.core.scratch));
    const [rounds, questions, move] = this._out(3);
    return { rounds, questions, move };
  }

  /** Inside a round with proposal p and `left` questions left: the value and the verifier to ask. */
  insideValue(s, p, left) {
    const [e, st, m] = this._put(s);
    this._check(this.core.x.tm_inside_value(e, st, m, p, left, this.core.scratch));
    const [rounds, questions, move] = this._out(3);
    return { rounds, questions, move };
  }

  /** What the memo knows, without searching: {low: [r, q], up: [r, q] | null, move}. */
  knownMove(s, p = -1, left = 0) {
    const [e, st, m] = this._put(s);
    this._check(this.core.x.tm_known_move(e, st, m, p, left, this.core.scratch));
    const [lr, lq, ur, uq, hasUp, move] = this._out(6);
    return { low: [lr, lq], up: hasUp ? [ur, uq] : null, move: hasUp ? move : -1 };
  }

  /** The best lower bound known on a round start: {rounds, questions, exact}. */
  floor(s) {
    this._check(this.core.x.tm_floor(...this._put(s), this.core.scratch));
    const [rounds, questions, exact] = this._out(3);
    return { rounds, questions, exact: exact === 1 };
  }

  /** Each proposal's one-round bound: [[rounds, questions, tie-break], …] x 125. */
  roundBounds(s) {
    const [e, st, m] = this._put(s);
    this._check(this.core.x.tm_round_bounds(e, st, m, 1, this.core.scratch));
    const flat = this._out(3 * CODES);
    return Array.from({ length: CODES }, (_, p) => flat.slice(3 * p, 3 * p + 3));
  }

  steps() { return this.core.x.tm_steps(this.ptr); }

  /**
   * {steps, low: [r, q], up: [r, q] | null, move, question} of the search under way (or stopped): the best found's
   * move (a proposal at a round start, a verifier inside a round; -1: none) and, at a round start, its first question.
   */
  progress() {
    this.core.x.tm_progress(this.ptr, this.core.scratch);
    const [steps, lr, lq, ur, uq, hasUp, move, question] = this._out(8);
    return { steps, low: [lr, lq], up: hasUp ? [ur, uq] : null, move, question };
  }

  /** Stop at `seconds` from now and after `steps` more steps (either may be null: no limit). */
  limit(seconds, steps) {
    const x = this.core.x;
    x.tm_set_deadline(this.ptr, seconds == null ? 0 : 1, seconds == null ? 0 : this.core.now() / 1000 + seconds);
    x.tm_set_step_limit(this.ptr, steps == null ? 0 : this.steps() + Math.max(0, steps) + 1);
  }
}
