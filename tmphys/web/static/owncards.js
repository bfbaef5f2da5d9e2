/* The page's side of users' own criteria cards in a link (cardlink.js reads and writes them): a link's cards joined
 * to the page's facts, the search core's and the machine's, or the link refused in one line; the criteria= a problem's
 * link carries.
 */
import { CriteriaLinkError, criteriaText, machineCard, readCriteria } from "./cardlink.js";
import { D, facts } from "./data.js";
import { say } from "./dom.js";
import { _, fmt } from "./messages.js";

/** A link's criteria joined to the page; false (said in the message line) when they cannot be read. */
export function useLinkCriteria(value) {
  let found;
  try {
    found = readCriteria(value, facts.lib);
  } catch (e) {
    if (!(e instanceof CriteriaLinkError)) throw e;
    say(fmt(_("This link's own criteria cards cannot be read, so its game is not opened: {why}"), { why: e.message }),
      "refused");
    return false;
  }
  facts.lib.addCards(found.cards, found.verification);
  facts.core.setLibrary(found.cards);
  for (const v of found.verification) {
    D.machine.cards[v.index - 1] = machineCard(D.machine, v.index, v.ids, facts.lib.maskOf(v));
  }
  return true;
}

/** The criteria= value of a problem's link ("" when it uses only the published cards). */
export const problemCriteria = (problem) => criteriaText(facts.lib, problem, D.published);
