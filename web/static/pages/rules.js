// rules.js is the rules page of a game: its module's text and diagrams
// (games/*.js), then the table of its options from the server's schema.

import { listGames } from "../api.js";
import { h } from "../dom.js";
import { GAMES, gameModule } from "../games/index.js";
import { code, p } from "../rules-kit.js";
import { gameText, optionWords, t } from "../i18n.js";

// rulesPage draws the rules of the named game into root.
export function rulesPage(root, name) {
  const r = gameModule(name);
  document.title = t("rules.title", { game: r.title });
  const nav = h(
    "p",
    { class: "rules-nav" },
    ...GAMES.filter((g) => g.rules).map((g) => (g.name === name ? h("strong", {}, g.title) : h("a", { href: "/rules/" + g.name, "data-link": "" }, g.title))),
  );
  const variants = h("section", { class: "variants" });
  const w = (key) => gameText(r, key, key);
  const body = r.rules ? [p(w("intro")), ...r.rules.sections(w)] : [p(t("rules.none"))];
  root.append(
    h(
      "article",
      { class: "rules", "data-testid": "rules-" + name },
      nav,
      h("h1", {}, t("rules.heading", { game: r.title })),
      ...body,
      variants,
      p(h("a", { class: "button primary", href: "/?game=" + name, "data-link": "", "data-testid": "play-" + name }, t("rules.play", { game: r.title }))),
    ),
  );
  listGames()
    .then((games) => {
      const g = (games || []).find((x) => x.name === name);
      if (!g || !g.options || !g.options.length) return;
      variants.append(
        h("h2", {}, t("rules.options")),
        h(
          "table",
          { class: "options-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("rules.option")), h("th", {}, t("rules.default")), h("th", {}, t("rules.meaning")))),
          h("tbody", {}, g.options.map((o) => h("tr", {}, h("td", {}, code(o.key), o.label ? h("div", { class: "small" }, optionWords(r, o, "label")) : null), h("td", {}, code(o.default)), h("td", {}, optionWords(r, o, "doc"))))),
        ),
      );
    })
    .catch(() => {});
}
