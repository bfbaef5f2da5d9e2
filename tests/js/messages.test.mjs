// messages.js: the words, their plural forms by the language's rule, placeholders, the language picked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { _, decimal, fmt, language, ngettext, pickLanguage, useWords } from "../../tmphys/web/static/messages.js";

test("a word is its translation, else itself", () => {
  useWords("de", { "Undo": "Zurück" });
  assert.equal(language(), "de");
  assert.equal(_("Undo"), "Zurück");
  assert.equal(_("Deal"), "Deal");
  useWords("en");
  assert.equal(_("Undo"), "Undo");
});

test("placeholders are filled, an unknown one left as it is", () => {
  assert.equal(fmt("Round {n}: you propose {code}.", { n: 2, code: "241" }), "Round 2: you propose 241.");
  assert.equal(fmt("{a} and {b}", { a: 0 }), "0 and {b}");
});

test("plural forms follow the language's table, 200 and up read as 100 + n % 100", () => {
  // Russian's three forms: one (1, 21, …), few (2-4, 22-24, …), many (0, 5-20, 25-30, …)
  const form = (n) => (n % 10 === 1 && n % 100 !== 11 ? 0
    : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2);
  const table = Array.from({ length: 200 }, (_x, n) => form(n));
  useWords("ru", { "{n} round": ["{n} раунд", "{n} раунда", "{n} раундов"] }, table);
  const said = (n) => fmt(ngettext("{n} round", "{n} rounds", n), { n });
  assert.equal(said(1), "1 раунд");
  assert.equal(said(3), "3 раунда");
  assert.equal(said(11), "11 раундов");
  assert.equal(said(21), "21 раунд");
  assert.equal(said(222), "222 раунда");
  assert.equal(said(1011), "1011 раундов");
  useWords("en");
  assert.equal(said(1), "1 round");
  assert.equal(said(0), "0 rounds");
});

test("the language: the link's, else the browser's first the app has, else the page's", () => {
  const codes = ["en", "de", "pt-BR", "zh-Hans", "zh-Hant"];
  assert.equal(pickLanguage(codes, "#problem=x&lang=DE", ["fr"], "en"), "de");
  assert.equal(pickLanguage(codes, "#lang=xx", ["fr-CA", "de-AT"], "en"), "de");
  assert.equal(pickLanguage(codes, "", ["zh-TW"], "en"), "zh-Hant");
  assert.equal(pickLanguage(codes, "", ["zh"], "en"), "zh-Hans");
  assert.equal(pickLanguage(codes, "", ["pt-PT"], "en"), "pt-BR");
  assert.equal(pickLanguage(codes, "", ["fr"], "de"), "de");
});

test("a number is written as the language writes it", () => {
  useWords("en");
  assert.equal(decimal(1033 / 384), "2.69");
  useWords("de");
  assert.equal(decimal(1033 / 384), "2,69");
  useWords("en");
});
