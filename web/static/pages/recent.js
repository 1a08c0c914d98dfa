// recent.js is the page of recent games, finished or in play, with a
// filter.

import { h } from "../dom.js";
import { recentList } from "../recent-list.js";
import { t } from "../i18n.js";

// recentPage shows the recent games with a filter.
export function recentPage(root) {
  document.title = t("recent.title");
  const box = h("section");
  const filter = h(
    "select",
    { id: "recent-filter", "data-testid": "recent-filter", onchange: () => recentList(box, 50, filter.value, false) },
    h("option", { value: "" }, t("recent.all")),
    h("option", { value: "playing" }, t("recent.playing")),
    h("option", { value: "finished" }, t("recent.finished")),
  );
  root.append(h("h1", {}, t("recent.heading")), h("p", { class: "filter" }, h("label", { for: "recent-filter" }, t("recent.show") + " "), filter), box);
  recentList(box, 50, "", false);
}
