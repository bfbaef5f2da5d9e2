// state.js: the game's link written and read back, and every mistake in a link said and left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useWords } from "../../tmphys/web/static/messages.js";
import {
  config, fragmentOf, gameOf, movesText, openRound, parseMoves, questionsAsked, readFragment, shaped,
} from "../../tmphys/web/static/state.js";

useWords("en");
const problem = { mode: "classic", cards: [[4], [9], [11], [14]], dealt: null };
const game = (over = {}) => ({ text: "#A46 NXF", problem, rounds: [], ended: false, crossed: new Set(),
  out: new Set(), manual: false, objective: "expected", guess: "", wrong: [], think: 15, ...over });
const options = { verifiers: 4, dealt: false, markOf: (k) => (/^[A-D][0-9]+\.[0-9]$/.test(k) ? {} : null),
  refusal: () => "" };

test("moves are written as the link holds them and read back", () => {
  const rounds = [{ proposal: "241", answers: [[0, true], [2, false]] }, { proposal: "555", answers: [[3, true]] }];
  const g = game({ rounds, ended: true });
  assert.equal(movesText(g), "241:A:pass,C:fail;555:D:pass;");
  const problems = [];
  assert.deepEqual(parseMoves(movesText(g), problems, options), { rounds, ended: true });
  assert.deepEqual(problems, []);
  assert.equal(questionsAsked(g), 3);
  assert.equal(openRound(g), null);
  assert.equal(openRound(game({ rounds })), rounds[1]);
});

test("a link's mistakes are each said, and the rest kept", () => {
  const problems = [];
  const read = parseMoves("241:A:pass,A:fail,E:pass,B:✓,C:✗,D:pass;96x:A:pass;333", problems, options);
  assert.deepEqual(read.rounds, [{ proposal: "241", answers: [[0, true], [1, true], [2, false]] },
    { proposal: "333", answers: [] }]);
  assert.deepEqual(problems, [
    "round 1: verifier A asked twice",
    "round 1: not an answer 'E:pass' (want a verifier A, B, C, D, ':' and pass or fail)",
    "round 1: more than three questions",
    "not a code: '96x' (want three digits 1..5, e.g. 241)",
  ]);
  const refused = [];
  parseMoves("241:B:pass", refused, { ...options, refusal: (v, passed) => (passed ? "the card shows ✗" : "") });
  assert.deepEqual(refused, ["round 1: the card shows ✗"]);
});

test("a whole game goes into its fragment and comes back", () => {
  const g = game({ rounds: [{ proposal: "241", answers: [[1, false]] }], crossed: new Set(["y2", "b1"]),
    out: new Set(["A4.1"]), objective: "worst", wrong: ["125", "334"], guess: "315", think: 2.5 });
  const fragment = fragmentOf(g, "de");
  assert.equal(fragment, "#problem=%23A46%20NXF&moves=241%3AB%3Afail&crossed=b1,y2&out=A4.1&objective=worst" +
    "&wrong=125,334&guess=315&think=2.5&lang=de");
  const problems = [];
  const { params, game: holds } = readFragment(fragment, problems);
  assert.ok(holds);
  assert.equal(params.get("problem"), "#A46 NXF");
  const back = gameOf(params, problems, options);
  assert.deepEqual(problems, []);
  for (const key of ["rounds", "ended", "crossed", "out", "objective", "wrong", "guess", "think"]) assert.deepEqual(back[key], g[key], key);
  assert.equal(fragmentOf(game({ problem: null }), ""), "");
  assert.equal(fragmentOf(game({ problem: null }), "ru"), "#lang=ru");
});

test("what a link cannot hold is said: its length, keys of no game, marks of no problem", () => {
  const problems = [];
  const long = "problem=x&" + "crossed=b1&".repeat(config.fragmentChars);
  readFragment(long, problems);
  assert.match(problems[0], /^the link is [0-9,]+ characters long; a game's link holds at most [0-9,]+/);
  const others = [];
  const { params, game: holds } = readFragment("#utm_source=x&ref=y", others);
  assert.equal(holds, false);
  assert.deepEqual(others, ["not part of a game's link: 'utm_source', 'ref'"]);
  const marks = [];
  const back = gameOf(new URLSearchParams("crossed=b1,q9&out=A4.1,Z9.9&think=9999"), marks, options);
  assert.deepEqual([...back.crossed], ["b1"]);
  assert.deepEqual([...back.out], ["A4.1"]);
  assert.equal(back.think, 15);
  assert.deepEqual(marks, ["not a digit mark: 'q9' (want b, y or p and a digit, e.g. b3)",
    "not a criterion of this problem: 'Z9.9'", "think='9999': want seconds from 0.05 to 600"]);
  assert.equal(params.get("ref"), "y");
});

test("a code is written with its colours' shapes", () => {
  assert.equal(shaped("241"), "▲2 ■4 ●1");
});

test("full-width digits and letters read as plain ones", async () => {
  const { plain } = await import("../../tmphys/web/static/state.js");
  assert.equal(plain("５１５"), "515");
  assert.equal(plain("＃Ａ４６ ＮＸＦ"), "#A46 NXF");
});
