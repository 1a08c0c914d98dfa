// app.js is the entry point: it routes on the URL path (the server serves
// index.html for every page route) and shows one page at a time.
//
// Routes: /                 the home page (start a game)
//         /game/<id>        a game: play, watch, join (#invite=...) or replay
//         /games            recent games
//         /rules/<game>     the rules of a game of games/index.js
//         /new              the home page for a signed-in player, whose /
//                           is the lobby
//         /signup, /login, /account   accounts
//         /reset#<token>    a password reset link (stax admin)
//         /@/<name>         a player's profile
//         /leaderboard/<pool>, /me/games
//         /analysis         the analysis board and a finished game's review
//                           (?game=ID, or ?spec=S&position=P&moves=...)
//         /offline          games against the computer in the browser (offline/)
//         /bench            the browser engine's speed
//         /puzzles, /puzzles/daily, /puzzles/streak, /puzzles/history,
//         /puzzles/<id>     the puzzles
//         /learn, /learn/<id>   the lessons

import { installPatterns } from "./render.js";
import { clear, h } from "./dom.js";
import { svg } from "./svg.js";
import { GAMES } from "./games/index.js";
import { logout, me, onAccount } from "./account.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { applyTheme, theme, toggleTheme } from "./theme.js";
import { setSound, soundOn } from "./sound.js";
import { installOffline } from "./offline/install.js";
import { Notifier } from "./notify.js";

// lazyPage returns the page function that pick takes from the module load
// imports: the
// pages are loaded when first shown, so that a page waits for its own
// modules only (the server preloads those of the page the address names,
// server/pages.go). It returns the page's clean-up at once.
function lazyPage(load, pick) {
  let loaded = null; // the module, once loaded: the page is then shown at once
  return (root, ...args) => {
    if (loaded) return pick(loaded)(root, ...args);
    let alive = true;
    let cleanup = null;
    load().then(
      (m) => {
        loaded = m;
        if (alive) cleanup = pick(m)(root, ...args) || null;
      },
      (err) => {
        console.error(err);
        if (alive) root.append(h("p", { class: "error", role: "alert" }, t("error.page")));
      },
    );
    return () => {
      alive = false;
      if (cleanup) cleanup();
    };
  };
}
const homePage = lazyPage(() => import("./pages/home.js"), (m) => m.homePage);
const gamePage = lazyPage(() => import("./pages/game/page.js"), (m) => m.gamePage);
const recentPage = lazyPage(() => import("./pages/recent.js"), (m) => m.recentPage);
const rulesPage = lazyPage(() => import("./pages/rules.js"), (m) => m.rulesPage);
const analysisPage = lazyPage(() => import("./pages/analysis.js"), (m) => m.analysisPage);
const puzzlesPage = lazyPage(() => import("./pages/puzzles.js"), (m) => m.puzzlesPage);
const puzzleHistoryPage = lazyPage(() => import("./pages/puzzles.js"), (m) => m.puzzleHistoryPage);
const lobbyPage = lazyPage(() => import("./pages/lobby.js"), (m) => m.lobbyPage);
const leaderboardPage = lazyPage(() => import("./pages/profile.js"), (m) => m.leaderboardPage);
const botsPage = lazyPage(() => import("./pages/bots.js"), (m) => m.botsPage);
const myGamesPage = lazyPage(() => import("./pages/profile.js"), (m) => m.myGamesPage);
const profilePage = lazyPage(() => import("./pages/profile.js"), (m) => m.profilePage);
const accountPage = lazyPage(() => import("./pages/signin.js"), (m) => m.accountPage);
const signinPage = lazyPage(() => import("./pages/signin.js"), (m) => m.signinPage);
const resetPage = lazyPage(() => import("./pages/reset.js"), (m) => m.resetPage);
const offlinePage = lazyPage(() => import("./offline/play.js"), (m) => m.offlinePage);
const benchPage = lazyPage(() => import("./offline/bench.js"), (m) => m.benchPage);
const learnPage = lazyPage(() => import("./pages/learn.js"), (m) => m.learnPage);
const lessonPage = lazyPage(() => import("./pages/learn.js"), (m) => m.lessonPage);

const main = document.getElementById("main");
let leave = null; // the current page's clean-up function

