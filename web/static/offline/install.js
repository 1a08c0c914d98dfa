// install.js makes the site installable and usable offline: it registers
// the service worker (/sw.js, served by the server with the list of files
// to cache and a version, see server/offline), and when a new version is
// installed it offers to reload into it, so that a page never runs half
// old and half new files.

import { h } from "../dom.js";
import { t } from "../i18n.js";

// installOffline registers the service worker, if the browser has them.
export function installOffline() {
  if (!("serviceWorker" in navigator)) return;
  // The page reloads when the worker it asked to take over does so, not
  // when the first worker takes control of a page it did not load.
  let asked = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!asked) return;
    asked = false;
    location.reload();
  });
  // Registered once the page has loaded: the worker's installation fetches
  // every file and the engine (1.5 MB), which would otherwise share a
  // phone's network with the page's own first requests.
  if (document.readyState !== "complete") {
    window.addEventListener("load", () => register(), { once: true });
  } else {
    register();
  }
  function register() {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then((reg) => {
      const offer = (w) => {
        if (!w || !navigator.serviceWorker.controller) return;
        if (document.querySelector("[data-testid=update-ready]")) return;
        const bar = h(
          "div",
          { class: "update-ready", role: "status", "data-testid": "update-ready" },
          t("offline.update"), " ",
          h("button", { type: "button", "data-testid": "update-reload", onclick: () => {
            asked = true;
            w.postMessage({ type: "skip-waiting" });
          } }, t("offline.reload")),
        );
        document.body.prepend(bar);
      };
      if (reg.waiting) offer(reg.waiting);
      reg.addEventListener("updatefound", () => {
        const w = reg.installing;
        if (!w) return;
        w.addEventListener("statechange", () => w.state === "installed" && offer(w));
      });
    }, () => {
      // Without a service worker the site works online only.
    });
  }
}
