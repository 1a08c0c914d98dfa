// home.js is the home page: choose a game, its options and who plays each
// seat, then start.

import { createGame, listGames, saveInvites, saveToken, variant } from "../api.js";
import { clear, h, navigate } from "../dom.js";
import { gameModule } from "../games/index.js";
import { render } from "../render.js";
import { recentList } from "../recent-list.js";
import { savedName, saveName, seatLabel } from "../players.js";
import { errorWords, gameText, levelWords, optionWords, playerWords, t } from "../i18n.js";

// Options shown under "More options" rather than at once.
const ADVANCED = new Set(["rep", "maxplies"]);

// optionLabel returns the label of an option, in the interface's language
// where the words exist, with the spec's key in brackets, e.g. "U move (u)".
const optionLabel = (info, o) => {
  const label = optionWords(gameModule(info.name), o, "label");
  return label ? [label, " (", h("code", {}, o.key), ")"] : h("code", {}, o.key);
};

// optionDoc returns the description of an option.
const optionDoc = (info, o) => optionWords(gameModule(info.name), o, "doc");

// buildSpec writes a spec with the options that differ from the defaults.
export function buildSpec(info, values) {
  const parts = [];
  for (const o of info.options || []) {
    const v = values[o.key]; // keys of the schema only, never __position
    if (v !== undefined && v !== "" && v !== o.default) parts.push(`${o.key}=${v}`);
  }
  return parts.length ? `${info.name}(${parts.join(",")})` : info.name;
}

