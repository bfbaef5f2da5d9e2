// cardlink.js in Node: users' own criteria cards written into a link as tmphys.web.table_app.link_criteria writes
// them, read back into a page that lacks them (the published cards alone) and set up as the model sets the problem
// up, and every bad value refused whole, in one line, with the loader's rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { facts, needsFacts, static_ } from "./facts.mjs";
import { Library, parseProblem } from "../../tmphys/web/static/problems.js";
import { Core } from "../../tmphys/web/static/core.js";
import { CriteriaLinkError, base64url, criteriaText, readCriteria } from "../../tmphys/web/static/cardlink.js";

const PUBLISHED = { cards: 48, verification: 95 };
const published = () => new Library(facts, "");
const own = () => new Library({ ...facts, cards: facts.own.cards, verification: facts.own.verification }, "");
const reading = (lib, core, text) => {
  try {
    const p = parseProblem(lib, text);
    core.setup(p).free();
    return { mode: p.mode, cards: p.cards, dealt: p.dealt ? p.dealt.map((d) => d.index) : null, colour: p.colour };
  } catch (e) {
    return { error: e.message };
  }
};
const core = () => new Core(fs.readFileSync(new URL("search.wasm", static_)));

test("users' cards typed read as the Python model reads them: a number is an ID, a card, or an ID from 100", needsFacts, () => {
  const lib = own(), c = core();
  c.setLibrary(lib.cards);
  for (const [text, model] of facts.own.typed) assert.deepEqual(reading(lib, c, text), model, text);
});

test("the link's criteria are the Python writer's, and a page without the cards reads them", needsFacts, () => {
  const full = own();
  assert.equal(criteriaText(full, parseProblem(full, facts.own.link.text), PUBLISHED), facts.own.link.criteria);
  const lib = published(), c = core();
  c.setLibrary(lib.cards);
  assert.match(reading(lib, c, facts.own.link.text).error, /no criteria card 49/);
  const found = readCriteria(facts.own.link.criteria, lib);
  assert.deepEqual(found.cards.map((x) => x.number), [49, 50, 51, 52]);
  lib.addCards(found.cards, found.verification);
  c.setLibrary(found.cards);
  const [, model] = facts.own.typed[0];
  const got = reading(lib, c, facts.own.link.text);
  assert.deepEqual({ ...got, dealt: null }, { ...model, dealt: null });
  assert.deepEqual(got.dealt, [96, 97, 98, 99]); // this page's places for them
  assert.equal(criteriaText(lib, parseProblem(lib, facts.own.link.text), PUBLISHED), facts.own.link.criteria);
  // the page built with the cards reads the link as its own cards: nothing to add
  assert.deepEqual(readCriteria(facts.own.link.criteria, own()), { cards: [], verification: [] });
});

test("a bad link's criteria are refused whole, in one line", needsFacts, () => {
  const good = JSON.parse(Buffer.from(facts.own.link.criteria, "base64url").toString("utf8"));
  const edit = (f) => { const d = structuredClone(good); f(d); return base64url(JSON.stringify(d)); };
  const cases = [
    ["A".repeat(5000), /more than the 4,096/],
    ["not*base64", /not base64url/],
    [base64url("{nope"), /not JSON/],
    [Buffer.from([0xff, 0xfe]).toString("base64url"), /not UTF-8/],
    [edit((d) => { d.cards[0].criteria[0].mask = "0"; }), /true for no code/],
    [edit((d) => { d.cards[0].criteria[0].mask = "1" + "f".repeat(31); }), /true for every code/],
    [edit((d) => { d.cards[0].criteria[0].mask = "f".repeat(32); }), /more than the 125 codes/],
    [edit((d) => { d.cards[0].number = 12; }), /out of range/],
    [edit((d) => { d.cards[0].number = 447; }), /out of range|ID/],
    [edit((d) => { d.cards.push(...Array.from({ length: 9 },
      (_, i) => ({ number: 60 + i, title: { en: "t" }, criteria: [{ text: { en: "c" }, mask: "3" }] }))); }), /at most 12/],
    [edit((d) => { d.verification[0].ids[0] = 447; }), /the ID 447 is taken/],
    [edit((d) => { d.verification[1].ids = d.verification[0].ids; }), /is taken/],
    [edit((d) => { d.verification[0].ids[1] = 50; }), /criteria card's number/],
    [edit((d) => { d.cards[0].title = { en: "x\ny" }; }), /printable text/],
    [edit((d) => { d.cards[0].title = { en: "x".repeat(201) }; }), /printable text/],
    [edit((d) => { d.cards[0].criteria = Array(10).fill(d.cards[0].criteria[0]); }), /1 to 9 criteria/],
    [edit((d) => { d.cards[0].evil = 1; }), /unknown key/],
    [edit((d) => { d.verification[0].criterion = 7; }), /has criteria 1\.\./],
  ];
  for (const [value, why] of cases) {
    assert.throws(() => readCriteria(value, published()), (e) => e instanceof CriteriaLinkError && why.test(e.message) &&
      !e.message.includes("\n"), String(value).slice(0, 80));
  }
  // a page's own card 49 is not to be replaced by another
  assert.throws(() => readCriteria(edit((d) => { d.cards[0].criteria[0].mask = "3"; }), own()), /not this page's card 49/);
  // words are kept as text, whatever they look like
  const html = readCriteria(edit((d) => { d.cards[0].title = { en: "<img src=x onerror=alert(1)>" }; }), published());
  assert.equal(html.cards[0].title, "<img src=x onerror=alert(1)>");
});
