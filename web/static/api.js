// api.js talks to the stax server: the JSON API over HTTP and a game's
// websocket (docs/server.md).

// request sends a JSON request and returns the decoded answer, or throws an
// Error carrying the server's message.
export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
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
  return data;
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

// Tokens and invites are kept per game in localStorage.
const tokenKey = (id) => "stax.token." + id;
const invitesKey = (id) => "stax.invites." + id;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// token returns the stored token of a game, or "".
export function token(id) {
  const s = storage();
  return (s && s.getItem(tokenKey(id))) || "";
}

// saveToken stores the token of a game.
export function saveToken(id, tok) {
  const s = storage();
  if (s && tok) s.setItem(tokenKey(id), tok);
}

// invites returns the invitations the creator of a game made, [{seat, link}].
export function invites(id) {
  const s = storage();
  try {
    return JSON.parse((s && s.getItem(invitesKey(id))) || "[]");
  } catch {
    return [];
  }
}

// saveInvites stores the invitations of a game.
export function saveInvites(id, list) {
  const s = storage();
  if (s && list && list.length) s.setItem(invitesKey(id), JSON.stringify(list));
}

// Connection is a game's websocket that reconnects after it drops. on is
// {hello(seats), state(state), error(err), status(text)}.
export class Connection {
  constructor(id, tok, on) {
    this.id = id;
    this.token = tok;
    this.on = on;
    this.closed = false;
    this.retry = 0;
    this.state = null; // the last full state, with the updates applied
    this.ws = null;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let url = `${proto}//${location.host}/ws/games/${encodeURIComponent(this.id)}`;
    if (this.token) url += "?token=" + encodeURIComponent(this.token);
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.on.status && this.on.status("connected");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      switch (msg.type) {
        case "hello":
          this.on.hello && this.on.hello(msg.seats || [], msg);
          break;
        case "state":
          this.state = msg.state;
          this.on.state && this.on.state(msg.state);
          break;
        case "update": {
          // An update is the state without the moves and positions so far
          // (docs/server.md): extend ours with the move just played.
          const s = this.state;
          const u = msg.state;
          if (!s || (u.ply !== s.ply && u.ply !== s.ply + 1)) {
            // Out of step: reconnect, which brings the full state.
            ws.close();
            break;
          }
          const next = { ...s, ...u };
          if (u.ply === s.ply + 1) {
            next.moves = s.moves.concat([u.lastMove]);
            next.positions = s.positions.concat([u.position]);
          }
          this.state = next;
          this.on.state && this.on.state(next);
          break;
        }
        case "error":
          this.on.error && this.on.error(msg);
          break;
        default:
          // Clocks, chat, offers, watchers and rematches (pages/game/extras.js).
          this.on.other && this.on.other(msg);
      }
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.on.status && this.on.status("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.open(), delay);
    };
  }

  // send sends one message; it reports whether the socket was open.
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  // close closes the socket for good.
  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000);
  }
}

// views caches the board views fetched with view, by request; the oldest
// are dropped beyond a few hundred.
const views = new Map();

// view returns the View (docs/server.md) of a position of variant spec
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

// AnalysisSocket streams live analyses (/ws/analyze): onMessage gets
// every message; start(req) starts an analysis of a position, stop()
// stops it.
export class AnalysisSocket {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.ws = null;
    this.queued = null;
  }

  start(req) {
    this.send({ type: "start", ...req });
  }

  stop() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "stop" }));
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return;
    }
    this.queued = msg;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(`${proto}//${location.host}/ws/analyze`);
    this.ws.onopen = () => {
      if (this.queued) this.ws.send(JSON.stringify(this.queued));
      this.queued = null;
    };
    this.ws.onmessage = (ev) => {
      try {
        this.onMessage(JSON.parse(ev.data));
      } catch {
        // A message that is not JSON is ignored.
      }
    };
    this.ws.onclose = () => this.onMessage({ type: "done" });
  }

  close() {
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