// homePage draws the home page into root.
export function homePage(root) {
  document.title = t("home.title");
  let alive = true;
  const form = h("form", { class: "new-game", "data-testid": "new-game", novalidate: true });
  const errorBox = h("p", { class: "error", role: "alert", "data-testid": "home-error", hidden: true });
  const recentBox = h("section", { class: "recent-home" });
  const lead = h("p", { class: "lead" }, t("home.lead"));
  root.append(
    h("h1", {}, t("home.heading")),
    lead,
    h("p", { class: "learn-link" }, t("home.newHere"), " ", h("a", { href: "/learn", "data-link": "", "data-testid": "home-learn" }, t("home.learn"))),
    form,
    errorBox,
    recentBox,
  );

  // The form shows once it is whole (its game, options and players come
  // in two answers), and the recent games under it with it, so that
  // nothing moves as the parts arrive.
  form.hidden = true;
  recentBox.hidden = true;
  const reveal = () => {
    form.hidden = false;
    recentBox.hidden = false;
  };

  const showError = (msg) => {
    errorBox.textContent = msg;
    errorBox.hidden = !msg;
    if (msg) reveal();
  };

  let games = [];
  let info = null; // the chosen game
  let values = {}; // its option values
  let current = null; // the variant of the chosen options
  let seatChoices = []; // per seat: "you", "ai:<level>" or "invite"

  const gameBox = h("fieldset", { class: "games" }, h("legend", {}, t("home.game")));
  const optBox = h("fieldset", { class: "options" }, h("legend", {}, t("home.options")));
  const seatBox = h("fieldset", { class: "seats", "data-testid": "seats" }, h("legend", {}, t("home.players")));
  const nameInput = h("input", { type: "text", id: "player-name", maxlength: 40, autocomplete: "nickname", placeholder: t("home.optional"), value: savedName(), "data-testid": "player-name" });
  const startBtn = h("button", { type: "submit", class: "primary", "data-testid": "start" }, t("home.start"));
  form.append(
    gameBox,
    optBox,
    seatBox,
    h("p", { class: "name-row" }, h("label", { for: "player-name" }, t("home.name") + " "), nameInput),
    h("p", {}, startBtn),
  );

  const drawGames = () => {
    for (const e of [...gameBox.querySelectorAll(".game-card")]) e.remove();
    for (const g of games) {
      const checked = info && info.name === g.name;
      const card = h(
        "label",
        { class: "game-card" + (checked ? " checked" : "") },
        h("input", {
          type: "radio",
          name: "game",
          value: g.name,
          checked,
          "data-testid": "game-" + g.name,
          onchange: () => chooseGame(g),
        }),
        h("span", { class: "game-title" }, g.title),
        h("span", { class: "game-preview" }, preview(g)),
        h("span", { class: "game-summary" }, gameText(gameModule(g.name), "summary.text", g.summary || "")),
        gameModule(g.name).rules ? h("a", { href: "/rules/" + g.name, "data-link": "", class: "rules-link" }, t("home.rules")) : null,
      );
      gameBox.append(card);
    }
  };

  const preview = (g) => {
    try {
      return render(g.default.view, { pos: g.default.start, label: t("home.preview", { game: g.title }) });
    } catch {
      return "";
    }
  };

  const chooseGame = (g) => {
    info = g;
    values = {};
    for (const o of g.options || []) values[o.key] = o.default;
    seatChoices = [];
    drawGames();
    drawOptions();
    refreshVariant();
  };

  const optionInput = (o) => {
    const id = "opt-" + o.key;
    const onchange = (ev) => {
      const e = ev.target;
      values[o.key] = e.type === "checkbox" ? String(e.checked) : e.value;
      linkOptions();
      refreshVariant();
    };
    let input;
    if (o.kind === "bool") {
      input = h("input", { type: "checkbox", id, checked: values[o.key] === "true", "data-testid": id, onchange });
      return h("div", { class: "option bool" }, input, h("label", { for: id }, " ", optionLabel(info, o)), h("small", {}, optionDoc(info, o)));
    }
    if (o.choices && o.choices.length) {
      input = h("select", { id, "data-testid": id, onchange }, o.choices.map((c) => h("option", { value: c, selected: c === values[o.key] }, gameText(gameModule(info.name), "option." + o.key + ".value." + c, c))));
    } else {
      input = h("input", { type: "number", id, min: o.min, max: o.max, value: values[o.key], "data-testid": id, onchange });
    }
    // A number says its default, e.g. the advanced options' limits.
    const doc = [optionDoc(info, o), o.default !== undefined && o.default !== "" && !(o.choices && o.choices.length) ? t("home.optionDefault", { value: o.default }) : ""].filter(Boolean).join(" ");
    return h("div", { class: "option" }, h("label", { for: id }, optionLabel(info, o), " "), input, h("small", {}, doc));
  };

  // linkOptions lets the game's module disable options that the others
  // make meaningless.
  const linkOptions = () => {
    const mod = gameModule(info.name);
    if (mod.linkOptions) mod.linkOptions(values, (key) => optBox.querySelector("#opt-" + key));
  };

  const drawOptions = () => {
    clear(optBox).append(h("legend", {}, t("home.options")));
    const opts = info.options || [];
    const basic = opts.filter((o) => !ADVANCED.has(o.key));
    const adv = opts.filter((o) => ADVANCED.has(o.key));
    if (!basic.length) optBox.append(h("p", { class: "muted" }, t("home.noOptions")));
    basic.forEach((o) => optBox.append(optionInput(o)));
    const posInput = h("input", {
      type: "text",
      id: "start-position",
      class: "position-input",
      spellcheck: "false",
      autocomplete: "off",
      placeholder: info.default ? info.default.start : "",
      value: values.__position || "",
      "data-testid": "start-position",
      oninput: (ev) => (values.__position = ev.target.value.trim()),
    });
    const posRow = h(
      "div",
      { class: "option" },
      h("label", { for: "start-position" }, t("home.startPosition") + " "),
      posInput,
      h("small", {}, t("home.startPositionDoc")),
    );
    optBox.append(h("details", { "data-testid": "more-options" }, h("summary", {}, t("home.moreOptions")), adv.map(optionInput), posRow));
    linkOptions();
  };

  let reqNo = 0;
  const refreshVariant = async () => {
    const spec = buildSpec(info, values);
    const n = ++reqNo;
    try {
      const v = await variant(spec);
      if (!alive || n !== reqNo) return;
      current = { ...v, spec: v.spec || spec };
      showError("");
      startBtn.disabled = false;
      drawSeats();
      reveal();
    } catch (err) {
      if (!alive || n !== reqNo) return;
      current = null;
      startBtn.disabled = true;
      showError(errorWords(err, { 400: "home.variantRefused" }));
    }
  };

  const drawSeats = () => {
    clear(seatBox).append(h("legend", {}, t("home.players")));
    seatBox.setAttribute("data-spec", current.spec);
    const levels = current.levels && current.levels.length ? current.levels : info.levels || [];
    // Levels being prepared (perfect while the server solves a game) are
    // shown but cannot be chosen until the page is reloaded.
    const preparing = current.preparing || [];
    const ready = levels.filter((l) => !preparing.includes(l));
    const defaultAI = "ai:" + (ready.includes("easy") ? "easy" : ready[0] || "random");
    if (seatChoices.length !== current.players) {
      seatChoices = [];
      for (let i = 0; i < current.players; i++) seatChoices.push(i === 0 ? "you" : defaultAI);
    }
    current.playerNames.map((n) => playerWords(gameModule(info.name), n)).forEach((pname, i) => {
      const id = "seat-" + i;
      const opts = [h("option", { value: "you" }, t("home.you"))];
      // The measured rating of a level (Elo, random = 0), when there is one.
      const elo = (l) => (current.elo && l in current.elo ? " (" + current.elo[l] + " Elo)" : "");
      for (const l of levels) {
        if (preparing.includes(l)) {
          opts.push(h("option", { value: "ai:" + l, disabled: true }, t("home.computerPreparing", { level: levelWords(l) + elo(l) })));
        } else {
          opts.push(h("option", { value: "ai:" + l }, t("home.computer", { level: levelWords(l) + elo(l) })));
        }
      }
      opts.push(h("option", { value: "ai:random" }, t("home.random") + elo("random")));
      opts.push(h("option", { value: "invite" }, t("home.invite")));
      const sel = h("select", { id, "data-testid": id, onchange: (ev) => (seatChoices[i] = ev.target.value) }, opts);
      sel.value = seatChoices[i];
      seatBox.append(h("div", { class: "seat-row" }, h("label", { for: id }, seatLabel(current.view && current.view.board, i, pname)), sel));
    });
    if (current.players === 2) {
      seatBox.append(
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-testid": "swap-seats",
            onclick: () => {
              seatChoices.reverse();
              drawSeats();
            },
          },
          t("home.swap"),
        ),
      );
    }
    const firstSeat = current.view ? current.view.board.toMove : 0;
    seatBox.append(h("p", { class: "muted small", "data-testid": "first-player" }, t("home.first", { player: playerWords(gameModule(info.name), current.playerNames[firstSeat] || current.playerNames[0]) })));
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!current) return;
    const seats = seatChoices.map((c) => {
      if (c === "you") return { kind: "human" };
      if (c === "invite") return { kind: "human", invite: true };
      return { kind: "ai", level: c.slice(3) };
    });
    startBtn.disabled = true;
    showError("");
    try {
      saveName(nameInput.value.trim());
      const res = await createGame({ spec: current.spec, position: values.__position || undefined, name: nameInput.value.trim() || undefined, seats });
      saveToken(res.id, res.token);
      saveInvites(res.id, (res.invites || []).map((x) => ({ seat: x.seat, link: x.link })));
      navigate("/game/" + res.id);
    } catch (err) {
      // The server cannot be reached: a game of one player against the
      // computer goes on in the browser (offline/play.js).
      const ai = seatChoices.filter((c) => c.startsWith("ai:"));
      if (err.code === "network" && ai.length === seatChoices.length - 1 && seatChoices.includes("you") && !values.__position) {
        navigate("/offline?" + new URLSearchParams({ spec: current.spec, level: ai[0].slice(3), seat: String(seatChoices.indexOf("you")), down: "1" }));
        return;
      }
      showError(t("home.cannotStart", { error: errorWords(err, { 503: "home.levelPreparing" }) }));
      startBtn.disabled = false;
    }
  });

  listGames()
    .then((gs) => {
      if (!alive) return;
      games = gs || [];
      const titles = games.map((g) => g.title);
      if (titles.length > 1) lead.textContent = t("home.leadGames", { games: `${titles.slice(0, -1).join(", ")} ${t("home.and")} ${titles[titles.length - 1]}` });
      // /?game=NAME preselects a game, e.g. from its rules page.
      const wanted = new URLSearchParams(location.search).get("game");
      const g = games.find((x) => x.name === wanted) || games[0];
      if (g) chooseGame(g);
      else reveal();
    })
    .catch((err) => showError(t("home.cannotLoad", { error: errorWords(err) })));
  recentList(recentBox, 5);
  return () => {
    alive = false;
  };
}
