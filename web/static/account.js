// account.js talks to the server about accounts, the lobby and ratings
// (docs/api.md), and remembers who is signed in.

import { request } from "./api.js";
import { CATALOGS, gameText, t } from "./i18n.js";
import { gameModule } from "./games/index.js";
import { Socket } from "./transport.js";

// pools returns the rating pools, [{pool, spec, title}], as the server
// defines them.
let poolList = null;
export function pools() {
  if (!poolList) poolList = request("GET", "/api/pools").then((d) => d.pools || []).catch((e) => {
    poolList = null;
    throw e;
  });
  return poolList;
}

// poolName returns the title of a pool in the interface's language, from
// the words of its game's module.
export const poolName = (p) => gameText(gameModule((p.spec || "").split("(")[0]), "pool." + p.pool, p.title);

// poolTitle returns the title of a pool, given the list.
export const poolTitle = (list, pool) => poolName(list.find((p) => p.pool === pool) || { pool, title: pool });

let current; // undefined: not asked yet; null: signed out; {name,...}
let asking = null; // the question to the server under way
const listeners = new Set();

// me returns the signed-in player ({name, created, expires, bot,
// ratedBots}) or null.
export async function me() {
  if (current !== undefined) return current;
  // The server tells the page who is signed in (GET /api/me's answer), or
  // that the visitor is a guest, with no account to ask about.
  const told = document.querySelector('meta[name="stax-me"]');
  if (told) {
    try {
      return (current = JSON.parse(told.content));
    } catch {
      // Asked below.
    }
  }
  if (document.querySelector('meta[name="stax-guest"]')) return (current = null);
  // One question at a time: the pages that ask at once share its answer.
  // A guest's answer is null, not a refusal (?guest=ok).
  asking = asking || request("GET", "/api/me?guest=ok").then((who) => who || null, () => null).then((who) => {
    asking = null;
    if (current === undefined) current = who;
    return current;
  });
  return asking;
}