function route() {
  if (leave) {
    leave();
    leave = null;
  }
  clear(main);
  document.querySelector("header.top").classList.remove("open");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  let page;
  if (path === "/") page = homeOrLobby;
  else if (path === "/new") page = homePage;
  else if (path === "/signup") page = (root) => signinPage(root, true);
  else if (path === "/login") page = (root) => signinPage(root, false);
  else if (path === "/account") page = accountPage;
  else if (path === "/reset") page = resetPage;
  else if (path === "/me/games") page = myGamesPage;
  else if (path === "/leaderboard") page = (root) => leaderboardPage(root, "");
  else if ((m = /^\/leaderboard\/([a-z0-9]+)$/.exec(path))) page = (root) => leaderboardPage(root, m[1]);
  else if (path === "/bots") page = botsPage;
  else if ((m = /^\/@\/([A-Za-z0-9_-]+)$/.exec(path))) page = (root) => profilePage(root, m[1]);
  else if ((m = /^\/game\/([A-Za-z0-9]+)$/.exec(path))) page = (root) => gamePage(root, m[1]);
  else if (path === "/games") page = recentPage;
  else if (path === "/analysis") page = analysisPage;
  else if (path === "/offline") page = offlinePage;
  else if (path === "/bench") page = benchPage;
  else if (path === "/puzzles") page = (root) => puzzlesPage(root, "next");
  else if (path === "/puzzles/daily") page = (root) => puzzlesPage(root, "daily");
  else if (path === "/puzzles/streak") page = (root) => puzzlesPage(root, "streak");
  else if (path === "/puzzles/history") page = puzzleHistoryPage;
  else if ((m = /^\/puzzles\/(p[0-9a-f]{12})$/.exec(path))) page = (root) => puzzlesPage(root, "one", m[1]);
  else if (path === "/learn") page = learnPage;
  else if ((m = /^\/learn\/([a-z0-9-]+)$/.exec(path))) page = (root) => lessonPage(root, m[1]);
  else if ((m = /^\/rules\/([a-z0-9_-]+)$/.exec(path)) && GAMES.some((g) => g.name === m[1])) page = (root) => rulesPage(root, m[1]);
  else if (path === "/rules" && GAMES.length) page = (root) => rulesPage(root, GAMES[0].name);
  else page = notFound;
  for (const a of document.querySelectorAll("header nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === path);
  }
  try {
    leave = page(main) || null;
  } catch (err) {
    console.error(err);
    main.append(h("p", { class: "error", role: "alert" }, t("error.page")));
  }
  window.scrollTo(0, 0);
}

// homeOrLobby is the lobby for a signed-in player, the home page for a
// guest.
function homeOrLobby(root) {
  let alive = true;
  let cleanup = null;
  me().then((who) => {
    if (alive) cleanup = (who ? lobbyPage(root, who) : homePage(root)) || null;
  });
  return () => {
    alive = false;
    if (cleanup) cleanup();
  };
}

// The header shows who is signed in.
let account = null; // the signed-in player, or null

function drawAccount(who) {
  account = who || null;
  const box = document.getElementById("account");
  clear(box);
  // A signed-in player's / is the lobby: "New game" is /new.
  const newGame = document.querySelector('header nav a[href="/"], header nav a[href="/new"]');
  if (newGame) newGame.setAttribute("href", who ? "/new" : "/");
  if (who) box.append(h("a", { href: "/", "data-link": "", "data-testid": "nav-lobby" }, t("nav.lobby")), " ");
  if (!who) {
    box.append(h("a", { href: "/login", "data-link": "", "data-testid": "nav-login" }, t("nav.signin")), " ", h("a", { href: "/signup", "data-link": "", "data-testid": "nav-signup" }, t("nav.signup")));
    return;
  }
  box.append(
    h("a", { href: "/@/" + encodeURIComponent(who.name), "data-link": "", "data-testid": "nav-me" }, who.name), " ",
    h("a", { href: "/me/games", "data-link": "" }, t("nav.mygames")), " ",
    h("a", { href: "/account", "data-link": "" }, t("nav.account")), " ",
    h("button", { type: "button", class: "link", "data-testid": "nav-logout", onclick: async () => {
      await logout();
      history.pushState(null, "", "/");
      route();
    } }, t("nav.signout")),
  );
}
onAccount(drawAccount);
me().then(drawAccount);

function notFound(root) {
  document.title = t("notfound.title") + " – stax";
  root.append(h("h1", {}, t("notfound.title")), h("p", {}, t("notfound.text") + " ", h("a", { href: "/", "data-link": "" }, t("notfound.start")), "."));
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

// The header: its links in the interface's language, the rules of every
// game of the list, the switch to dark or light and the language switch,
// which redraws the page.
const nav = document.querySelector("header nav");
function drawNav() {
  document.documentElement.lang = language();
  clear(nav).append(
    h("a", { href: account ? "/new" : "/", "data-link": "" }, t("nav.new")),
    h("a", { href: "/games", "data-link": "", "data-testid": "nav-recent" }, t("nav.recent")),
    h("a", { href: "/analysis", "data-link": "", "data-testid": "nav-analysis" }, t("nav.analysis")),
    h("a", { href: "/offline", "data-link": "", "data-testid": "nav-offline" }, t("nav.offline")),
    h("a", { href: "/puzzles", "data-link": "", "data-testid": "nav-puzzles" }, t("nav.puzzles")),
    h("a", { href: "/learn", "data-link": "", "data-testid": "nav-learn" }, t("nav.learn")),
    h("a", { href: "/leaderboard", "data-link": "", "data-testid": "nav-leaderboard" }, t("nav.leaderboard")),
    h("a", { href: "/bots", "data-link": "", "data-testid": "nav-bots" }, t("nav.bots")),
    ...GAMES.filter((g) => g.rules).map((g) => h("a", { href: "/rules/" + g.name, "data-link": "" }, t("nav.rules", { game: g.title }))),
    h(
      "button",
      {
        type: "button",
        class: "theme",
        "data-testid": "theme-switch",
        "aria-label": t(theme() === "dark" ? "nav.light" : "nav.dark"),
        title: t(theme() === "dark" ? "nav.light" : "nav.dark"),
        onclick: () => {
          toggleTheme();
          drawNav();
        },
      },
      theme() === "dark" ? "☀" : "☾",
    ),
    h(
      "button",
      {
        type: "button",
        class: "theme sound",
        "data-testid": "sound-switch",
        "aria-pressed": soundOn() ? "true" : "false",
        "aria-label": t("settings.sound"),
        title: t(soundOn() ? "settings.soundOn" : "settings.soundOff"),
        onclick: () => {
          setSound(!soundOn());
          drawNav();
        },
      },
      speakerIcon(soundOn()),
    ),
    h(
      "select",
      {
        class: "lang",
        "aria-label": t("nav.language"),
        "data-testid": "lang-switch",
        onchange: async (ev) => {
          await setLanguage(ev.target.value);
          drawNav();
          drawMenu();
          notifier.drawBell();
          drawAccount(account);
          route();
        },
      },
      LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, l.name)),
    ),
  );
}
// speakerIcon draws the sound switch's icon, a speaker with waves when the
// sounds are on and crossed out when they are off, in SVG so that it does
// not depend on the fonts of the visitor's machine.
function speakerIcon(on) {
  const line = { fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" };
  return svg(
    "svg",
    { viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true" },
    svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
    on ? [svg("path", { d: "M15.5 8.5a5 5 0 0 1 0 7", ...line }), svg("path", { d: "M18.5 5.5a9 9 0 0 1 0 13", ...line })] : svg("path", { d: "M16 9l6 6M22 9l-6 6", ...line }),
  );
}

// During a game a phone's header is one line (style.css): its links are
// behind this button.
const header = document.querySelector("header.top");
const menu = h("button", { type: "button", class: "theme menu-toggle", "aria-expanded": "false", "aria-controls": "account", "data-testid": "menu-toggle", onclick: () => {
  menu.setAttribute("aria-expanded", String(header.classList.toggle("open")));
} }, "☰");
header.append(menu);
const drawMenu = () => {
  menu.setAttribute("aria-label", t("nav.menu"));
  menu.title = t("nav.menu");
};
window.addEventListener("stax:navigate", () => header.classList.remove("open"));
// A signed-in player's news, on every page.
const notifier = new Notifier(header);
onAccount((who) => notifier.account(who));
me().then((who) => notifier.account(who));

applyTheme();
drawNav();
drawMenu();

installPatterns();
route();
installOffline();
