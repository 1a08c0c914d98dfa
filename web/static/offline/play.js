// play.js is offline play: games against the computer played entirely in
// the browser by the engine of engine.js, without the server, kept on
// this device (localStorage) and reviewed on the analysis board, which
// analyses in the browser too.
//
// URLs: /offline                           choose a game and a level; the games kept here
//       /offline?spec=S&level=L&seat=N     the same, with a choice made (the home page
//                                          sends there when the server cannot be reached)
//       /offline?game=ID                   a game kept on this device

import { listGames, request } from "../api.js";
import { clear, h, navigate } from "../dom.js";
import { gameModule } from "../games/index.js";
import { Picker } from "../picker.js";
import { errorWords, playerWords, t } from "../i18n.js";
import { BoardView } from "../board-view.js";
import { Controls } from "../controls.js";
import { describeOutcome } from "../outcome.js";
import { loadJSON, saveJSON } from "../storage.js";
import { call, engineReady, serverEngine, whyUnavailable } from "./engine.js";

const KEY = "stax.offline.games";

// keptGames returns the games kept on this device, newest first.
export const keptGames = () => loadJSON(KEY, []);

// keep stores a game, replacing the one with its id; without storage the
// game lasts as long as the page.
function keep(g) {
  const list = keptGames().filter((x) => x.id !== g.id);
  list.unshift(g);
  saveJSON(KEY, list.slice(0, 50));
}

const gameName = (spec) => spec.split("(")[0];

// offlinePage draws offline play into root and returns its clean-up.
export function offlinePage(root) {
  document.title = t("offline.title") + " – stax";
  const q = new URLSearchParams(location.search);
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "offline-status" }, t("offline.loading"));
  root.append(h("h1", {}, t("offline.title")), status);
  let alive = true;
  let cleanup = null;
  engineReady().then(async (ok) => {
    if (!alive) return;
    if (!ok) {
      const st = await serverEngine();
      status.textContent = t("offline.unavailable", { reason: t(whyUnavailable(st)) });
      status.setAttribute("data-state", "unavailable");
      return;
    }
    status.textContent = "";
    const id = q.get("game");
    const g = id && keptGames().find((x) => x.id === id);
    if (g) cleanup = playGame(root, g);
    else chooser(root, q);
  });
  return () => {
    alive = false;
    if (cleanup) cleanup();
  };
}

