/* The app's own fonts (tmphys/lang/fonts/app-*.woff2, in the page as inert elements: web/table_app.py): a phone with
 * no font for Japanese, Korean, Chinese, Thai or Greek still draws the words. A language's font is read only when the
 * page is in that language; the picker's names (a few kB) always. app.css lists them after the system's fonts.
 */
import { D, bytesOf, parsed } from "./data.js";
import { view } from "./dom.js";

async function add(family, id, range) {
  const source = document.getElementById(id);
  if (!source || typeof FontFace === "undefined") return false;
  const face = new FontFace(family, bytesOf(source.textContent.trim()), range ? { unicodeRange: range } : {});
  document.fonts.add(await face.load());
  return true;
}

/** Adds the fonts `lang` needs; the page's root says which when they are ready (data-fonts="ja names-cjk …"), and
 * view.fontsReady keeps the promise (what measures text measures again then). */
export function useFonts(lang) {
  view.fontsReady = added(lang);
  return view.fontsReady;
}

async function added(lang) {
  await parsed(); // a language's font is written after the page's script
  const wanted = [...Object.entries(D.fonts.names).map(([name, range]) => [name, range])];
  if (D.fonts.languages.includes(lang)) wanted.push([lang, null]);
  const added = await Promise.all(wanted.map(([name, range]) => add(`tmphys-${name}`, `font-${name}`, range)
    .then((ok) => (ok ? name : null), () => null)));
  document.documentElement.dataset.fonts = added.filter(Boolean).join(" ");
}
