// problems.js and core.js in Node: typed problems read and set up as the page reads them, each equal to the Python
// model's reading (tests/test_js_units.py writes the cases and the model's answers), and a problem's line.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { facts, needsFacts, static_ } from "./facts.mjs";
import { Library, describe, parseProblem, quote } from "../../tmphys/web/static/problems.js";
import { Core } from "../../tmphys/web/static/core.js";

const setUp = () => {
  const lib = new Library(facts, facts.book);
  const core = new Core(fs.readFileSync(new URL("search.wasm", static_)));
  core.setLibrary(lib.cards);
  return { lib, core };
};

test("typed problems read as the Python model reads them", needsFacts, () => {
  const { lib, core } = setUp();
  for (const [text, model] of facts.typed) {
    let got;
    try {
      const p = parseProblem(lib, text);
      core.setup(p).free();
      got = { mode: p.mode, cards: p.cards, dealt: p.dealt ? p.dealt.map((d) => d.index) : null, colour: p.colour };
    } catch (e) {
      got = { error: e.message };
    }
    assert.deepEqual(got, model, text);
  }
});

test("a book problem's line names its mode, cards and dealt verification cards", needsFacts, () => {
  const { lib } = setUp();
  const line = describe(lib, parseProblem(lib, "#C63 MO8 2"));
  assert.match(line, /^Classic, A: 17 {2}B: 26 {2}C: 31 {2}D: 36 {2}E: 45 {2}F: 48; verification cards A=.541 /);
});

test("a long text is quoted cut, as tmphys.text.quote cuts it", () => {
  assert.equal(quote("abc"), "'abc'");
  assert.equal(quote("x".repeat(100)), `'${"x".repeat(40)}'… (100 characters)`);
});
