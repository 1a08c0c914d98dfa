// rules.js is the rules page of a game: its module's text and diagrams
// (games/*.js), then the table of its options from the server's schema.

import { listGames } from "../api.js";
import { h } from "../dom.js";
import { GAMES, gameModule } from "../games/index.js";
import { code, p } from "./rules-kit.js";

// rulesPage draws the rules of the named game into root.
export function rulesPage(root, name) {
  const r = gameModule(name);
  document.title = `${r.title} rules – stax`;
  const nav = h(
    "p",
    { class: "rules-nav" },
    ...GAMES.filter((g) => g.rules).map((g) => (g.name === name ? h("strong", {}, g.title) : h("a", { href: "/rules/" + g.name, "data-link": "" }, g.title))),
  );
  const variants = h("section", { class: "variants" });
  const body = r.rules ? [p(r.rules.intro), ...r.rules.sections()] : [p("There is no rules page for this game yet.")];
  root.append(
    h(
      "article",
      { class: "rules", "data-testid": "rules-" + name },
      nav,
      h("h1", {}, `${r.title}: the rules`),
      ...body,
      variants,
      p(h("a", { class: "button primary", href: "/?game=" + name, "data-link": "", "data-testid": "play-" + name }, `Play ${r.title}`)),
    ),
  );
  listGames()
    .then((games) => {
      const g = (games || []).find((x) => x.name === name);
      if (!g || !g.options || !g.options.length) return;
      variants.append(
        h("h2", {}, "Options"),
        h(
          "table",
          { class: "options-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "option"), h("th", {}, "default"), h("th", {}, "meaning"))),
          h("tbody", {}, g.options.map((o) => h("tr", {}, h("td", {}, code(o.key), o.label ? h("div", { class: "small" }, o.label) : null), h("td", {}, code(o.default)), h("td", {}, o.doc || "")))),
        ),
      );
    })
    .catch(() => {});
}
