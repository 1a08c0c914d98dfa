// analysis.js is the analysis board: a position from a game, from a
// position string or set up by hand, every legal move with its verdict
// (exact where the server has a game solved, else the engine's evaluation
// streamed live), the best line drawn on the board, and moves tried
// on the board and taken back freely. For a finished game it shows the
// review: an evaluation graph and the marked moves. Everything comes from
// the server (POST /api/analyze, /ws/analyze, GET /api/games/{id}/review);
// the page knows no rule.
//
// URLs: /analysis?spec=S&position=P&moves=M1,M2&ply=N  a position and a line
//       /analysis?game=ID&ply=N                        a finished game

import { AnalysisSocket, analyze, getGame, listGames, review, setupPosition, variant, view } from "../offline/local-api.js";
import { explore } from "../api.js";
import { clear, h } from "../dom.js";
import { GAMES, gameModule } from "../games/index.js";
import { Picker } from "../picker.js";
import { render } from "../render.js";
import { svg as el } from "../svg.js";
import { BoardView } from "../board-view.js";
import { Controls } from "../controls.js";
import { errorWords, formatNumber, playerWords, t } from "../i18n.js";

// verdictText writes a score ("win 7", "loss 4", "draw", "-35") in words.
export function verdictText(score) {
  const [word, n] = String(score).split(" ");
  if (word === "win") return t("analysis.winIn", { n: Number(n) });
  if (word === "loss") return t("analysis.lossIn", { n: Number(n) });
  if (word === "draw") return t("analysis.draw");
  const v = Number(word);
  return (v > 0 ? "+" : "") + v;
}

// verdictClass names the kind of a score for its colour.
const verdictClass = (score) => {
  const w = String(score).split(" ")[0];
  return w === "win" || w === "loss" || w === "draw" ? "v-" + w : "v-estimate";
};

// graphValue maps a verdict for the player who moved to -1..1 for the
// first player.
function graphValue(score, player, players) {
  const [word, n] = String(score).split(" ");
  let v;
  if (word === "win") v = 1 - Math.min(Number(n), 60) / 300;
  else if (word === "loss") v = -1 + Math.min(Number(n), 60) / 300;
  else if (word === "draw") v = 0;
  else v = Math.tanh(Number(word) / 400);
  return players === 2 && player !== 0 ? -v : v;
}

