// engine.js runs stax's engine in the browser: it starts the Web Worker of
// engine-worker.js, which loads the engine compiled to WebAssembly, and
// sends it requests (see cmd/stax-wasm): call({op: "play", spec, moves,
// level}) resolves to the engine's answer. The worker is started on the
// first request and kept for the page's life; its requests are answered
// one after the other.

let worker = null;
let loaded = null; // resolves to true once the engine runs, false if it cannot
let why = ""; // why the engine could not load
let next = 1;
const pending = new Map(); // id -> {resolve, reject}

// start starts the worker once.
function start() {
  if (loaded) return loaded;
  loaded = new Promise((resolve) => {
    try {
      worker = new Worker("/offline/engine-worker.js");
    } catch (err) {
      why = String(err.message || err);
      resolve(false);
      return;
    }
    worker.onmessage = (ev) => {
      const m = ev.data || {};
      if ("ready" in m && m.id === undefined) {
        if (!m.ready) why = m.error || "";
        resolve(Boolean(m.ready));
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error));
      else p.resolve(m.res);
    };
    worker.onerror = (ev) => {
      why = ev.message || "worker error";
      resolve(false);
      for (const p of pending.values()) p.reject(new Error(why));
      pending.clear();
    };
  });
  return loaded;
}

// engineReady resolves to whether the engine runs in this browser (it
// starts it).
export const engineReady = () => start();

// engineError says why the engine did not load, once engineReady
// resolved to false.
export const engineError = () => why;

// call sends one request to the engine and resolves to its answer.
export async function call(req) {
  if (!(await start())) throw new Error(why || "engine-unavailable");
  const id = next++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, req });
  });
}

// serverEngine asks the server whether it serves the engine:
// {ready, building, reason} (GET /engine/status); offline it resolves to
// null.
export async function serverEngine() {
  try {
    const res = await fetch("/engine/status", { cache: "no-store" });
    return await res.json();
  } catch {
    return null;
  }
}
