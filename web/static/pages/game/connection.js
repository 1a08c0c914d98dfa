// connection.js keeps a game page in touch with the server: the first
// state over HTTP, then the game's websocket, which reconnects after it
// drops, and the invitation to join a seat.

import { Connection, getGame, joinGame, saveToken, token } from "../../api.js";
import { drawnState } from "../../wire.js";
import { h } from "../../dom.js";
import { saveName, savedName } from "../../players.js";
import { errorWords, t } from "../../i18n.js";

// GameLink follows game id. on is {hello(seats), state(state),
// error(err), status(text), missing(err)}: missing is called when the game
// cannot be loaded.
export class GameLink {
  constructor(id, on) {
    this.id = id;
    this.on = on;
    this.conn = null;
    this.alive = true;
    this.seen = false; // a state arrived
    getGame(id)
      .then((st) => {
        if (this.alive && !this.seen) this.deliver(st);
      })
      .catch((err) => {
        if (!this.alive) return;
        on.missing(err);
        if (err.status === 404 && this.conn) this.conn.close();
      });
    this.connect();
  }

  deliver(st) {
    this.seen = true;
    this.on.state(drawnState(st));
  }

  // connect opens the websocket with the token this browser holds.
  connect() {
    if (this.conn) this.conn.close();
    this.conn = new Connection(this.id, token(this.id), {
      hello: (seats, msg) => this.on.hello(seats, msg),
      state: (st) => this.deliver(st),
      error: (err) => this.on.error(err),
      status: (s) => this.on.status(s),
      other: (m) => this.on.other && this.on.other(m),
    });
  }

  // send sends a message; it reports whether the socket was open.
  send(msg) {
    return Boolean(this.conn && this.conn.send(msg));
  }

  close() {
    this.alive = false;
    if (this.conn) this.conn.close();
  }
}

// joinBox fills box with the offer to join game id through the invitation
// in the page's fragment, if there is one. After joining it hands the
// state to link and reconnects with the new token.
export function joinBox(box, id, link) {
  const m = /(?:^#|&)invite=([0-9a-fA-F]+)/.exec(location.hash);
  if (!m) return;
  const invite = m[1];
  const nameInput = h("input", { type: "text", id: "join-name", maxlength: 40, placeholder: t("home.optional"), value: savedName(), "data-testid": "join-name" });
  const joinErr = h("p", { class: "error small", role: "alert", "data-testid": "join-error" });
  const joinBtn = h("button", { type: "button", class: "primary", "data-testid": "join" }, t("game.join"));
  const already = token(id)
    ? h("p", { class: "small" }, t("game.alreadyPlaying"))
    : null;
  box.append(
    ...[
      h("h2", {}, t("game.invitedHeading")),
      already,
      h("p", { class: "name-row" }, h("label", { for: "join-name" }, t("home.name") + " "), nameInput, " ", joinBtn),
      joinErr,
    ].filter(Boolean),
  );
  box.hidden = false;
  joinBtn.addEventListener("click", async () => {
    joinBtn.disabled = true;
    try {
      saveName(nameInput.value.trim());
      const res = await joinGame(id, invite, nameInput.value.trim());
      saveToken(id, res.token);
      history.replaceState(null, "", location.pathname);
      box.hidden = true;
      link.deliver(res.state);
      link.connect();
    } catch (err) {
      joinErr.textContent = t("game.cannotJoin", { error: errorWords(err, { 409: "game.seatTaken", 403: "game.wrongInvite" }) });
      joinBtn.disabled = false;
    }
  });
}