// analysisPage draws the analysis board into root and returns its
// clean-up.
export function analysisPage(root) {
  document.title = t("analysis.title") + " – stax";
  const q = new URLSearchParams(location.search);
  const a = {
    spec: q.get("spec") || (GAMES[0] ? GAMES[0].name : ""),
    start: q.get("position") || "",
    line: (q.get("moves") || "").split(",").filter(Boolean),
    cursor: 0,
    game: q.get("game") || "",
    gameMoves: [], // the moves of the game, when from a game
    result: null, // the analysis of the shown position
    review: null,
    picker: null,
    streaming: false,
    alive: true,
    seq: 0, // the number of the latest analysis asked for
  };
  a.cursor = q.has("ply") ? Number(q.get("ply")) : a.line.length;

  const board = new BoardView((cell, depth) => {
    if (!a.picker || !a.result || a.result.over) return;
    controls.result(a.picker.click(cell, depth));
  });
  const controls = new Controls((m) => tryMove(m), () => draw());
  const title = h("h1", { "data-testid": "analysis-title" }, t("analysis.title"));
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "analysis-status" });
  const verdicts = h("ol", { class: "verdicts", "data-testid": "verdicts" });
  const lineBox = h("p", { class: "best-line small", "data-testid": "best-line" });
  const depthBox = h("span", { class: "small muted", "data-testid": "depth" });
  const streamBtn = h("button", { type: "button", class: "secondary", "data-testid": "stream", onclick: () => toggleStream() }, t("analysis.deeper"));
  const movesBox = h("ol", { class: "move-list", "data-testid": "analysis-moves" });
  const nav = h(
    "div",
    { class: "replay-buttons" },
    h("button", { type: "button", class: "icon", "data-testid": "an-first", "aria-label": t("game.first"), onclick: () => go(0) }, "«"),
    h("button", { type: "button", class: "icon", "data-testid": "an-back", "aria-label": t("analysis.back"), onclick: () => go(a.cursor - 1) }, "‹"),
    h("button", { type: "button", class: "icon", "data-testid": "an-forward", "aria-label": t("game.next"), onclick: () => go(a.cursor + 1) }, "›"),
    h("button", { type: "button", class: "icon", "data-testid": "an-last", "aria-label": t("game.last"), onclick: () => go(a.line.length) }, "»"),
  );
  const reviewBox = h("section", { class: "review", hidden: true, "data-testid": "review" });
  const setup = setupBox((spec, pos) => {
    stopStream();
    Object.assign(a, { spec, start: pos, line: [], cursor: 0, game: "", gameMoves: [], review: null });
    reviewBox.hidden = true;
    load();
  });
  const shareLink = h("a", { href: "#", "data-testid": "share", class: "small" }, t("analysis.share"));
  const explorer = explorerBox((m) => tryMove(m));

  root.append(
    h("div", { class: "game-head" }, title),
    status,
    h(
      "div",
      { class: "play analysis" },
      h("div", { class: "board-col" }, board.box, controls.buttons, controls.hint, nav, controls.info),
      h(
        "div",
        { class: "side-col" },
        h("h2", {}, t("analysis.verdicts"), " ", depthBox),
        lineBox,
        verdicts,
        streamBtn,
        explorer.box,
        controls.form,
        controls.error,
        h("h2", {}, t("game.moves")),
        movesBox,
        shareLink,
        setup.box,
      ),
    ),
    reviewBox,
  );

  const socket = new AnalysisSocket((m) => {
    if (!a.alive) return;
    if (m.type === "analysis" && m.position === (a.result && a.result.position)) {
      a.result = { ...a.result, ...m, view: a.result.view };
      draw();
    } else if (m.type === "error") {
      controls.error.textContent = errorWords(m, { bad_message: "analysis.badPosition" });
    } else if (m.type === "done") {
      a.streaming = false;
      drawStream();
    }
  });

  function stopStream() {
    if (a.streaming) socket.stop();
    a.streaming = false;
  }

  function toggleStream() {
    if (a.streaming) {
      stopStream();
      drawStream();
      return;
    }
    if (!a.result || a.result.final) return;
    a.streaming = true;
    socket.start(request());
    drawStream();
  }

  function drawStream() {
    const r = a.result;
    streamBtn.hidden = !r || (r.final && !a.streaming) || r.exact;
    streamBtn.textContent = a.streaming ? t("analysis.stop") : t("analysis.deeper");
    streamBtn.setAttribute("aria-pressed", String(a.streaming));
  }

  // request is the analysis request of the shown position.
  function request() {
    if (a.game && a.line.length === a.gameMoves.length && a.line.every((m, i) => m === a.gameMoves[i])) return { game: a.game, ply: a.cursor };
    return { spec: a.spec, position: a.start || undefined, moves: a.line.slice(0, a.cursor) };
  }

  // tryMove plays m on the board: the line continues with it, replacing
  // what followed the shown position unless it is the same move.
  function tryMove(m) {
    if (!m) return;
    if (a.line[a.cursor] !== m) a.line = a.line.slice(0, a.cursor).concat([m]);
    a.cursor++;
    controls.played();
    load();
  }

  function go(n) {
    n = Math.max(0, Math.min(a.line.length, n));
    if (n === a.cursor) return;
    a.cursor = n;
    load();
  }

  // load analyses the shown position.
  async function load() {
    const seq = ++a.seq;
    const wasStreaming = a.streaming;
    controls.error.textContent = "";
    status.textContent = t("analysis.thinking");
    shareURL();
    explorer.show(a.spec, a.start, a.line.slice(0, a.cursor));
    try {
      const r = await analyze(request());
      if (!a.alive || seq !== a.seq) return;
      a.result = r;
      a.picker = gameModule(gameName()).picker ? gameModule(gameName()).picker(r.view ? r.view.moves : []) : new Picker(r.view ? r.view.moves : []);
      status.textContent = "";
      draw();
      if (wasStreaming && !r.final) socket.start(request());
      else if (wasStreaming) stopStream();
      drawStream();
    } catch (err) {
      if (!a.alive || seq !== a.seq) return;
      status.textContent = errorWords(err, { 400: "analysis.badPosition", 403: "analysis.notOver" });
    }
  }

  const gameName = () => a.spec.split("(")[0];

  // shareURL writes the shown position into the address.
  function shareURL() {
    const p = new URLSearchParams();
    const req = request();
    if (req.game) {
      p.set("game", req.game);
      p.set("ply", String(a.cursor));
    } else {
      p.set("spec", a.spec);
      if (a.start) p.set("position", a.start);
      if (a.line.length) p.set("moves", a.line.join(","));
      if (a.cursor !== a.line.length) p.set("ply", String(a.cursor));
    }
    const url = "/analysis?" + p.toString();
    history.replaceState(null, "", url);
    shareLink.href = url;
  }

  // draw redraws the board, the verdicts and the moves.
  function draw() {
    const r = a.result;
    if (!r) return;
    const mod = gameModule(gameName());
    title.textContent = t("analysis.titleOf", { title: r.title || a.spec });
    const names = r.playerNames || [];
    const seatName = (i) => playerWords(mod, names[i] || String(i + 1));
    const live = !r.over;
    const marks = live ? a.picker.marks() : {};
    marks.interactive = live;
    marks.label = t("analysis.boardLabel", { title: r.title || a.spec });
    board.draw(r.view, a.cursor, r.position, marks);
    drawLine(r);
    status.textContent = r.over ? r.over : t("analysis.toMove", { player: seatName(r.toMove) });
    const st = { status: live ? "playing" : "finished", players: names.length, toMove: r.toMove, playerNames: names, legal: r.moves.map((m) => m.move) };
    controls.draw({ st, held: live ? [r.toMove] : [], board: r.view ? r.view.board : null, picker: a.picker, interactive: live, pos: r.position, seatName, module: mod });
    depthBox.textContent = r.exact ? t("analysis.exact") : r.depth ? t("analysis.depth", { n: r.depth }) : "";
    if (r.local) depthBox.textContent += " · " + t("offline.local");
    clear(verdicts);
    r.moves.forEach((m, i) => {
      verdicts.append(
        h(
          "li",
          { class: i === 0 ? "best" : "" },
          h("button", { type: "button", class: "move", "data-testid": "verdict-move", onclick: () => tryMove(m.move) }, m.move),
          " ",
          h("span", { class: "verdict " + verdictClass(m.score), "data-testid": "verdict", "data-move": m.move, "data-score": m.score }, verdictText(m.score)),
          m.exact ? "" : h("span", { class: "small muted" }, " " + t("analysis.atDepth", { n: m.depth })),
        ),
      );
    });
    drawMoves();
    if (a.review && !a.reviewNamed && r.playerNames) {
      // The players' names came with the first analysis.
      a.reviewNamed = true;
      drawReview();
    }
  }

  // drawLine writes the best line and draws its first moves on the board
  // as arrows: the best move, and the reply, dashed.
  function drawLine(r) {
    clear(lineBox);
    if (!r.line || !r.line.length) return;
    lineBox.append(t("analysis.bestLine") + " ", h("span", { "data-testid": "line-moves" }, r.line.join(" ")));
    const svg = board.box.querySelector("svg");
    if (!svg || !r.view) return;
    const first = r.view.moves.find((m) => m.text === r.line[0]);
    if (first) arrow(svg, first, "best-arrow");
    if (r.line.length > 1) {
      const pos = r.position;
      view(a.spec, pos, r.line[0]).then((v) => {
        if (a.result !== r || !a.alive) return;
        const reply = (v.moves || []).find((m) => m.text === r.line[1]);
        const s = board.box.querySelector("svg");
        if (reply && s) arrow(s, reply, "reply-arrow");
      }, () => {});
    }
  }

  function drawMoves() {
    clear(movesBox);
    a.line.forEach((m, i) => {
      const rv = a.review && a.line.length === a.gameMoves.length && a.review.moves[i];
      movesBox.append(
        h(
          "li",
          { class: i + 1 === a.cursor ? "current" : "" },
          h("button", { type: "button", class: "move", "data-testid": "line-move", onclick: () => go(i + 1) }, m + (rv && rv.symbol ? rv.symbol : "")),
        ),
      );
    });
  }

  // The review of a finished game.
  async function loadReview() {
    reviewBox.hidden = false;
    clear(reviewBox).append(h("h2", {}, t("analysis.review")), h("p", { class: "small muted", "data-testid": "review-status" }, t("analysis.reviewing")));
    try {
      const rv = await review(a.game);
      if (!a.alive) return;
      a.review = rv;
      drawReview();
      drawMoves();
    } catch (err) {
      if (a.alive) reviewBox.querySelector("[data-testid=review-status]").textContent = errorWords(err, { 403: "analysis.notOver" });
    }
  }

  function drawReview() {
    const rv = a.review;
    const names = (a.result && a.result.playerNames) || [];
    const mod = gameModule(gameName());
    const players = names.length || 2;
    clear(reviewBox).append(h("h2", {}, t("analysis.review")));
    reviewBox.append(
      h("p", { class: "small muted" }, rv.exact ? t("analysis.reviewExact") : t("analysis.reviewEstimate", rv.thresholds)),
      graph(rv, players, (ply) => go(ply + 1)),
    );
    const sum = h("ul", { class: "review-counts", "data-testid": "review-counts" });
    (rv.counts || []).forEach((c, p) => sum.append(h("li", {}, t("analysis.counts", { player: playerWords(mod, names[p] || String(p + 1)), i: c[0], m: c[1], b: c[2] }))));
    reviewBox.append(sum);
    const list = h("ol", { class: "review-moves", "data-testid": "review-moves" });
    for (const m of rv.moves) {
      const better = m.better.length ? "; " + t("analysis.better", { moves: m.better.map((b) => `${b.move} (${verdictText(b.score)})`).join(", ") }) : "";
      list.append(
        h(
          "li",
          { class: m.mark ? "mark-" + m.mark : "", "data-testid": "review-move", "data-mark": m.mark, "data-move": m.move, "data-ply": m.ply },
          h("button", { type: "button", class: "move", onclick: () => go(m.ply + 1) }, m.move + (m.symbol || "")),
          " ",
          h("span", { class: "verdict " + verdictClass(m.played.score) }, verdictText(m.played.score)),
          m.mark ? h("span", { class: "mark" }, " — " + t("analysis.mark." + m.mark) + ": " + t("analysis.bestWas", { v: verdictText(m.best.score) }) + better) : "",
        ),
      );
    }
    reviewBox.append(list);
  }

  // Start: a game's moves, or the position of the address.
  (async () => {
    if (a.game) {
      try {
        const st = await getGame(a.game);
        if (!a.alive) return;
        a.spec = st.spec;
        a.start = st.start;
        a.gameMoves = st.moves || [];
        a.line = a.gameMoves.slice();
        if (!q.has("ply")) a.cursor = a.line.length;
        a.cursor = Math.max(0, Math.min(a.line.length, a.cursor));
        if (st.status !== "playing") loadReview();
      } catch (err) {
        status.textContent = errorWords(err, { 404: "game.missing" });
        return;
      }
    }
    setup.show(a.spec, a.start);
    load();
  })();

  const onKey = (ev) => {
    // The board's own keys (its cursor) come first.
    if (ev.defaultPrevented) return;
    const tg = ev.target;
    if (tg && (tg.tagName === "INPUT" || tg.tagName === "TEXTAREA" || tg.tagName === "SELECT")) return;
    if (ev.key === "ArrowLeft") go(a.cursor - 1);
    else if (ev.key === "ArrowRight") go(a.cursor + 1);
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return () => {
    a.alive = false;
    document.removeEventListener("keydown", onKey);
    socket.close();
  };
}

