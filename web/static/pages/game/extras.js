// extras.js is what surrounds a game between people: the clocks, ticking
// from the server's State (with a warning when time runs low), the offers
// (draw, takeback, abort, rematch), the chat of the players or of the
// spectators, and how many watch. Every text is shown as text.

import { saveToken } from "../../api.js";
import { report } from "../../account.js";
import { h, clear, navigate } from "../../dom.js";
import { t, errorWords } from "../../i18n.js";
import { play } from "../../sound.js";

// lowTime is when a clock shows its warning, in milliseconds.
const lowTime = 10000;

export class GameExtras {
  // send sends a websocket message; it reports whether it could. game is
  // the game's id, for reports of its chat lines. place(els) puts the
  // clocks, one element a seat, where the page shows them (beside each
  // player's name, near the board).
  constructor(send, game, place) {
    this.send = send;
    this.game = game;
    this.place = place;
    this.st = null;
    this.held = [];
    this.offers = {};
    this.offset = 0; // server time minus this browser's, in ms
    this.warned = ""; // the turn (clock.since) whose low time was sounded
    this.clockEls = []; // one clock a seat, placed by the page
    // The spectators' line holds its place until their count comes, so
    // that the controls below it do not move under a player's finger.
    this.watchers = h("p", { class: "small muted", "data-testid": "watchers" }, "\u00a0");
    this.offerBox = h("div", { class: "offers", "data-testid": "offers" });
    // When the opponent leaves a live game, the player may claim it once
    // they have been gone long enough (state.claimAfter).
    this.claimText = h("p", { class: "offer-news" });
    this.claimWin = h("button", { type: "button", class: "primary small", "data-testid": "claim-win", onclick: () => this.send({ type: "claim", offer: "win" }) }, t("extras.claimWin"));
    this.claimDraw = h("button", { type: "button", class: "secondary small", "data-testid": "claim-draw", onclick: () => this.send({ type: "claim", offer: "draw" }) }, t("extras.claimDraw"));
    this.claimBox = h("div", { class: "claim", hidden: true, "data-testid": "claim", "aria-live": "polite" }, this.claimText, this.claimWin, this.claimDraw);
    this.chatList = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite" });
    this.chatInput = h("input", { type: "text", maxlength: 300, placeholder: t("extras.say"), "data-testid": "chat-input", "aria-label": t("extras.message") });
    this.chatErr = h("p", { class: "error small", role: "alert" });
    this.chatTitle = h("h2", {}, t("extras.chat"));
    const form = h("form", { class: "chat-form" }, this.chatInput, h("button", { type: "submit", class: "secondary small", "data-testid": "chat-send" }, t("extras.send")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.chatInput.value.trim();
      if (text && this.send({ type: "chat", text })) this.chatInput.value = "";
    });
    // A chat line is reported to the operators with a reason.
    this.reporting = null; // the line being reported
    this.reportLabel = h("label", { for: "chat-report-reason" });
    this.reportReason = h("input", { type: "text", id: "chat-report-reason", maxlength: 500, required: true, "data-testid": "chat-report-reason" });
    this.reportForm = h("form", { class: "chat-form", hidden: true, "data-testid": "chat-report-form" }, this.reportLabel, this.reportReason,
      h("button", { type: "submit", class: "danger small", "data-testid": "chat-report-send" }, t("extras.reportSend")));
    this.reportForm.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const l = this.reporting;
      if (!l) return;
      try {
        await report({ game: this.game, chat: { from: l.from, at: l.at }, reason: this.reportReason.value.trim() });
        this.reportForm.hidden = true;
        this.reportReason.value = "";
        this.chatErr.textContent = t("extras.reported");
      } catch (e) {
        this.chatErr.textContent = errorWords(e, { 401: "extras.signInToReport" });
      }
    });
    this.chat = h("section", { class: "chat", "data-testid": "chat" }, this.chatTitle, this.chatList, form, this.reportForm, this.chatErr);
    // The offers and claims are shown by the page beside the move
    // controls.
    this.box = h("div", { class: "extras" }, this.watchers, this.chat);
    this.timer = setInterval(() => this.tick(), 100);
  }

  close() {
    clearInterval(this.timer);
  }

  hello(msg) {
    if (msg && msg.now) this.offset = Date.parse(msg.now) - Date.now();
  }

  setHeld(seats) {
    this.held = seats;
    this.chatTitle.textContent = t(seats.length ? "extras.chatPlayers" : "extras.chatSpectators");
    this.drawOffers();
  }

  state(st) {
    this.st = st;
    this.drawClocks();
    this.drawOffers();
  }

  // receive handles the websocket messages the game page does not.
  receive(m) {
    switch (m.type) {
      case "chat":
        this.addLine(m);
        break;
      case "chatlog":
        clear(this.chatList);
        for (const l of m.lines || []) this.addLine(l);
        this.offers = m.offers || {};
        this.drawOffers();
        break;
      case "offers":
        this.offers = m.offers || {};
        this.drawOffers();
        break;
      case "watchers":
        this.watchers.textContent = t("extras.spectators", { n: m.count });
        break;
      case "rematch":
        if (m.token) saveToken(m.game, m.token);
        navigate("/game/" + m.game);
        break;
    }
  }

  // error shows the error of a chat message (the error answers the last
  // message sent, err.about: see Connection in api.js); it reports whether
  // the error was the chat's.
  error(err) {
    if (err.about !== "chat" && err.code !== "rate_limited") return false;
    this.chatErr.textContent = errorWords(err, { bad_message: "extras.chatRefused", not_your_seat: "extras.signInToChat" });
    return true;
  }

  addLine(l) {
    this.chatErr.textContent = "";
    // The flag is drawn by the style sheet, so that the line's text stays
    // the message alone.
    const flag = h("button", { type: "button", class: "link small chat-flag", title: t("extras.report"), "aria-label": t("extras.report"), "data-testid": "chat-report",
      onclick: () => {
        this.reporting = l;
        this.reportLabel.textContent = t("extras.reportLine", { name: l.from });
        this.reportForm.hidden = false;
        this.reportReason.focus();
      } });
    this.chatList.append(h("li", { "data-testid": "chat-line" }, h("b", {}, l.from + ": "), l.text, flag));
    while (this.chatList.children.length > 100) this.chatList.firstChild.remove();
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }

  drawClocks() {
    const st = this.st;
    const c = st && st.clock;
    if (!c) return;
    if (this.clockEls.length !== st.seats.length) {
      this.clockEls = st.seats.map((s) => h("span", { class: "clock", role: "timer", "data-testid": "clock-" + s.seat }, h("span", { class: "time" }), h("span", { class: "first small" })));
      this.place(this.clockEls);
    }
    this.tick();
  }

  // drawClaim shows, to a player whose opponent left a live game, how
  // long until they may claim it, then the claims.
  drawClaim() {
    const st = this.st;
    const gone = st && st.claimAfter && st.status === "playing" && this.held.length === 1 ? st.seats.find((s) => !this.held.includes(s.seat) && s.left) : null;
    this.claimBox.hidden = !gone;
    if (!gone) return;
    const wait = Math.ceil((Date.parse(gone.left) + st.claimAfter - (Date.now() + this.offset)) / 1000);
    this.claimText.textContent = wait > 0 ? t("extras.claimWait", { s: wait }) : t("extras.claimNow");
    this.claimWin.disabled = this.claimDraw.disabled = wait > 0;
  }

  // tick redraws the running clock.
  tick() {
    this.drawClaim();
    const st = this.st;
    const c = st && st.clock;
    if (!c) return;
    const now = Date.now() + this.offset;
    st.seats.forEach((s, i) => {
      const el = this.clockEls[i];
      if (!el) return;
      const running = c.running === i;
      // Before a player's first move their clock does not run: they have
      // a first-move window, after which the game is aborted.
      const first = running && c.firstMove;
      let left;
      if (c.days) left = running ? Date.parse(c.deadline) - now : c.days * 86400000;
      else left = c.remaining[i] - (running && !first ? Math.max(0, now - Date.parse(c.since)) : 0);
      left = Math.max(0, left);
      const note = el.querySelector(".first");
      if (note) note.textContent = first && !c.days ? " " + t("clock.firstMove", { seconds: Math.max(0, Math.ceil((Date.parse(c.deadline) - now) / 1000)) }) : "";
      el.classList.toggle("running", running);
      const low = running && !first && !c.days && left < lowTime;
      el.classList.toggle("low", low);
      // The player hears once that their own time runs low.
      if (low && this.held.includes(i) && this.warned !== c.since) {
        this.warned = c.since;
        play("low");
      }
      el.querySelector(".time").textContent = fmt(left, Boolean(c.days));
    });
  }

  drawOffers() {
    clear(this.offerBox);
    const st = this.st;
    if (!st || !this.held.length) return;
    const mine = (kind) => (this.offers[kind] || []).some((p) => this.held.includes(p));
    const theirs = (kind) => (this.offers[kind] || []).some((p) => !this.held.includes(p));
    const button = (kind, key, cls = "secondary") => {
      const label = t(key);
      const made = mine(kind);
      const asked = theirs(kind);
      return h("button", {
        type: "button", class: (asked ? "primary" : cls) + " small", disabled: made, "data-testid": "offer-" + kind,
        onclick: () => this.send({ type: kind }),
      }, made ? t("extras.offered", { offer: label }) : asked ? t("extras.accept." + kind) : label);
    };
    const news = [];
    for (const kind of ["draw", "takeback", "rematch"]) {
      if (theirs(kind)) {
        news.push(h("p", { class: "offer-news", "data-testid": "offer-news-" + kind }, t("extras.news." + kind)),
          h("button", { type: "button", class: "secondary small", "data-testid": "decline-" + kind, onclick: () => this.send({ type: "decline", offer: kind }) }, t("extras.decline")));
      }
      if (mine(kind)) {
        news.push(h("button", { type: "button", class: "secondary small", "data-testid": "withdraw-" + kind, onclick: () => this.send({ type: "withdraw", offer: kind }) }, t("extras.withdraw")));
      }
    }
    const humans = st.seats.filter((s) => s.kind === "human").length;
    // A bot answers draws only (the bot API): it is challenged again
    // rather than offered a rematch, and offered no takeback.
    const bot = st.seats.find((s, i) => s.bot && !this.held.includes(i));
    if (st.status === "playing") {
      if (humans > 1) {
        this.offerBox.append(button("draw", "extras.offerDraw"));
        if (!st.rated && !st.clock && st.ply > 0 && !bot) this.offerBox.append(button("takeback", "extras.takeback"));
      }
      if (st.ply < 2) this.offerBox.append(h("button", { type: "button", class: "secondary small", "data-testid": "abort", onclick: () => this.send({ type: "abort" }) }, t("extras.abort")));
    } else if (bot) {
      this.offerBox.append(h("a", { class: "button primary small", href: "/?to=" + encodeURIComponent(bot.name), "data-link": "", "data-testid": "challenge-again" }, t("extras.challengeAgain", { name: bot.name })));
    } else if (humans > 1) {
      this.offerBox.append(button("rematch", "extras.offerRematch", "primary"));
    }
    this.offerBox.append(...news);
  }
}

// fmt writes a time left: m:ss, tenths under 10 s; days and hours for
// correspondence.
function fmt(ms, days) {
  if (days) {
    const hTotal = Math.floor(ms / 3600000);
    const d = Math.floor(hTotal / 24);
    return d ? t("extras.days", { d, h: hTotal % 24 }) : t("extras.hours", { h: hTotal, m: Math.floor((ms % 3600000) / 60000) });
  }
  const s = ms / 1000;
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, "0")}`;
}
