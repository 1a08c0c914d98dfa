// lobby.js is the lobby, the home page of a signed-in player: the open
// seeks, live over /ws/lobby, a form to seek a game, challenges to and
// from named players, the bots online, and the player's games waiting for
// a move.

import { acceptSeek, bots, cancelSeek, challenge, clockText, declineChallenge, declinedWords, LobbySocket, myGames, pair, pairingPresets, poolName, pools, postSeek, presetText, unpair } from "../account.js";
import { h, clear, navigate } from "../dom.js";
import { botBadge } from "../players.js";
import { errorWords, t } from "../i18n.js";

export function lobbyPage(root, who) {
  document.title = t("lobby.title");
  const err = h("p", { class: "error", role: "alert", "data-testid": "lobby-error" });
  const list = h("ul", { class: "seeks", "data-testid": "seeks" });
  const conn = h("span", { class: "small muted" });
  const waitingList = h("ul", { class: "my-turn", "data-testid": "my-turn" });

  // The rated variants first, then every other variant can be typed
  // as a spec (casual games only).
  const specSel = h("select", { id: "seek-spec", "data-testid": "seek-spec" });
  pools().then((list) => specSel.append(...list.map((p) => h("option", { value: p.spec }, poolName(p))))).catch((e) => (err.textContent = errorWords(e)));
  const kind = h("select", { id: "seek-kind", "data-testid": "seek-kind" },
    h("option", { value: "clock" }, t("lobby.clock")), h("option", { value: "days" }, t("lobby.daysPerMove")), h("option", { value: "none" }, t("lobby.noClock")));
  const minutes = h("input", { type: "number", id: "seek-min", min: 0, max: 180, step: "any", value: 3, "data-testid": "seek-minutes", "aria-label": t("lobby.minutes") });
  const inc = h("input", { type: "number", id: "seek-inc", min: 0, max: 180, value: 2, "data-testid": "seek-increment", "aria-label": t("lobby.increment") });
  const days = h("input", { type: "number", id: "seek-days", min: 1, max: 14, value: 3, hidden: true, "data-testid": "seek-days", "aria-label": t("lobby.daysPerMove") });
  const rated = h("input", { type: "checkbox", id: "seek-rated", checked: true, "data-testid": "seek-rated" });
  const seat = h("select", { id: "seek-seat", "data-testid": "seek-seat", "aria-label": t("lobby.side") }, h("option", { value: "random" }, t("lobby.randomSide")), h("option", { value: "0" }, t("lobby.firstPlayer")), h("option", { value: "1" }, t("lobby.secondPlayer")));
  // A profile's "Challenge" comes here with the player's name (?to=name).
  const to = h("input", { type: "text", id: "seek-to", maxlength: 20, placeholder: t("lobby.anyone"), value: new URLSearchParams(location.search).get("to") || "", "data-testid": "seek-to", "aria-label": t("lobby.challengePlayer") });
  const minLabel = h("span", { class: "small", "data-testid": "seek-min-label" }, " ", t("lobby.min"), " ");
  const sLabel = h("span", { class: "small", "data-testid": "seek-s-label" }, " ", t("lobby.s"), " ");
  const kindChanged = () => {
    minutes.hidden = inc.hidden = minLabel.hidden = sLabel.hidden = kind.value !== "clock";
    days.hidden = kind.value !== "days";
    // A rated game has a clock or days per move, so that nobody can
    // stall it.
    if (kind.value === "none") rated.checked = false;
    rated.disabled = kind.value === "none";
  };
  kind.addEventListener("change", kindChanged);
  // The presets fill the time control in.
  const presetRow = h("p", { class: "presets small", "data-testid": "seek-presets" });

  // Quick pairing: a game and a preset, and the lobby pairs the player
  // with someone of a similar rating waiting for the same.
  const quickSpec = h("select", { id: "quick-spec", "data-testid": "quick-spec" });
  const quickButtons = h("div", { class: "preset-grid", "data-testid": "quick-presets" });
  const quickStatus = h("p", { class: "quick-status", role: "status", "data-testid": "quick-status" });
  const quickErr = h("p", { class: "error", role: "alert", "data-testid": "quick-error" });
  const quickCancel = h("button", { type: "button", class: "secondary small", hidden: true, "data-testid": "quick-cancel" }, t("lobby.cancel"));
  let waiting = null; // {spec, preset, timer} while waiting
  const stopWaiting = (leave) => {
    if (!waiting) return;
    clearInterval(waiting.timer);
    waiting = null;
    quickCancel.hidden = true;
    for (const b of quickButtons.children) b.removeAttribute("aria-pressed");
    if (leave) unpair().catch(() => {});
  };
  const showWait = (res, p) => {
    quickStatus.textContent = t("lobby.quickWaiting", { game: quickSpec.selectedOptions[0] ? quickSpec.selectedOptions[0].textContent : "", preset: presetText(p), reach: Math.round(res.reach) });
  };
  const quick = async (p) => {
    stopWaiting(false);
    quickErr.textContent = "";
    const spec = quickSpec.value;
    try {
      const res = await pair(spec, p.name);
      if (res.game) {
        navigate("/game/" + res.game);
        return;
      }
      quickCancel.hidden = false;
      for (const b of quickButtons.children) b.toggleAttribute("aria-pressed", b.dataset.preset === p.name);
      showWait(res, p);
      const w = { spec, preset: p.name };
      // The wait is renewed every 5 s, which also widens its reach; once
      // over, the lobby's news brings the game.
      w.timer = setInterval(async () => {
        try {
          const again = await pair(w.spec, w.preset, true);
          if (again.game) navigate("/game/" + again.game);
          else if (waiting === w) showWait(again, p);
        } catch (e) {
          if (waiting !== w) return;
          stopWaiting(false);
          quickStatus.textContent = "";
          quickErr.textContent = errorWords(e, { not_waiting: "lobby.quickOver" });
        }
      }, 5000);
      waiting = w;
    } catch (e) {
      quickStatus.textContent = "";
      quickErr.textContent = errorWords(e, { 400: "lobby.seekRefused" });
    }
  };
  quickCancel.addEventListener("click", () => {
    stopWaiting(true);
    quickStatus.textContent = "";
  });
  quickSpec.addEventListener("change", () => stopWaiting(true));
  pools().then((list) => quickSpec.append(...list.map((p) => h("option", { value: p.spec }, poolName(p))))).catch((e) => (quickErr.textContent = errorWords(e)));
  pairingPresets().then((list) => {
    for (const p of list) {
      quickButtons.append(h("button", { type: "button", class: "preset", "data-preset": p.name, "data-testid": "quick-" + p.name, onclick: () => quick(p) }, presetText(p)));
      presetRow.append(h("button", { type: "button", class: "secondary small", "data-testid": "preset-" + p.name, onclick: () => {
        kind.value = p.days ? "days" : "clock";
        if (p.days) days.value = p.days;
        else {
          minutes.value = p.clock.initial / 60;
          inc.value = p.clock.increment;
        }
        rated.checked = true;
        kindChanged();
      } }, presetText(p)), " ");
    }
  }).catch((e) => (quickErr.textContent = errorWords(e)));
  const quickBox = h("section", { class: "quick", "data-testid": "quick" },
    h("h2", {}, t("lobby.quick")),
    h("p", { class: "small muted" }, t("lobby.quickHelp")),
    h("p", {}, h("label", { for: "quick-spec" }, t("lobby.game"), " "), quickSpec),
    quickButtons,
    h("div", { class: "quick-wait" }, quickStatus, quickCancel),
    quickErr,
  );
  const form = h("form", { class: "seek-form", "data-testid": "seek-form" },
    h("h2", {}, t("lobby.seekGame")),
    h("p", {}, h("label", { for: "seek-spec" }, t("lobby.game"), " "), specSel),
    h("p", { class: "small muted" }, t("lobby.otherVariants"), " ", h("a", { href: "/new", "data-link": "" }, t("lobby.inviteFriend")), "."),
    h("p", {}, h("label", { for: "seek-kind" }, t("lobby.time"), " "), kind, " ", minutes, minLabel, inc, sLabel, days),
    presetRow,
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
        s.bot ? botBadge() : null,
        s.rating ? ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})` : "",
        s.to ? ` → ${s.to}` : "",
        s.toBot ? botBadge() : null,
        " ", h("span", {}, what), " ");
      // A bot's browser only watches: its program seeks and accepts.
      if (who.bot) {
        list.append(row);
        continue;
      }
      if (mine) row.append(h("button", { type: "button", class: "secondary small", "data-testid": "cancel-" + s.id, onclick: () => act(() => cancelSeek(s.id)) }, t("lobby.cancel")));
      else {
        row.append(h("button", { type: "button", class: "primary small", "data-testid": "accept-" + s.owner, onclick: () => act(() => acceptSeek(s.id)) }, t("lobby.accept")));
        if (s.to) row.append(" ", h("button", { type: "button", class: "secondary small", onclick: () => act(() => declineChallenge(s.id)) }, t("lobby.decline")));
      }
      list.append(row);
    }
  }

  // The games waiting for the player's move, read again when the news
  // says that another one waits.
  const drawWaiting = () => myGames().then((gs) => {
    waitingList.replaceChildren();
    for (const g of gs.filter((g) => g.yourMove)) {
      const names = g.seats.flatMap((s, i) => [i ? " – " : "", s.name || s.level || "?", s.bot ? botBadge() : ""]);
      waitingList.append(h("li", {}, h("a", { href: "/game/" + g.id, "data-link": "" }, g.title + ": ", ...names)));
    }
    if (!waitingList.firstChild) waitingList.append(h("li", { class: "muted" }, t("lobby.noneWaiting")));
  }).catch(() => {});
  const sock = new LobbySocket({
    seeks: drawSeeks,
    started: (m) => navigate("/game/" + m.game),
    declined: (m) => (err.textContent = declinedWords(m)),
    turn: () => drawWaiting(),
    status: (s) => (conn.textContent = s === "connected" ? "" : t("lobby.reconnecting")),
  });
  drawWaiting();

  // The bots online, each with a button that fills the challenge form in
  // with its name.
  const botList = h("ul", { class: "bots-online", "data-testid": "bots-online" });
  bots().then((bs) => {
    const online = bs.filter((b) => b.online && b.name.toLowerCase() !== who.name.toLowerCase());
    if (!online.length) botList.append(h("li", { class: "muted" }, t("bots.noneOnline")));
    for (const b of online) {
      botList.append(h("li", { "data-testid": "bot-online-" + b.name },
        h("a", { href: "/@/" + encodeURIComponent(b.name), "data-link": "" }, b.name), botBadge(), " ",
        who.bot ? null : h("button", { type: "button", class: "secondary small", "data-testid": "challenge-bot-" + b.name, "aria-label": t("bots.challengeName", { name: b.name }), onclick: () => {
          to.value = b.name;
          form.scrollIntoView({ block: "nearest" });
          to.focus();
        } }, t("bots.challenge"))));
    }
  }).catch(() => botList.append(h("li", { class: "muted" }, t("bots.noneOnline"))));

  root.append(
    h("h1", {}, t("lobby.heading"), " ", conn),
    h("div", { class: "lobby" },
      h("section", {}, h("h2", {}, t("lobby.openSeeks")), list, err),
      h("section", { class: "lobby-side" },
        // A bot plays through the bot API: its browser has no forms to
        // play with, which the server would refuse.
        ...(who.bot ? [h("section", { "data-testid": "lobby-bot-note" }, h("h2", {}, t("account.botHeading")), h("p", { class: "small" }, t("account.botNote")))] : [quickBox, form]),
        h("section", { class: "bots-box", "data-testid": "bots-box" }, h("h2", {}, t("bots.onlineHeading")), botList,
          h("p", { class: "small" }, h("a", { href: "/bots", "data-link": "" }, t("bots.all")))),
        h("h2", {}, t("lobby.yourMove")), waitingList,
        h("p", { class: "small" }, who.bot ? null : [h("a", { href: "/new", "data-link": "" }, t("lobby.playOthers")), " · "], h("a", { href: "/me/games", "data-link": "" }, t("lobby.allGames")))),
    ),
  );
  if (to.value) to.focus();
  return () => {
    stopWaiting(true);
    sock.close();
  };
}
