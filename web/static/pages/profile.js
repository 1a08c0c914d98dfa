// profile.js is a player's page (/@/<name>): ratings per pool with a plot
// of their history, and recent games; the leaderboards
// (/leaderboard/<pool>); and the signed-in player's games (/me/games).

import { block, blocks, leaderboard, me, myGames, poolName, pools, poolTitle, profile, ratingText, report, unblock } from "../account.js";
import { h } from "../dom.js";
import { puzzlePlayer } from "../api.js";
import { svg } from "../svg.js";
import { botBadge } from "../players.js";
import { describeOutcome } from "../outcome.js";
import { errorWords, formatNumber, language, t, timeAgo } from "../i18n.js";

// plot draws a rating history as an SVG line with the ±deviation band.
export function plot(history) {
  const W = 320, H = 120, pad = 28;
  const lo = Math.min(...history.map((p) => p.rating - p.deviation));
  const hi = Math.max(...history.map((p) => p.rating + p.deviation));
  const span = Math.max(hi - lo, 1);
  const x = (i) => pad + (history.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (history.length - 1));
  const y = (r) => H - pad / 2 - ((r - lo) / span) * (H - pad);
  const line = history.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const band = history.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating + p.deviation).toFixed(1)}`).join(" ") + " " +
    history.slice().reverse().map((p, j) => `L${x(history.length - 1 - j).toFixed(1)},${y(p.rating - p.deviation).toFixed(1)}`).join(" ") + " Z";
  const last = history[history.length - 1];
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", role: "img", "aria-label": t("profile.plot", { n: history.length, rating: Math.round(last.rating) }), "data-testid": "rating-plot" },
    svg("path", { d: band, class: "band" }),
    svg("path", { d: line, class: "line" }),
    ...history.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5 }, svg("title", {}, t("profile.point", { rating: Math.round(p.rating), n: i + 1 })))),
    svg("text", { x: 2, y: 12, class: "axis" }, Math.round(hi)),
    svg("text", { x: 2, y: H - 2, class: "axis" }, Math.round(lo)),
  );
}

// gameRow is one game of a list.
export function gameRow(g) {
  const names = g.seats.map((s) => (s.account ? h("a", { href: "/@/" + encodeURIComponent(s.name), "data-link": "" }, s.name) : s.name || s.level || t("profile.openSeat")));
  const parts = [];
  names.forEach((n, i) => parts.push(i ? " – " : "", n, g.seats[i].bot ? botBadge() : null));
  return h("li", { class: "game-row" },
    h("a", { href: "/game/" + g.id, "data-link": "" }, g.title), " ", g.rated ? t("profile.rated") + " " : "", ...parts, " ",
    h("span", { class: "small muted" }, g.outcome ? describeOutcome(g.outcome, g.seats.map((s) => s.name || "")) : t(g.yourMove ? "profile.yourMove" : "profile.playing"), " · ", timeAgo(g.updated)));
}

export function profilePage(root, name) {
  document.title = name + " – stax";
  const body = h("div", { "data-testid": "profile" }, h("p", { class: "loading" }, t("profile.loading")));
  const head = h("h1", { "data-testid": "profile-name" }, name);
  root.append(head, body);
  // A signed-in player may challenge another from their profile: the
  // lobby's form opens with their name (a bot challenges through the bot
  // API).
  me().then((who) => {
    if (who && !who.bot && who.name.toLowerCase() !== name.toLowerCase()) {
      head.after(h("p", {}, h("a", { class: "button primary", href: "/?to=" + encodeURIComponent(name), "data-link": "", "data-testid": "challenge" }, t("profile.challenge"))));
    }
  });
  Promise.all([profile(name), pools()]).then(([p, list]) => {
    body.replaceChildren();
    if (p.bot) head.append(botBadge());
    body.append(h("p", { class: "small muted" }, t("profile.since", { date: new Intl.DateTimeFormat(language(), { dateStyle: "long" }).format(new Date(p.created)) })));
    const ratings = h("div", { class: "ratings" });
    if (!p.ratings.length) ratings.append(h("p", { class: "muted" }, t("profile.noRated")));
    for (const r of p.ratings) {
      ratings.append(h("section", { class: "rating", "data-testid": "rating-" + r.pool },
        h("h2", {}, poolTitle(list, r.pool), " ", h("span", { class: "rating-value", "data-testid": "rating-value-" + r.pool, "data-rating": r.rating }, ratingText(r))),
        r.results ? h("p", { class: "results", "data-testid": "results-" + r.pool }, t("profile.results", { won: r.results.won, lost: r.results.lost, drawn: r.results.drawn })) : null,
        h("p", { class: "small muted" }, t("profile.stats", { deviation: Math.round(r.deviation), volatility: formatNumber(Number(r.volatility.toFixed(4))), n: r.games }), r.provisional ? " · " + t("profile.provisional") : ""),
        r.history && r.history.length ? plot(r.history) : null));
    }
    body.append(ratings, h("h2", {}, t("profile.recent")), h("ul", { class: "games" }, ...p.games.map(gameRow)));
    puzzleRating(ratings, p.name || name);
    moderationBox(body, p.name || name);
  }).catch((e) => {
    body.replaceChildren(h("p", { class: "error", role: "alert" }, errorWords(e)));
  });
}

// puzzleRating adds the player's puzzle rating to box once they have
// solved or failed a rated puzzle.
function puzzleRating(box, name) {
  puzzlePlayer(name).then((r) => {
    if (!r.attempts) return;
    box.append(h("section", { class: "rating", "data-testid": "rating-puzzles" },
      h("h2", {}, h("a", { href: "/puzzles", "data-link": "" }, t("profile.puzzles")), " ", h("span", { class: "rating-value", "data-testid": "rating-value-puzzles", "data-rating": r.rating }, ratingText(r))),
      h("p", { class: "small muted" }, t("profile.puzzleStats", { deviation: Math.round(r.deviation), n: r.attempts }), r.provisional ? " · " + t("profile.provisional") : "")));
  }, () => {});
}

// leaderboardPage shows the leaderboard of pool, or of the first pool.
export function leaderboardPage(root, pool) {
  document.title = t("profile.leaderboardTitle");
  const title = h("h1", {}, t("profile.leaderboard"));
  const tabs = h("nav", { class: "tabs" });
  const table = h("ol", { class: "leaderboard", "data-testid": "leaderboard" });
  root.append(title, tabs, table,
    h("p", { class: "small muted" }, t("profile.leaderboardNote")));
  pools().then((list) => {
    pool = pool || (list[0] && list[0].pool);
    title.textContent = t("profile.leaderboardOf", { pool: poolTitle(list, pool) });
    tabs.append(...list.map((p) => h("a", { href: "/leaderboard/" + p.pool, "data-link": "", "aria-current": p.pool === pool ? "page" : null }, poolName(p))));
    return leaderboard(pool);
  }).then((lb) => {
    if (!lb.ratings.length) table.append(h("li", { class: "muted" }, t("profile.nobody")));
    for (const r of lb.ratings) table.append(h("li", {}, h("a", { href: "/@/" + encodeURIComponent(r.name), "data-link": "" }, r.name), r.bot ? botBadge() : null, " ", ratingText(r), h("span", { class: "small muted" }, " ", t("profile.entry", { margin: Math.round(2 * r.deviation), n: r.games }))));
  }).catch((e) => table.append(h("li", { class: "error" }, errorWords(e))));
}

export function myGamesPage(root) {
  document.title = t("profile.myGamesTitle");
  const list = h("ul", { class: "games", "data-testid": "my-games" });
  root.append(h("h1", {}, t("profile.myGames")), h("p", { class: "small muted" }, t("profile.myTurnFirst")), list);
  myGames().then((gs) => {
    if (!gs.length) list.append(h("li", { class: "muted" }, t("profile.noGames"), " ", h("a", { href: "/", "data-link": "" }, t("profile.lobby")), "."));
    for (const g of gs) list.append(gameRow(g));
  }).catch((e) => list.append(h("li", { class: "error" }, e.status === 401 ? t("profile.signInFirst") : errorWords(e))));
}

// moderationBox adds, for a signed-in visitor of another player's page,
// the buttons to block or unblock the player and to report them to the
// operators with a reason.
function moderationBox(body, name) {
  me().then((who) => {
    if (!who || who.name.toLowerCase() === name.toLowerCase()) return;
    const status = h("p", { role: "status", class: "small", "data-testid": "moderation-status" });
    const blockButton = h("button", { type: "button", class: "secondary small", "data-testid": "block" });
    let blocked = false;
    const draw = () => { blockButton.textContent = t(blocked ? "profile.unblock" : "profile.block"); };
    blockButton.addEventListener("click", async () => {
      try {
        const list = await (blocked ? unblock(name) : block(name));
        blocked = list.some((n) => n.toLowerCase() === name.toLowerCase());
        status.textContent = t(blocked ? "profile.blocked" : "profile.unblocked", { name });
        draw();
      } catch (e) {
        status.textContent = errorWords(e);
      }
    });
    const reason = h("input", { type: "text", id: "report-reason", maxlength: 500, required: true, "data-testid": "report-reason" });
    const form = h("form", { class: "account-form", hidden: true, "data-testid": "report-form" },
      h("p", {}, h("label", { for: "report-reason" }, t("profile.reportReason")), reason),
      h("button", { type: "submit", class: "danger small", "data-testid": "report-send" }, t("profile.reportSend")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await report({ user: name, reason: reason.value.trim() });
        form.hidden = true;
        reason.value = "";
        status.textContent = t("profile.reported");
      } catch (e) {
        status.textContent = errorWords(e);
      }
    });
    const reportButton = h("button", { type: "button", class: "secondary small", "data-testid": "report",
      onclick: () => { form.hidden = !form.hidden; if (!form.hidden) reason.focus(); } }, t("profile.report"));
    blocks().then((list) => {
      blocked = list.some((n) => n.toLowerCase() === name.toLowerCase());
      draw();
      body.append(h("section", { class: "moderation", "data-testid": "moderation" },
        h("p", { class: "small muted" }, t("profile.moderationNote")), blockButton, " ", reportButton, form, status));
    }).catch(() => {});
  });
}