// onAccount calls f with the player (or null) whenever it changes.
export function onAccount(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function set(who) {
  current = who;
  for (const f of listeners) f(who);
}

export async function signup(name, password) {
  set(await request("POST", "/api/signup", { name, password }));
  return current;
}

export async function login(name, password) {
  set(await request("POST", "/api/login", { name, password }));
  return current;
}

export async function logout() {
  await request("POST", "/api/logout", {});
  set(null);
}

export const changePassword = (old, neu) => request("POST", "/api/password", { old, new: neu });

// blocks returns the names the signed-in player blocks; block and unblock
// change them (and return them); report sends the operators a report
// (docs/api.md#moderation).
export const blocks = () => request("GET", "/api/blocks").then((d) => d.blocks || []);
export const block = (name) => request("POST", "/api/blocks", { name }).then((d) => d.blocks || []);
export const unblock = (name) => request("DELETE", "/api/blocks/" + encodeURIComponent(name)).then((d) => d.blocks || []);
export const report = (body) => request("POST", "/api/reports", body);

// tokens returns the signed-in player's personal API tokens (never their
// secrets); createToken makes one and returns it with its secret, shown
// this once; revokeToken revokes one (docs/api.md#tokens).
export const tokens = () => request("GET", "/api/tokens").then((d) => d.tokens || []);
export const createToken = (description, scopes) => request("POST", "/api/tokens", { description, scopes });
export const revokeToken = (id) => request("DELETE", "/api/tokens/" + encodeURIComponent(id), {});

// setRatedBots records whether the player accepts rated games against
// bots.
export async function setRatedBots(accept) {
  const d = await request("POST", "/api/me/preferences", { ratedBots: accept });
  if (current) set({ ...current, ratedBots: d.ratedBots });
  return d.ratedBots;
}

// resetPassword sets a new password with the token of a reset link.
export const resetPassword = (token, password) => request("POST", "/api/password/reset", { token, password });

export async function deleteAccount(password) {
  await request("DELETE", "/api/me", { password });
  set(null);
}

export const seeks = () => request("GET", "/api/seeks").then((d) => d.seeks || []);
export const postSeek = (body) => request("POST", "/api/seeks", body);
export const acceptSeek = (id) => request("POST", `/api/seeks/${encodeURIComponent(id)}/accept`, {});
export const cancelSeek = (id) => request("DELETE", `/api/seeks/${encodeURIComponent(id)}`, {});
export const challenge = (body) => request("POST", "/api/challenges", body);
export const declineChallenge = (id) => request("POST", `/api/challenges/${encodeURIComponent(id)}/decline`, {});
export const profile = (name) => request("GET", `/api/users/${encodeURIComponent(name)}`);
export const leaderboard = (pool) => request("GET", `/api/leaderboard/${encodeURIComponent(pool)}`);
// Quick pairing (docs/api.md): the presets, asking to be paired (the
// answer is {game} when paired at once, {waiting, pool, since, reach} when
// waiting; renew keeps a wait) and leaving the pools.
export const pairingPresets = () => request("GET", "/api/pairing").then((d) => d.presets || []);
export const pair = (spec, preset, renew = false) => request("POST", "/api/pairing", { spec, preset, renew });
export const unpair = () => request("DELETE", "/api/pairing");
export const myGames = () => request("GET", "/api/me/games").then((d) => d.games || []);
// bots returns the bot accounts, those seen most recently first:
// [{name, online, seen, ratings: [{pool, rating, provisional, games}], games}].
export const bots = () => request("GET", "/api/bots").then((d) => d.bots || []);

// LobbySocket follows the lobby: on is {seeks(list), started(msg),
// challenge(msg), declined(msg), status(text)}. It reconnects after it
// drops (transport.js); while it is open, the player's seeks stand.
export class LobbySocket {
  constructor(on) {
    this.on = on;
    this.list = [];
    this.start();
    // The page says it is here every 20 s: the lobby withdraws the seeks
    // of a page that falls quiet, so that nobody is paired in a game they
    // will not see. A page left for another, or put in the back-forward
    // cache, leaves the lobby at once; shown again, it comes back.
    this.beat = setInterval(() => this.socket && this.socket.send({ type: "here" }), 20000);
    this.hide = () => {
      if (this.socket) this.socket.close();
      this.socket = null;
    };
    this.show = (ev) => {
      if (ev.persisted && !this.socket) this.start();
    };
    addEventListener("pagehide", this.hide);
    addEventListener("pageshow", this.show);
  }

  start() {
    const on = this.on;
    this.socket = new Socket(
      { path: "/ws/lobby" },
      {
        receive: (m) => {
          // The whole list comes when the socket opens; then each change
          // comes alone: a seek added, or one removed.
          if (m.type === "seeks" || m.type === "added" || m.type === "removed") {
            if (m.type === "seeks") this.list = m.seeks || [];
            for (const s of m.type === "added" ? m.seeks || [] : []) {
              const i = this.list.findIndex((x) => x.id === s.id);
              if (i >= 0) this.list[i] = s;
              else this.list.push(s);
            }
            if (m.type === "removed") this.list = this.list.filter((x) => x.id !== m.seek);
            if (on.seeks) on.seeks([...this.list]);
            return;
          }
          const f = on[m.type];
          if (f) f(m);
        },
        status: (s) => on.status && on.status(s),
      },
    );
  }

  close() {
    clearInterval(this.beat);
    removeEventListener("pagehide", this.hide);
    removeEventListener("pageshow", this.show);
    this.hide();
  }
}

// declinedWords says that m.by declined the player's challenge, and why
// when a reason other than "generic" came with the decline.
export function declinedWords(m) {
  const words = t("lobby.declined", { name: m.by });
  const key = "lobby.declineReason." + m.reason;
  return m.reason && key in CATALOGS.en ? words + " " + t(key) : words;
}

// clockText writes a time control: "1+1", "3 days".
export function clockText(s) {
  if (s.clock) return `${fmtMinutes(s.clock.initial)}+${s.clock.increment}`;
  if (s.days) return t("lobby.days", { n: s.days });
  return t("lobby.noClockText");
}

function fmtMinutes(sec) {
  const m = sec / 60;
  return Number.isInteger(m) ? String(m) : m.toFixed(1).replace(/\.0$/, "");
}

// presetText writes a preset of quick pairing: "3+2", "3 days".
export const presetText = (p) => (p.days ? t("lobby.days", { n: p.days }) : p.name);

// ratingText writes a rating, "1500?" while provisional.
export const ratingText = (r) => Math.round(r.rating) + (r.provisional ? "?" : "");
