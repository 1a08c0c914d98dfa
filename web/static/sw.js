// sw.js is the service worker: it keeps the interface's files and the
// browser engine in the cache, so that the site opens and plays offline
// after one visit. The server fills in VERSION, SHELL and HASHED
// (server/offline):
// a new deployment changes VERSION, the browser installs the new worker
// beside the old one, and the page offers to reload into it (install.js).
//
// Strategies: the files of SHELL come from the cache of this version, by
// their plain URLs or the content-hashed ones the pages load them by
// (HASHED sends each to its plain URL; a hashed URL of another version
// goes to the network);
// pages (navigations) from the network, else the cached page; GET
// /api/games and /api/variant from the network, else their last answer;
// everything else goes to the network untouched.

const VERSION = "__VERSION__";
const SHELL = ["__SHELL__"];
const HASHED = {"__HASHED__": ""};
const CACHE = "stax-" + VERSION;
const DATA = "stax-data"; // the last answers of the API kept for offline

self.addEventListener("install", (ev) => {
  ev.waitUntil(Promise.all([
    // Without cookies: the page kept for offline is a guest's, never a
    // signed-in player's (the server writes who is signed in in the page).
    caches.open(CACHE).then((c) => c.addAll(SHELL.map((u) => new Request(u, { cache: "reload", credentials: "omit" })))),
    keepData(),
  ]));
});

// keepData keeps the answers the home page's picker needs offline: the
// list of games and each game's default variant (the page's own requests
// of the first visit come before the worker, so it asks for them itself).
async function keepData() {
  try {
    const c = await caches.open(DATA);
    const res = await fetch("/api/games", { cache: "reload" });
    if (!res.ok) return;
    await c.put("/api/games", res.clone());
    const { games } = await res.json();
    await Promise.all((games || []).map(async (g) => {
      const url = "/api/variant?spec=" + encodeURIComponent(g.name);
      const v = await fetch(url, { cache: "reload" });
      if (v.ok) await c.put(url, v);
    }));
  } catch {
    // Offline play works without them; the home page then says it
    // cannot load the games.
  }
}

self.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("stax-") && k !== CACHE && k !== DATA).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (ev) => {
  if (ev.data && ev.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin) return;
  if (req.mode === "navigate") {
    ev.respondWith(fetch(req).catch(() => caches.open(CACHE).then((c) => c.match("/"))));
    return;
  }
  if (url.pathname === "/api/games" || url.pathname === "/api/variant") {
    ev.respondWith(
      fetch(req).then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(DATA).then((c) => c.put(req, copy));
        }
        return res;
      }).catch(() => caches.open(DATA).then((c) => c.match(req)).then((res) => res || Response.error())),
    );
    return;
  }
  const path = Object.hasOwn(HASHED, url.pathname) ? HASHED[url.pathname] : url.pathname;
  if (SHELL.includes(path)) {
    ev.respondWith(caches.open(CACHE).then((c) => c.match(path)).then((res) => res || fetch(req)));
  }
});
