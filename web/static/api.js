// api.js talks to the stax server: the JSON API over HTTP, a game's
// websocket and the analysis board's (docs/api.md), both on transport.js.

import { load, loadJSON, save, saveJSON } from "./storage.js";
import { Socket } from "./transport.js";
import { applyUpdate, drawnState, expandViews } from "./wire.js";

// request sends a JSON request (a change always has a JSON body) and
// returns the decoded answer, its board views spelled out (wire.js), or
// throws an Error with the answer's HTTP status and the server's error
// code, if any (code "network" when no answer came). The server's words are the
// Error's message, for the console; pages show errorWords (i18n.js).
export async function request(method, path, body) {
  const init = { method, headers: {} };
  // The server takes a change only as JSON (a form of another site
  // cannot send it): one without a body sends an empty object.
  if (body === undefined && method !== "GET" && method !== "HEAD") body = {};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (cause) {
    const err = new Error("no answer from the server", { cause });
    err.code = "network";
    throw err;
  }
  let data = null;
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || text || res.statusText;
    const err = new Error(msg);
    err.status = res.status;
    if (data && data.code) err.code = data.code;
    throw err;
  }
  return expandViews(data);
}

// listGames returns the games the server plays with their options.
// The list is asked for once per page load.
let games = null;
export const listGames = () => {
  if (!games) {
    games = request("GET", "/api/games").then((d) => d.games);
    games.catch(() => (games = null));
  }
  return games;
};

// variant returns the players, names, start and levels of a spec.
export const variant = (spec) => request("GET", "/api/variant?spec=" + encodeURIComponent(spec));

// createGame creates a game (see POST /api/games).
export const createGame = (body) => request("POST", "/api/games", body);

// joinGame turns an invite into a token for its seat.
export const joinGame = (id, invite, name) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite, name: name || undefined });

// getGame returns a game's state.
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);

// recentGames returns the most recently updated games.
export const recentGames = (limit = 20, status = "") =>
  request("GET", `/api/recent?limit=${limit}` + (status ? "&status=" + status : "")).then((d) => d.games || []);

// recordURL is where a game's record is downloaded.
export const recordURL = (id) => `/api/games/${encodeURIComponent(id)}/record`;

// Tokens and invites are kept per game on this device (storage.js).
const tokenKey = (id) => "stax.token." + id;
const invitesKey = (id) => "stax.invites." + id;

// token returns the stored token of a game, or "".
export const token = (id) => load(tokenKey(id));

// saveToken stores the token of a game.
export function saveToken(id, tok) {
  if (tok) save(tokenKey(id), tok);
}

// invites returns the invitations the creator of a game made, [{seat, link}].
export function invites(id) {
  const list = loadJSON(invitesKey(id), []);
  return Array.isArray(list) ? list : [];
}

// saveInvites stores the invitations of a game.
export function saveInvites(id, list) {
  if (list && list.length) saveJSON(invitesKey(id), list);
}

// Connection is a game's websocket (a Socket of transport.js, which
// reconnects after it drops). on is {hello(seats, msg), state(state),
// error(err), status(text), other(msg)}.
export class Connection {
  constructor(id, tok, on) {
    this.on = on;
    this.state = null; // the last full state, with the updates applied, as sent
    let path = `/ws/games/${encodeURIComponent(id)}`;
    if (tok) path += "?token=" + encodeURIComponent(tok);
    this.socket = new Socket({ path }, { receive: (msg) => this.receive(msg), status: (s) => on.status && on.status(s) });
  }

  receive(msg) {
    const on = this.on;
    switch (msg.type) {
      case "hello":
        on.hello && on.hello(msg.seats || [], msg);
        break;
      case "state":
        this.state = msg.state;
        on.state && on.state(drawnState(msg.state));
        break;
      case "update": {
        // An update is what changed in the state (docs/api.md): apply it
        // to ours, extended with the move just played.
        const next = applyUpdate(this.state, msg.state);
        if (!next) {
          // Out of step: reconnect, which brings the full state.
          this.socket.reconnect();
          break;
        }
        this.state = next;
        on.state && on.state(drawnState(next));
        break;
      }
      case "error":
        // The error answers the last message sent (the server's errors do
        // not say which): its page can tell a chat error from a move's.
        on.error && on.error({ ...msg, about: this.socket.lastSent });
        break;
      default:
        // Clocks, chat, offers, watchers and rematches (pages/game/extras.js).
        on.other && on.other(msg);
    }
  }

