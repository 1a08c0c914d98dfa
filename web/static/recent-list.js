// recent-list.js lists recent games, finished or in play: the recent
// games' page and the home page show it.

import { recentGames, token } from "./api.js";
import { clear, h } from "./dom.js";
import { describeOutcome } from "./outcome.js";
import { botBadge } from "./players.js";
import { errorWords, levelWords, t, timeAgo } from "./i18n.js";

// seatText describes a seat of a summary, e.g. "alice" or "computer (hard)".
function seatText(s) {
  if (s.kind === "ai") return t("recent.computer", { level: s.level ? levelWords(s.level) : "?" });
  if (!s.joined) return t("recent.openSeat");
  return s.name || t("recent.person");
}

// seatsText describes the seats of a summary, a bot marked BOT.
function seatsText(seats) {
  return seats.flatMap((s, i) => [i ? ` ${t("recent.vs")} ` : "", seatText(s), s.bot ? botBadge() : null]);
}

// recentList fills box with up to limit recent games; status filters.
export async function recentList(box, limit = 20, status = "", heading = true) {
  clear(box);
  if (heading) box.append(h("h2", {}, t("recent.heading")));
  let games;
  try {
    games = await recentGames(limit, status);
  } catch (err) {
    box.append(h("p", { class: "error" }, t("recent.cannotLoad", { error: errorWords(err) })));
    return;
  }
  if (!games.length) {
    box.append(h("p", { class: "muted" }, t("recent.none")));
    return;
  }
  const list = h("ul", { class: "recent", "data-testid": "recent-list" });
  for (const g of games) {
    const mine = Boolean(token(g.id));
    const over = g.status === "finished";
    const result = over && g.outcome ? describeOutcome(g.outcome, (g.seats || []).map((s) => s.name || "")) : t("recent.inPlay");
    const action = over ? t("recent.replay") : mine ? t("recent.continue") : t("recent.watch");
    list.append(
      h(
        "li",
        { "data-testid": "recent-" + g.id },
        h("a", { href: "/game/" + g.id, "data-link": "", class: "recent-title" }, g.title || g.spec),
        " ",
        g.spec !== (g.title || "").toLowerCase() ? h("span", { class: "spec" }, g.spec) : null,
        mine ? h("span", { class: "badge" }, t("recent.yours")) : null,
        h("a", { href: "/game/" + g.id, "data-link": "", class: "button secondary small recent-action" }, action),
        h("br"),
        h("span", { class: "small" }, ...seatsText(g.seats || []), " · ", t("moves.count", { n: g.ply }), " · ", result, " · ", timeAgo(g.updated)),
      ),
    );
  }
  box.append(list);
}
