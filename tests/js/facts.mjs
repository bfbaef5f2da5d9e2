// The facts the pure modules are tested with, written by tests/test_js_units.py (TMPHYS_JS_FACTS: a JSON file of the
// criteria and verification cards, their IDs, the book's text, typed problems with the Python model's reading of
// each): null when the tests run without it (node --test tests/js/ by hand), and the tests that need it skip.
import fs from "node:fs";

const path = process.env.TMPHYS_JS_FACTS;
export const facts = path ? JSON.parse(fs.readFileSync(path, "utf8")) : null;
export const needsFacts = facts ? {} : { skip: "run by tests/test_js_units.py (TMPHYS_JS_FACTS names the facts)" };
export const static_ = new URL("../../tmphys/web/static/", import.meta.url);
