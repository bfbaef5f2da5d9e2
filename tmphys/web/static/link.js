/* The page's side of the game's link: the address follows the game, a link opened or a fragment changed shows its
 * game (what cannot be read said, the rest kept), Share copies it. The link's form is state.js's.
 *
 * Back (the browser's, a phone's) stays in the app while there is something to step back from: each problem opened
 * after another is a history entry (its address follows its game, so Back reopens the last problem as it was left),
 * and so is each panel opened (the problem panel, a collapsible section), which Back closes. An entry's state says
 * its problem and the panels open: {problem, panels, pushedFor}.
 */
import { askBest } from "./best.js";
import { D } from "./data.js";
import { markOf } from "./deduce.js";
import { $, say, view } from "./dom.js";
import { _, language } from "./messages.js";
import { refusal } from "./play.js";
import { useLinkCriteria } from "./owncards.js";
import { openProblem } from "./setup.js";
import { fragmentOf, game, gameOf, linkNotes, readFragment } from "./state.js";

/** The language the link names: the one in use when it is not the page's own, or when the link named one. */
function linkLanguage() {
  const lang = language();
  return lang !== (D.lang || "en") || /(^#|&)lang=/.test(location.hash) ? lang : "";
}

/** The panels Back closes: the problem panel (over a game) and the collapsible sections, by id. */
const PANELS = ["setup", "deal-one", "type-cards", "machine"];
const isOpen = (name) => (name === "setup" ? !!game.problem && !!$("setup").dataset.open
  : $(name).open && !$(name).closest("[hidden]"));
const openPanels = () => PANELS.filter(isOpen);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The address, as the game stands (not while what a link held that could not be read is said): a new entry for a
 * problem opened after another, else this entry's. */
export function writeFragment() {
  if (linkNotes.keep) return;
  const fragment = fragmentOf(game, linkLanguage());
  const url = fragment || location.pathname;
  const was = history.state || {};
  if (game.problem && was.problem && was.problem !== game.text) {
    history.pushState({ problem: game.text, panels: openPanels(), pushedFor: null }, "", url);
    return;
  }
  const panels = (was.panels || []).filter(isOpen); // a panel's entry is made as it opens (panelOpened)
  const state = { problem: game.text, panels, pushedFor: panels.includes(was.pushedFor) ? was.pushedFor : null };
  if (location.hash !== fragment || !same(was, state)) history.replaceState(state, "", url);
}

/** A panel opened by the player: an entry for Back to close it. */
function panelOpened(name) {
  const was = history.state || {};
  if ((was.panels || []).includes(name) || !isOpen(name)) return;
  history.pushState({ problem: game.text, panels: openPanels(), pushedFor: name }, "", location.href);
}

/** A panel closed by the player: its entry goes (or it leaves its entry's panels). */
function panelClosed(name) {
  const was = history.state || {};
  if (!(was.panels || []).includes(name) || isOpen(name)) return;
  if (was.pushedFor === name) history.back();
  else history.replaceState({ ...was, panels: was.panels.filter((p) => p !== name) }, "", location.href);
}

/** The panels an entry had open, open, and the others closed. */
function showPanels(panels) {
  for (const name of PANELS.filter((p) => p !== "setup")) $(name).open = panels.includes(name);
  if (panels.includes("setup") && game.problem) $("setup").dataset.open = "true";
  else delete $("setup").dataset.open;
  view.render();
}

/** Back or Forward: the entry's problem as it was left, its panels as they were. An entry without a state is a
 * fragment just navigated to (a link, the address edited): the hashchange shows it. */
async function stepped(st) {
  if (!st) return;
  if (st.problem && st.problem !== game.text) {
    linkNotes.keep = false;
    await fromFragment(location.hash);
  } else if (!st.problem && game.problem) {
    // back past the first problem opened: the problem panel, over the game (Back again leaves the app)
    history.replaceState({ problem: game.text, panels: ["setup"], pushedFor: null }, "", location.href);
    showPanels(["setup"]);
    return;
  }
  history.replaceState({ ...st, problem: game.text }, "", location.href);
  showPanels(st.panels || []);
}

/** Back and the panels' entries wired. */
export function wireHistory() {
  window.addEventListener("popstate", (e) => { stepped(e.state); });
  for (const name of PANELS.filter((p) => p !== "setup")) {
    $(name).addEventListener("toggle", () => ($(name).open ? panelOpened(name) : panelClosed(name)));
  }
  $("change-problem").addEventListener("click", () => panelOpened("setup"));
}

/** The game a fragment holds, shown. */
export async function fromFragment(fragment) {
  // the game on the page already (Back to an entry whose address was brought up to date): nothing to read again
  if (game.problem && !linkNotes.keep && fragment === fragmentOf(game, linkLanguage())) return;
  const problems = [];
  const shown = (keep) => { linkNotes.problems = problems; linkNotes.keep = keep; view.render(); };
  const { params, game: holdsGame } = readFragment(fragment, problems);
  if (!holdsGame) { shown(true); return; } // nothing of a game: the game on the page stays as it is
  const wanted = params.get("problem");
  if (params.has("criteria") && !useLinkCriteria(params.get("criteria"))) { shown(problems.length > 0); return; }
  if (wanted !== null && wanted !== game.text) {
    if (!openProblem(wanted, false)) {
      // said once: under the problem box where it shows (no game yet), else above the game that stays
      if (game.problem) { problems.push($("setup-error").textContent); $("setup-error").textContent = ""; }
      shown(true);
      return;
    }
  }
  if (!game.problem) { shown(problems.length > 0); return; }
  Object.assign(game, gameOf(params, problems, { verifiers: game.problem.cards.length, dealt: !!game.problem.dealt,
    markOf, refusal }));
  game.flagged = new Set();
  game.revealed = "";
  shown(problems.length > 0);
  if (params.get("ask") === "best") askBest();
}

/** The game's link, copied (or shown to copy). */
export async function share() {
  writeFragment();
  const link = location.href;
  $("share-link").value = link;
  $("share-link").hidden = false;
  $("share-link").select();
  try {
    await navigator.clipboard.writeText(link);
    say(_("The game's link is copied: open it on another phone to go on there."));
  } catch (e) {
    say(_("Copy the game's link below: open it on another phone to go on there."));
  }
}
