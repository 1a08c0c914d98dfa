// outcome.js writes how a game ended in the interface's language.

import { language, t } from "./i18n.js";

// describeOutcome returns the line for people of an Outcome
// (docs/server.md): the server's own words in English, and in other
// languages the winners, the reason and the scores.
export function describeOutcome(o, names) {
  if (language() === "en") return capital(o.description || o.result);
  const w = o.winners || [];
  const who = w.map((i) => names[i] || String(i + 1));
  let text = o.reason === "aborted" ? t("result.aborted") : w.length === 0 ? t("result.draw") : w.length === 1 ? t("result.wins", { who: who[0] }) : t("result.win", { who: who.join(", ") });
  const why = [];
  if (o.reason && o.reason !== "aborted") why.push(t("reason." + o.reason));
  if (o.scores && o.scores.length) why.push(t("result.score", { score: o.scores.join("-") }));
  if (why.length) text += ` (${why.join(", ")})`;
  return capital(text);
}

// capital writes text with a capital first letter.
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