  // send sends one message; it reports whether the socket was open (a
  // game's messages are never queued: a move must not arrive late
  // unnoticed).
  send(msg) {
    return this.socket.send(msg);
  }

  // close closes the socket for good.
  close() {
    this.socket.close();
  }
}

// views caches the board views fetched with view, by request; the oldest
// are dropped beyond a few hundred.
const views = new Map();

// view returns the View (docs/api.md) of a position of variant spec
// (its start when position is empty), or of the position that move leads
// to from it.
export function view(spec, position = "", move = "") {
  const q = new URLSearchParams({ spec });
  if (position) q.set("position", position);
  if (move) q.set("move", move);
  const key = q.toString();
  let v = views.get(key);
  if (!v) {
    v = request("GET", "/api/view?" + key);
    v.catch(() => views.delete(key));
    views.set(key, v);
    if (views.size > 400) views.delete(views.keys().next().value);
  }
  return v;
}

// analyze returns every legal move of a position with its verdict, and
// the position's board view (see POST /api/analyze): req is {spec,
// position, moves} or {game, ply}.
export const analyze = (req) => request("POST", "/api/analyze", req);

// setup returns the position of stacks set up by hand and its view (see
// POST /api/setup): {spec, stacks, toMove}.
export const setupPosition = (req) => request("POST", "/api/setup", req);

// review returns the review of a finished game (GET /api/games/{id}/review).
export const review = (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`);

// explore returns the moves the site's games played from a position, the
// one after moves from position (the start when empty): GET /api/explorer.
export const explore = (spec, position, moves) =>
  request("GET", `/api/explorer?spec=${encodeURIComponent(spec)}&position=${encodeURIComponent(position || "")}&moves=${encodeURIComponent((moves || []).join(","))}`);

// AnalysisSocket streams live analyses (/ws/analyze): onMessage gets
// every message, and {type: "done"} when the socket closes; start(req)
// starts an analysis of a position, stop() stops it. The socket opens at
// the first start and does not reconnect by itself: the next start opens
// it again.
export class AnalysisSocket {
  constructor(onMessage) {
    this.socket = new Socket(
      { path: "/ws/analyze", reconnect: false, lazy: true, queue: 1 },
      { receive: (m) => onMessage(expandViews(m)), status: (s) => s === "closed" && onMessage({ type: "done" }) },
    );
  }

  start(req) {
    this.socket.send({ type: "start", ...req });
  }

  stop() {
    if (this.socket.isOpen) this.socket.send({ type: "stop" });
  }

  close() {
    this.socket.close();
  }
}

// The puzzles (docs/api.md, "Puzzles"). puzzleNext takes the query's
// parameters: game, theme, rating (a guest's), after (the puzzle just
// played).
const query = (params) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== "" && v !== null) q.set(k, String(v));
  const s = q.toString();
  return s ? "?" + s : "";
};
export const puzzleNext = (params) => request("GET", "/api/puzzles/next" + query(params));
export const puzzleDaily = () => request("GET", "/api/puzzles/daily");
export const puzzleStreak = (params) => request("GET", "/api/puzzles/streak" + query(params));
export const puzzleGet = (id) => request("GET", `/api/puzzles/${encodeURIComponent(id)}`);
export const puzzleMove = (id, moves, mode) => request("POST", `/api/puzzles/${encodeURIComponent(id)}/move`, { moves, mode: mode || undefined });
export const puzzleHint = (id, moves, mode) => request("POST", `/api/puzzles/${encodeURIComponent(id)}/hint`, { moves, mode: mode || undefined });
export const puzzleHistory = () => request("GET", "/api/puzzles/me");
export const puzzleThemes = () => request("GET", "/api/puzzles/themes");
// puzzlePlayer returns the puzzle rating of the player of that name.
export const puzzlePlayer = (name) => request("GET", `/api/puzzles/players/${encodeURIComponent(name)}`);

// The lessons (docs/api.md, "Lessons"): the list, one lesson, and a move
// of a step (from 0) judged against its goal.
export const lessonIndex = () => request("GET", "/api/lessons");
export const lessonGet = (id) => request("GET", `/api/lessons/${encodeURIComponent(id)}`);
export const lessonMove = (id, step, move) => request("POST", `/api/lessons/${encodeURIComponent(id)}/move`, { step, move });