// chooser draws the choice of a game, a level and a side, and the games
// kept on this device.
async function chooser(root, q) {
  const games = await call({ op: "games" });
  let serverLevels = {}; // the server's levels by game, when it was reached
  try {
    for (const g of await listGames()) serverLevels[g.name] = g.levels || [];
  } catch {
    serverLevels = {};
  }
  const gameSel = h("select", { id: "off-game", "data-testid": "offline-game" });
  const specIn = h("input", { id: "off-spec", type: "text", spellcheck: "false", autocapitalize: "off", "data-testid": "offline-spec" });
  const levelSel = h("select", { id: "off-level", "data-testid": "offline-level" });
  const seatSel = h("select", { id: "off-seat", "data-testid": "offline-seat" });
  const missing = h("p", { class: "small muted", "data-testid": "offline-missing" });
  const err = h("p", { class: "error", role: "alert", "data-testid": "offline-error" });
  const startBtn = h("button", { type: "submit", "data-testid": "offline-start" }, t("offline.start"));
  for (const g of games) gameSel.append(h("option", { value: g.name }, g.title));
  let variant = null;
  let fallback = false;
  const fill = async () => {
    err.textContent = "";
    try {
      variant = await call({ op: "variant", spec: specIn.value.trim() });
    } catch (e) {
      variant = null;
      err.textContent = errorWords(e, { engine: "offline.badVariant" });
      startBtn.disabled = true;
      return;
    }
    startBtn.disabled = false;
    const wantLevel = levelSel.value || q.get("level") || "medium";
    clear(levelSel).append(...variant.levels.map((l) => h("option", { value: l, selected: l === wantLevel }, l)));
    const mod = gameModule(gameName(variant.spec));
    const wantSeat = seatSel.value || q.get("seat") || "0";
    clear(seatSel).append(...variant.playerNames.map((n, i) => h("option", { value: String(i), selected: String(i) === wantSeat }, playerWords(mod, n))));
    const extra = (serverLevels[gameName(variant.spec)] || []).filter((l) => !variant.levels.includes(l));
    missing.textContent = extra.length ? t("offline.notOffline", { levels: extra.map((l) => l).join(", ") }) : "";
  };
  const pick = (name, spec) => {
    gameSel.value = name;
    specIn.value = spec || (games.find((g) => g.name === name) || games[0]).spec;
    seatSel.value = "";
    return fill();
  };
  gameSel.addEventListener("change", () => pick(gameSel.value));
  specIn.addEventListener("change", fill);
  const form = h(
    "form",
    { class: "offline-form", "data-testid": "offline-form" },
    h("p", { class: "muted" }, t("offline.lead")),
    h("label", { for: "off-game" }, t("home.game")), " ", gameSel, " ",
    h("label", { for: "off-spec" }, t("offline.variant")), " ", specIn,
    h("p", {}, h("label", { for: "off-level" }, t("offline.levelLabel")), " ", levelSel, " ", h("label", { for: "off-seat" }, t("offline.seat")), " ", seatSel),
    missing,
    err,
    startBtn,
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!variant) return;
    const g = { id: Date.now().toString(36) + Math.random().toString(36).slice(2, 6), spec: variant.spec, start: variant.start, level: levelSel.value, seat: Number(seatSel.value), moves: [], created: Date.now(), fallback };
    keep(g);
    navigate("/offline?game=" + g.id);
  });
  const list = h("ul", { class: "offline-games", "data-testid": "offline-games" });
  for (const g of keptGames()) {
    list.append(h("li", {}, h("a", { href: "/offline?game=" + g.id, "data-link": "" }, g.spec), " ", t("offline.against", { level: g.level }), " ", g.outcome ? describeOutcome(g.outcome, g.names || []) : t("offline.unfinished")));
  }
  root.append(form, h("h2", {}, t("offline.kept")), list);
  const q0 = q.get("spec");
  const first = q0 ? games.find((g) => g.name === gameName(q0)) : null;
  await pick(first ? first.name : games[0].name, q0 || "");
  // Sent by the home page because the server could not be reached: the
  // game starts at once.
  if (q.get("down") === "1" && variant && variant.levels.includes(q.get("level"))) {
    fallback = true;
    form.requestSubmit();
  }
}

