// notify.js is the site-wide live connection of a signed-in player: on
// every page it follows the player's news over transport.js (GET
// /ws/lobby?news=1: a challenge received, a game started, the player's
// move in a correspondence game, a draw offered; docs/api.md), looks for
// games newly waiting for the player's move when the connection comes
// back after a break, and shows each: a toast, a count on the header's
// bell and in the tab's title, and a notification of the browser when the
// player allowed them.

import { declinedWords, myGames } from "./account.js";
import { clear, h, navigate } from "./dom.js";
import { t } from "./i18n.js";
import { svg } from "./svg.js";
import { Socket } from "./transport.js";

// keep is how many notifications the bell's list keeps; toastTime how long
// a toast stays.
const keep = 10;
const toastTime = 8000;

export class Notifier {
  // header is the site's header, where the bell goes.
  constructor(header) {
    this.items = []; // {text, link}, newest first
    this.unread = 0;
    this.socket = null;
    this.who = null;
    this.waiting = null; // the ids of the games waiting for a move, once read
    this.count = h("span", { class: "bell-count", hidden: true, "data-testid": "bell-count" });
    this.bell = h("button", { type: "button", class: "theme bell", hidden: true, "aria-expanded": "false", "aria-controls": "notifications", "data-testid": "bell", onclick: () => this.toggle() }, bellIcon(), this.count);
    this.panel = h("div", { class: "notifications", id: "notifications", hidden: true, "data-testid": "notifications" });
    this.toasts = h("div", { class: "toasts", role: "status", "aria-live": "polite", "data-testid": "toasts" });
    header.append(this.bell, this.panel);
    document.body.append(this.toasts);
    // Pages set the title; the count of unread news is put back before it.
    new MutationObserver(() => this.title()).observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true });
    this.drawBell();
  }

  // account follows the signed-in player (null: nobody).
  account(who) {
    const name = who ? who.name : null;
    if ((this.who && this.who.name) === name) return;
    this.who = who;
    this.stop();
    this.items = [];
    this.unread = 0;
    this.waiting = null;
    this.bell.hidden = !who;
    this.panel.hidden = true;
    this.drawBell();
    if (!who) return;
    let broken = false;
    this.socket = new Socket({ path: "/ws/lobby?news=1" }, {
      receive: (m) => this.receive(m),
      status: (s) => {
        this.bell.setAttribute("data-live", String(s === "connected"));
        // News sent while the connection was down is not sent again:
        // the games that came to wait for the player meanwhile are.
        if (s === "connected" && broken) this.look();
        broken = s !== "connected";
      },
    });
    // The server closes a news connection that says nothing for a minute.
    this.beat = setInterval(() => this.socket && this.socket.send({ type: "here" }), 20000);
    this.look();
  }

  stop() {
    if (this.socket) this.socket.close();
    this.socket = null;
    clearInterval(this.beat);
  }

  receive(m) {
    switch (m.type) {
      case "challenge":
        this.add(t("notify.challenge", { name: m.by }), "/");
        break;
      case "started":
        this.add(t("notify.started", { name: m.by }), "/game/" + m.game);
        break;
      case "declined":
        this.add(declinedWords(m), "/");
        break;
      case "turn":
        if (this.waiting) this.waiting.add(m.game);
        this.add(t("notify.turn", { name: m.by, title: m.title }), "/game/" + m.game);
        break;
      case "draw":
        this.add(t("notify.draw", { name: m.by, title: m.title }), "/game/" + m.game);
        break;
    }
  }

  // look reads the games waiting for the player's move and tells of those
  // that were not waiting at the last look (a correspondence game whose
  // opponent moved while the connection was down).
  async look() {
    let games;
    try {
      games = await myGames();
    } catch {
      return;
    }
    const now = games.filter((g) => g.yourMove);
    const before = this.waiting;
    this.waiting = new Set(now.map((g) => g.id));
    if (!before) return;
    for (const g of now) {
      if (!before.has(g.id)) this.add(t("notify.yourMove", { title: g.title }), "/game/" + g.id);
    }
  }

  // add shows one piece of news, unless the page shows its game already.
  add(text, link) {
    if (link !== "/" && location.pathname === link) return;
    this.items.unshift({ text, link });
    this.items.length = Math.min(this.items.length, keep);
    this.unread++;
    this.drawBell();
    this.toast(text, link);
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification("stax", { body: text, tag: link });
        n.onclick = () => {
          window.focus();
          navigate(link);
          n.close();
        };
      } catch {
        // Some browsers offer notifications only from a service worker.
      }
    }
  }

  toast(text, link) {
    const box = h("div", { class: "toast", "data-testid": "toast" },
      h("a", { href: link, "data-link": "" }, text),
      h("button", { type: "button", class: "link", "aria-label": t("notify.dismiss"), onclick: () => box.remove() }, "×"));
    this.toasts.append(box);
    setTimeout(() => box.remove(), toastTime);
  }

  toggle() {
    this.panel.hidden = !this.panel.hidden;
    this.bell.setAttribute("aria-expanded", String(!this.panel.hidden));
    if (!this.panel.hidden) {
      this.unread = 0;
      this.drawBell();
    }
  }

  drawBell() {
    this.count.hidden = this.unread === 0;
    this.count.textContent = String(this.unread);
    const label = this.unread ? t("notify.unread", { n: this.unread }) : t("notify.none");
    this.bell.setAttribute("aria-label", label);
    this.bell.title = label;
    clear(this.panel);
    this.panel.append(h("h2", { class: "visually-hidden" }, t("notify.heading")));
    if (!this.items.length) this.panel.append(h("p", { class: "small" }, t("notify.empty")));
    else this.panel.append(h("ul", {}, this.items.map((x) => h("li", {}, h("a", { href: x.link, "data-link": "", onclick: () => this.toggle() }, x.text)))));
    if ("Notification" in window && Notification.permission === "default") {
      this.panel.append(h("button", { type: "button", class: "secondary small", "data-testid": "allow-notifications", onclick: async () => {
        try {
          await Notification.requestPermission();
        } catch {
          // The browser refused to ask.
        }
        this.drawBell();
      } }, t("notify.allow")));
    }
    this.title();
  }

  // title puts the count of unread news before the page's title.
  title() {
    const bare = document.title.replace(/^\(\d+\) /, "");
    const want = this.unread ? `(${this.unread}) ${bare}` : bare;
    if (document.title !== want) document.title = want;
  }
}

// bellIcon draws the bell, in SVG so that it does not depend on the fonts
// of the visitor's machine.
function bellIcon() {
  return svg("svg", { viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true" },
    svg("path", { d: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round" }),
    svg("path", { d: "M10 19a2 2 0 0 0 4 0", fill: "none", stroke: "currentColor", "stroke-width": "2" }));
}
