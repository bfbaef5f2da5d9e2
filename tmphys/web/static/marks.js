/* The player's marks: the digits panel (each colour's five digits, crossed off by a tap) and the criteria panel (each
 * verifier's cards and criteria; in Nightmare, each card with the verifiers it may stand before), each criterion with
 * its Why?; marks flagged when Check my notes finds them wrong, greyed while a hint shows.
 */
import { digitPossible, possible, shownCards, why } from "./deduce.js";
import { $, el, say } from "./dom.js";
import { idLabel } from "./ink.js";
import { cardOf } from "./machineview.js";
import { _, cardWords, fmt } from "./messages.js";
import { changed } from "./play.js";
import { COLOUR_KEYS, LETTERS, config, game } from "./state.js";

/** The problem whose marks are built (they are built once a problem; then only their marks change). */
const built = { text: "" };

function buildMarks() {
  if (built.text === game.text) return;
  built.text = game.text;
  const box = $("verifiers");
  box.replaceChildren();
  const n = game.problem.cards.length;
  if (game.problem.mode === "nightmare") buildCards(box, n);
  for (let v = 0; v < n && game.problem.mode !== "nightmare"; v++) {
    const panel = el("section", { class: "verifier", data: { verifier: LETTERS[v] } },
      el("h3", {}, el("span", { class: "letter" }, LETTERS[v]),
        game.problem.dealt ? el("span", { class: "dealt" }, " · " + idLabel(cardOf(v), game.problem.colour)) : ""));
    for (const card of shownCards(v)) {
      const cardKey = `${LETTERS[v]}${card.number}`;
      panel.append(el("div", { class: "card-title" }, fmt(_("card {n}: {title}"), { n: card.number, title: cardWords(card) })));
      const list = el("ul", { class: "criteria" });
      for (const c of card.criteria) {
        const key = `${cardKey}.${c.index}`;
        const b = markButton(key, cardWords(c), { class: "cross" }, false);
        b.possible = (s) => possible(s, v, c.mask, card.number);
        list.append(el("li", { data: { card: card.number, criterion: c.index } }, b, whyButton(key)));
      }
      panel.append(list);
    }
    box.append(panel);
  }
  const digits = $("digits");
  digits.replaceChildren();
  COLOUR_KEYS.forEach((ck, i) => {
    const row = el("div", { class: "digit-row" }, el("span", { class: `shape ${ck}` }, config.shapes[i]));
    for (let d = 1; d <= 5; d++) {
      const b = markButton(`${ck}${d}`, String(d), { class: "cross digit", data: { colour: ck, digit: d } }, true);
      b.possible = (s) => digitPossible(s, i, d);
      row.append(b);
    }
    digits.append(row);
  });
}

/** Nightmare: the cards, each with the verifiers it may stand before and its criteria (the pairing is hidden). */
function buildCards(box, n) {
  box.append(el("p", { class: "note" }, _("Nightmare: which card stands before which verifier is hidden. Cross off the verifiers a card is not before, and the criteria that are not the card's.")));
  if (game.problem.dealt) {
    box.append(el("p", { class: "note" }, game.problem.cards.map((_c, v) => `${LETTERS[v]} · ${idLabel(cardOf(v), game.problem.colour)}`).join("   ")));
  }
  for (const card of shownCards(0)) {
    const panel = el("section", { class: "verifier", data: { card: card.number } },
      el("h3", {}, fmt(_("card {n}: {title}"), { n: card.number, title: cardWords(card) })));
    const row = el("div", { class: "before", "aria-label": fmt(_("the verifiers card {n} may stand before"), { n: card.number }) });
    for (let v = 0; v < n; v++) {
      const key = `${LETTERS[v]}${card.number}`;
      const b = markButton(key, LETTERS[v], { class: "cross letter-mark", "aria-label": fmt(_("card {n} is not verifier {v}'s"), { n: card.number, v: LETTERS[v] }) }, false);
      b.possible = (s) => possible(s, v, null, card.number);
      row.append(b);
    }
    panel.append(row);
    const list = el("ul", { class: "criteria" });
    for (const c of card.criteria) {
      const key = `${card.number}.${c.index}`;
      const b = markButton(key, cardWords(c), { class: "cross" }, false);
      b.possible = (s) => possible(s, -1, c.mask, card.number);
      list.append(el("li", { data: { card: card.number, criterion: c.index } }, b, whyButton(key)));
    }
    panel.append(list);
    box.append(panel);
  }
}

/** A mark the player toggles: a digit (in game.crossed) or a criterion or card (in game.out) while crossed. */
function markButton(key, text, props, digit) {
  const b = el("button", { type: "button", ...props, data: { ...(props.data || {}), mark: key } }, text);
  b.addEventListener("click", () => {
    const set = digit ? game.crossed : game.out;
    if (set.has(key)) set.delete(key); else set.add(key);
    changed();
  });
  return b;
}

/** Each mark as the player made it, flagged when Check found it wrong, greyed while a hint shows. */
export function drawMarks(s) {
  buildMarks();
  for (const b of document.querySelectorAll("#verifiers button.cross, #digits button.cross")) {
    const key = b.dataset.mark;
    const on = game.crossed.has(key) || game.out.has(key);
    b.classList.toggle("crossed", on);
    b.setAttribute("aria-pressed", String(on));
    b.classList.toggle("wrong", game.flagged.has(key));
    const hinted = (game.revealed === "criteria" && b.closest("#verifiers")) || (game.revealed === "codes" && b.closest("#digits"));
    b.classList.toggle("impossible", !!hinted && !b.possible(s));
  }
}

function whyButton(key) {
  const b = el("button", { class: "why", type: "button", data: { why: key } }, _("Why?"));
  b.addEventListener("click", () => say(why(key), "why"));
  return b;
}
