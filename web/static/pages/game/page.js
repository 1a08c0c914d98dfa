// page.js is the page of one game: playing, watching, joining through an
// invitation and replaying. It puts together the board view
// (board-view.js), the move controls (controls.js) and the connection to
// the server (connection.js); everything is drawn from the server's State
// messages (docs/api.md) and moves go back over the websocket.

import { createGame, invites, listGames, recordURL, saveInvites, saveToken, variant } from "../../api.js";
import { clear, h, navigate } from "../../dom.js";
import { describeOutcome } from "../../outcome.js";
import { gameModule } from "../../games/index.js";
import { Picker } from "../../picker.js";
import { chip } from "../../render.js";
import { botBadge, savedName, seatLabel } from "../../players.js";
import { BoardView } from "../../board-view.js";
import { Controls } from "../../controls.js";
import { GameLink, joinBox } from "./connection.js";
import { GameExtras } from "./extras.js";
import { errorWords, levelWords, playerWords, t } from "../../i18n.js";
import { play } from "../../sound.js";
import { SeatRatings } from "./ratings.js";
import { boardOptions, confirmMoves } from "../../board-options.js";

// gamePage draws game id into root and returns the page's clean-up.
export function gamePage(root, id) {
  document.title = t("game.title");
  const v = {
    st: null, // the last State
    held: [], // the seats this connection may move for
    picker: null, // the move being picked, when it is our turn
    pickerPly: -1, // the ply the picker belongs to
    review: null, // the ply shown while replaying, or null for live
    pending: false, // a move was sent and not yet answered
    flip: null, // null: automatic
    resignArmed: false,
    alive: true,
    timer: null, // the replay's autoplay
    offline: false, // the websocket is down
  };

  const board = new BoardView((cell, depth) => {
    const p = v.picker;
    if (!p || !myTurn() || v.review !== null || v.pending) return;
    controls.result(p.click(cell, depth));
  });
  const controls = new Controls(send, draw);
  controls.confirmFirst = confirmMoves;
  // The players around the board: a strip a seat with its name, rating
  // and clock, the opponents above the board and this browser's seat
  // below it, so that on a phone all of it is on screen with the board.
  const stripsTop = h("div", { class: "strips", "data-testid": "strips-top" });
  const stripsBottom = h("div", { class: "strips", "data-testid": "strips-bottom" });
  const strips = []; // one strip a seat: {box, name, rating, clock}
  const clockSlots = [];
  // Clocks, offers, chat and spectators.
  const extras = new GameExtras((m) => link.send(m), id, (els) => {
    els.forEach((el, i) => clockSlots[i] && clear(clockSlots[i]).append(el));
  });
  // The players' ratings in the game's pool, and what the game changed.
  // A rating that arrives redraws the strips alone, not the board.
  const ratings = new SeatRatings(id, () => v.alive && v.st && drawStrips());

  // The page's parts.
  const title = h("h1", { class: "game-title", "data-testid": "game-title" }, t("game.heading"));
  const joinArea = h("section", { class: "join", hidden: true, "data-testid": "join-box" });
  const inviteBox = h("section", { class: "invites", hidden: true, "data-testid": "invites" });
  const banner = h("div", { class: "banner", role: "status", hidden: true, "data-testid": "result" });
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "status" }, t("game.connecting"));
  const conn = h("span", { class: "conn small muted", "data-testid": "conn" });
  const seatsBox = h("ul", { class: "seat-list", "data-testid": "seats" });
  const moveList = h("ol", { class: "move-list", "data-testid": "moves" });
  const slider = h("input", { type: "range", min: 0, max: 0, value: 0, id: "replay-slider", "data-testid": "slider", "aria-label": t("game.slider") });
  const sliderLabel = h("span", { class: "small", "data-testid": "slider-label" });
  const replayBtn = (key, tid, fn) => h("button", { type: "button", class: "icon", "data-testid": tid, "aria-label": t(key), title: t(key), onclick: fn }, { "game.first": "«", "game.previous": "‹", "game.next": "›", "game.last": "»" }[key]);
  const replay = h(
    "div",
    { class: "replay", "data-testid": "replay" },
    h("div", { class: "replay-buttons" },
      replayBtn("game.first", "replay-first", () => show(0)),
      replayBtn("game.previous", "replay-prev", () => show(cur() - 1)),
      slider,
      replayBtn("game.next", "replay-next", () => show(cur() + 1)),
      replayBtn("game.last", "replay-last", () => show(v.st ? v.st.ply : 0)),
    ),
    h("button", { type: "button", class: "secondary small autoplay", "data-testid": "replay-play", onclick: () => toggleAutoplay() }, t("game.playThrough")),
    sliderLabel,
  );
  const resignBtn = h("button", { type: "button", class: "danger", "data-testid": "resign" }, t("game.resign"));
  const download = h("a", { class: "button secondary", href: recordURL(id), download: `stax-${id}.txt`, "data-testid": "download" }, t("game.download"));
  const flipBtn = h("button", { type: "button", class: "secondary", "data-testid": "flip" }, t("game.flip"));
  // A game is analysed once it is over (docs/api.md, "Analysis").
  const analyseLink = h("a", { class: "button secondary", href: "/analysis?game=" + encodeURIComponent(id), "data-link": "", hidden: true, "data-testid": "analyse" }, t("game.analyse"));
  const rematchBtn = h("button", { type: "button", class: "primary", hidden: true, "data-testid": "rematch" }, t("game.again"));
  // What a player does in a game besides moving (offers, abort, resign)
  // is under the board, with the move controls, on a phone's screen too.
  const gameActions = h("div", { class: "game-actions", "data-testid": "game-actions" }, extras.offerBox, extras.claimBox, resignBtn);
  const actions = h("div", { class: "actions" }, rematchBtn, analyseLink, flipBtn, download, h("a", { href: "/", "data-link": "", class: "button secondary" }, t("game.newGame")));

  const playArea = h(
      "div",
      { class: "play" },
      h("div", { class: "board-col" }, stripsTop, board.box, stripsBottom, controls.hint, controls.buttons, gameActions, controls.info),
      h(
        "div",
        { class: "side-col" },
        h("h2", { class: "visually-hidden" }, t("game.players")),
        seatsBox,
        extras.box,
        controls.form,
        controls.error,
        controls.legalBox,
        h("h2", {}, t("game.moves")),
        moveList,
        replay,
        actions,
        boardOptions(() => draw()),
      ),
    );
  root.append(h("div", { class: "game-head" }, title, conn), joinArea, inviteBox, banner, status, playArea);

  const cur = () => (v.review === null ? (v.st ? v.st.ply : 0) : v.review);
  const myTurn = () => v.st && !v.offline && v.st.status === "playing" && v.held.includes(v.st.toMove);
  const liveBoard = () => (v.st && v.st.view ? v.st.view.board : null);

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
      // The same start, when the game did not start from the usual one.
      const usual = (await variant(st.spec)).start;
      const res = await createGame({ spec: st.spec, position: st.start !== usual ? st.start : undefined, name: savedName() || undefined, seats });
      saveToken(res.id, res.token);
      saveInvites(res.id, (res.invites || []).map((x) => ({ seat: x.seat, link: x.link })));
      navigate("/game/" + res.id);
    } catch (err) {
      controls.error.textContent = t("game.cannotRematch", { error: errorWords(err) });
      rematchBtn.disabled = false;
    }
  });

  // toggleAutoplay steps through the game from the shown position, one
  // move a second, until the end or until stopped.
  function toggleAutoplay() {
    const btn = replay.querySelector(".autoplay");
    if (v.timer) {
      clearInterval(v.timer);
      v.timer = null;
      btn.textContent = t("game.playThrough");
      return;
    }
    if (!v.st) return;
    if (cur() >= v.st.ply) show(0);
    btn.textContent = t("game.stop");
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

  // flipped reports whether a grid is drawn from the second seat's side:
  // by default when this browser holds that seat alone.
  function flipped() {
    if (v.flip !== null) return v.flip;
    return v.held.length === 1 && v.held[0] === 1;
  }

  function send(move) {
    if (!move || !v.st) return;
    controls.error.textContent = "";
    if (!link.send({ type: "move", move, ply: v.st.ply })) {
      controls.error.textContent = t("game.notSent");
      return;
    }
    v.pending = true;
    if (v.picker) v.picker.reset();
    draw();
  }

  // Resigning takes a second click on the same button; a click anywhere
  // else, or Escape, takes the first one back. (No timer: a player who
  // reads the question slowly is not surprised by it going away.)
  const disarmOutside = (ev) => {
    if (ev.type === "keydown" && ev.key !== "Escape") return;
    if (ev.type === "pointerdown" && resignBtn.contains(ev.target)) return;
    armResign(false);
  };
  const armResign = (on) => {
    v.resignArmed = on;
    resignBtn.textContent = on ? t("game.reallyResign") : t("game.resign");
    resignBtn.setAttribute("data-testid", on ? "resign-confirm" : "resign");
    for (const type of ["pointerdown", "keydown"]) {
      if (on) document.addEventListener(type, disarmOutside, true);
      else document.removeEventListener(type, disarmOutside, true);
    }
  };
  resignBtn.addEventListener("click", () => {
    if (!v.resignArmed) {
      armResign(true);
      return;
    }
    armResign(false);
    const seat = v.st && v.held.includes(v.st.toMove) ? v.st.toMove : v.held[0];
    if (!link.send({ type: "resign", seat })) controls.error.textContent = t("game.cannotResign");
  });

  flipBtn.addEventListener("click", () => {
    v.flip = !flipped();
    draw();
  });

  slider.addEventListener("input", () => show(Number(slider.value)));

  const onKey = (ev) => {
    // The board's own keys (its cursor) come first.
    if (ev.defaultPrevented) return;
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

  // draw redraws everything from v.
  function draw() {
    const st = v.st;
    if (!st) return;
    const mod = gameModule(st.game);
    title.textContent = st.title + (v.optionsText ? " — " + v.optionsText : "");
    if (v.optionsFor !== st.spec) {
      v.optionsFor = st.spec;
      describeOptions(st.spec).then((text) => {
        v.optionsText = text;
        draw();
      }, () => {});
    }
    document.title = t(myTurn() ? "game.yourMoveTitle" : "game.pageTitle", { title: st.title });
    if (st.ply !== v.pickerPly) {
      v.picker = mod.picker ? mod.picker(st.view ? st.view.moves : []) : new Picker(st.view ? st.view.moves : []);
      v.pickerPly = st.ply;
    }
    const live = v.review === null;
    const interactive = live && myTurn() && !v.pending;
    const ply = cur();
    const pos = live ? st.position : st.positions[ply];
    // A replayed position's view may still be on its way: the board then
    // stays as it is until it arrives.
    const shown = board.viewAt(st, ply, () => v.alive && cur() === ply && draw());
    if (shown || live) {
      const lastMove = ply > 0 ? st.moves[ply - 1] : "";
      const marks = interactive ? v.picker.marks() : {};
      // A move waiting for its confirmation shows its cells.
      const waiting = interactive && controls.confirming ? v.picker.moves.find((m) => m.text === controls.confirming) : null;
      if (waiting) marks.selected = [waiting.from, ...(waiting.to || [])].filter((c) => c !== null && c !== undefined);
      marks.interactive = interactive;
      marks.flip = flipped();
      marks.played = lastMove;
      marks.label = t(lastMove ? "game.boardLabelLast" : "game.boardLabel", { title: st.title, n: ply, move: lastMove });
      board.draw(shown, ply, pos, marks);
    }

    drawStatus(interactive);
    drawStrips();
    const drawn = shown ? shown.board : liveBoard();
    // A game with reserves leaves them room under the board.
    playArea.classList.toggle("with-reserve", !!(drawn && drawn.reserves && drawn.reserves.length));
    controls.draw({ st, held: v.held, board: drawn, picker: v.picker, interactive, pos, seatName, module: mod });
    drawSeats();
    drawMoves();
    drawInvites();

    slider.max = String(st.ply);
    slider.value = String(ply);
    sliderLabel.textContent = live ? t("game.sliderLive", { ply: st.ply, total: st.ply }) : t("game.sliderReplay", { ply, total: st.ply });
    replay.classList.toggle("reviewing", !live);
    resignBtn.hidden = st.status !== "playing" || v.held.length === 0;
    analyseLink.hidden = st.status === "playing";
    // Against people, a rematch is offered to them (extras.js); here only
    // when this browser plays every human seat.
    rematchBtn.hidden = st.status === "playing" || v.held.length === 0 || st.seats.some((s, i) => s.kind === "human" && !v.held.includes(i));
    flipBtn.hidden = !liveBoard() || liveBoard().topology !== "grid";
  }

  function seatName(i) {
    const st = v.st;
    return seatLabel(liveBoard(), i, playerWords(gameModule(st.game), st.playerNames[i]));
  }

  function drawStatus(interactive) {
    const st = v.st;
    if (st.status === "finished" && st.outcome) {
      const o = st.outcome;
      // A player is told whether they won or lost; a draw (or a game
      // called off) says so itself.
      let mine = "";
      if (v.held.length && v.held.length < st.players && o.winners && o.winners.length) {
        mine = v.held.some((s) => o.winners.includes(s)) ? "win" : "loss";
      }
      banner.textContent = (mine ? t({ win: "game.youWin", loss: "game.youLose" }[mine]) : "") + describeOutcome(o, st.playerNames.map((n) => playerWords(gameModule(st.game), n)));
      banner.className = "banner " + (mine === "win" || mine === "loss" ? mine : "neutral");
      banner.hidden = false;
      status.textContent = t("game.over", { moves: t("moves.count", { n: st.ply }), result: o.result });
      status.classList.remove("your-turn");
      return;
    }
    banner.hidden = true;
    const seat = st.seats[st.toMove] || {};
    const who = seatName(st.toMove);
    let text;
    if (v.offline) text = t("game.offline");
    else if (v.review !== null) text = t("game.replaying", { ply: v.review, total: st.ply });
    else if (v.pending) text = t("game.sending");
    else if (interactive) text = t(v.held.length > 1 ? "game.toMoveYou" : "game.yourMove", { who });
    else if (seat.kind === "ai") text = t("game.thinking", { who });
    else if (seat.kind === "human" && !seat.joined) text = t("game.waitingJoin", { who });
    else text = t("game.toMove", { who });
    if (v.held.length === 0 && v.review === null) text += t("game.watching");
    status.textContent = text;
    status.classList.toggle("your-turn", interactive);
  }

  // bottomSeat returns the seat shown below the board: this browser's own
  // (the one the board is turned to), or the first.
  function bottomSeat() {
    if (v.held.length === 1) return v.held[0];
    return flipped() ? 1 : 0;
  }

  // drawStrips draws a strip a seat: its colours, name, rating and clock,
  // marked while it is the seat's turn. Two players face each other across
  // the board; more share the space above it.
  function drawStrips() {
    const st = v.st;
    ratings.follow(st);
    if (strips.length !== st.seats.length) {
      strips.length = 0;
      clockSlots.length = 0;
      st.seats.forEach((s, i) => {
        const chipBox = h("span", { class: "strip-chip" });
        const name = h("span", { class: "strip-name", "data-testid": "strip-name-" + i });
        const rating = h("span", { class: "strip-rating", "data-testid": "strip-rating-" + i });
        const clock = h("span", { class: "strip-clock" });
        clockSlots[i] = clock;
        strips[i] = { box: h("div", { class: "strip", "data-testid": "strip-" + i }, chipBox, name, rating, clock), chipBox, name, rating };
      });
      extras.clockEls.forEach((el, i) => clockSlots[i] && clockSlots[i].append(el));
    }
    const bottom = bottomSeat();
    const two = st.seats.length === 2;
    clear(stripsTop);
    clear(stripsBottom);
    stripsTop.classList.toggle("many", !two);
    st.seats.forEach((s, i) => {
      const sp = strips[i];
      clear(sp.chipBox).append(seatChip(i));
      sp.name.textContent = s.kind === "ai" ? t("game.computerSeat", { level: levelWords(s.level) }) : s.name || (s.joined ? t("game.person") : t("game.invited"));
      if (s.bot) sp.name.append(botBadge());
      sp.name.title = seatName(i);
      sp.rating.textContent = ratings.text(i);
      const turn = i === st.toMove && st.status === "playing";
      sp.box.classList.toggle("to-move", turn);
      sp.box.classList.toggle("mine", v.held.includes(i));
      sp.box.setAttribute("aria-label", seatName(i) + (turn ? " – " + t("game.strip.toMove") : ""));
      (two && i === bottom ? stripsBottom : stripsTop).append(sp.box);
    });
    stripsBottom.hidden = !stripsBottom.firstChild;
  }

  // seatChip draws a small piece of each of a seat's colours.
  function seatChip(seat) {
    const box = h("span", { class: "seat-chip", "aria-hidden": "true" });
    const b = liveBoard();
    if (b) for (const p of b.pieces.filter((x) => x.player === seat)) box.append(chip(b, p.letter, b.topology === "ring" ? 10 : 12));
    return box;
  }

  function drawSeats() {
    const st = v.st;
    clear(seatsBox);
    st.seats.forEach((s, i) => {
      const who = s.kind === "ai" ? t("game.computerSeat", { level: levelWords(s.level) }) : !s.joined ? t("game.invited") : s.name || t("game.person");
      const you = v.held.includes(i) ? h("span", { class: "badge" }, t("game.you")) : null;
      const dot =
        s.kind === "human" && s.joined
          ? h("span", { class: "dot " + (s.connected && !v.offline ? "on" : "off"), title: v.offline ? t("game.unknownConnection") : s.connected ? t("game.connected") : t("game.notConnected") })
          : null;
      seatsBox.append(
        h(
          "li",
          { class: i === st.toMove && st.status === "playing" ? "to-move" : "", "data-testid": "seat-info-" + i },
          seatChip(i),
          h("strong", {}, seatName(i)),
          s.bot ? botBadge() : null,
          " ",
          h("span", { class: "small" }, who),
          you,
          dot,
          s.thinking ? h("span", { class: "thinking small" }, t("game.seatThinking")) : null,
        ),
      );
    });
  }

  // moverOf returns the seat that played moves[i]. Seats move in turn, a
  // pass being a move, so it counts back from the seat to move now.
  function moverOf(i) {
    const st = v.st;
    const n = st.players;
    return (((st.toMove - st.ply + i) % n) + n) % n;
  }

  function drawMoves() {
    const st = v.st;
    clear(moveList);
    // A row a round: as many columns as players.
    moveList.style.gridTemplateColumns = `repeat(${st.players}, minmax(0, 1fr))`;
    const ply = cur();
    st.moves.forEach((m, i) => {
      const mover = moverOf(i);
      moveList.append(
        h(
          "li",
          { class: i + 1 === ply ? "current" : "", "data-label": i % st.players === 0 ? `${i / st.players + 1}.` : "" },
          h(
            "button",
            {
              type: "button",
              class: "move",
              "data-testid": "move-" + (i + 1),
              title: `${seatName(mover)}: ${m}`,
              onclick: () => show(i + 1),
            },
            seatChip(mover),
            m,
          ),
        ),
      );
    });
    if (!st.moves.length) moveList.append(h("li", { class: "muted small none" }, t("game.noMoves")));
    // The list scrolls to the current move by itself: scrolling the page
    // would take the board away from a phone's screen.
    const item = moveList.querySelector(".current");
    if (item) {
      const top = item.offsetTop;
      const bottom = top + item.offsetHeight;
      if (top < moveList.scrollTop) moveList.scrollTop = top;
      else if (bottom > moveList.scrollTop + moveList.clientHeight) moveList.scrollTop = bottom - moveList.clientHeight;
    }
  }

  function drawInvites() {
    const st = v.st;
    clear(inviteBox);
    const open = invites(id).filter((x) => st.seats[x.seat] && st.seats[x.seat].kind === "human" && !st.seats[x.seat].joined);
    inviteBox.hidden = open.length === 0 || st.status !== "playing";
    if (inviteBox.hidden) return;
    inviteBox.append(h("h2", {}, t("game.invite")));
    for (const x of open) {
      const url = new URL(x.link, location.href).href;
      const input = h("input", { type: "text", readonly: true, value: url, class: "invite-link", "data-testid": "invite-link-" + x.seat, "aria-label": t("game.inviteLabel", { who: seatName(x.seat) }) });
      const copy = h("button", {
        type: "button",
        class: "secondary",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
            copy.textContent = t("game.copied");
          } catch {
            input.select();
          }
        },
      }, t("game.copy"));
      inviteBox.append(h("p", {}, t("game.inviteFor", { who: seatName(x.seat) })), h("div", { class: "invite-row" }, input, copy));
    }
  }

  const link = new GameLink(id, {
    hello: (seats, msg) => {
      v.held = seats;
      extras.hello(msg);
      extras.setHeld(seats);
      draw();
    },
    other: (m) => extras.receive(m),
    state: (st) => {
      const moved = v.st && st.ply > v.st.ply;
      const plyChanged = !v.st || v.st.ply !== st.ply;
      v.st = st;
      if (moved) play(myTurn() ? "turn" : "move");
      if (plyChanged) {
        v.pending = false;
        controls.played();
        v.pickerPly = -1;
        if (v.review !== null && v.review > st.ply) v.review = null;
      }
      if (st.status !== "playing") v.pending = false;
      // An invitation whose seats are all taken offers nothing to join.
      if (!joinArea.hidden && !st.seats.some((s) => s.kind === "human" && !s.joined)) {
        clear(joinArea).append(h("p", {}, t("game.seatTaken")));
      }
      extras.state(st);
      draw();
    },
    error: (err) => {
      if (extras.error(err)) return;
      v.pending = false;
      const offer = ["draw", "takeback", "abort", "rematch"].includes(err.about);
      controls.error.textContent = err.code === "bad_token" ? t("game.badToken") : errorWords(err, offer ? { bad_message: "extras.offerRefused" } : {});
      draw();
    },
    status: (s) => {
      v.offline = s !== "connected";
      conn.textContent = v.offline ? t("game.reconnecting") : "";
      draw();
    },
    missing: (err) => {
      playArea.hidden = true;
      status.textContent = err.status === 404 ? t("game.missing") : t("game.cannotLoad", { error: errorWords(err) });
      status.setAttribute("data-error", "true");
    },
  });
  joinBox(joinArea, id, link);

  // During a game the site's header is compact (app.js, style.css).
  document.body.classList.add("in-game");
  return () => {
    document.body.classList.remove("in-game");
    v.alive = false;
    if (v.timer) clearInterval(v.timer);
    document.removeEventListener("keydown", onKey);
    armResign(false);
    link.close();
    extras.close();
  };
}

// describeOptions writes the options of a spec that differ from the
// defaults in words, with the labels of the option schema, e.g. "Board
// size 8, Roofs variant".
async function describeOptions(spec) {
  const i = spec.indexOf("(");
  if (i < 0) return "";
  const name = spec.slice(0, i);
  const info = ((await listGames()) || []).find((g) => g.name === name);
  const parts = [];
  for (const kv of spec.slice(i + 1, spec.lastIndexOf(")")).split(",")) {
    const [key, value] = kv.split("=");
    const o = info && (info.options || []).find((x) => x.key === key);
    const label = o && o.label ? o.label : key;
    if (o && o.kind === "bool") parts.push(value === "true" ? label : `${label}: no`);
    else parts.push(`${label} ${value}`);
  }
  return parts.join(", ");
}
