// lobby.js is the lobby, the home page of a signed-in player: the open
// seeks, live over /ws/lobby, a form to seek a game, challenges to and
// from named players, and the player's games waiting for a move.

import { acceptSeek, cancelSeek, challenge, clockText, declineChallenge, LobbySocket, myGames, pools, postSeek } from "../account.js";
import { h, clear, navigate } from "../dom.js";
import { errorWords, t } from "../i18n.js";

export function lobbyPage(root, who) {
  document.title = t("lobby.title");
  const err = h("p", { class: "error", role: "alert", "data-testid": "lobby-error" });
  const list = h("ul", { class: "seeks", "data-testid": "seeks" });
  const conn = h("span", { class: "small muted" });
  const waiting = h("ul", { class: "my-turn", "data-testid": "my-turn" });

  // The rated variants first, then every other variant can be typed
  // as a spec (casual games only).
  const specSel = h("select", { id: "seek-spec", "data-testid": "seek-spec" });
  pools().then((list) => specSel.append(...list.map((p) => h("option", { value: p.spec }, p.title)))).catch((e) => (err.textContent = errorWords(e)));
  const kind = h("select", { id: "seek-kind", "data-testid": "seek-kind" },
    h("option", { value: "clock" }, t("lobby.clock")), h("option", { value: "days" }, t("lobby.daysPerMove")), h("option", { value: "none" }, t("lobby.noClock")));
  const minutes = h("input", { type: "number", id: "seek-min", min: 0, max: 180, step: "any", value: 3, "data-testid": "seek-minutes", "aria-label": t("lobby.minutes") });
  const inc = h("input", { type: "number", id: "seek-inc", min: 0, max: 180, value: 2, "data-testid": "seek-increment", "aria-label": t("lobby.increment") });
  const days = h("input", { type: "number", id: "seek-days", min: 1, max: 14, value: 3, hidden: true, "data-testid": "seek-days", "aria-label": t("lobby.daysPerMove") });
  const rated = h("input", { type: "checkbox", id: "seek-rated", checked: true, "data-testid": "seek-rated" });
  const seat = h("select", { id: "seek-seat", "data-testid": "seek-seat" }, h("option", { value: "random" }, t("lobby.randomSide")), h("option", { value: "0" }, t("lobby.firstPlayer")), h("option", { value: "1" }, t("lobby.secondPlayer")));
  const to = h("input", { type: "text", id: "seek-to", maxlength: 20, placeholder: t("lobby.anyone"), "data-testid": "seek-to", "aria-label": t("lobby.challengePlayer") });
  const kindChanged = () => {
    minutes.hidden = inc.hidden = kind.value !== "clock";
    days.hidden = kind.value !== "days";
    // A rated game has a clock or days per move, so that nobody can
    // stall it.
    if (kind.value === "none") rated.checked = false;
    rated.disabled = kind.value === "none";
  };
  kind.addEventListener("change", kindChanged);
  const form = h("form", { class: "seek-form", "data-testid": "seek-form" },
    h("h2", {}, t("lobby.seekGame")),
    h("p", {}, h("label", { for: "seek-spec" }, t("lobby.game"), " "), specSel),
    h("p", { class: "small muted" }, t("lobby.otherVariants"), " ", h("a", { href: "/new", "data-link": "" }, t("lobby.inviteFriend")), "."),
    h("p", {}, h("label", { for: "seek-kind" }, t("lobby.time"), " "), kind, " ", minutes, h("span", { class: "small" }, " ", t("lobby.min"), " "), inc, h("span", { class: "small" }, " ", t("lobby.s"), " "), days),
    h("p", {}, h("label", { for: "seek-rated" }, rated, " ", t("lobby.rated")), " ", seat),
    h("p", {}, h("label", { for: "seek-to" }, t("lobby.challenge"), " "), to),
    h("button", { type: "submit", class: "primary", "data-testid": "seek-submit" }, t("lobby.seek")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const body = { spec: specSel.value, rated: rated.checked, seat: seat.value === "random" ? "random" : Number(seat.value) };
    if (kind.value === "clock") body.clock = { initial: Number(minutes.value) * 60, increment: Number(inc.value) };
    if (kind.value === "days") body.days = Number(days.value);
    try {
      if (to.value.trim()) await challenge({ ...body, to: to.value.trim() });
      else await postSeek(body);
    } catch (e) {
      err.textContent = errorWords(e, { 404: "lobby.noSuchPlayer", 429: "lobby.tooManySeeks", 400: "lobby.seekRefused" });
    }
  });

  const act = async (f) => {
    err.textContent = "";
    try {
      const res = await f();
      if (res && res.game) navigate("/game/" + res.game);
    } catch (e) {
      err.textContent = errorWords(e, { 404: "lobby.seekGone" });
    }
  };
  function drawSeeks(seeks) {
    clear(list);
    if (!seeks.length) list.append(h("li", { class: "muted" }, t("lobby.noSeeks")));
    for (const s of seeks) {
      const mine = s.owner === who.name;
      const what = `${s.spec} · ${clockText(s)} · ${t(s.rated ? "lobby.ratedGame" : "lobby.casual")}`;
      const row = h("li", { class: "seek", "data-testid": "seek-" + s.owner },
        h("a", { href: "/@/" + encodeURIComponent(s.owner), "data-link": "" }, s.owner),
        s.rating ? ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})` : "",
        s.to ? ` → ${s.to}` : "",
        " ", h("span", {}, what), " ");
      if (mine) row.append(h("button", { type: "button", class: "secondary small", "data-testid": "cancel-" + s.id, onclick: () => act(() => cancelSeek(s.id)) }, t("lobby.cancel")));
      else {
        row.append(h("button", { type: "button", class: "primary small", "data-testid": "accept-" + s.owner, onclick: () => act(() => acceptSeek(s.id)) }, t("lobby.accept")));
        if (s.to) row.append(" ", h("button", { type: "button", class: "secondary small", onclick: () => act(() => declineChallenge(s.id)) }, t("lobby.decline")));
      }
      list.append(row);
    }
  }

  const sock = new LobbySocket({
    seeks: drawSeeks,
    started: (m) => navigate("/game/" + m.game),
    declined: (m) => (err.textContent = t("lobby.declined", { name: m.by })),
    status: (s) => (conn.textContent = s === "connected" ? "" : t("lobby.reconnecting")),
  });
  myGames().then((gs) => {
    for (const g of gs.filter((g) => g.yourMove)) {
      waiting.append(h("li", {}, h("a", { href: "/game/" + g.id, "data-link": "" }, `${g.title}: ${g.seats.map((s) => s.name || s.level || "?").join(" – ")}`)));
    }
    if (!waiting.firstChild) waiting.append(h("li", { class: "muted" }, t("lobby.noneWaiting")));
  }).catch(() => {});

  root.append(
    h("h1", {}, t("lobby.heading"), " ", conn),
    h("div", { class: "lobby" },
      h("section", {}, h("h2", {}, t("lobby.openSeeks")), list, err),
      h("section", {}, form, h("h2", {}, t("lobby.yourMove")), waiting,
        h("p", { class: "small" }, h("a", { href: "/new", "data-link": "" }, t("lobby.playOthers")), " · ", h("a", { href: "/me/games", "data-link": "" }, t("lobby.allGames")))),
    ),
  );
  return () => sock.close();
}
