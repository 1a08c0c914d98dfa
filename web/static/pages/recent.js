// recent.js lists recent games, finished or in play.

import { recentGames, token } from "../api.js";
import { clear, h, plural, timeAgo } from "../dom.js";

// seatText describes a seat of a summary, e.g. "alice" or "computer (hard)".
function seatText(s) {
  if (s.kind === "ai") return "computer (" + (s.level || "?") + ")";
  if (!s.joined) return "open seat";
  return s.name || "person";
}

// recentList fills box with up to limit recent games; status filters.
export async function recentList(box, limit = 20, status = "", heading = true) {
  clear(box);
  if (heading) box.append(h("h2", {}, "Recent games"));
  let games;
  try {
    games = await recentGames(limit, status);
  } catch (err) {
    box.append(h("p", { class: "error" }, "Could not load the games: " + err.message));
    return;
  }
  if (!games.length) {
    box.append(h("p", { class: "muted" }, "No games yet."));
    return;
  }
  const list = h("ul", { class: "recent", "data-testid": "recent-list" });
  for (const g of games) {
    const mine = Boolean(token(g.id));
    const over = g.status === "finished";
    const result = over && g.outcome ? g.outcome.description || g.outcome.result : "in play";
    const action = over ? "Replay" : mine ? "Continue" : "Watch";
    list.append(
      h(
        "li",
        { "data-testid": "recent-" + g.id },
        h("a", { href: "/game/" + g.id, "data-link": "", class: "recent-title" }, g.title || g.spec),
        " ",
        g.spec !== (g.title || "").toLowerCase() ? h("span", { class: "spec" }, g.spec) : null,
        mine ? h("span", { class: "badge" }, "yours") : null,
        h("a", { href: "/game/" + g.id, "data-link": "", class: "button secondary small recent-action" }, action),
        h("br"),
        h("span", { class: "small" }, (g.seats || []).map(seatText).join(" vs "), " · ", plural(g.ply, "move"), " · ", result, " · ", timeAgo(g.updated)),
      ),
    );
  }
  box.append(list);
}

// recentPage shows the recent games with a filter.
export function recentPage(root) {
  document.title = "Recent games – stax";
  const box = h("section");
  const filter = h(
    "select",
    { id: "recent-filter", "data-testid": "recent-filter", onchange: () => recentList(box, 50, filter.value, false) },
    h("option", { value: "" }, "all"),
    h("option", { value: "playing" }, "in play"),
    h("option", { value: "finished" }, "finished"),
  );
  root.append(h("h1", {}, "Recent games"), h("p", { class: "filter" }, h("label", { for: "recent-filter" }, "Show "), filter), box);
  recentList(box, 50, "", false);
}