// centre returns the centre of a cell of a drawn board, in SVG units.
function centre(svg, name) {
  const g = svg.querySelector(`[data-sq="${CSS.escape(name)}"]`);
  if (!g) return null;
  const b = g.getBBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

// arrow draws a move of a board view on the drawn board: an arrow from
// the cell it leaves to each cell it reaches, or a ring on the cells of a
// placing.
function arrow(svg, mv, cls) {
  const group = el("g", { class: "arrows " + cls, "data-testid": cls, "data-move": mv.text, "pointer-events": "none" });
  if (!svg.querySelector("#arrowhead")) {
    svg.append(el("defs", {}, el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }))));
  }
  const from = mv.from ? centre(svg, mv.from) : null;
  for (const to of mv.to || []) {
    const b = centre(svg, to);
    if (!b) continue;
    if (from) group.append(el("line", { x1: from[0], y1: from[1], x2: b[0], y2: b[1], "marker-end": "url(#arrowhead)" }));
    else group.append(el("circle", { cx: b[0], cy: b[1], r: 30 }));
  }
  svg.append(group);
}

// graph draws the review's evaluation after every move, for the first
// player (up is good for them), with the marked moves as dots; a click on
// a move's point shows the position after it.
function graph(rv, players, onPick) {
  const n = rv.moves.length;
  const W = 600;
  const H = 140;
  const x = (i) => (n <= 1 ? W / 2 : 10 + (i * (W - 20)) / (n - 1));
  const y = (v) => H / 2 - v * (H / 2 - 10);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "img", "aria-label": t("analysis.graph"), "data-testid": "eval-graph" });
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H / 2, class: "graph-good" }), el("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "graph-bad" }));
  svg.append(el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-axis" }));
  const pts = rv.moves.map((m, i) => [x(i), y(graphValue(m.played.score, m.player, players))]);
  if (pts.length) svg.append(el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "graph-line" }));
  rv.moves.forEach((m, i) => {
    const c = el("circle", { cx: pts[i][0], cy: pts[i][1], r: m.mark ? 7 : 4, class: "graph-point" + (m.mark ? " mark-" + m.mark : ""), "data-testid": "graph-point", "data-ply": m.ply, "data-mark": m.mark });
    c.append(el("title", {}, `${m.ply + 1}. ${m.move} ${verdictText(m.played.score)}${m.mark ? " " + t("analysis.mark." + m.mark) : ""}`));
    c.addEventListener("click", () => onPick(m.ply));
    svg.append(c);
  });
  return svg;
}

