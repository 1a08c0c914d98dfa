// engine-worker.js is the Web Worker that runs stax's engine compiled to
// WebAssembly (cmd/stax-wasm), so that the page never freezes while the
// computer thinks. It is a classic worker (importScripts loads the Go
// runtime's wasm_exec.js). Messages in are {id, req}, a request of the
// engine; messages out are {id, res} with the engine's answer, or {id,
// error}; {ready: true} or {ready: false, error} tells whether the engine
// loaded.

/* global Go, staxEngine */
let ready = null;

function load() {
  try {
    importScripts("/engine/wasm_exec.js");
  } catch (err) {
    return Promise.reject(err);
  }
  const go = new Go();
  const started = new Promise((resolve) => {
    self.staxEngineReady = resolve;
  });
  const fetched = fetch("/engine/stax.wasm").then((res) => {
    if (!res.ok) throw new Error("/engine/stax.wasm: " + res.status + " " + res.statusText);
    return res;
  });
  const instance = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetched, go.importObject).catch(async () => WebAssembly.instantiate(await (await fetch("/engine/stax.wasm")).arrayBuffer(), go.importObject))
    : fetched.then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject));
  return instance.then((result) => {
    go.run(result.instance);
    return started;
  });
}

ready = load().then(
  () => {
    self.postMessage({ ready: true });
    return true;
  },
  (err) => {
    self.postMessage({ ready: false, error: String((err && err.message) || err) });
    return false;
  },
);

self.onmessage = async (ev) => {
  const { id, req } = ev.data || {};
  if (!(await ready)) {
    self.postMessage({ id, error: "engine-unavailable" });
    return;
  }
  let res;
  try {
    res = JSON.parse(staxEngine(JSON.stringify(req)));
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
    return;
  }
  if (res && typeof res === "object" && !Array.isArray(res) && res.error) self.postMessage({ id, error: res.error });
  else self.postMessage({ id, res });
};
