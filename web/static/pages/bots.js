// bots.js is the page of the bots (/bots): the bot accounts, online or
// not, with their ratings, and for a signed-in player a button that opens
// the lobby's challenge form with the bot's name.

import { bots, me, poolTitle, pools, ratingText } from "../account.js";
import { botBadge } from "../players.js";
import { h } from "../dom.js";
import { errorWords, t, timeAgo } from "../i18n.js";

export function botsPage(root) {
  document.title = t("bots.title");
  const list = h("ul", { class: "bots", "data-testid": "bots" }, h("li", { class: "loading" }, t("profile.loading")));
  root.append(h("h1", {}, t("bots.heading")), h("p", { class: "lead" }, t("bots.lead")), list);
  Promise.all([bots(), pools(), me()]).then(([bs, poolList, who]) => {
    list.replaceChildren();
    if (!bs.length) list.append(h("li", { class: "muted" }, t("bots.none")));
    for (const b of bs) list.append(botRow(b, poolList, who));
  }).catch((e) => list.replaceChildren(h("li", { class: "error", role: "alert" }, errorWords(e))));
}

// botRow is one bot of the list: its name, whether it is online, its
// ratings, and the button that challenges it (for a person: a bot
// challenges through the bot API).
function botRow(b, poolList, who) {
  const ratings = b.ratings.map((r) => t("bots.rating", { pool: poolTitle(poolList, r.pool), rating: ratingText(r), n: r.games })).join(" · ");
  let status = t("bots.never");
  if (b.online) status = t("bots.online");
  else if (b.seen) status = t("bots.seen", { when: timeAgo(b.seen) });
  const mine = who && who.name.toLowerCase() === b.name.toLowerCase();
  return h("li", { class: "bot", "data-testid": "bot-" + b.name },
    h("a", { href: "/@/" + encodeURIComponent(b.name), "data-link": "" }, b.name), botBadge(), " ",
    h("span", { class: b.online ? "online" : "muted", "data-testid": "bot-status-" + b.name }, status),
    h("span", { class: "small muted bot-ratings" }, ratings || t("bots.unrated"), " · ", t("bots.games", { n: b.games })),
    who && !who.bot && !mine ? h("a", { class: "button primary small", href: "/?to=" + encodeURIComponent(b.name), "data-link": "", "data-testid": "challenge-" + b.name, "aria-label": t("bots.challengeName", { name: b.name }) }, t("bots.challenge")) : null);
}
