/* The machine view: the dealt verification cards read through a stack (what the app answers when it is the machine),
 * and the machine drawn as the print files draw it (cardart.js), each layer shifted and turned by the player's sliders
 * (machine.js reads and draws; this module is the table app's panel of it).
 */
import { D, facts, gunzip, later } from "./data.js";
import { cardArt } from "./cardart.js";
import { $, el, fitted, textWidth } from "./dom.js";
import { idLabel } from "./ink.js";
import * as M from "./machine.js";
import { _, fmt } from "./messages.js";
import { LETTERS, game, openRound, shaped } from "./state.js";

export const cardOf = (v) => game.problem.dealt[v];
/** What verifier v's dealt card shows under the proposal, read through the stack: true for ✓. */
export function machineSays(v, proposal) {
  const data = D.machine.cards[cardOf(v).index - 1];
  const r = facts.reader.readStack([...proposal].map(Number), data, null);
  return r.mark === "pass";
}

const drawn = { picture: null, art: null };
const shift = { blue: [0, 0, 0], yellow: [0, 0, 0], purple: [0, 0, 0], card: [0, 0, 0] };
/** The cards' pictures (cardart.js), drawn as they are first shown. */
export async function art() {
  if (!drawn.art) {
    await later();
    drawn.art = cardArt(JSON.parse(await gunzip(D.art)), D.machine);
  }
  return drawn.art;
}

export async function drawMachine() {
  const box = $("machine");
  if (!box.open || !game.problem) return;
  const pick = $("machine-verifier");
  const n = game.problem.cards.length;
  if (pick.options.length !== n + 1 || pick.dataset.problem !== game.text) {
    pick.replaceChildren(el("option", { value: "" }, _("no verification card")),
      ...LETTERS.slice(0, n).split("").map((l, v) => el("option", { value: String(v) },
        game.problem.dealt ? `${l} · ${idLabel(cardOf(v), game.problem.colour)}` : l)));
    pick.dataset.problem = game.text;
    pick.disabled = !game.problem.dealt;
    // with the cards dealt, the stack stands on a card at once: the verifier asked last in the round, else A
    const asked = openRound() ? game.rounds[game.rounds.length - 1].answers : [];
    if (game.problem.dealt) pick.value = String(asked.length ? asked[asked.length - 1][0] : 0);
  }
  const a = await art();
  if (!drawn.picture) {
    drawn.picture = M.picture(D.machine, facts.reader, $("machine-picture"), (kind, i) => a.svg(kind, i), undefined,
      undefined, (layer) => (layer === "card" ? _("verification card") : `${D.shapes[layer]} ${_(layer)}`));
  }
  const r = game.rounds[game.rounds.length - 1];
  const code = (openRound() ? r.proposal : game.draft.join("")).split("").map(Number);
  const v = pick.value === "" ? -1 : Number(pick.value);
  const card = v >= 0 && game.problem.dealt ? D.machine.cards[cardOf(v).index - 1] : null;
  const reading = facts.reader.readStack(code, card, shift);
  drawn.picture.show(code, card, shift, reading.open);
  const out = $("machine-reading");
  out.dataset.openCells = reading.open.join(",");
  out.dataset.mark = reading.mark;
  const codeStr = code.join("");
  out.textContent = !card ? fmt(_("{code}: pick a verifier to stack it on its card."), { code: shaped(codeStr) })
    : reading.open.length === 1 && reading.mark
      ? fmt(_("{code} over {card}: the open cell shows {mark}."), { code: shaped(codeStr), card: idLabel(cardOf(v), game.problem.colour), mark: reading.mark === "pass" ? "✓" : "✗" })
      : fmt(_("{code}: {n} cells show — unreadable; square the cards up."), { code: shaped(codeStr), n: reading.open.length });
}

function buildSliders() {
  const box = $("machine-sliders");
  const L = D.machine.layout, tol = D.machine.tolerance;
  const max = Math.max(L.pitch_x, L.pitch_y);
  for (const name of M.LAYERS) {
    const title = name === "card" ? _("verification card") : `${D.shapes[name]} ${_(name)}`;
    const group = el("fieldset", { class: "slider-group" }, el("legend", {}, title));
    [["x", max, "mm"], ["y", max, "mm"], ["turn", 5, "°"]].forEach(([axis, limit, unit], k) => {
      const input = el("input", { type: "range", min: String(-limit), max: String(limit), step: "0.05", value: "0",
        "aria-label": `${title} ${axis}`, data: { layer: name, axis } });
      const output = el("output", {}, `0 ${unit}`);
      input.addEventListener("input", () => {
        shift[name][k] = parseFloat(input.value);
        output.textContent = `${input.value} ${unit}`;
        output.classList.toggle("beyond", Math.abs(shift[name][k]) > (k < 2 ? tol.mm : tol.rotation_deg) + 1e-9);
        drawMachine();
      });
      group.append(el("label", { class: "slider" }, el("span", {}, axis === "turn" ? _("turn") : fmt(_("shift {axis}"), { axis })), input, output));
    });
    box.append(group);
  }
  fitted(() => { // the labels' column as wide as the widest label (app.css caps it)
    const widest = Math.max(...[...box.querySelectorAll(".slider span")].map((s) => textWidth(s.textContent, s)));
    box.style.setProperty("--slider-label", `${Math.ceil(widest) + 2}px`);
  });
}

/** The panel's own controls: its opening, the verifier picked, the sliders, Align. */
export function wireMachine() {
  let built = false; // the sliders are made when the panel first opens (the first screen does not wait for them)
  $("machine").addEventListener("toggle", () => {
    if ($("machine").open && !built) { buildSliders(); built = true; }
    drawMachine();
  });
  $("machine-verifier").addEventListener("change", drawMachine);
  $("machine-align").addEventListener("click", () => {
    for (const n of M.LAYERS) shift[n] = [0, 0, 0];
    for (const i of document.querySelectorAll("#machine-sliders input")) i.value = "0";
    for (const o of document.querySelectorAll("#machine-sliders output")) {
      o.textContent = o.textContent.replace(/^[-0-9.]+/, "0");
      o.classList.remove("beyond");
    }
    drawMachine();
  });
}
