/* The table app: any problem set up in seconds, a note sheet that is the player's, checked deductions on request, the
 * machine (the dealt verification cards answer by the stack), the best move from tmphys's exact search, and a game
 * that is a link. Runs after problems.js, search.js and machine.js; its data is the #app-data script.
 *
 * The page's contract (tests and other tools rely on it):
 *   #problem=<book ID or app text>&moves=<241:A:pass,C:fail;…>[&ask=best][&objective=worst]
 *   #game-state [data-problem, data-assignments, data-codes]; #best-move [data-proposal, data-verifier, data-code,
 *   data-exact]; #optima [data-json]
 */
"use strict";
/* global TmphysProblems, TmphysSearch, TmphysMachine */
(function () {
  const D = JSON.parse(document.getElementById("app-data").textContent);
  const P = TmphysProblems, S = TmphysSearch, M = TmphysMachine;
  /** The table's language: the link's lang=, else the first of the browser's languages the app has, else the page's
   * own (the build's --lang, English by default). */
  const LANG = pickLanguage();
  /** The catalogue of LANG (msgid → translation, or the plural forms' list), unpacked at start. */
  let CATALOG = {};
  /** A word a player reads, from the catalogue. */
  const _ = (text) => (typeof CATALOG[text] === "string" && CATALOG[text]) || text;
  /** The form of one/many that LANG uses for n: its gettext plural rule as a table (n ≥ 200 reads 100 + n % 100). */
  const ngettext = (one, many, n) => {
    const forms = CATALOG[one];
    const table = (D.plurals || {})[LANG];
    if (!Array.isArray(forms) || !table) return n === 1 ? one : many;
    return forms[table[n < table.length ? n : 100 + (n % 100)]] || (n === 1 ? one : many);
  };
  function pickLanguage() {
    const known = new Map((D.languages || []).map((l) => [l.code.toLowerCase(), l.code]));
    const wanted = new URLSearchParams(location.hash.replace(/^#/, "")).get("lang");
    if (wanted && known.has(wanted.toLowerCase())) return known.get(wanted.toLowerCase());
    const alias = { zh: "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant",
      "zh-mo": "zh-Hant", pt: "pt-BR" };
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const t = String(tag).toLowerCase();
      for (const guess of [t, alias[t], t.split("-")[0], alias[t.split("-")[0]]]) {
        if (guess && known.has(guess.toLowerCase())) return known.get(guess.toLowerCase());
      }
    }
    return D.lang || "en";
  }
  const fmt = (text, args) => text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "data") Object.assign(e.dataset, v);
      else if (k === "class") e.className = v;
      else if (k in e) e[k] = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  };
  const LETTERS = P.VERIFIER_LETTERS;
  const COLOUR_KEYS = ["b", "y", "p"];
  const SHAPE = D.shapes;
  const SHAPES = [SHAPE.blue, SHAPE.yellow, SHAPE.purple];
  const QUESTIONS = 3;
  /** A fragment holds at most this much (tmphys.web.machine_page.FRAGMENT_LIMITS, as every page): a game has a
   * few dozen moves and marks, never more. */
  const FRAGMENT_LIMIT = D.fragment.chars;
  const MAX_ROUNDS = D.fragment.rounds;
  /** What a game's link may hold. */
  const FRAGMENT_KEYS = ["problem", "moves", "crossed", "out", "stacks", "objective", "guess", "ask", "think", "lang"];
  /** The best move's search: seconds a search may take, then a longer look on request. */
  const BEST_SECONDS = 15;
  const LONGER_SECONDS = 120;
  const codeIndex = (t) => (t.charCodeAt(0) - 49) * 25 + (t.charCodeAt(1) - 49) * 5 + (t.charCodeAt(2) - 49);
  const codeText = S.codeText;
  const shaped = (code) => `${SHAPES[0]}${code[0]} ${SHAPES[1]}${code[1]} ${SHAPES[2]}${code[2]}`;
  const mark = (passed) => (passed ? "✓" : "✗");

  // ------------------------------------------------------------------------------------------ loading
  function bytesOf(b64) {
    const s = atob(b64);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  async function gunzip(b64) {
    const stream = new Blob([bytesOf(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  const WASM = bytesOf(D.wasm);
  let lib = null; // the facts (TmphysProblems.Library)
  let core = null; // the search core on this page (the set-up; searches run in the worker)
  let artCache = null;

  // ------------------------------------------------------------------------------------------ the game's state
  const game = {
    text: "", // the problem as entered
    problem: null,
    setup: null,
    rounds: [], // [{proposal: "241", answers: [[verifier index, passed]]}]
    ended: false, // the last round ended before its three questions
    crossed: new Set(), // digits: "b1" … "p5"
    out: new Set(), // criteria: "A17.2" (verifier, card, criterion 1..); Nightmare cards: "A17"
    manual: false, // with dealt cards: the player notes real stacks (refused when the card cannot show it)
    draft: [1, 1, 1],
    objective: "expected",
    think: 15, // seconds the best move's search may take (think= in the link)
    guess: "",
    flagged: new Set(), // marks Check my notes found wrong
    revealed: "", // "codes" | "criteria" while a hint shows
  };
  let fragmentProblems = []; // what the fragment held that could not be read: reported, not dropped silently
  let keepFragment = false; // while those are shown, the address is left as it was until the player changes the game

  // ------------------------------------------------------------------------------------------ deduction
  let maskHex = []; // the set-up's truth tables as hexadecimal, to meet the cards' criteria
  let cardPlaces = null; // Nightmare: per class, the cards a pairing may put before each verifier (lazily)

  function prepare() {
    const su = game.setup;
    maskHex = su.masks.map((w) => ((BigInt(w[3]) << 96n) | (BigInt(w[2]) << 64n) | (BigInt(w[1]) << 32n) | BigInt(w[0])).toString(16));
    cardPlaces = null;
  }

  /** The classes still possible after the answers (ascending indices). */
  function alive(rounds = game.rounds) {
    let s = game.setup.universe();
    for (const r of rounds) for (const [v, passed] of r.answers) s = game.setup.answer(s, v, codeIndex(r.proposal), passed);
    return s;
  }

  /** Nightmare: whether a pairing of class k puts the card in slot `slot` before verifier v. */
  function placeable(k, v, slot) {
    if (!cardPlaces) cardPlaces = new Map();
    let places = cardPlaces.get(k);
    if (!places) {
      places = new Array(game.setup.n).fill(0);
      const cards = game.problem.cards.map((c) => c[0]);
      for (const pairing of game.setup.pairings(k)) pairing.forEach((card, u) => { places[u] |= 1 << cards.indexOf(card); });
      cardPlaces.set(k, places);
    }
    return (places[v] >> slot) & 1;
  }

  /** The criteria each verifier may check, as shown: [{card, index (1..), key, text, mask}] per card. */
  function shownCards(v) {
    const numbers = game.problem.mode === "nightmare" ? game.problem.cards.map((c) => c[0]) : game.problem.cards[v];
    return numbers.map((n) => ({ number: n, title: lib.cards[n - 1].title,
      criteria: lib.cards[n - 1].criteria.map((c, i) => ({ ...c, index: i + 1 })) }));
  }

  /**
   * Whether class k gives verifier v the criterion `hex` (a truth table; null: any) from card `card` (Nightmare: a
   * pairing puts the card before v); v -1 (Nightmare): some verifier.
   */
  function fits(k, v, hex, card) {
    if (v < 0) {
      for (let u = 0; u < game.setup.n; u++) if (fits(k, u, hex, card)) return true;
      return false;
    }
    if (hex !== null && maskHex[game.setup.criteria[k * game.setup.n + v]] !== hex) return false;
    if (game.problem.mode !== "nightmare") return true;
    return placeable(k, v, game.problem.cards.findIndex((c) => c[0] === card)) === 1;
  }

  /** Whether a criterion (or, hex null, a Nightmare card before verifier v) is still possible among classes s. */
  function possible(s, v, hex, card) {
    for (const k of s) if (fits(k, v, hex, card)) return true;
    return false;
  }

  /** Whether a digit of a colour is still possible. */
  function digitPossible(s, colour, digit) {
    for (const k of s) if (codeText(game.setup.codes[k])[colour] === String(digit)) return true;
    return false;
  }

  /**
   * A mark's meaning. Classic and Extreme: "A17.2", verifier A's criterion 2 of card 17. Nightmare, where the pairing
   * is hidden: "17.2", criterion 2 is not card 17's, and "A17", card 17 is not before verifier A.
   */
  function markOf(key) {
    if (!game.problem) return null;
    const nightmare = game.problem.mode === "nightmare";
    const m = (nightmare ? /^([A-F]?)([0-9]{1,2})(?:\.([0-9]))?$/ : /^([A-F])([0-9]{1,2})\.([0-9])$/).exec(key);
    if (!m || (nightmare && Boolean(m[1]) === (m[3] !== undefined))) return null; // Nightmare: "A17" or "17.2"
    const v = m[1] ? LETTERS.indexOf(m[1]) : -1;
    if (v >= game.problem.cards.length) return null;
    const card = Number(m[2]);
    const shown = shownCards(Math.max(v, 0)).find((c) => c.number === card);
    if (!shown) return null;
    if (m[3] === undefined) return { v, card, index: 0, hex: null };
    const crit = shown.criteria[Number(m[3]) - 1];
    return crit ? { v, card, index: crit.index, hex: crit.mask, crit } : null;
  }

  // ------------------------------------------------------------------------------------------ the machine
  let reader = null;
  const cardOf = (v) => game.problem.dealt[v];
  /** What verifier v's dealt card shows under the proposal, read through the stack: true for ✓. */
  function machineSays(v, proposal) {
    const data = D.machine.cards[cardOf(v).index - 1];
    const r = reader.readStack([...proposal].map(Number), data, null);
    return r.mark === "pass";
  }

  // ------------------------------------------------------------------------------------------ the fragment
  function parseMoves(text, problems) {
    const rounds = [];
    let ended = false;
    const groups = text.split(";");
    groups.forEach((group, gi) => {
      if (!group.trim()) { if (gi === groups.length - 1 && gi > 0) ended = true; return; }
      if (rounds.length >= MAX_ROUNDS) { problems.push(fmt(_("more than {n} rounds: the rest left out"), { n: MAX_ROUNDS })); return; }
      const at = group.indexOf(":");
      const proposal = (at < 0 ? group : group.slice(0, at)).trim();
      if (!/^[1-5]{3}$/.test(proposal)) {
        problems.push(fmt(_("not a code: {text} (want three digits 1..5, e.g. 241)"), { text: P.quote(proposal) }));
        return;
      }
      const round = { proposal, answers: [] };
      const items = at < 0 ? [] : group.slice(at + 1).split(",").filter((a) => a.trim());
      for (const item of items) {
        const m = /^\s*([A-Fa-f])\s*:\s*(pass|fail|✓|✗)\s*$/.exec(item);
        const v = m ? LETTERS.indexOf(m[1].toUpperCase()) : -1;
        if (!m || v >= game.problem.cards.length) {
          problems.push(fmt(_("round {round}: not an answer {text} (want a verifier {letters}, ':' and pass or fail)"),
            { round: rounds.length + 1, text: P.quote(item), letters: LETTERS.slice(0, game.problem.cards.length).split("").join(", ") }));
          continue;
        }
        const passed = m[2] === "pass" || m[2] === "✓";
        if (round.answers.length >= QUESTIONS) { problems.push(fmt(_("round {round}: more than three questions"), { round: rounds.length + 1 })); continue; }
        if (round.answers.some((a) => a[0] === v)) { problems.push(fmt(_("round {round}: verifier {v} asked twice"), { round: rounds.length + 1, v: LETTERS[v] })); continue; }
        const refused = refusal(v, passed, proposal);
        if (refused) { problems.push(fmt(_("round {round}: {why}"), { round: rounds.length + 1, why: refused })); continue; }
        round.answers.push([v, passed]);
      }
      rounds.push(round);
    });
    return { rounds, ended };
  }

  function movesText() {
    return game.rounds.map((r) => r.proposal + (r.answers.length ? ":" : "") +
      r.answers.map(([v, ok]) => `${LETTERS[v]}:${ok ? "pass" : "fail"}`).join(",")).join(";") + (game.ended && game.rounds.length ? ";" : "");
  }

  function toFragment() {
    const lang = LANG !== (D.lang || "en") || /(^#|&)lang=/.test(location.hash) ? `lang=${LANG}` : "";
    if (!game.problem) return lang ? "#" + lang : "";
    const parts = [`problem=${encodeURIComponent(game.text)}`];
    if (game.rounds.length) parts.push(`moves=${encodeURIComponent(movesText())}`);
    if (game.crossed.size) parts.push(`crossed=${[...game.crossed].sort().join(",")}`);
    if (game.out.size) parts.push(`out=${[...game.out].sort().join(",")}`);
    if (game.manual) parts.push("stacks=mine");
    if (game.objective === "worst") parts.push("objective=worst");
    if (game.guess) parts.push(`guess=${game.guess}`);
    if (game.think !== BEST_SECONDS) parts.push(`think=${game.think}`);
    if (lang) parts.push(lang);
    return "#" + parts.join("&");
  }

  function writeFragment() {
    if (keepFragment) return;
    const fragment = toFragment();
    if (location.hash !== fragment) history.replaceState(null, "", fragment || location.pathname);
  }

  async function fromFragment(fragment) {
    const problems = [];
    let text = String(fragment || "").replace(/^#/, "");
    if (text.length > FRAGMENT_LIMIT) {
      problems.push(fmt(_("the link is {n} characters long; a game's link holds at most {limit}: the rest was left out"),
        { n: text.length.toLocaleString("en-US"), limit: FRAGMENT_LIMIT.toLocaleString("en-US") }));
      text = text.slice(0, FRAGMENT_LIMIT);
    }
    let params;
    try { params = new URLSearchParams(text); } catch (e) { params = new URLSearchParams(); problems.push(String(e.message)); }
    const unknown = [...new Set([...params.keys()].filter((k) => !FRAGMENT_KEYS.includes(k)))];
    if (unknown.length) problems.push(fmt(_("not part of a game's link: {what}"), { what: unknown.slice(0, 3).map(P.quote).join(", ") }));
    if (text && !FRAGMENT_KEYS.some((k) => params.has(k))) { // nothing of a game: the game on the page stays as it is
      fragmentProblems = problems;
      keepFragment = true;
      render();
      return;
    }
    const wanted = params.get("problem");
    if (wanted !== null && wanted !== game.text) {
      const ok = openProblem(wanted, false);
      if (!ok) { problems.push($("setup-error").textContent); fragmentProblems = problems; keepFragment = true; render(); return; }
    }
    if (!game.problem) { fragmentProblems = problems; keepFragment = problems.length > 0; render(); return; }
    game.manual = params.get("stacks") === "mine" && !!game.problem.dealt;
    game.objective = params.get("objective") === "worst" ? "worst" : "expected";
    const moves = parseMoves(params.get("moves") || "", problems);
    game.rounds = moves.rounds;
    game.ended = moves.ended;
    game.crossed = new Set();
    for (const t of (params.get("crossed") || "").split(",").filter((x) => x)) {
      if (/^[byp][1-5]$/.test(t)) game.crossed.add(t);
      else problems.push(fmt(_("not a digit mark: {text} (want b, y or p and a digit, e.g. b3)"), { text: P.quote(t) }));
    }
    game.out = new Set();
    for (const t of (params.get("out") || "").split(",").filter((x) => x)) {
      if (markOf(t)) game.out.add(t);
      else problems.push(fmt(_("not a criterion of this problem: {text}"), { text: P.quote(t) }));
    }
    const think = Number(params.get("think"));
    game.think = params.has("think") && Number.isFinite(think) && think >= 0.05 && think <= 600 ? think : BEST_SECONDS;
    if (params.has("think") && game.think !== think) problems.push(fmt(_("think={text}: want seconds from 0.05 to 600"), { text: P.quote(params.get("think")) }));
    const guess = params.get("guess");
    game.guess = guess && /^[1-5]{3}$/.test(guess) ? guess : "";
    game.flagged = new Set();
    game.revealed = "";
    fragmentProblems = problems;
    keepFragment = problems.length > 0;
    render();
    if (params.get("ask") === "best") askBest();
  }

  // ------------------------------------------------------------------------------------------ setting a problem up
  /** Open a problem typed or given; false (with the reason shown) when it cannot be read. */
  function openProblem(text, write = true) {
    $("setup-error").textContent = "";
    let problem, setup;
    try {
      problem = P.parseProblem(lib, text);
      setup = core.setup(problem);
    } catch (e) {
      if (!(e instanceof P.ProblemError) && !(e instanceof Error)) throw e;
      $("setup-error").textContent = fmt(_("problem: {why}"), { why: e.message });
      return false;
    }
    if (game.setup) game.setup.free();
    Object.assign(game, { text: String(text).trim(), problem, setup, rounds: [], ended: false, crossed: new Set(),
      out: new Set(), manual: false, draft: [1, 1, 1], guess: "", flagged: new Set(), revealed: "" });
    prepare();
    stopWorker();
    clearBest();
    if (write) { keepFragment = false; fragmentProblems = []; changed(); }
    return true;
  }

  function dealOne() {
    const mode = $("deal-mode").value, n = Number($("deal-verifiers").value);
    const name = Object.keys(D.book.sets).find((s) => s.toLowerCase().startsWith(mode) && s.endsWith(`${n}V`));
    const list = lib.sets[name];
    const pick = list[Math.floor(Math.random() * list.length)];
    $("problem-input").value = pick.id;
    openProblem(pick.id);
  }

  function typedProblem() {
    const mode = $("form-mode").value;
    const words = [];
    let n = 0;
    for (const row of document.querySelectorAll("#form-verifiers [data-form-verifier]")) {
      const cards = [...row.querySelectorAll("input.card")].map((i) => i.value.trim()).filter((x) => x);
      const id = row.querySelector("input.vid").value.trim();
      if (!cards.length && !id) continue;
      words.push(LETTERS[n++], ...cards.map((c) => (mode === "nightmare" ? "N" + c.replace(/^[Nn]/, "") : c)), ...(id ? [id] : []));
    }
    if (mode === "nightmare") { // the pairing is hidden: the cards as a set, the IDs in verifier order
      const cards = words.filter((w) => /^N/i.test(w) && !lib.byId.has(Number(w.slice(1))));
      const ids = words.filter((w) => !LETTERS.includes(w) && !cards.includes(w));
      return [...cards, ...ids].join(" ");
    }
    return words.join(" ");
  }

  // ------------------------------------------------------------------------------------------ moves
  function openRound() {
    const r = game.rounds[game.rounds.length - 1];
    return r && !game.ended && r.answers.length < QUESTIONS ? r : null;
  }

  /** Why the dealt card cannot show this answer (the player noting real stacks), or "". */
  function refusal(v, passed, proposal) {
    if (!game.problem.dealt) return "";
    if (machineSays(v, proposal) === passed) return "";
    return fmt(_("Not what the card shows: verifier {v}'s verification card {card} under {code} shows {shown}. Check the stack (the three punch cards square on the card) and note the answer again."),
      { v: LETTERS[v], card: lib.label(cardOf(v), game.problem.colour), code: shaped(proposal), shown: mark(!passed) });
  }

  function say(text, kind = "") {
    const box = $("message");
    box.textContent = text;
    box.dataset.kind = kind;
  }

  function propose() {
    const code = game.draft.join("");
    game.rounds.push({ proposal: code, answers: [] });
    game.ended = false;
    say(fmt(_("Round {n}: you propose {code}. Ask a verifier."), { n: game.rounds.length, code: shaped(code) }));
    changed();
  }

  function ask(v, passed) {
    const r = openRound();
    if (!r) return;
    if (r.answers.some((a) => a[0] === v)) {
      say(fmt(_("Verifier {v} was already asked this round: asking again tells nothing new. Ask another verifier, or end the round."), { v: LETTERS[v] }), "refused");
      return;
    }
    if (passed === undefined) passed = machineSays(v, r.proposal);
    else {
      const refused = refusal(v, passed, r.proposal);
      if (refused) { say(refused, "refused"); return; }
    }
    const before = alive();
    r.answers.push([v, passed]);
    if (!alive().length && before.length) {
      r.answers.pop();
      say(fmt(_("Contradiction: verifier {v} {mark} on {code} contradicts every possible hidden assignment with the answers so far. Check the stack and note that answer again."),
        { v: LETTERS[v], mark: mark(passed), code: r.proposal }), "refused");
      return;
    }
    say(fmt(_("Verifier {v} says {mark} to {code}."), { v: LETTERS[v], mark: mark(passed), code: shaped(r.proposal) }));
    changed();
  }

  function endRound() {
    const r = openRound();
    if (!r) return;
    if (!r.answers.length) { say(_("A round needs at least one question: ask a verifier first."), "refused"); return; }
    game.ended = true;
    changed();
  }

  function undo() {
    const r = game.rounds[game.rounds.length - 1];
    if (!r) { say(_("Nothing to take back yet.")); return; }
    if (game.ended) game.ended = false;
    else if (r.answers.length) r.answers.pop();
    else { game.rounds.pop(); game.ended = game.rounds.length > 0; }
    changed();
  }

  function guess() {
    const code = $("guess-input").value.trim();
    if (!/^[1-5]{3}$/.test(code)) { say(fmt(_("not a code: {text} (want three digits 1..5, e.g. 241)"), { text: P.quote(code) }), "refused"); return; }
    game.guess = code;
    changed();
  }

  /** Any change the player makes: the notes' flags go, the address follows. */
  function changed() {
    game.flagged = new Set();
    game.revealed = "";
    keepFragment = false;
    fragmentProblems = [];
    clearBest();
    render();
  }

  // ------------------------------------------------------------------------------------------ asking for help
  function checkNotes() {
    const s = alive();
    const wrong = new Set();
    for (const t of game.crossed) if (digitPossible(s, COLOUR_KEYS.indexOf(t[0]), Number(t[1]))) wrong.add(t);
    for (const t of game.out) {
      const m = markOf(t);
      if (m && possible(s, m.v, m.hex, m.card)) wrong.add(t);
    }
    game.flagged = wrong;
    render();
    const n = wrong.size;
    say(n ? fmt(ngettext("{n} mark contradicts the answers so far: it is flagged.", "{n} marks contradict the answers so far: they are flagged.", n), { n })
      : _("Your notes agree with the answers so far."), n ? "wrong" : "ok");
  }

  function showHint(kind) {
    game.revealed = game.revealed === kind ? "" : kind;
    render();
    if (kind === "codes" && game.revealed) {
      const codes = game.setup.codesOf(alive()).map(codeText);
      say(fmt(ngettext("{n} code still possible: {codes}", "{n} codes still possible: {codes}", codes.length), { n: codes.length, codes: codes.join(" ") }));
    } else if (game.revealed) say(_("The criteria still possible are marked; the others are greyed."));
  }

  /** In words, what rules a criterion out for its verifier (Nightmare: for its card), or a card out before a verifier. */
  function why(key) {
    const m = markOf(key);
    if (!m) return "";
    const su = game.setup;
    const s = alive();
    const name = m.crit ? `“${_(m.crit.text)}”` : fmt(_("card {card}"), { card: m.card });
    const whose = m.v >= 0 ? fmt(_("verifier {v}"), { v: LETTERS[m.v] }) : fmt(_("card {card}"), { card: m.card });
    if (possible(s, m.v, m.hex, m.card)) return fmt(_("Nothing rules {name} out for {whose} yet: the answers so far fit it."), { name, whose });
    const u = su.universe().filter((k) => fits(k, m.v, m.hex, m.card));
    if (!u.length) {
      return m.crit
        ? fmt(_("No game can give {whose} {name}: with it, no choice of the other criteria leaves exactly one code with every verifier needed (the rules allow no other problem)."), { name, whose })
        : fmt(_("No game can put card {card} before verifier {v}: with it there, no choice of criteria leaves exactly one code with every verifier needed."), { card: m.card, v: LETTERS[m.v] });
    }
    if (m.crit && m.v >= 0) { // the verifier's own answers
      const table = BigInt("0x" + m.hex);
      for (const [i, r] of game.rounds.entries()) for (const [v, passed] of r.answers) {
        if (v !== m.v) continue;
        const passes = ((table >> BigInt(codeIndex(r.proposal))) & 1n) === 1n;
        if (passes !== passed) {
          return fmt(_("Round {round}: verifier {v} said {said} to {code}, but {name} would say {would}."),
            { round: i + 1, v: LETTERS[m.v], said: mark(passed), code: shaped(r.proposal), name, would: mark(passes) });
        }
      }
    }
    // every game with it needs the verifiers' criteria to be one of these; an answer rules each out
    const lines = [];
    for (const k of u.slice(0, 3)) {
      let found = null;
      game.rounds.forEach((r, i) => r.answers.forEach(([v, passed]) => {
        if (!found && su.passes(k, v, codeIndex(r.proposal)) !== (passed ? 1 : 0)) found = { i, v, passed, r };
      }));
      const others = [];
      for (let v = 0; v < su.n; v++) {
        if (v === m.v) continue;
        const hex = maskHex[su.criteria[k * su.n + v]];
        const cards = game.problem.mode === "nightmare" ? shownCards(0) : shownCards(v);
        const crit = cards.flatMap((c) => c.criteria).find((c) => c.mask === hex);
        others.push(`${LETTERS[v]}: ${crit ? _(crit.text) : "?"}`);
      }
      lines.push(fmt(_("with {others}, the code would be {code}; but round {round}: verifier {v} said {said} to {proposal}"),
        { others: others.join("; "), code: codeText(su.codes[k]), round: found.i + 1, v: LETTERS[found.v], said: mark(found.passed), proposal: shaped(found.r.proposal) }));
    }
    const more = u.length > 3 ? fmt(ngettext(" (and {n} more way, ruled out alike)", " (and {n} more ways, ruled out alike)", u.length - 3), { n: u.length - 3 }) : "";
    return fmt(_("{name} for {whose} needs the verifiers' criteria to be ones that, with the answers, leave no code: {ways}{more}."),
      { name, whose, ways: lines.join(" · "), more });
  }

  // ------------------------------------------------------------------------------------------ the best move (worker)
  let worker = null;
  let asking = 0;
  let memoryWanted = null;
  function startWorker() {
    if (worker) return worker;
    const url = URL.createObjectURL(new Blob([D.worker], { type: "text/javascript" }));
    worker = new Worker(url);
    URL.revokeObjectURL(url);
    worker.postMessage({ type: "init", wasm: WASM, library: lib.cards });
    worker.onmessage = (e) => onWorker(e.data);
    worker.onerror = (e) => { showBestError(e.message || "the search stopped"); stopWorker(); };
    return worker;
  }
  function stopWorker() {
    if (worker) worker.terminate();
    worker = null;
    $("cancel").hidden = true;
    $("progress").textContent = "";
  }
  function clearBest() {
    const b = $("best-move");
    for (const k of ["proposal", "verifier", "code", "exact", "endRound"]) delete b.dataset[k];
    b.textContent = "";
    $("longer").hidden = true;
  }
  function askBest(seconds = game.think) {
    if (!game.problem) return;
    clearBest();
    startWorker();
    asking += 1;
    const atStart = !game.rounds.length;
    worker.postMessage({ type: "best", id: asking, problem: { mode: game.problem.mode, cards: game.problem.cards },
      rounds: game.rounds.map((r, i) => ({ ...r, ended: i === game.rounds.length - 1 && game.ended })),
      objective: game.objective, seconds, steps: null, optima: atStart });
    $("cancel").hidden = false;
    $("progress").textContent = _("Searching…");
    $("best-move").dataset.pending = "true";
  }
  function onWorker(msg) {
    if (msg.type === "memory") { if (memoryWanted) memoryWanted(msg.bytes); return; }
    if (msg.id !== asking) return;
    if (msg.type === "progress") {
      const scale = (c) => (msg.objective === "expected" ? (c[0] / msg.weight).toFixed(3) + " / " + (c[1] / msg.weight).toFixed(3) : `${c[0]} / ${c[1]}`);
      $("progress").textContent = fmt(_("Searching ({objective}): {steps} steps; best found {up} rounds/questions, at least {low}"),
        { objective: msg.objective === "expected" ? _("on average") : _("worst case"), steps: msg.steps.toLocaleString("en-US"),
          up: msg.up ? scale(msg.up) : "–", low: scale(msg.low) });
      return;
    }
    $("cancel").hidden = true;
    $("progress").textContent = "";
    delete $("best-move").dataset.pending;
    if (msg.type === "error") { showBestError(msg.message); return; }
    showBest(msg);
  }
  function showBestError(message) {
    const w = bestWaiters;
    bestWaiters = [];
    setTimeout(() => { for (const f of w) f(); }, 0);
    const b = $("best-move");
    delete b.dataset.pending;
    b.textContent = fmt(_("No best move: {why}"), { why: message });
  }
  let bestWaiters = [];
  function showBest(msg) {
    const b = $("best-move"), m = msg.move;
    setTimeout(() => { const w = bestWaiters; bestWaiters = []; for (const f of w) f(); }, 0);
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
    const objective = game.objective === "worst" ? _("best in the worst case") : _("best on average");
    b.textContent = `${text} (${objective}${msg.exact ? "" : ", " + _("not proven: the search stopped at its time limit")})`;
    $("longer").hidden = msg.exact;
    if (msg.optima) {
      $("optima").dataset.json = JSON.stringify(msg.optima);
      const e = msg.optima.expected, w = msg.optima.worst;
      const avg = e.rounds === null ? "?" : fmt(_("{r} rounds, {q} questions on average"), { r: e.rounds_fraction, q: e.questions_fraction });
      const worst = w.rounds === null ? "?" : fmt(_("{r} rounds, {q} questions at worst"), { r: w.rounds, q: w.questions });
      $("optima").textContent = fmt(_("Optimal play: {avg}; {worst}{proof}."),
        { avg, worst, proof: e.exact && w.exact ? "" : " (" + _("not proven") + ")" });
    }
  }

  // ------------------------------------------------------------------------------------------ drawing
  function render() {
    const has = !!game.problem;
    $("setup").hidden = has && !$("setup").dataset.open;
    $("game").hidden = !has;
    const state = $("game-state");
    $("fragment-error").textContent = fragmentProblems.length
      ? fmt(_("Part of the link could not be read, and was left out (the rest of the game is kept): {what}"), { what: fragmentProblems.join("; ") }) : "";
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
    $("problem-line").textContent = P.describe(lib, game.problem);
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

  /** The verifiers' criteria and the digits, built once a problem (then only their marks change). */
  let built = "";
  function buildMarks() {
    if (built === game.text) return;
    built = game.text;
    const box = $("verifiers");
    box.replaceChildren();
    const n = game.problem.cards.length;
    if (game.problem.mode === "nightmare") buildCards(box, n);
    for (let v = 0; v < n && game.problem.mode !== "nightmare"; v++) {
      const panel = el("section", { class: "verifier", data: { verifier: LETTERS[v] } },
        el("h3", {}, el("span", { class: "letter" }, LETTERS[v]),
          game.problem.dealt ? el("span", { class: "dealt" }, " · " + lib.label(cardOf(v), game.problem.colour)) : ""));
      for (const card of shownCards(v)) {
        const cardKey = `${LETTERS[v]}${card.number}`;
        panel.append(el("div", { class: "card-title" }, fmt(_("card {n}: {title}"), { n: card.number, title: _(card.title) })));
        const list = el("ul", { class: "criteria" });
        for (const c of card.criteria) {
          const key = `${cardKey}.${c.index}`;
          const b = markButton(key, _(c.text), { class: "cross" }, false);
          b.possible = (s) => possible(s, v, c.mask, card.number);
          list.append(el("li", { data: { card: card.number, criterion: c.index } }, b, whyButton(key)));
        }
        panel.append(list);
      }
      box.append(panel);
    }
    const digits = $("digits");
    digits.replaceChildren();
    COLOUR_KEYS.forEach((ck, i) => {
      const row = el("div", { class: "digit-row" }, el("span", { class: `shape ${ck}` }, SHAPES[i]));
      for (let d = 1; d <= 5; d++) {
        const b = markButton(`${ck}${d}`, String(d), { class: "cross digit", data: { colour: ck, digit: d } }, true);
        b.possible = (s) => digitPossible(s, i, d);
        row.append(b);
      }
      digits.append(row);
    });
  }

  /** Nightmare: the cards, each with the verifiers it may stand before and its criteria (the pairing is hidden). */
  function buildCards(box, n) {
    box.append(el("p", { class: "note" }, _("Nightmare: which card stands before which verifier is hidden. Cross off the verifiers a card is not before, and the criteria that are not the card's.")));
    if (game.problem.dealt) {
      box.append(el("p", { class: "note" }, game.problem.cards.map((_c, v) => `${LETTERS[v]} · ${lib.label(cardOf(v), game.problem.colour)}`).join("   ")));
    }
    for (const card of shownCards(0)) {
      const panel = el("section", { class: "verifier", data: { card: card.number } },
        el("h3", {}, fmt(_("card {n}: {title}"), { n: card.number, title: _(card.title) })));
      const row = el("div", { class: "before", "aria-label": fmt(_("the verifiers card {n} may stand before"), { n: card.number }) });
      for (let v = 0; v < n; v++) {
        const key = `${LETTERS[v]}${card.number}`;
        const b = markButton(key, LETTERS[v], { class: "cross letter-mark", "aria-label": fmt(_("card {n} is not verifier {v}'s"), { n: card.number, v: LETTERS[v] }) }, false);
        b.possible = (s) => possible(s, v, null, card.number);
        row.append(b);
      }
      panel.append(row);
      const list = el("ul", { class: "criteria" });
      for (const c of card.criteria) {
        const key = `${card.number}.${c.index}`;
        const b = markButton(key, _(c.text), { class: "cross" }, false);
        b.possible = (s) => possible(s, -1, c.mask, card.number);
        list.append(el("li", { data: { card: card.number, criterion: c.index } }, b, whyButton(key)));
      }
      panel.append(list);
      box.append(panel);
    }
  }

  /** A mark the player toggles: a digit (in game.crossed) or a criterion or card (in game.out) while crossed. */
  function markButton(key, text, props, digit) {
    const b = el("button", { type: "button", ...props, data: { ...(props.data || {}), mark: key } }, text);
    b.addEventListener("click", () => {
      const set = digit ? game.crossed : game.out;
      if (set.has(key)) set.delete(key); else set.add(key);
      changed();
    });
    return b;
  }

  /** Each mark as the player made it, flagged when Check found it wrong, greyed while a hint shows. */
  function drawMarks(s) {
    buildMarks();
    for (const b of document.querySelectorAll("#verifiers button.cross, #digits button.cross")) {
      const key = b.dataset.mark;
      const on = game.crossed.has(key) || game.out.has(key);
      b.classList.toggle("crossed", on);
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("wrong", game.flagged.has(key));
      const hinted = (game.revealed === "criteria" && b.closest("#verifiers")) || (game.revealed === "codes" && b.closest("#digits"));
      b.classList.toggle("impossible", !!hinted && !b.possible(s));
    }
  }

  function whyButton(key) {
    const b = el("button", { class: "why", type: "button", data: { why: key } }, _("Why?"));
    b.addEventListener("click", () => say(why(key), "why"));
    return b;
  }

  function drawSheet() {
    const n = game.problem.cards.length;
    const sheet = $("sheet");
    sheet.style.setProperty("--verifiers", n);
    sheet.replaceChildren(...LETTERS.slice(0, n).split("").map((l) => el("div", { class: "head" }, l)));
    const open = openRound();
    game.rounds.forEach((r, i) => {
      sheet.append(el("div", { class: "proposal", data: { round: i + 1, proposal: r.proposal } },
        fmt(_("Round {n}"), { n: i + 1 }), " · ", el("b", {}, shaped(r.proposal))));
      for (let v = 0; v < n; v++) {
        const given = r.answers.find((a) => a[0] === v);
        const cell = el("div", { class: "answer", data: { round: i + 1, verifier: LETTERS[v], mark: given ? (given[1] ? "pass" : "fail") : "" } });
        if (given) cell.append(el("span", { class: given[1] ? "pass" : "fail" }, mark(given[1])));
        else if (r === open && game.problem.dealt && !game.manual) {
          const b = el("button", { type: "button", class: "ask", data: { ask: LETTERS[v] }, "aria-label": fmt(_("ask verifier {v}"), { v: LETTERS[v] }) }, "?");
          b.addEventListener("click", () => ask(v));
          cell.append(b);
        } else if (r === open) {
          for (const ok of [true, false]) {
            const b = el("button", { type: "button", class: `note ${ok ? "pass" : "fail"}`, data: { note: LETTERS[v], mark: ok ? "pass" : "fail" },
              "aria-label": fmt(_("verifier {v} showed {mark}"), { v: LETTERS[v], mark: mark(ok) }) }, mark(ok));
            b.addEventListener("click", () => ask(v, ok));
            cell.append(b);
          }
        }
        sheet.append(cell);
      }
    });
    const needsProposal = !open;
    $("proposer").hidden = !needsProposal || won();
    $("round-tools").hidden = !open;
    if (needsProposal) drawProposer();
    $("end-round").disabled = !open || !open.answers.length;
  }

  function drawProposer() {
    const box = $("digits-pick");
    box.replaceChildren();
    COLOUR_KEYS.forEach((ck, i) => {
      const row = el("div", { class: "pick-row", data: { colour: ck } }, el("span", { class: `shape ${ck}` }, SHAPES[i]));
      for (let d = 1; d <= 5; d++) {
        const b = el("button", { type: "button", class: "digit", data: { colour: ck, digit: d }, "aria-pressed": String(game.draft[i] === d) }, String(d));
        b.addEventListener("click", () => { game.draft[i] = d; drawProposer(); });
        row.append(b);
      }
      box.append(row);
    });
    $("propose-go").textContent = fmt(_("Propose {code}"), { code: shaped(game.draft.join("")) });
    $("propose-go").dataset.code = game.draft.join("");
  }

  function won() {
    return !!(game.guess && game.problem.dealt && codeIndex(game.guess) === P.solution(lib, game.problem));
  }

  function drawGuess() {
    const verdict = $("verdict");
    $("guess").hidden = !game.problem.dealt;
    verdict.dataset.code = game.guess;
    verdict.dataset.right = game.guess ? String(won()) : "";
    if (!game.guess || !game.problem.dealt) { verdict.textContent = ""; return; }
    const questions = game.rounds.reduce((t, r) => t + r.answers.length, 0);
    if (won()) {
      verdict.textContent = fmt(_("Right: the code is {code}, found in {rounds} and {questions}."),
        { code: shaped(game.guess), rounds: fmt(ngettext("{n} round", "{n} rounds", game.rounds.length), { n: game.rounds.length }),
          questions: fmt(ngettext("{n} question", "{n} questions", questions), { n: questions }) });
    } else {
      const failing = game.problem.cards.map((_c, v) => v).filter((v) => !machineSays(v, game.guess)).map((v) => LETTERS[v]);
      verdict.textContent = fmt(_("Not the code: {code} fails verifier {v}. Play on."), { code: shaped(game.guess), v: failing.join(", ") });
    }
  }

  // ------------------------------------------------------------------------------------------ the machine view
  let picture = null;
  const shift = { blue: [0, 0, 0], yellow: [0, 0, 0], purple: [0, 0, 0], card: [0, 0, 0] };
  async function art() {
    if (!artCache) artCache = JSON.parse(await gunzip(D.art));
    return artCache;
  }
  async function drawMachine() {
    const box = $("machine");
    if (!box.open || !game.problem) return;
    const pick = $("machine-verifier");
    const n = game.problem.cards.length;
    if (pick.options.length !== n + 1 || pick.dataset.problem !== game.text) {
      pick.replaceChildren(el("option", { value: "" }, _("no verification card")),
        ...LETTERS.slice(0, n).split("").map((l, v) => el("option", { value: String(v) },
          game.problem.dealt ? `${l} · ${lib.label(cardOf(v), game.problem.colour)}` : l)));
      pick.dataset.problem = game.text;
      pick.disabled = !game.problem.dealt;
    }
    const a = await art();
    if (!picture) picture = M.picture(D.machine, reader, $("machine-picture"), (kind, i) => a[kind][i]);
    const r = game.rounds[game.rounds.length - 1];
    const code = (openRound() ? r.proposal : game.draft.join("")).split("").map(Number);
    const v = pick.value === "" ? -1 : Number(pick.value);
    const card = v >= 0 && game.problem.dealt ? D.machine.cards[cardOf(v).index - 1] : null;
    const reading = reader.readStack(code, card, shift);
    picture.show(code, card, shift, reading.open);
    const out = $("machine-reading");
    out.dataset.openCells = reading.open.join(",");
    out.dataset.mark = reading.mark;
    const codeStr = code.join("");
    out.textContent = !card ? fmt(_("{code}: pick a verifier to stack it on its card."), { code: shaped(codeStr) })
      : reading.open.length === 1 && reading.mark
        ? fmt(_("{code} over {card}: the open cell shows {mark}."), { code: shaped(codeStr), card: lib.label(cardOf(v), game.problem.colour), mark: reading.mark === "pass" ? "✓" : "✗" })
        : fmt(_("{code}: {n} cells show — unreadable; square the cards up."), { code: shaped(codeStr), n: reading.open.length });
  }

  function buildSliders() {
    const box = $("machine-sliders");
    const L = D.machine.layout, tol = D.machine.tolerance;
    const max = Math.max(L.pitch_x, L.pitch_y);
    for (const name of M.LAYERS) {
      const title = name === "card" ? _("verification card") : `${D.shapes[name]} ${_(name)}`;
      const group = el("fieldset", { class: "slider-group" }, el("legend", {}, title));
      [["x", max, "mm"], ["y", max, "mm"], ["turn", 5, "°"]].forEach(([axis, limit, unit], k) => {
        const input = el("input", { type: "range", min: String(-limit), max: String(limit), step: "0.05", value: "0",
          "aria-label": `${title} ${axis}`, data: { layer: name, axis } });
        const output = el("output", {}, `0 ${unit}`);
        input.addEventListener("input", () => {
          shift[name][k] = parseFloat(input.value);
          output.textContent = `${input.value} ${unit}`;
          output.classList.toggle("beyond", Math.abs(shift[name][k]) > (k < 2 ? tol.mm : tol.rotation_deg) + 1e-9);
          drawMachine();
        });
        group.append(el("label", { class: "slider" }, el("span", {}, axis === "turn" ? _("turn") : fmt(_("shift {axis}"), { axis })), input, output));
      });
      box.append(group);
    }
  }

  // ------------------------------------------------------------------------------------------ wiring
  function wire() {
    $("open-problem").addEventListener("click", () => { if (openProblem($("problem-input").value)) { delete $("setup").dataset.open; render(); } });
    $("problem-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("open-problem").click(); });
    $("deal").addEventListener("click", () => { dealOne(); delete $("setup").dataset.open; render(); });
    $("form-open").addEventListener("click", () => {
      const text = typedProblem();
      $("problem-input").value = text;
      if (openProblem(text)) { delete $("setup").dataset.open; render(); }
    });
    $("form-mode").addEventListener("change", drawForm);
    $("change-problem").addEventListener("click", () => { $("setup").dataset.open = "true"; render(); $("problem-input").focus(); });
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
    $("cancel").addEventListener("click", () => { stopWorker(); showBestError(_("cancelled")); });
    $("objective").addEventListener("change", () => { game.objective = $("objective").value; changed(); });
    $("guess-go").addEventListener("click", guess);
    $("share").addEventListener("click", share);
    $("message").addEventListener("click", () => say(""));
    $("machine").addEventListener("toggle", drawMachine);
    $("machine-verifier").addEventListener("change", drawMachine);
    $("machine-align").addEventListener("click", () => {
      for (const n of M.LAYERS) shift[n] = [0, 0, 0];
      for (const i of document.querySelectorAll("#machine-sliders input")) i.value = "0";
      for (const o of document.querySelectorAll("#machine-sliders output")) { o.textContent = o.textContent.replace(/^[-0-9.]+/, "0"); o.classList.remove("beyond"); }
      drawMachine();
    });
    window.addEventListener("hashchange", () => fromFragment(location.hash));
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
  }

  function drawForm() {
    const mode = $("form-mode").value;
    const box = $("form-verifiers");
    box.replaceChildren();
    for (let v = 0; v < 6; v++) {
      const row = el("div", { class: "form-row", data: { formVerifier: LETTERS[v] } }, el("span", { class: "letter" }, LETTERS[v]),
        el("input", { class: "card", inputmode: "numeric", maxlength: "3", placeholder: _("card"), "aria-label": fmt(_("verifier {v}: criteria card"), { v: LETTERS[v] }) }));
      if (mode === "extreme") row.append(el("input", { class: "card", inputmode: "numeric", maxlength: "3", placeholder: _("card"), "aria-label": fmt(_("verifier {v}: second criteria card"), { v: LETTERS[v] }) }));
      row.append(el("input", { class: "vid", maxlength: "5", placeholder: _("ID (optional)"), "aria-label": fmt(_("verifier {v}: verification card ID"), { v: LETTERS[v] }) }));
      box.append(row);
    }
  }

  async function share() {
    writeFragment();
    const link = location.href;
    $("share-link").value = link;
    $("share-link").hidden = false;
    $("share-link").select();
    try {
      await navigator.clipboard.writeText(link);
      say(_("The game's link is copied: open it on another phone to go on there."));
    } catch (e) {
      say(_("Copy the game's link below: open it on another phone to go on there."));
    }
  }

  /** The page's own words (marked data-t, data-t-label in table.html) in the reader's language. */
  function translatePage() {
    for (const e of document.querySelectorAll("[data-t]")) e.textContent = _(e.textContent.trim().replace(/\s+/g, " "));
    for (const e of document.querySelectorAll("[data-t-label]")) e.setAttribute("aria-label", _(e.getAttribute("aria-label")));
    for (const e of document.querySelectorAll("[data-t-title]")) e.title = _(e.title);
    document.documentElement.lang = LANG;
    const pick = $("lang-pick");
    for (const l of D.languages || []) pick.append(el("option", { value: l.code, lang: l.code }, l.name));
    pick.value = LANG;
    pick.addEventListener("change", () => { // the game is in the link: the page comes back in the new language
      const params = new URLSearchParams(location.hash.replace(/^#/, ""));
      params.set("lang", pick.value);
      location.hash = params.toString();
      location.reload();
    });
  }

  async function start() {
    if (D.messages) CATALOG = JSON.parse(await gunzip(D.messages))[LANG] || {};
    translatePage();
    lib = new P.Library(D, await gunzip(D.book.gz));
    core = await loadCore();
    core.setLibrary(lib.cards);
    reader = M.reader(D.machine);
    wire();
    buildSliders();
    if (D.site && "serviceWorker" in navigator && location.protocol !== "file:") {
      navigator.serviceWorker.register("sw.js").catch(() => {});
    }
    await fromFragment(location.hash);
    document.body.dataset.readyAt = String(Math.round(performance.now())); // ms from the navigation's start
    document.body.dataset.ready = "true";
  }

  /** The search core on the page's own thread (compiled asynchronously, as browsers require there). */
  async function loadCore() {
    const holder = {};
    const { instance } = await WebAssembly.instantiate(WASM, { env: { tm_now: () => performance.now(), tm_poll: () => 0 } });
    holder.instance = instance;
    const c = Object.create(S.Core.prototype);
    c.x = instance.exports;
    c.scratch = c.x.tm_malloc(8 * 3 * S.CODES);
    c.now = () => performance.now();
    c.polled = null;
    return c;
  }

  window.tmphysApp = {
    open: (text) => openProblem(text),
    /** Show the game a fragment holds, as a link opened on this page does. */
    show: (fragment) => fromFragment(fragment),
    /** A promise kept when the best move asked for now is shown (or its search ends in an error). */
    whenBest: () => new Promise((resolve) => { if (!$("best-move").dataset.pending) resolve(); else bestWaiters.push(resolve); }),
    /** A problem read and set up as the page does: {mode, cards, dealt (deck places), colour} or {error}. */
    parse(text) {
      try {
        const p = P.parseProblem(lib, text);
        core.setup(p).free();
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
        const problem = P.parseProblem(lib, id);
        const su = core.setup(problem);
        const d = digest(su);
        su.free();
        return d;
      });
    },
    bookLines: () => Object.values(lib.sets).flat().map((p) => [p.id, p.line, p.answer]),
    /** The search worker's memory in bytes (null without a worker): what a search took of the tab. */
    workerMemory: () => new Promise((resolve) => {
      if (!worker) { resolve(null); return; }
      memoryWanted = resolve;
      worker.postMessage({ type: "memory" });
    }),
  };

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

  start().catch((e) => { $("setup-error").textContent = String(e && e.message ? e.message : e); });
})();