// playGame plays a game kept on this device against the computer.
function playGame(root, g) {
  const mod = gameModule(gameName(g.spec));
  let st = null; // the engine's state of the game
  let picker = null;
  let alive = true;
  let thinking = false;
  let names = [];
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "status" });
  const board = new BoardView((cell, depth) => {
    if (!picker || !myTurn()) return;
    controls.result(picker.click(cell, depth));
  });
  const controls = new Controls((m) => play(m), () => draw());
  const movesBox = h("ol", { class: "move-list", "data-testid": "moves" });
  const after = h("div", { class: "actions", "data-testid": "offline-after" });
  root.append(
    h("p", { class: "small muted", "data-testid": "offline-note" }, (g.fallback ? t("offline.serverDown") + " " : "") + t("offline.note", { level: g.level })),
    status,
    h(
      "div",
      { class: "play" },
      h("div", { class: "board-col" }, board.box, controls.buttons, controls.hint, controls.info),
      h("div", { class: "side-col" }, controls.form, controls.error, controls.legalBox, h("h2", {}, t("game.moves")), movesBox, after),
    ),
  );

  const myTurn = () => st && !st.outcome && st.toMove === g.seat && !thinking;
  const seatName = (i) => playerWords(mod, names[i] || String(i + 1));

  // load asks the engine for the state after the game's moves, then lets
  // the computer move when it is its turn.
  async function load() {
    try {
      st = await call({ op: "state", spec: g.spec, start: g.start, moves: g.moves });
    } catch (err) {
      status.textContent = errorWords(err);
      return;
    }
    if (!alive) return;
    picker = mod.picker ? mod.picker(st.view ? st.view.moves : []) : new Picker(st.view ? st.view.moves : []);
    if (st.outcome && !g.outcome) {
      g.outcome = st.outcome;
      g.names = names.map((n, i) => seatName(i));
      keep(g);
    }
    draw();
    if (!st.outcome && st.toMove !== g.seat) computer();
  }

  async function computer() {
    thinking = true;
    draw();
    try {
      const t0 = performance.now();
      const r = await call({ op: "play", spec: g.spec, start: g.start, moves: g.moves, level: g.level });
      if (!alive) return;
      // How long the worker took, for the phone profile's test.
      status.setAttribute("data-think-ms", String(Math.round(performance.now() - t0)));
      g.moves = g.moves.concat([r.move]);
      keep(g);
    } catch (err) {
      if (alive) controls.error.textContent = errorWords(err);
    }
    thinking = false;
    if (alive) load();
  }

  // play plays the player's move, which the engine checks.
  async function play(m) {
    if (!myTurn()) return;
    try {
      await call({ op: "state", spec: g.spec, start: g.start, moves: g.moves.concat([m]) });
    } catch (err) {
      err.move = m;
      controls.error.textContent = errorWords(err, { engine: "error.illegal_move" });
      return;
    }
    controls.error.textContent = "";
    controls.played();
    g.moves = g.moves.concat([m]);
    keep(g);
    load();
  }

  function draw() {
    if (!st) return;
    const live = !st.outcome;
    const mine = myTurn();
    const marks = mine ? picker.marks() : {};
    marks.interactive = mine;
    marks.label = t("offline.boardLabel", { title: g.spec });
    marks.flip = g.seat === 1 && names.length === 2;
    board.draw(st.view, st.ply, st.position, marks);
    if (st.outcome) status.textContent = describeOutcome(st.outcome, names.map((n, i) => seatName(i)));
    else if (thinking) status.textContent = t("offline.thinking", { player: seatName(st.toMove) });
    else status.textContent = t("offline.yourMove", { player: seatName(st.toMove) });
    status.setAttribute("data-state", st.outcome ? "over" : mine ? "your-move" : "waiting");
    const s = { status: live ? "playing" : "finished", players: names.length, toMove: st.toMove, playerNames: names, legal: (st.view ? st.view.moves : []).map((m) => m.text) };
    controls.draw({ st: s, held: live ? [g.seat] : [], board: st.view ? st.view.board : null, picker, interactive: mine, pos: st.position, seatName, module: mod });
    clear(movesBox).append(...st.moves.map((m) => h("li", {}, m)));
    clear(after);
    const p = new URLSearchParams({ spec: g.spec });
    if (g.start) p.set("position", g.start);
    if (g.moves.length) p.set("moves", g.moves.join(","));
    after.append(
      h("a", { href: "/analysis?" + p.toString(), "data-link": "", class: "button secondary", "data-testid": "offline-analyse" }, t("offline.analyse")),
      " ",
      h("a", { href: "/offline", "data-link": "", class: "button secondary", "data-testid": "offline-new" }, t("offline.new")),
    );
    // A finished game can be kept in the player's account, once the
    // server can be reached: it replays the moves and keeps it, unrated.
    if (st.outcome && g.saved) {
      after.append(" ", h("a", { href: "/game/" + g.saved, "data-link": "", class: "button secondary", "data-testid": "offline-saved" }, t("offline.saved")));
    } else if (st.outcome) {
      const note = h("p", { class: "error small", role: "alert" });
      const save = h("button", { type: "button", class: "secondary", "data-testid": "offline-save" }, t("offline.save"));
      save.addEventListener("click", async () => {
        save.disabled = true;
        note.textContent = "";
        try {
          const r = await request("POST", "/api/games/import", { spec: g.spec, start: g.start || "", moves: g.moves, seat: g.seat, level: g.level });
          g.saved = r.id;
          keep(g);
          draw();
        } catch (err) {
          save.disabled = false;
          note.textContent = errorWords(err, { 401: "offline.saveSignIn" });
        }
      });
      after.append(" ", save, note);
    }
  }

  call({ op: "variant", spec: g.spec }).then((v) => {
    names = v.playerNames;
    load();
  }, (err) => (status.textContent = errorWords(err)));
  return () => {
    alive = false;
  };
}
