/* The moves a player makes and the help asked for: a proposal, a verifier asked (the app as the machine, or the
 * answer a real stack showed, refused when the dealt card cannot show it), a round ended, a move taken back, a code
 * guessed; Check my notes and the hints. Every change redraws the game and lets the address follow.
 */
import { codeText } from "./core.js";
import { facts } from "./data.js";
import { alive, digitPossible, markOf, possible } from "./deduce.js";
import { $, say, view } from "./dom.js";
import { idLabel } from "./ink.js";
import { cardOf, machineSays } from "./machineview.js";
import { _, fmt, ngettext } from "./messages.js";
import { quote, solution } from "./problems.js";
import { COLOUR_KEYS, LETTERS, codeIndex, game, linkNotes, mark, openRound, plain, questionsAsked, shaped } from "./state.js";
import { clearBest } from "./best.js";

/** Why the dealt card cannot show this answer (the player noting real stacks), or "". */
export function refusal(v, passed, proposal) {
  if (!game.problem.dealt) return "";
  if (machineSays(v, proposal) === passed) return "";
  return fmt(_("Not what the card shows: verifier {v}'s verification card {card} under {code} shows {shown}. Check the stack (the three punch cards square on the card) and note the answer again."),
    { v: LETTERS[v], card: idLabel(cardOf(v), game.problem.colour), code: shaped(proposal), shown: mark(!passed) });
}

export function propose() {
  if (won()) return; // a finished game takes no more moves
  const code = game.draft.join("");
  game.rounds.push({ proposal: code, answers: [] });
  game.ended = false;
  say(fmt(_("Round {n}: you propose {code}. Ask a verifier."), { n: game.rounds.length, code: shaped(code) }));
  changed();
}

export function ask(v, passed) {
  const r = openRound();
  if (!r || won()) return;
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

export function endRound() {
  const r = openRound();
  if (!r || won()) return;
  if (!r.answers.length) { say(_("A round needs at least one question: ask a verifier first."), "refused"); return; }
  game.ended = true;
  changed();
}

export function undo() {
  const r = game.rounds[game.rounds.length - 1];
  if (won()) return;
  if (!r) { say(_("Nothing to take back yet.")); return; }
  if (game.ended) game.ended = false;
  else if (r.answers.length) r.answers.pop();
  else { game.rounds.pop(); game.ended = game.rounds.length > 0; }
  changed();
}

export function guess() {
  const code = plain($("guess-input").value).trim(); // ５１５ as a Japanese keyboard types it reads 515
  if (won()) return;
  if (!/^[1-5]{3}$/.test(code)) { // the last guess's verdict goes: what is said now is about this one
    game.guess = "";
    view.render();
    say(fmt(_("not a code: {text} (want three digits 1..5, e.g. 241)"), { text: quote(code) }), "refused");
    return;
  }
  game.guess = code;
  if (!won()) game.wrong.push(code); // a wrong guess counts: the final tally says how many
  changed();
  say(verdictText(), won() ? "ok" : "wrong");
}

/** Any change the player makes: the notes' flags go, the address follows. */
export function changed() {
  game.flagged = new Set();
  game.revealed = "";
  linkNotes.keep = false;
  linkNotes.problems = [];
  clearBest();
  view.render();
}


export function checkNotes() {
  const s = alive();
  const wrong = new Set();
  for (const t of game.crossed) if (digitPossible(s, COLOUR_KEYS.indexOf(t[0]), Number(t[1]))) wrong.add(t);
  for (const t of game.out) {
    const m = markOf(t);
    if (m && possible(s, m.v, m.hex, m.card)) wrong.add(t);
  }
  game.flagged = wrong;
  view.render();
  const n = wrong.size;
  say(n ? fmt(ngettext("{n} mark contradicts the answers so far: it is flagged.", "{n} marks contradict the answers so far: they are flagged.", n), { n })
    : _("Your notes agree with the answers so far."), n ? "wrong" : "ok");
}

export function showHint(kind) {
  game.revealed = game.revealed === kind ? "" : kind;
  view.render();
  if (kind === "codes" && game.revealed) {
    const codes = game.setup.codesOf(alive()).map(codeText);
    say(fmt(ngettext("{n} code still possible: {codes}", "{n} codes still possible: {codes}", codes.length), { n: codes.length, codes: codes.join(" ") }));
  } else if (game.revealed) say(_("The criteria still possible are marked; the others are greyed."));
}

/**
 * What the last guess found: the code, with the game's tally (rounds, questions, wrong guesses), or only that it is
 * not the code (which verifiers it fails is the player's to find out).
 */
export function verdictText() {
  if (!game.guess) return "";
  if (!won()) return fmt(_("Not the code: {code}. Play on."), { code: shaped(game.guess) });
  const questions = questionsAsked();
  const wrong = game.wrong.length;
  return fmt(_("Right: the code is {code}, found in {rounds} and {questions}."),
    { code: shaped(game.guess), rounds: fmt(ngettext("{n} round", "{n} rounds", game.rounds.length), { n: game.rounds.length }),
      questions: fmt(ngettext("{n} question", "{n} questions", questions), { n: questions }) }) +
    (wrong ? " " + fmt(ngettext("{n} wrong guess before it.", "{n} wrong guesses before it.", wrong), { n: wrong }) : "");
}

/** Whether the code guessed is the dealt cards' code. */
export function won() {
  return !!(game.guess && game.problem.dealt && codeIndex(game.guess) === solution(facts.lib, game.problem));
}
