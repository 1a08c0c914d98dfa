// bench.js is the engine's benchmark page (/bench): the search of the
// engine in the browser for a few seconds on one thread, in positions a
// second, to compare with the native figure of the same positions
// (docs/performance.md). ?ms=N sets the time; the browser test reads the
// figure from data-nps.

import { h } from "../dom.js";
import { errorWords, t } from "../i18n.js";
import { call } from "./engine.js";

// benchPage draws the benchmark into root.
export function benchPage(root) {
  document.title = t("offline.bench") + " – stax";
  const ms = Number(new URLSearchParams(location.search).get("ms")) || 3000;
  const result = h("p", { class: "status", "aria-live": "polite", "data-testid": "bench-result" });
  const run = h("button", { type: "button", "data-testid": "bench-run" }, t("offline.benchRun"));
  run.addEventListener("click", async () => {
    run.disabled = true;
    result.removeAttribute("data-nps");
    result.textContent = t("offline.benchRunning");
    try {
      const b = await call({ op: "bench", ms });
      result.textContent = t("offline.benchResult", { nps: Math.round(b.nps).toLocaleString(), ms: b.elapsedMs });
      result.setAttribute("data-nps", String(Math.round(b.nps)));
    } catch (err) {
      result.textContent = errorWords(err);
    }
    run.disabled = false;
  });
  root.append(h("h1", {}, t("offline.bench")), h("p", { class: "muted" }, t("offline.benchLead")), run, result);
}