// setupBox is the position setup: a game, a position string checked live
// by the server's own parser (a position it refuses is said so in the
// catalogue's words, the parser's own being English only), and
// the board of that position, whose stacks and side to move can be
// changed by hand (the server composes the position: POST /api/setup);
// onUse(spec, position) analyses it.
function setupBox(onUse) {
  const specSel = h("select", { "data-testid": "setup-spec", "aria-label": t("home.game") });
  const pos = h("textarea", { rows: 2, spellcheck: "false", autocapitalize: "off", "data-testid": "setup-position", "aria-describedby": "setup-error" });
  const err = h("p", { class: "error small", id: "setup-error", role: "alert", "data-testid": "setup-error" });
  const use = h("button", { type: "button", "data-testid": "setup-use" }, t("analysis.analyse"));
  const start = h("button", { type: "button", class: "secondary", "data-testid": "setup-start" }, t("analysis.startPosition"));
  const preview = h("div", { class: "setup-preview", "data-testid": "setup-preview" });
  const side = h("select", { "data-testid": "setup-side", "aria-label": t("analysis.sideToMove") });
  const stackInput = h("input", { type: "text", spellcheck: "false", autocapitalize: "off", autocomplete: "off", "data-testid": "setup-stack" });
  const stackLabel = h("label", { class: "block" }, "", stackInput);
  const stackSet = h("button", { type: "button", class: "secondary", "data-testid": "setup-stack-set" }, t("analysis.setStack"));
  const stackBox = h("div", { class: "setup-stack", hidden: true }, stackLabel, stackSet);
  const box = h(
    "details",
    { class: "setup", "data-testid": "setup" },
    h("summary", {}, t("analysis.setup")),
    h("p", { class: "small muted" }, t("analysis.setupHelp")),
    h("label", {}, t("home.game"), " ", specSel),
    h("label", { class: "block" }, t("analysis.positionString"), pos),
    err,
    preview,
    stackBox,
    h("label", {}, t("analysis.sideToMove"), " ", side),
    h("div", { class: "actions" }, use, start),
  );
  let timer = null;
  let seq = 0;
  let shown = null; // the view of the position in the box
  let editing = ""; // the cell whose stack is being edited
  let namesFor = "";

  // showView draws the board of the position in the box, whose cells
  // pick the stack to edit.
  const showView = (v) => {
    shown = v;
    clear(preview);
    if (!v || !v.board) return;
    preview.append(render(v, { label: t("analysis.preview"), selected: editing ? [editing] : [], interactive: true }));
    side.value = String(v.board.toMove);
  };
  // names fills the side-to-move choice with the players of the game.
  const names = (spec) => {
    if (namesFor === spec) return;
    namesFor = spec;
    variant(spec).then((va) => {
      const mod = gameModule(spec.split("(")[0]);
      clear(side).append(...va.playerNames.map((n, i) => h("option", { value: String(i) }, playerWords(mod, n))));
      if (shown) side.value = String(shown.board.toMove);
    }, () => {});
  };
  // check asks the server for the view of the typed position: its
  // parser's message when it refuses it, the board when it takes it.
  const check = () => {
    const my = ++seq;
    const spec = specSel.value;
    names(spec);
    view(spec, pos.value.trim()).then(
      (v) => {
        if (my !== seq) return;
        err.textContent = "";
        use.disabled = false;
        pos.setAttribute("aria-invalid", "false");
        showView(v);
      },
      (e) => {
        if (my !== seq) return;
        err.textContent = errorWords(e, { 400: "analysis.badPosition" });
        use.disabled = true;
        pos.setAttribute("aria-invalid", "true");
        showView(null);
      },
    );
  };
  // compose asks the server for the position of the board with the
  // edited stack and side to move.
  const compose = (cell, stack) => {
    if (!shown) return;
    const stacks = shown.board.cells.map((c) => (c.name === cell ? stack : c.stack));
    const my = ++seq;
    setupPosition({ spec: specSel.value, stacks, toMove: Number(side.value) }).then(
      (r) => {
        if (my !== seq) return;
        pos.value = r.position;
        err.textContent = "";
        use.disabled = false;
        showView(r.view);
      },
      (e) => {
        if (my !== seq) return;
        err.textContent = errorWords(e, { 400: "analysis.badPosition" });
      },
    );
  };
  preview.addEventListener("click", (ev) => {
    const c = ev.target.closest && ev.target.closest("[data-sq]");
    if (!c || !shown) return;
    editing = c.getAttribute("data-sq");
    const cell = shown.board.cells.find((x) => x.name === editing);
    stackLabel.firstChild.textContent = t("analysis.stackOf", { cell: editing, pieces: shown.board.pieces.map((p) => p.letter).join(", ") }) + " ";
    stackInput.value = cell ? cell.stack : "";
    stackBox.hidden = false;
    showView(shown);
    stackInput.focus();
  });
  stackSet.addEventListener("click", () => editing && compose(editing, stackInput.value.trim()));
  stackInput.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    if (editing) compose(editing, stackInput.value.trim());
  });
  side.addEventListener("change", () => compose("", ""));
  pos.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  });
  specSel.addEventListener("change", () => {
    pos.value = "";
    stackBox.hidden = true;
    editing = "";
    check();
  });
  use.addEventListener("click", () => onUse(specSel.value, pos.value.trim()));
  start.addEventListener("click", () => {
    pos.value = "";
    check();
  });
  return {
    box,
    show(spec, position) {
      pos.value = position || "";
      const fill = (specs) => {
        clear(specSel);
        for (const s of new Set([...specs, spec])) specSel.append(h("option", { value: s, selected: s === spec }, s));
        check();
      };
      listGames().then((list) => fill(list.map((g) => g.name)), () => fill([]));
    },
  };
}

