/* The words a player reads, in the player's language: the table's language picked, its catalogue (gettext's, built
 * by tmphys/lang/catalogue.py from every module's calls of `_`), plural forms by the language's own rule, and
 * `{name}` placeholders filled in. Pure: no page is needed (tests/js/messages.test.mjs).
 */

/** The language in use, its catalogue (msgid → translation, or the plural forms' list) and its plural table. */
const words = { lang: "en", catalog: {}, plurals: null };

/** Use a language: its code, its catalogue, its gettext plural rule as a table (n ≥ 200 reads 100 + n % 100). */
export function useWords(lang, catalog = {}, plurals = null) {
  Object.assign(words, { lang, catalog: catalog || {}, plurals: plurals || null });
}

/** The language in use. */
export const language = () => words.lang;

/** A word a player reads, from the catalogue. */
export const _ = (text) => (typeof words.catalog[text] === "string" && words.catalog[text]) || text;

/** A criteria card's title or a criterion's words: a user's card's own words in the language in use (else its file's
 * first language), shown as they are; a published card's from the catalogue. */
export function cardWords(item) {
  const text = item.title !== undefined ? item.title : item.text;
  return item.own ? (typeof item.own[words.lang] === "string" ? item.own[words.lang] : text) : _(text);
}

/** The form of one/many that the language uses for n. */
export function ngettext(one, many, n) {
  const forms = words.catalog[one];
  const table = words.plurals;
  if (!Array.isArray(forms) || !table) return n === 1 ? one : many;
  return forms[table[n < table.length ? n : 100 + (n % 100)]] || (n === 1 ? one : many);
}

/** A number as the language writes it, with `digits` decimals ("2.69"; "2,69" in German). */
export const decimal = (x, digits = 2) => new Intl.NumberFormat(words.lang,
  { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);

/** `{name}` placeholders filled from args (an unknown one left as it is). */
export const fmt = (text, args) => text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));

/** Chinese and Portuguese as browsers name them, to the app's catalogues. */
const ALIASES = { zh: "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant",
  "zh-mo": "zh-Hant", pt: "pt-BR" };

/**
 * The table's language: the link's lang= (`fragment`), else the first of the browser's languages the app has, else
 * `fallback` (the page's own, the build's --lang); `codes`: the languages the app has.
 */
export function pickLanguage(codes, fragment, browser, fallback) {
  const known = new Map(codes.map((c) => [c.toLowerCase(), c]));
  const wanted = new URLSearchParams(String(fragment || "").replace(/^#/, "")).get("lang");
  if (wanted && known.has(wanted.toLowerCase())) return known.get(wanted.toLowerCase());
  for (const tag of browser) {
    const t = String(tag).toLowerCase();
    for (const guess of [t, ALIASES[t], t.split("-")[0], ALIASES[t.split("-")[0]]]) {
      if (guess && known.has(guess.toLowerCase())) return known.get(guess.toLowerCase());
    }
  }
  return fallback || "en";
}
