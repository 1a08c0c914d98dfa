// engine.js runs stax's engine in the browser: it starts the Web Worker of
// engine-worker.js, which loads the engine compiled to WebAssembly, and
// sends it requests (see cmd/stax-wasm): call({op: "play", spec, moves,
// level}) resolves to the engine's answer. The worker is started on the
// first request and kept for the page's life; its requests are answered
// one after the other.
//
// Errors carry a code for errorWords (i18n.js): "engine_unavailable" when
// the engine cannot start here, "engine" when it refuses a request (its
// own words, for programs, stay in the Error for the console).

import { expandViews } from "../wire.js";

let worker = null;
let loaded = null; // resolves to true once the engine runs, false if it cannot
let next = 1;
const pending = new Map(); // id -> {resolve, reject}

// failure returns an Error with code, whose cause is what went wrong.
function failure(code, cause) {
  const err = new Error("stax engine: " + code, { cause });
  err.code = code;
  return err;
}

// start starts the worker once.
function start() {
  if (loaded) return loaded;
  loaded = new Promise((resolve) => {
    try {
      worker = new Worker("/offline/engine-worker.js");
    } catch (cause) {
      console.warn("stax: the engine's worker did not start", cause);
      resolve(false);
      return;
    }
    worker.onmessage = (ev) => {
      const m = ev.data || {};
      if ("ready" in m && m.id === undefined) {
        if (!m.ready) console.warn("stax: the engine did not load:", m.error);
        resolve(Boolean(m.ready));
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(failure(m.error === "engine-unavailable" ? "engine_unavailable" : "engine", m.error));
      else p.resolve(expandViews(m.res));
    };
    worker.onerror = (ev) => {
      console.warn("stax: the engine's worker failed", ev);
      resolve(false);
      for (const p of pending.values()) p.reject(failure("engine_unavailable", ev));
      pending.clear();
    };
  });
  return loaded;
}

// engineReady resolves to whether the engine runs in this browser (it
// starts it).
export const engineReady = () => start();

// call sends one request to the engine and resolves to its answer.
export async function call(req) {
  if (!(await start())) throw failure("engine_unavailable");
  const id = next++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, req });
  });
}

// serverEngine asks the server whether it serves the engine: {ready,
// code, reason} (GET /engine/status, code "none", "building" or
// "failed"); offline it resolves to null.
export async function serverEngine() {
  try {
    const res = await fetch("/engine/status", { cache: "no-store" });
    return await res.json();
  } catch {
    return null;
  }
}

// whyUnavailable returns the key of i18n/ that says why the engine does
// not run here, from the server's status (null offline).
export const whyUnavailable = (st) => (st && !st.ready && st.code ? "offline.reason." + st.code : "offline.reason.notCached");
