/* The page's elements: one by its id, one made, the message line, and the one call that draws the game again (main.js
 * fills it in, so that a module that changes the game need not import the page's wiring); text measured.
 */
export const $ = (id) => document.getElementById(id);

/** An element with properties (data: its dataset; class; any property or attribute) and children. */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "data") Object.assign(e.dataset, v);
    else if (k === "class") e.className = v;
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** The message line: what the last action said (kind: "", "refused", "wrong", "ok", "why"). */
export function say(text, kind = "") {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind;
}

let pen = null;
/** The width in px of `text` in `element`'s font, measured (the page never assumes a language's lengths). */
export function textWidth(text, element) {
  pen = pen || document.createElement("canvas").getContext("2d");
  pen.font = getComputedStyle(element).font;
  return pen.measureText(text).width;
}

/** `fit` run now and again once the page's own fonts are in (fonts.js: they change the widths it measures). */
export const fitted = (fit) => { fit(); view.fontsReady.then(fit); };

/** Filled in by main.js: draw the game as it stands. */
export const view = { render: () => {}, fontsReady: Promise.resolve() };
