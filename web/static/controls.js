// controls.js holds the move controls of a game page and of the analysis
// board: the buttons that complete a move picked on the board (counts,
// placing, pass, cancel), the reserves, the numbers beside the board, the
// typed move box and the list of every legal move. All of it is drawn from the board view and the
// picker; none of it knows a game.

import { clear, h } from "./dom.js";
import { chip } from "./render.js";
import { colourWords, gameText, playerWords, t } from "./i18n.js";

// positionDetails offers the position string behind a control, with a
// button that copies it.
function positionDetails(pos) {
  const copy = h("button", {
    type: "button",
    class: "secondary small",
    "data-testid": "copy-position",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(pos);
        copy.textContent = t("game.copied");
      } catch {
        copy.textContent = t("game.copyFailed");
      }
    },
  }, t("game.copy"));
  return h(
    "details",
    { class: "position-details" },
    h("summary", {}, t("controls.position")),
    h("code", { class: "pos", title: t("controls.positionTitle"), "data-testid": "position" }, pos),
    " ",
    copy,
  );
}

export class Controls {
  // constructor takes send(move), which plays a move, and redraw().
  constructor(send, redraw) {
    this.send = send;
    this.redraw = redraw;
    this.buttons = h("div", { class: "controls", "data-testid": "controls" });
    this.hint = h("p", { class: "hint small", "aria-live": "polite", "data-testid": "hint" });
    this.info = h("div", { class: "position-info small", "data-testid": "position-info" });
    this.input = h("input", {
      type: "text",
      id: "move-input",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      "aria-describedby": "move-error",
      "data-testid": "move-input",
    });
    this.error = h("p", { class: "error small", id: "move-error", role: "alert", "data-testid": "move-error" });
    this.form = h(
      "form",
      { class: "move-form", "data-testid": "move-form" },
      h("label", { for: "move-input" }, t("controls.typeMove")),
      this.input,
      h("button", { type: "submit", "data-testid": "move-submit" }, t("controls.play")),
    );
    this.legalBox = h("details", { class: "legal", "data-testid": "legal" });
    this.typed = ""; // the last move sent from the text box
    // A page may ask that a move picked on the board wait for the player's
    // confirmation (confirmFirst returns true): it is then confirming.
    this.confirmFirst = () => false;
    this.confirming = "";
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const m = this.input.value.trim();
      if (!m) return;
      // The text stays until the move is played, so a refused move can be
      // corrected.
      this.typed = m;
      send(m);
    });
    this.legalBox.addEventListener("toggle", () => this.last && this.drawLegal(this.last));
  }

  // played empties the move box once the move typed in it was played.
  played() {
    if (this.typed && this.input.value.trim() === this.typed) this.input.value = "";
    this.typed = "";
    this.confirming = "";
  }

  // draw draws the controls for c: {st, board, picker, interactive, pos,
  // seatName(i), module}.
  draw(c) {
    this.last = c;
    const { st, board, picker: p, interactive } = c;
    clear(this.buttons);
    clear(this.info);
    this.hint.textContent = interactive ? p.hint || p.guide() : "";
    // Only players type moves; a spectator has no move box.
    const player = c.held.length > 0;
    this.form.hidden = !player;
    this.input.disabled = st.status !== "playing";
    this.form.querySelector("button").disabled = this.input.disabled;
    if (st.status !== "playing" && this.shownFor === "playing") this.error.textContent = "";
    this.shownFor = st.status;
    this.input.placeholder = gameText(c.module, "notation", c.module.notation || "");
    if (board) {
      this.drawReserves(c);
      this.drawCounts(c);
    }
    this.info.append(positionDetails(c.pos));
    this.drawLegal(c);
    if (!interactive) {
      this.confirming = "";
      return;
    }
    if (this.confirming) {
      const move = this.confirming;
      this.hint.textContent = t("controls.confirmMove", { move });
      this.buttons.append(
        h("button", { type: "button", class: "primary", "data-testid": "confirm-move", onclick: () => {
          this.confirming = "";
          this.send(move);
        } }, t("controls.confirm")),
        h("button", { type: "button", class: "secondary", "data-testid": "cancel-move", onclick: () => {
          this.confirming = "";
          this.redraw();
        } }, t("controls.cancel")),
      );
      return;
    }
    const counts = p.counts();
    if (p.src !== null && (counts.length > 1 || (c.module.countButtons === "always" && counts.length))) {
      const row = h("div", { class: "counts", role: "group", "aria-label": t("controls.piecesToMove").trim() }, h("span", { class: "small" }, t("controls.piecesToMove")));
      for (const k of counts) {
        row.append(
          h(
            "button",
            {
              type: "button",
              class: "count" + (p.count === k ? " active" : ""),
              "aria-pressed": String(p.count === k),
              "data-testid": "count-" + k,
              onclick: () => this.result(p.chooseCount(k)),
            },
            String(k),
          ),
        );
      }
      this.buttons.append(row);
    }
    if (p.placing && !p.hint) {
      const need = Math.max(...p.moves.filter((x) => x.kind === "place").map((x) => x.to.length));
      const left = need - p.group.length;
      this.hint.textContent = p.group.length ? t("controls.pickMore", { n: left, cells: p.group.join(", ") }) : t("controls.pickSquares", { n: need });
    }
    if (p.canPass) {
      this.buttons.append(h("button", { type: "button", class: "secondary", "data-testid": "pass", onclick: () => this.send("pass") }, t("controls.pass")));
    }
    if (p.src !== null || p.piece || p.group.length) {
      this.buttons.append(
        h("button", {
          type: "button",
          class: "secondary",
          "data-testid": "cancel",
          onclick: () => {
            p.reset();
            this.redraw();
          },
        }, t("controls.cancel")),
      );
    }
  }

  // result sends the move a pick completed (or asks for its confirmation
  // first), or redraws.
  result(move) {
    if (move && this.confirmFirst()) {
      this.confirming = move;
      this.redraw();
    } else if (move) this.send(move);
    else this.redraw();
  }

  // drawReserves shows the pieces left to place, by owner; those that may
  // be placed now are buttons that pick them.
  drawReserves({ st, board, picker: p, interactive, seatName }) {
    if (!board.reserves.length) return;
    const can = interactive ? p.reservePieces() : [];
    const box = h("div", { class: "reserve", "data-testid": "reserve" });
    for (let seat = 0; seat < st.players; seat++) {
      const mine = board.reserves.filter((r) => (board.pieces.find((x) => x.letter === r.piece) || {}).player === seat);
      if (!mine.length) continue;
      const group = h("div", { class: "reserve-group" + (seat === st.toMove && st.status === "playing" ? " to-move" : "") }, h("span", { class: "small" }, seatName(seat) + ": "));
      for (const r of mine) {
        const name = (board.pieces.find((x) => x.letter === r.piece) || { name: r.piece }).name;
        const active = interactive && p.piece === r.piece;
        group.append(
          h(
            "button",
            {
              type: "button",
              // What may be placed is marked before anything is picked.
              class: "reserve-piece" + (active ? " active" : !p.piece && can.includes(r.piece) ? " movable" : ""),
              disabled: !can.includes(r.piece),
              "aria-pressed": String(active),
              "aria-label": t("controls.place", { piece: colourWords(name), n: r.left }),
              "data-testid": "reserve-" + r.piece,
              onclick: () => {
                p.pickPiece(r.piece);
                this.redraw();
              },
            },
            chip(board, r.piece, 18),
            h("span", { class: "count-left" }, "×" + r.left),
          ),
        );
      }
      box.append(group);
    }
    this.buttons.append(box);
  }

  // drawCounts shows the numbers per player of the board, e.g. "Squares
  // on top: White 3, Black 2".
  drawCounts({ st, board, module: mod }) {
    for (const c of board.counts) {
      const parts = [];
      c.values.forEach((n, seat) => {
        const own = board.pieces.filter((x) => x.player === seat);
        if (parts.length) parts.push(", ");
        parts.push(...own.slice(0, 1).map((x) => chip(board, x.letter)), ` ${playerWords(mod, st.playerNames[seat])} ${n}`);
      });
      if (c.of) parts.push(" " + t("controls.of", { n: c.of }));
      this.info.append(h("div", { "data-testid": "count" }, t("controls.count", { label: gameText(mod, "count." + c.label, c.label) }), ...parts));
    }
  }

  // drawLegal offers every legal move as a button, for keyboards and
  // screen readers; the list is built only while it is open.
  drawLegal({ st, interactive }) {
    const box = this.legalBox;
    const legal = st.legal || (st.view && st.view.moves ? st.view.moves.map((m) => m.text) : []);
    box.hidden = !interactive;
    box.setAttribute("data-moves", interactive ? JSON.stringify(legal) : "[]");
    let sum = box.querySelector("summary");
    if (!sum) box.append((sum = h("summary", {})));
    sum.textContent = t("controls.legal", { n: legal.length });
    const old = box.querySelector(".legal-list");
    if (old) old.remove();
    if (!interactive || !box.open) return;
    const list = h("div", { class: "legal-list" });
    for (const m of legal) list.append(h("button", { type: "button", class: "move", onclick: () => this.send(m) }, m));
    box.append(list);
  }
}
