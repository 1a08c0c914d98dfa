// play.js is the page of one game: playing, watching, joining through an
// invitation and replaying. Everything is drawn from the server's State
// messages (docs/server.md); moves go back over the websocket.

import { Connection, createGame, getGame, invites, joinGame, recordURL, saveInvites, saveToken, token } from "./api.js";
import { clear, h, navigate } from "./dom.js";
import { Picker } from "./picker.js";
import { diamPlayerColours, diamReserves, gridCounts, moveSquares, parseDiam, parseGrid, DIAM_COLOURS } from "./position.js";
import { diamChip, discChip, render } from "./render.js";
import { saveName, savedName, seatLabel } from "./home.js";

// gamePage draws game id into root and returns the page's clean-up.
export function gamePage(root, id) {
  document.title = "Game – stax";
  const v = {
    st: null, // the last State
    held: [], // the seats this connection may move for
    picker: null, // the move being picked, when it is our turn
    pickerPly: -1, // the ply the picker belongs to
    review: null, // the ply shown while replaying, or null for live
    pending: false, // a move was sent and not yet answered
    flip: null, // null: automatic
    resignArmed: false,
    conn: null,
    alive: true,
    timer: null, // the replay's autoplay
    typed: "", // the last move sent from the text box
  };

  // The page's parts.
  const title = h("h1", { class: "game-title", "data-testid": "game-title" }, "Game");
  const joinBox = h("section", { class: "join", hidden: true, "data-testid": "join-box" });
  const inviteBox = h("section", { class: "invites", hidden: true, "data-testid": "invites" });
  const banner = h("div", { class: "banner", role: "status", hidden: true, "data-testid": "result" });
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "status" }, "Connecting…");
  const conn = h("span", { class: "conn small muted", "data-testid": "conn" });
  const boardBox = h("div", { class: "board-box", "data-testid": "board-box" });
  const controls = h("div", { class: "controls", "data-testid": "controls" });
  const hint = h("p", { class: "hint small", "aria-live": "polite", "data-testid": "hint" });
  const info = h("div", { class: "position-info small", "data-testid": "position-info" });
  const seatsBox = h("ul", { class: "seat-list", "data-testid": "seats" });
  const moveInput = h("input", {
    type: "text",
    id: "move-input",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: "e.g. 1a1-a2",
    "aria-describedby": "move-error",
    "data-testid": "move-input",
  });
  const moveError = h("p", { class: "error small", id: "move-error", role: "alert", "data-testid": "move-error" });
  const moveForm = h(
    "form",
    { class: "move-form", "data-testid": "move-form" },
    h("label", { for: "move-input" }, "Type a move "),
    moveInput,
    h("button", { type: "submit", "data-testid": "move-submit" }, "Play"),
  );
  const legalBox = h("details", { class: "legal", "data-testid": "legal" });
  const moveList = h("ol", { class: "move-list", "data-testid": "moves" });
  const slider = h("input", { type: "range", min: 0, max: 0, value: 0, id: "replay-slider", "data-testid": "slider", "aria-label": "Position in the game" });
  const sliderLabel = h("span", { class: "small", "data-testid": "slider-label" });
  const replayBtn = (label, tid, fn) => h("button", { type: "button", class: "icon", "data-testid": tid, "aria-label": label, title: label, onclick: fn }, { First: "«", Previous: "‹", Next: "›", Last: "»" }[label]);
  const replay = h(
    "div",
    { class: "replay", "data-testid": "replay" },
    h("div", { class: "replay-buttons" },
      replayBtn("First", "replay-first", () => show(0)),
      replayBtn("Previous", "replay-prev", () => show(cur() - 1)),
      slider,
      replayBtn("Next", "replay-next", () => show(cur() + 1)),
      replayBtn("Last", "replay-last", () => show(v.st ? v.st.ply : 0)),
    ),
    h("button", { type: "button", class: "secondary small autoplay", "data-testid": "replay-play", onclick: () => toggleAutoplay() }, "Play through"),
    sliderLabel,
  );
  const resignBtn = h("button", { type: "button", class: "danger", "data-testid": "resign" }, "Resign");
  const download = h("a", { class: "button secondary", href: recordURL(id), download: `stax-${id}.txt`, "data-testid": "download" }, "Download the record");
  const flipBtn = h("button", { type: "button", class: "secondary", "data-testid": "flip" }, "Flip the board");
  const rematchBtn = h("button", { type: "button", class: "primary", hidden: true, "data-testid": "rematch" }, "Play again");
  const actions = h("div", { class: "actions" }, rematchBtn, resignBtn, flipBtn, download, h("a", { href: "/", "data-link": "", class: "button secondary" }, "New game"));

  // Play again: the same variant and players, sides swapped in a
  // two-player game; seats of other people get new invitations.
  rematchBtn.addEventListener("click", async () => {
    const st = v.st;
    if (!st) return;
    let seats = st.seats.map((s, i) => {
      if (s.kind === "ai") return { kind: "ai", level: s.level };
      return v.held.includes(i) ? { kind: "human" } : { kind: "human", invite: true };
    });
    if (seats.length === 2) seats = [seats[1], seats[0]];
    rematchBtn.disabled = true;
    try {
      const res = await createGame({ spec: st.spec, seats });
      saveToken(res.id, res.token);
      saveInvites(res.id, (res.invites || []).map((x) => ({ seat: x.seat, link: x.link })));
      navigate("/game/" + res.id);
    } catch (err) {
      moveError.textContent = "Could not start a new game: " + err.message;
      rematchBtn.disabled = false;
    }
  });

  root.append(
    h("div", { class: "game-head" }, title, conn),
    joinBox,
    inviteBox,
    banner,
    status,
    h(
      "div",
      { class: "play" },
      h("div", { class: "board-col" }, boardBox, controls, hint, info),
      h(
        "div",
        { class: "side-col" },
        h("h2", { class: "visually-hidden" }, "Players"),
        seatsBox,
        moveForm,
        moveError,
        legalBox,
        h("h2", {}, "Moves"),
        moveList,
        replay,
        actions,
      ),
    ),
  );

  const game = () => (v.st ? v.st.game : "");
  const cur = () => (v.review === null ? (v.st ? v.st.ply : 0) : v.review);
  const myTurn = () => v.st && v.st.status === "playing" && v.held.includes(v.st.toMove);

  // toggleAutoplay steps through the game from the shown position, one
  // move a second, until the end or until stopped.
  function toggleAutoplay() {
    const btn = replay.querySelector(".autoplay");
    if (v.timer) {
      clearInterval(v.timer);
      v.timer = null;
      btn.textContent = "Play through";
      return;
    }
    if (!v.st) return;
    if (cur() >= v.st.ply) show(0);
    btn.textContent = "Stop";
    v.timer = setInterval(() => {
      if (!v.alive || !v.st || cur() >= v.st.ply) {
        toggleAutoplay();
        return;
      }
      show(cur() + 1);
    }, 1000);
  }

  // show moves the replay to ply p; the last ply returns to live play.
  function show(p) {
    if (!v.st) return;
    p = Math.max(0, Math.min(v.st.ply, p));
    v.review = p === v.st.ply ? null : p;
    draw();
  }

  function flipped() {
    if (v.flip !== null) return v.flip;
    return game() !== "diam" && v.held.length === 1 && v.held[0] === 1;
  }

  function send(move) {
    if (!move || !v.st) return;
    moveError.textContent = "";
    if (!v.conn || !v.conn.send({ type: "move", move, ply: v.st.ply })) {
      moveError.textContent = "Not connected: the move was not sent. Reconnecting…";
      return;
    }
    v.pending = true;
    if (v.picker) v.picker.reset();
    draw();
  }

  moveForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const m = moveInput.value.trim();
    if (!m) return;
    // The text stays until the move is played, so a refused move can be
    // corrected.
    v.typed = m;
    send(m);
  });

  resignBtn.addEventListener("click", () => {
    if (!v.resignArmed) {
      v.resignArmed = true;
      resignBtn.textContent = "Really resign?";
      resignBtn.setAttribute("data-testid", "resign-confirm");
      setTimeout(() => {
        if (!v.alive) return;
        v.resignArmed = false;
        resignBtn.textContent = "Resign";
        resignBtn.setAttribute("data-testid", "resign");
      }, 5000);
      return;
    }
    v.resignArmed = false;
    resignBtn.textContent = "Resign";
    resignBtn.setAttribute("data-testid", "resign");
    const seat = v.st && v.held.includes(v.st.toMove) ? v.st.toMove : v.held[0];
    if (!v.conn || !v.conn.send({ type: "resign", seat })) moveError.textContent = "Not connected: could not resign.";
  });

  flipBtn.addEventListener("click", () => {
    v.flip = !flipped();
    draw();
  });

  slider.addEventListener("input", () => show(Number(slider.value)));

  const onKey = (ev) => {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (ev.key === "ArrowLeft") show(cur() - 1);
    else if (ev.key === "ArrowRight") show(cur() + 1);
    else if (ev.key === "Escape" && v.picker) {
      v.picker.reset();
      draw();
    } else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  // Enter or Space on a focused square, cell or piece acts as a click.
  boardBox.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const t = ev.target;
    if (!t || !t.getAttribute || t.getAttribute("role") !== "button") return;
    ev.preventDefault();
    t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });

  // Clicks on the board.
  boardBox.addEventListener("click", (ev) => {
    const p = v.picker;
    if (!p || !myTurn() || v.review !== null || v.pending) return;
    const t = ev.target;
    let move = "";
    if (game() === "diam") {
      const piece = t.closest("[data-level]");
      const cell = t.closest("[data-cell]");
      if (!cell) return;
      const level = piece && piece.classList.contains("piece") ? Number(piece.getAttribute("data-level")) : 0;
      move = p.clickCell(Number(cell.getAttribute("data-cell")), level);
    } else {
      const disc = t.closest("[data-depth]");
      const sq = t.closest("[data-sq]");
      if (!sq) return;
      move = p.clickSquare(sq.getAttribute("data-sq"), disc ? Number(disc.getAttribute("data-depth")) : 0);
    }
    if (move) send(move);
    else draw();
  });

  // draw redraws everything from v.
  function draw() {
    const st = v.st;
    if (!st) return;
    const g = st.game;
    title.textContent = st.title + (st.spec !== st.game ? " " + st.spec.slice(st.game.length) : "");
    document.title = (myTurn() ? "Your move · " : "") + `${st.title} – stax`;
    if (st.ply !== v.pickerPly) {
      v.picker = new Picker(g, st.legal);
      v.pickerPly = st.ply;
    }
    const live = v.review === null;
    const interactive = live && myTurn() && !v.pending;
    const ply = cur();
    const pos = live ? st.position : st.positions[ply];
    const lastMove = ply > 0 ? st.moves[ply - 1] : "";
    const marks = interactive ? v.picker.marks() : {};
    marks.interactive = interactive;
    // Keep the keyboard focus on the same square, cell or piece.
    const focused = boardBox.contains(document.activeElement) ? focusKey(document.activeElement) : "";
    marks.last = moveSquares(g, lastMove);
    marks.flip = flipped();
    marks.label = `${st.title} board after ${ply} moves${lastMove ? ", last " + lastMove : ""}`;
    clear(boardBox).append(render(g, pos, marks));
    if (focused) {
      const again = boardBox.querySelector(focused);
      if (again) again.focus();
    }
    boardBox.classList.toggle("interactive", interactive);
    boardBox.setAttribute("data-ply", String(ply));

    drawStatus(interactive);
    drawControls(interactive, pos);
    drawSeats();
    drawMoves();
    drawLegal(interactive);
    drawInvites();

    slider.max = String(st.ply);
    slider.value = String(ply);
    sliderLabel.textContent = live ? `Move ${st.ply} of ${st.ply} (live)` : `Move ${ply} of ${st.ply} — replay`;
    replay.classList.toggle("reviewing", !live);
    moveInput.disabled = st.status !== "playing";
    moveInput.placeholder = { pogo: "e.g. 1a1-a2", pisola: "e.g. a1+c3 or c3-c5", diam: "e.g. r@3, 3:2+ or pass" }[g] || "";
    resignBtn.hidden = st.status !== "playing" || v.held.length === 0;
    rematchBtn.hidden = st.status === "playing" || v.held.length === 0;
    flipBtn.hidden = g === "diam";
  }

  function seatName(i) {
    const st = v.st;
    return seatLabel(st.game, st.players, i, st.playerNames[i]);
  }

  function drawStatus(interactive) {
    const st = v.st;
    if (st.status === "finished" && st.outcome) {
      const o = st.outcome;
      let mine = "";
      if (v.held.length && v.held.length < st.players) {
        const won = v.held.some((s) => (o.winners || []).includes(s));
        mine = !o.winners || o.winners.length === 0 ? "Draw. " : won ? "You win! " : "You lose. ";
      }
      banner.textContent = mine + (o.description || o.result);
      banner.className = "banner " + (mine.startsWith("You win") ? "win" : mine.startsWith("You lose") ? "loss" : "neutral");
      banner.hidden = false;
      status.textContent = `Game over after ${st.ply} moves (${o.result}).`;
      status.classList.remove("your-turn");
      return;
    }
    banner.hidden = true;
    const seat = st.seats[st.toMove] || {};
    const who = seatName(st.toMove);
    let text;
    if (v.review !== null) text = `Replaying move ${v.review} of ${st.ply}. Move the slider to the end to return to the game.`;
    else if (v.pending) text = "Sending your move…";
    else if (interactive) text = v.held.length > 1 ? `${who} to move (you).` : `Your move (${who}).`;
    else if (seat.thinking) text = `${who} (computer) is thinking…`;
    else if (seat.kind === "human" && !seat.joined) text = `${who} to move: waiting for the invited player to join.`;
    else text = `${who} to move.`;
    if (v.held.length === 0 && v.review === null) text += " You are watching.";
    status.textContent = text;
    status.classList.toggle("your-turn", interactive);
  }

  function drawControls(interactive, pos) {
    clear(controls);
    const p = v.picker;
    const g = game();
    hint.textContent = interactive && p.hint ? p.hint : "";
    clear(info);
    try {
      if (g === "diam") drawDiamReserve(pos, interactive);
      else drawGridInfo(pos);
    } catch {
      // A position the drawing code cannot read shows no extras.
    }
    info.append(h("div", {}, h("code", { class: "pos", title: "The position string (see the rules)", "data-testid": "position" }, pos)));
    if (!interactive) return;
    if (g === "pogo" && p.src !== null) {
      const counts = p.counts();
      const row = h("div", { class: "counts", role: "group", "aria-label": "Pieces to move" }, h("span", { class: "small" }, "Pieces to move: "));
      for (const k of [1, 2, 3]) {
        if (!counts.includes(k)) continue;
        row.append(
          h(
            "button",
            {
              type: "button",
              class: "count" + (p.count === k ? " active" : ""),
              "aria-pressed": String(p.count === k),
              "data-testid": "count-" + k,
              onclick: () => {
                const m = p.chooseCount(k);
                if (m) send(m);
                else draw();
              },
            },
            String(k),
          ),
        );
      }
      controls.append(row);
    }
    if (g === "pisola" && p.placing) {
      const m = p.pairMove();
      controls.append(
        h(
          "button",
          { type: "button", class: "primary", disabled: !m, "data-testid": "confirm", onclick: () => send(p.pairMove()) },
          m ? `Place on ${p.pair.join(" and ")}` : p.pair.length === 1 ? "Pick a second square" : "Pick two empty squares",
        ),
      );
    }
    if (p.canPass) {
      controls.append(h("button", { type: "button", class: "secondary", "data-testid": "pass", onclick: () => send("pass") }, "Pass"));
    }
    const picked = p.src !== null || p.colour || p.pair.length;
    if (picked) {
      controls.append(
        h("button", {
          type: "button",
          class: "secondary",
          "data-testid": "cancel",
          onclick: () => {
            p.reset();
            draw();
          },
        }, "Cancel"),
      );
    }
  }

  function drawDiamReserve(pos, interactive) {
    const st = v.st;
    const d = parseDiam(pos);
    const left = diamReserves(d.cells);
    const owners = diamPlayerColours(st.players);
    const p = v.picker;
    const can = interactive ? p.reserveColours() : [];
    const box = h("div", { class: "reserve", "data-testid": "reserve" });
    owners.forEach((cols, seat) => {
      const group = h("div", { class: "reserve-group" + (seat === st.toMove && st.status === "playing" ? " to-move" : "") }, h("span", { class: "small" }, seatName(seat) + ": "));
      for (const c of cols) {
        const enabled = can.includes(c);
        group.append(
          h(
            "button",
            {
              type: "button",
              class: "reserve-piece" + (p && p.colour === c && interactive ? " active" : ""),
              disabled: !enabled,
              "aria-pressed": String(Boolean(p && p.colour === c)),
              "aria-label": `Place ${DIAM_COLOURS[c].name} (${left[c]} left)`,
              "data-testid": "reserve-" + c,
              onclick: () => {
                p.pickColour(c);
                draw();
              },
            },
            diamChip(c, 18),
            h("span", { class: "count-left" }, "×" + left[c]),
          ),
        );
      }
      box.append(group);
    });
    controls.append(box);
  }

  function drawGridInfo(pos) {
    const st = v.st;
    const p = parseGrid(pos);
    const n = gridCounts(p.squares);
    if (st.game === "pisola") {
      const each = p.size === 8 ? 32 : 18;
      const placed = n.w + n.b;
      if (placed < 2 * each) {
        info.append(h("div", {}, "To place: ", discChip("w"), ` White ${each - n.w} `, discChip("b"), ` Black ${each - n.b}`));
        return;
      }
      const tops = { w: 0, b: 0 };
      const roofs = { w: 0, b: 0 };
      for (const sq of p.squares.values()) {
        if (!sq.pieces.length) continue;
        const top = sq.pieces[sq.pieces.length - 1];
        tops[top]++;
        if (sq.roofed) roofs[top]++;
      }
      const roofed = /roofs=true/.test(st.spec);
      info.append(h("div", {}, "Squares on top: ", discChip("w"), ` White ${tops.w} `, discChip("b"), ` Black ${tops.b}`));
      if (roofed) {
        const total = p.size === 8 ? 8 : 6;
        info.append(h("div", {}, `Roofs placed: White ${roofs.w} of ${total}, Black ${roofs.b} of ${total}`));
      }
      return;
    }
    const tops = { w: 0, b: 0 };
    for (const sq of p.squares.values()) if (sq.pieces.length) tops[sq.pieces[sq.pieces.length - 1]]++;
    info.append(`Stacks on top: White ${tops.w}, Black ${tops.b}`);
  }

  function drawSeats() {
    const st = v.st;
    clear(seatsBox);
    st.seats.forEach((s, i) => {
      const who = s.kind === "ai" ? `computer (${s.level})` : !s.joined ? "invited, not joined yet" : s.name || "person";
      const you = v.held.includes(i) ? h("span", { class: "badge" }, "you") : null;
      const dot =
        s.kind === "human" && s.joined
          ? h("span", { class: "dot " + (s.connected ? "on" : "off"), title: s.connected ? "connected" : "not connected" })
          : null;
      seatsBox.append(
        h(
          "li",
          { class: i === st.toMove && st.status === "playing" ? "to-move" : "", "data-testid": "seat-info-" + i },
          seatChip(st.game, st.players, i),
          h("strong", {}, seatName(i)),
          " ",
          h("span", { class: "small" }, who),
          you,
          dot,
          s.thinking ? h("span", { class: "thinking small" }, " thinking…") : null,
        ),
      );
    });
  }

  function drawMoves() {
    const st = v.st;
    clear(moveList);
    const ply = cur();
    st.moves.forEach((m, i) => {
      const mover = moverOf(st, i);
      moveList.append(
        h(
          "li",
          { class: i + 1 === ply ? "current" : "" },
          h(
            "button",
            {
              type: "button",
              class: "move",
              "data-testid": "move-" + (i + 1),
              title: `${seatName(mover)}: ${m}`,
              onclick: () => show(i + 1),
            },
            seatChip(st.game, st.players, mover),
            m,
          ),
        ),
      );
    });
    if (!st.moves.length) moveList.append(h("li", { class: "muted small none" }, "No moves yet."));
    const currentItem = moveList.querySelector(".current");
    if (currentItem && currentItem.scrollIntoView && v.review === null) currentItem.scrollIntoView({ block: "nearest" });
  }

  // drawLegal offers every legal move as a button, for keyboards and
  // screen readers; the list is built only while it is open.
  function drawLegal(interactive) {
    const st = v.st;
    legalBox.hidden = !interactive;
    legalBox.setAttribute("data-moves", interactive ? JSON.stringify(st.legal) : "[]");
    const summary = `All legal moves (${st.legal.length})`;
    let sum = legalBox.querySelector("summary");
    if (!sum) legalBox.append((sum = h("summary", {})));
    sum.textContent = summary;
    const old = legalBox.querySelector(".legal-list");
    if (old) old.remove();
    if (!interactive || !legalBox.open) return;
    const list = h("div", { class: "legal-list" });
    for (const m of st.legal) list.append(h("button", { type: "button", class: "move", onclick: () => send(m) }, m));
    legalBox.append(list);
  }
  legalBox.addEventListener("toggle", () => v.st && drawLegal(v.review === null && myTurn() && !v.pending));

  function drawInvites() {
    const st = v.st;
    clear(inviteBox);
    const open = invites(id).filter((x) => st.seats[x.seat] && st.seats[x.seat].kind === "human" && !st.seats[x.seat].joined);
    inviteBox.hidden = open.length === 0 || st.status !== "playing";
    if (inviteBox.hidden) return;
    inviteBox.append(h("h2", {}, "Invite a player"));
    for (const x of open) {
      const url = new URL(x.link, location.href).href;
      const input = h("input", { type: "text", readonly: true, value: url, class: "invite-link", "data-testid": "invite-link-" + x.seat, "aria-label": "Invitation link for " + seatName(x.seat) });
      const copy = h("button", {
        type: "button",
        class: "secondary",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
            copy.textContent = "Copied";
          } catch {
            input.select();
          }
        },
      }, "Copy");
      inviteBox.append(h("p", {}, `Send this link to the person who will play ${seatName(x.seat)}:`), h("div", { class: "invite-row" }, input, copy));
    }
  }

  // The websocket.
  function connect() {
    if (v.conn) v.conn.close();
    v.conn = new Connection(id, token(id), {
      hello: (seats) => {
        v.held = seats;
        draw();
      },
      state: (st) => {
        const plyChanged = !v.st || v.st.ply !== st.ply;
        v.st = st;
        if (plyChanged) {
          v.pending = false;
          if (v.typed && moveInput.value.trim() === v.typed) moveInput.value = "";
          v.typed = "";
          v.pickerPly = -1;
          if (v.review !== null && v.review > st.ply) v.review = null;
        }
        if (st.status !== "playing") v.pending = false;
        draw();
      },
      error: (err) => {
        v.pending = false;
        if (err.code === "bad_token") {
          moveError.textContent = "This browser's key for the game was not accepted: you are watching.";
        } else {
          moveError.textContent = err.message || err.code;
        }
        draw();
      },
      status: (s) => {
        conn.textContent = s === "connected" ? "" : "reconnecting…";
      },
    });
  }

  // An invitation in the fragment: offer to join.
  const inviteMatch = /(?:^#|&)invite=([0-9a-fA-F]+)/.exec(location.hash);
  if (inviteMatch) {
    const invite = inviteMatch[1];
    const nameInput = h("input", { type: "text", id: "join-name", maxlength: 40, placeholder: "optional", value: savedName(), "data-testid": "join-name" });
    const joinErr = h("p", { class: "error small", role: "alert", "data-testid": "join-error" });
    const joinBtn = h("button", { type: "button", class: "primary", "data-testid": "join" }, "Join the game");
    const already = token(id)
      ? h("p", { class: "small" }, "This browser already plays a seat of this game. Joining here replaces its key to that seat, which cannot be recovered: send the link to the other player instead (to play both sides on one device, start a game with both seats set to \u201cYou\u201d).")
      : null;
    joinBox.append(
      h("h2", {}, "You are invited to play"),
      already,
      h("p", { class: "name-row" }, h("label", { for: "join-name" }, "Your name "), nameInput, " ", joinBtn),
      joinErr,
    );
    joinBox.hidden = false;
    joinBtn.addEventListener("click", async () => {
      joinBtn.disabled = true;
      try {
        saveName(nameInput.value.trim());
        const res = await joinGame(id, invite, nameInput.value.trim());
        saveToken(id, res.token);
        history.replaceState(null, "", location.pathname);
        joinBox.hidden = true;
        v.st = res.state;
        connect();
      } catch (err) {
        joinErr.textContent = "Could not join: " + err.message;
        joinBtn.disabled = false;
      }
    });
  }

  getGame(id)
    .then((st) => {
      if (v.alive && !v.st) {
        v.st = st;
        draw();
      }
    })
    .catch((err) => {
      if (!v.alive) return;
      status.textContent = err.status === 404 ? "There is no such game." : "Could not load the game: " + err.message;
      status.setAttribute("data-error", "true");
      if (err.status === 404 && v.conn) v.conn.close();
    });
  connect();

  return () => {
    v.alive = false;
    if (v.timer) clearInterval(v.timer);
    document.removeEventListener("keydown", onKey);
    if (v.conn) v.conn.close();
  };
}

// focusKey returns a selector that finds the same square, cell or piece in
// a redrawn board, or "".
function focusKey(e) {
  const id = e.getAttribute && e.getAttribute("data-testid");
  return id ? `[data-testid="${id}"]` : "";
}

// moverOf returns the seat that played moves[i]: the side to move of
// positions[i] as its position string says.
function moverOf(st, i) {
  const pos = st.positions[i] || "";
  const side = pos.trim().split(/\s+/)[1];
  if (st.game === "diam") return Math.max(0, Number(side) - 1);
  return side === "b" ? 1 : 0;
}

// seatChip draws a small piece in a seat's colour(s).
function seatChip(game, players, seat) {
  const box = h("span", { class: "seat-chip", "aria-hidden": "true" });
  if (game === "diam") {
    for (const c of diamPlayerColours(players)[seat] || []) box.append(diamChip(c, 10));
  } else {
    box.append(discChip(seat === 1 ? "b" : "w", 12));
  }
  return box;
}
