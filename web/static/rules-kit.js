// rules-kit.js builds the parts of the rules pages that the game modules
// (games/*.js) write: paragraphs, headings and diagrams drawn from the
// server's board views by the same code that draws the boards in play.

import { view } from "./api.js";
import { h } from "./dom.js";
import { render } from "./render.js";
import { t } from "./i18n.js";

// figure draws the diagram of position pos of variant spec with a caption;
// marks are those of render (selected, targets, depth, …).
export function figure(spec, pos, caption, marks = {}) {
  const box = h("div", { class: "diagram-board" });
  view(spec, pos)
    .then((v) => box.append(render({ ...v, last: [] }, { ...marks, pos, label: caption })))
    .catch(() => box.append(h("p", { class: "error" }, t("rules.diagramFailed"))));
  return h("figure", { class: "diagram", "data-testid": "diagram" }, box, h("figcaption", {}, caption), h("code", { class: "pos" }, pos));
}

// marked turns text with `code` in backticks into text and code elements.
const marked = (xs) => xs.flatMap((x) => (typeof x === "string" ? x.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part)) : [x]));

export const section = (title) => h("h2", {}, title);
export const p = (...xs) => h("p", {}, ...marked(xs));
export const li = (...xs) => h("li", {}, ...marked(xs));
export const list = (...items) => h("ul", {}, ...items);
export const code = (s) => h("code", {}, s);
