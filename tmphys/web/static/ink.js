/* Marks a player reads: the code's shapes ▲ ■ ● in their colours wherever the app writes them (each in a span of
 * its colour, put in as text is written: no module needs to know), and a verification card's ID written with its
 * colour's letter (G447, O587, B437, P585: the forms the command line reads), never with the yellow sign "#" that
 * reads as a book ID.
 */
import { D } from "./data.js";

/** A shape → its colour's key (the CSS classes ink b, ink y, ink p: the page data's colours.ink). */
const KEYS = { [D.shapes.blue]: "b", [D.shapes.yellow]: "y", [D.shapes.purple]: "p" };
const SHAPES = new RegExp(`[${Object.keys(KEYS).join("")}]`);
/** Elements whose text is not drawn as HTML (an option, a script) or is already a shape's own. */
const SKIP = new Set(["SCRIPT", "STYLE", "OPTION", "SELECT", "TEXTAREA", "TITLE"]);

/** A verification card's ID as the app writes it: its colour's letter, then its number. */
export const idLabel = (card, colour) => `${D.ids.letters[colour]}${card.ids[colour]}`;

function inked(parent) {
  return parent.classList.contains("ink") || parent.classList.contains("shape");
}

/** A text node's shapes, each wrapped in a span of its colour. */
function inkText(node) {
  const parent = node.parentElement;
  if (!parent || SKIP.has(parent.tagName) || !SHAPES.test(node.data) || (inked(parent) && node.data.length === 1)) return;
  const parts = [];
  let plain = "";
  for (const ch of node.data) {
    if (!KEYS[ch]) { plain += ch; continue; }
    if (plain) parts.push(document.createTextNode(plain));
    plain = "";
    const span = document.createElement("span");
    span.className = `ink ${KEYS[ch]}`;
    span.textContent = ch;
    parts.push(span);
  }
  if (plain) parts.push(document.createTextNode(plain));
  node.replaceWith(...parts);
}

/** Every shape under `root` in its colour. */
export function inkShapes(root) {
  if (root.nodeType === Node.TEXT_NODE) { inkText(root); return; }
  if (root.nodeType !== Node.ELEMENT_NODE || SKIP.has(root.tagName)) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) if (SHAPES.test(walker.currentNode.data)) found.push(walker.currentNode);
  found.forEach(inkText);
}

/** From now on, every shape written under `root` is put in its colour as it is written. */
export function watchInk(root) {
  inkShapes(root);
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") inkText(r.target);
      else for (const n of r.addedNodes) if (n.isConnected) inkShapes(n);
    }
  }).observe(root, { childList: true, subtree: true, characterData: true });
}
