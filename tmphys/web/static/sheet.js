/* The note sheet: a row a round (its proposal, each verifier's answer, the open round's questions to tap), the
 * proposal's digit picker, the round's tools, and the guess's verdict.
 */
import { $, el } from "./dom.js";
import { _, fmt } from "./messages.js";
import { ask, verdictText, won } from "./play.js";
import { COLOUR_KEYS, LETTERS, config, game, mark, openRound, shaped } from "./state.js";

export function drawSheet() {
  const n = game.problem.cards.length;
  const sheet = $("sheet");
  sheet.style.setProperty("--verifiers", n);
  sheet.replaceChildren(...LETTERS.slice(0, n).split("").map((l) => el("div", { class: "head" }, l)));
  const open = won() ? null : openRound(); // a finished game takes no more questions
  game.rounds.forEach((r, i) => {
    sheet.append(el("div", { class: "proposal", data: { round: i + 1, proposal: r.proposal } },
      fmt(_("Round {n}"), { n: i + 1 }), " · ", el("b", {}, shaped(r.proposal))));
    for (let v = 0; v < n; v++) {
      const given = r.answers.find((a) => a[0] === v);
      const cell = el("div", { class: "answer", data: { round: i + 1, verifier: LETTERS[v], mark: given ? (given[1] ? "pass" : "fail") : "" } });
      if (given) cell.append(el("span", { class: given[1] ? "pass" : "fail" }, mark(given[1])));
      else if (r === open && game.problem.dealt && !game.manual) {
        const b = el("button", { type: "button", class: "ask", data: { ask: LETTERS[v] }, "aria-label": fmt(_("ask verifier {v}"), { v: LETTERS[v] }) }, "?");
        b.addEventListener("click", () => ask(v));
        cell.append(b);
      } else if (r === open) {
        for (const ok of [true, false]) {
          const b = el("button", { type: "button", class: `note ${ok ? "pass" : "fail"}`, data: { note: LETTERS[v], mark: ok ? "pass" : "fail" },
            "aria-label": fmt(_("verifier {v} showed {mark}"), { v: LETTERS[v], mark: mark(ok) }) }, mark(ok));
          b.addEventListener("click", () => ask(v, ok));
          cell.append(b);
        }
      }
      sheet.append(cell);
    }
  });
  const needsProposal = !open;
  $("proposer").hidden = !needsProposal || won();
  $("round-tools").hidden = !open;
  if (needsProposal) drawProposer();
  $("end-round").disabled = !open || !open.answers.length;
}

function drawProposer() {
  const box = $("digits-pick");
  box.replaceChildren();
  COLOUR_KEYS.forEach((ck, i) => {
    const row = el("div", { class: "pick-row", data: { colour: ck } }, el("span", { class: `shape ${ck}` }, config.shapes[i]));
    for (let d = 1; d <= 5; d++) {
      const b = el("button", { type: "button", class: "digit", data: { colour: ck, digit: d }, "aria-pressed": String(game.draft[i] === d) }, String(d));
      b.addEventListener("click", () => { game.draft[i] = d; drawProposer(); });
      row.append(b);
    }
    box.append(row);
  });
  $("propose-go").textContent = fmt(_("Propose {code}"), { code: shaped(game.draft.join("")) });
  $("propose-go").dataset.code = game.draft.join("");
}

export function drawGuess() {
  const verdict = $("verdict");
  $("guess").hidden = !game.problem.dealt || won();
  verdict.dataset.code = game.guess;
  verdict.dataset.right = game.guess ? String(won()) : "";
  if (!game.guess || !game.problem.dealt) { verdict.textContent = ""; return; }
  verdict.textContent = verdictText();
}
