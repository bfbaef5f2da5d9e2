/* The page's side of the game's link: the address follows the game (replaced, so Back leaves the app as it came), a
 * link opened or a fragment changed shows its game (what cannot be read said, the rest kept), Share copies it.
 * The link's form is state.js's.
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

/** The address, as the game stands (not while what a link held that could not be read is said). */
export function writeFragment() {
  if (linkNotes.keep) return;
  const fragment = fragmentOf(game, linkLanguage());
  if (location.hash !== fragment) history.replaceState(null, "", fragment || location.pathname);
}

/** The game a fragment holds, shown. */
export async function fromFragment(fragment) {
  const problems = [];
  const shown = (keep) => { linkNotes.problems = problems; linkNotes.keep = keep; view.render(); };
  const { params, game: holdsGame } = readFragment(fragment, problems);
  if (!holdsGame) { shown(true); return; } // nothing of a game: the game on the page stays as it is
  const wanted = params.get("problem");
  if (params.has("criteria") && !useLinkCriteria(params.get("criteria"))) { shown(problems.length > 0); return; }
  if (wanted !== null && wanted !== game.text) {
    if (!openProblem(wanted, false)) { problems.push($("setup-error").textContent); shown(true); return; }
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
