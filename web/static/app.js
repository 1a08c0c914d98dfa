// app.js is the entry point: it routes on the URL path (the server serves
// index.html for every page route) and shows one page at a time.
//
// Routes: /                 the home page (start a game)
//         /game/<id>        a game: play, watch, join (#invite=...) or replay
//         /games            recent games
//         /rules/<game>     the rules of a game of games/index.js

import { installPatterns } from "./render.js";
import { clear, h } from "./dom.js";
import { GAMES } from "./games/index.js";
import { homePage } from "./pages/home.js";
import { gamePage } from "./pages/game/page.js";
import { recentPage } from "./pages/recent.js";
import { rulesPage } from "./pages/rules.js";

const main = document.getElementById("main");
let leave = null; // the current page's clean-up function

function route() {
  if (leave) {
    leave();
    leave = null;
  }
  clear(main);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  let page;
  if (path === "/") page = homePage;
  else if ((m = /^\/game\/([A-Za-z0-9]+)$/.exec(path))) page = (root) => gamePage(root, m[1]);
  else if (path === "/games") page = recentPage;
  else if ((m = /^\/rules\/([a-z0-9_-]+)$/.exec(path)) && GAMES.some((g) => g.name === m[1])) page = (root) => rulesPage(root, m[1]);
  else if (path === "/rules" && GAMES.length) page = (root) => rulesPage(root, GAMES[0].name);
  else page = notFound;
  for (const a of document.querySelectorAll("header nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === path);
  }
  try {
    leave = page(main) || null;
  } catch (err) {
    main.append(h("p", { class: "error", role: "alert" }, String(err.message || err)));
  }
  window.scrollTo(0, 0);
}

function notFound(root) {
  document.title = "Not found – stax";
  root.append(h("h1", {}, "Not found"), h("p", {}, "There is no page here. ", h("a", { href: "/", "data-link": "" }, "Start a game"), "."));
}

// Links marked data-link navigate inside the app.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-link]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  if (url.href !== location.href) {
    history.pushState(null, "", url.pathname + url.search + url.hash);
    route();
  }
});
window.addEventListener("popstate", route);
window.addEventListener("stax:navigate", route);

// The header links to the rules of every game of the list.
const nav = document.querySelector("header nav");
for (const g of GAMES.filter((g) => g.rules)) nav.append(h("a", { href: "/rules/" + g.name, "data-link": "" }, g.title + " rules"));

installPatterns();
route();