// percent writes a part of a whole as a whole percentage.
const percent = (n, of) => (of ? Math.round((100 * n) / of) : 0) + "%";

// explorerBox is the opening explorer: the moves the site's finished games
// played from the position shown, with how often, how those games ended
// for the player who moved and the players' average rating, the rated
// games, the casual ones or both; beside each the exact verdict where the
// server knows it. onMove(move) plays a move of the list.
function explorerBox(onMove) {
  let kind = "all"; // all, rated, casual
  let shown = null; // the last answer
  let seq = 0;
  const list = h("table", { class: "explorer-moves small", "data-testid": "explorer-moves" });
  const note = h("p", { class: "small muted", "data-testid": "explorer-note" });
  const kinds = h(
    "div",
    { class: "explorer-kinds", role: "group", "aria-label": t("analysis.explorer.kind") },
    ["all", "rated", "casual"].map((k) =>
      h("button", { type: "button", class: "secondary small", "data-kind": k, "data-testid": "explorer-" + k, "aria-pressed": String(k === kind), onclick: () => {
        kind = k;
        for (const b of kinds.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.getAttribute("data-kind") === kind));
        draw();
      } }, t("analysis.explorer." + k)),
    ),
  );
  const box = h("details", { class: "explorer", "data-testid": "explorer", open: true }, h("summary", {}, t("analysis.explorer.title")), kinds, note, list);

  // stats returns the counts of a move for the kind of games chosen.
  const stats = (m) => {
    if (kind === "rated") return m.rated;
    if (kind === "casual") return m.casual;
    const r = m.rated;
    const c = m.casual;
    const rated = r.averageRating ? r.games : 0;
    return { games: r.games + c.games, wins: r.wins + c.wins, draws: r.draws + c.draws, losses: r.losses + c.losses, averageRating: rated ? r.averageRating : 0 };
  };

  function draw() {
    clear(list);
    if (!shown) return;
    const rows = shown.moves.map((m) => ({ m, s: stats(m) })).filter((x) => x.s.games > 0);
    note.textContent = rows.length ? t("analysis.explorer.games", { n: rows.reduce((sum, x) => sum + x.s.games, 0) }) : t("analysis.explorer.none");
    if (!rows.length) return;
    list.append(h("tr", {}, h("th", {}, t("analysis.explorer.move")), h("th", {}, t("analysis.explorer.count")), h("th", {}, t("analysis.explorer.results")), h("th", {}, t("analysis.explorer.rating")), h("th", {}, t("analysis.explorer.verdict"))));
    for (const { m, s } of rows) {
      list.append(
        h(
          "tr",
          { "data-testid": "explorer-move", "data-move": m.move, "data-games": String(s.games), "data-wins": String(s.wins), "data-draws": String(s.draws), "data-losses": String(s.losses) },
          h("td", {}, h("button", { type: "button", class: "move", onclick: () => onMove(m.move) }, m.move)),
          h("td", {}, formatNumber(s.games)),
          h("td", { title: t("analysis.explorer.resultsTitle") }, `${percent(s.wins, s.games)} / ${percent(s.draws, s.games)} / ${percent(s.losses, s.games)}`),
          h("td", {}, s.averageRating ? formatNumber(Math.round(s.averageRating)) : "–"),
          h("td", {}, m.verdict ? verdictText(m.verdict.score) : ""),
        ),
      );
    }
  }

  return {
    box,
    // show asks for the moves played from the position after moves from
    // position.
    show(spec, position, moves) {
      const my = ++seq;
      shown = null;
      clear(list);
      note.textContent = t("analysis.explorer.loading");
      explore(spec, position, moves).then(
        (ex) => {
          if (my !== seq) return;
          shown = ex;
          draw();
        },
        (err) => {
          if (my === seq) note.textContent = errorWords(err, { 501: "analysis.explorer.off" });
        },
      );
    },
  };
}
