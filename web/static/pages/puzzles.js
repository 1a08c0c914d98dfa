// puzzles.js is the puzzles' page, played as on Lichess: the player makes
// the moves of the solution on the board and the server answers with the
// opponent's replies; a wrong move is shown wrong with the opponent's best
// answer (from a solved table where the server has one); a hint shows
// where the next move starts (and fails a rated attempt); a signed-in
// player's first attempt at a puzzle changes their puzzle rating and the
// puzzle's. The solution stays on the server until the puzzle is solved or
// failed; the page knows no rule.
//
// URLs: /puzzles            the next puzzle (?game=G&theme=T)
//       /puzzles/daily      the daily puzzle
//       /puzzles/streak     a streak: puzzles growing harder until a
//                           mistake, unrated, the best kept on the device
//       /puzzles/history    the signed-in player's attempts
//       /puzzles/<id>       one puzzle

import { puzzleDaily, puzzleGet, puzzleHint, puzzleHistory, puzzleMove, puzzleNext, puzzleStreak, puzzleThemes } from "../api.js";
import { clear, h, navigate } from "../dom.js";
import { gameModule } from "../games/index.js";
import { Picker } from "../picker.js";
import { BoardView } from "../board-view.js";
import { Controls } from "../controls.js";
import { loadJSON, saveJSON } from "../storage.js";
import { errorWords, formatNumber, gameText, playerWords, t, timeAgo } from "../i18n.js";

// replyDelay is how long the player's move stays on the board before the
// opponent's answer, in ms.
const replyDelay = 500;

// replayMode is the mode of the moves that play the solution through
// once it is shown: neither rated nor recorded.
const replayMode = "replay";

// streakKey is where the best streak is kept on this device.
const streakKey = "stax.puzzles.streakBest";

// themeWords writes a theme (win-in-2, save-the-draw…) of a puzzle of the
// game of module mod in words: the themes every game may have from the
// catalogue, the themes of one game only from its module.
export function themeWords(theme, mod) {
  let m;
  if ((m = /^([a-z]+)-in-(\d+)$/.exec(theme))) {
    const n = Number(m[2]);
    if (m[1] === "win") return t("puzzles.theme.winIn", { n });
    return gameText(mod, `puzzle.theme.${m[1]}-in`, theme, { n });
  }
  if (theme === "save-the-draw") return t("puzzles.theme.saveTheDraw");
  if (theme === "dont-fall-for-it") return t("puzzles.theme.dontFall");
  if (theme === "best-move") return t("puzzles.theme.bestMove");
  return theme;
}

// taskWords says what the player must find.
function taskWords(pz, player, mod) {
  const main = pz.themes[0] || "";
  let m;
  if ((m = /^([a-z]+)-in-(\d+)$/.exec(main))) {
    const n = Number(m[2]);
    if (m[1] === "win") return t("puzzles.task.winIn", { player, n });
    return gameText(mod, `puzzle.task.${m[1]}-in.${n === 1 ? "1" : "n"}`, t("puzzles.task.any", { player }), { player, n });
  }
  if (main === "save-the-draw") return t("puzzles.task.saveTheDraw", { player });
  if (main === "best-move") return t("puzzles.task.bestMove", { player });
  return t("puzzles.task.any", { player });
}

// scoreWords writes the score of a refutation, for the side answering.
function scoreWords(score) {
  const [word, n] = String(score).split(" ");
  if (word === "win") return t("puzzles.refute.wins", { n: Number(n) });
  if (word === "loss") return t("puzzles.refute.loses", { n: Number(n) });
  if (word === "draw") return t("puzzles.refute.draws");
  return t("puzzles.refute.estimate", { v: (Number(word) > 0 ? "+" : "") + Number(word) });
}

// signed writes a rating difference with its sign.
const signed = (d) => (d >= 0 ? "+" : "−") + formatNumber(Math.abs(Math.round(d)));

// tabs are the links between the parts of the puzzles.
function tabs(current) {
  const link = (path, key, id) =>
    h("a", { href: path, "data-link": "", "data-testid": id, class: "button secondary" + (current === id ? " active" : ""), "aria-current": current === id ? "page" : undefined }, t(key));
  return h(
    "nav",
    { class: "puzzle-tabs actions", "aria-label": t("puzzles.title") },
    link("/puzzles", "puzzles.next", "puzzles-next"),
    link("/puzzles/daily", "puzzles.daily", "puzzles-daily"),
    link("/puzzles/streak", "puzzles.streak", "puzzles-streak"),
    link("/puzzles/history", "puzzles.history", "puzzles-history"),
  );
}

// puzzlesPage draws a puzzle into root: mode is "next", "daily",
// "streak" or "one" (the puzzle id). It returns the page's clean-up.
export function puzzlesPage(root, mode, id) {
  document.title = t("puzzles.title") + " – stax";
  const q = new URLSearchParams(location.search);
  const s = {
    alive: true,
    pz: null, // the puzzle (GET /api/puzzles/…)
    line: [], // the moves played from its position
    shown: [], // {view, position} of the position after each move of line, and [0] of the start
    picker: null,
    state: "load", // load, play, wait, solved, failed
    hint: [], // the cells of a hint
    timer: null,
    seq: 0,
    game: q.get("game") || "",
    theme: q.get("theme") || "",
    streak: { seed: Math.random().toString(36).slice(2, 10), step: 0, solved: 0 },
  };

  const board = new BoardView((cell, depth) => {
    if (s.state !== "play" || !s.picker) return;
    controls.result(s.picker.click(cell, depth));
  });
  const controls = new Controls((m) => tryMove(m), () => draw());
  const title = h("h1", { "data-testid": "puzzle-title" }, t("puzzles.title"));
  const about = h("p", { class: "small muted", "data-testid": "puzzle-about" });
  const task = h("p", { class: "status", "aria-live": "polite", "data-testid": "puzzle-task" });
  const feedback = h("div", { class: "puzzle-feedback", "aria-live": "polite", "data-testid": "puzzle-feedback" });
  const ratingBox = h("p", { class: "puzzle-rating", "data-testid": "puzzle-rating" });
  const hintBtn = h("button", { type: "button", class: "secondary", "data-testid": "puzzle-hint", onclick: () => hint() }, t("puzzles.hint"));
  const retryBtn = h("button", { type: "button", class: "secondary", hidden: true, "data-testid": "puzzle-retry", onclick: () => retry() }, t("puzzles.retry"));
  const solutionBtn = h("button", { type: "button", class: "secondary", hidden: true, "data-testid": "puzzle-show-solution", onclick: () => showSolution() }, t("puzzles.showSolution"));
  const nextBtn = h("button", { type: "button", hidden: true, "data-testid": "puzzle-continue", onclick: () => next() }, t("puzzles.continue"));
  const movesBox = h("ol", { class: "move-list", "data-testid": "puzzle-moves" });
  const streakBox = h("p", { class: "puzzle-streak", hidden: mode !== "streak", "data-testid": "streak-score" });
  const gameSel = h("select", { "data-testid": "puzzle-game", "aria-label": t("home.game"), onchange: () => chooseGame(gameSel.value) }, h("option", { value: "" }, t("puzzles.anyGame")));
  const themeSel = h("select", { "data-testid": "puzzle-theme", "aria-label": t("puzzles.theme"), onchange: () => chooseTheme(themeSel.value) });
  const themeLabel = h("label", { class: "small", hidden: mode !== "next" }, t("puzzles.theme"), " ", themeSel);
  let offered = []; // the games with puzzles and their themes (GET /api/puzzles/themes)
  // drawChoices offers the games with puzzles and the themes of the chosen
  // game (of every game when none is chosen).
  const drawChoices = () => {
    clear(gameSel).append(h("option", { value: "" }, t("puzzles.anyGame")), ...offered.map((g) => h("option", { value: g.game, selected: g.game === s.game }, gameModule(g.game).title || g.title)));
    const themes = offered.filter((g) => !s.game || g.game === s.game).flatMap((g) => g.themes.map((th) => ({ theme: th.theme, game: g.game })));
    const seen = new Set();
    clear(themeSel).append(h("option", { value: "" }, t("puzzles.anyTheme")));
    for (const th of themes) {
      if (seen.has(th.theme)) continue;
      seen.add(th.theme);
      themeSel.append(h("option", { value: th.theme, selected: th.theme === s.theme }, themeWords(th.theme, gameModule(th.game))));
    }
    if (!seen.has(s.theme)) s.theme = "";
  };
  if (mode === "next" || mode === "streak") {
    puzzleThemes().then((list) => {
      offered = list.games;
      drawChoices();
    }, () => {});
  }
  const chooser = h("div", { class: "puzzle-choice" }, h("label", { class: "small", hidden: mode !== "next" && mode !== "streak" }, t("home.game"), " ", gameSel), " ", themeLabel);
  const page = h("section", { class: "puzzle", "data-testid": "puzzle", "data-state": "load" });

  page.append(
    tabs(mode === "next" ? "puzzles-next" : mode === "daily" ? "puzzles-daily" : mode === "streak" ? "puzzles-streak" : ""),
    h("div", { class: "game-head" }, title, chooser),
    about,
    task,
    h(
      "div",
      { class: "play" },
      h("div", { class: "board-col" }, board.box, controls.buttons, controls.hint, controls.info),
      h(
        "div",
        { class: "side-col" },
        streakBox,
        feedback,
        ratingBox,
        h("div", { class: "actions" }, hintBtn, retryBtn, solutionBtn, nextBtn),
        controls.form,
        controls.error,
        controls.legalBox,
        h("h2", {}, t("game.moves")),
        movesBox,
      ),
    ),
  );
  root.append(page);

  // setState records where the puzzle stands, on the page for tests too.
  function setState(state) {
    s.state = state;
    page.setAttribute("data-state", state);
  }

  const mod = () => gameModule(s.pz ? s.pz.game : "");
  const seatName = (i) => playerWords(mod(), (s.pz && s.pz.playerNames[i]) || String(i + 1));

  // load fetches the puzzle to play.
  async function load() {
    const seq = ++s.seq;
    clearTimeout(s.timer);
    setState("load");
    clear(feedback);
    clear(ratingBox);
    controls.error.textContent = "";
    task.textContent = t("puzzles.loading");
    try {
      let pz;
      if (mode === "daily") pz = await puzzleDaily();
      else if (mode === "streak") pz = await puzzleStreak({ step: s.streak.step, seed: s.streak.seed, game: s.game || undefined });
      else if (mode === "one") pz = await puzzleGet(id);
      else pz = await puzzleNext({ game: s.game || undefined, theme: s.theme || undefined, after: s.pz ? s.pz.id : undefined });
      if (!s.alive || seq !== s.seq) return;
      start(pz);
    } catch (err) {
      if (!s.alive || seq !== s.seq) return;
      task.textContent = errorWords(err, { no_puzzle: "puzzles.none", 404: "puzzles.none" });
    }
  }

  // start shows a puzzle at its position.
  function start(pz) {
    s.pz = pz;
    s.line = [];
    s.shown = [{ view: pz.view, position: pz.position }];
    s.hint = [];
    const player = seatName(pz.toMove);
    title.textContent = mode === "daily" ? t("puzzles.dailyOf", { title: pz.title, day: pz.daily }) : t("puzzles.titleOf", { title: pz.title });
    clear(about).append(
      t("puzzles.about", { rating: formatNumber(Math.round(pz.rating)), plays: formatNumber(pz.plays) }),
      " · ",
      pz.themes.map((th) => themeWords(th, gameModule(pz.game))).join(", "),
      " · ",
      h("a", { href: "/puzzles/" + encodeURIComponent(pz.id), "data-link": "", "data-testid": "puzzle-link" }, pz.id),
    );
    page.setAttribute("data-puzzle", pz.id);
    task.textContent = taskWords(pz, player, gameModule(pz.game)) + (pz.themes.includes("dont-fall-for-it") ? " " + t("puzzles.task.trap") : "");
    clear(feedback);
    drawRatingNote();
    drawStreak();
    setState("play");
    hintBtn.hidden = false;
    retryBtn.hidden = solutionBtn.hidden = nextBtn.hidden = true;
    showPly(0);
  }

  // drawRatingNote says whether this attempt is rated.
  function drawRatingNote() {
    const pz = s.pz;
    clear(ratingBox);
    if (mode === "streak") ratingBox.append(t("puzzles.streakUnrated"));
    else if (!pz.player) ratingBox.append(t("puzzles.guest"), " ", h("a", { href: "/login", "data-link": "" }, t("nav.signin")));
    else if (pz.attempted) ratingBox.append(t("puzzles.playedBefore", { rating: formatNumber(Math.round(pz.player.rating)) }));
    else ratingBox.append(t("puzzles.yourRating", { rating: formatNumber(Math.round(pz.player.rating)) + (pz.player.provisional ? "?" : "") }));
  }

  // showRating shows the change of a rated attempt.
  function showRating(rc) {
    if (!rc) return;
    const before = rc.playerBefore.rating;
    const after = rc.playerAfter.rating;
    clear(ratingBox).append(
      h(
        "span",
        { "data-testid": "rating-change", "data-before": String(before), "data-after": String(after), "data-puzzle-before": String(rc.puzzleBefore.rating), "data-puzzle-after": String(rc.puzzleAfter.rating) },
        t("puzzles.ratingChange", { before: formatNumber(Math.round(before)), after: formatNumber(Math.round(after)), diff: signed(after - before) }),
      ),
    );
  }

  function drawStreak() {
    if (mode !== "streak") return;
    const best = Number(loadJSON(streakKey, 0)) || 0;
    streakBox.textContent = t("puzzles.streakScore", { n: s.streak.solved, best: Math.max(best, s.streak.solved) });
  }

  // showPly shows the position after ply moves of the line.
  function showPly(ply) {
    const at = s.shown[ply];
    s.picker = gameModule(s.pz.game).picker ? gameModule(s.pz.game).picker(at.view ? at.view.moves : []) : new Picker(at.view ? at.view.moves : []);
    draw(ply);
  }

  // draw redraws the board, the controls and the moves.
  function draw(ply = s.line.length) {
    if (!s.pz) return;
    const at = s.shown[Math.min(ply, s.shown.length - 1)];
    const live = s.state === "play";
    const marks = live && s.picker ? s.picker.marks() : {};
    marks.interactive = live;
    marks.flip = s.pz.toMove === 1 && s.pz.playerNames.length === 2;
    marks.label = t("puzzles.boardLabel", { title: s.pz.title });
    if (ply > 0) marks.played = s.line[ply - 1];
    board.draw(at.view, ply, at.position, marks);
    for (const cell of s.hint) {
      for (const e of board.box.querySelectorAll(`[data-sq="${CSS.escape(cell)}"]:not([data-depth])`)) e.classList.add("hinted");
    }
    const names = s.pz.playerNames;
    const st = { status: live ? "playing" : "finished", players: names.length, toMove: at.view ? at.view.board.toMove : s.pz.toMove, playerNames: names, legal: live && at.view ? at.view.moves.map((m) => m.text) : [] };
    controls.draw({ st, held: live ? [s.pz.toMove] : [], board: at.view ? at.view.board : null, picker: s.picker, interactive: live, pos: at.position, seatName, module: mod() });
    hintBtn.disabled = !live;
    clear(movesBox);
    s.line.forEach((m, i) => {
      movesBox.append(h("li", { class: (i % 2 ? "reply" : "mine") + (i + 1 === ply ? " current" : "") }, h("span", { class: "move", "data-testid": "puzzle-move" }, m)));
    });
  }

  // tryMove sends the player's move to the server, which judges it.
  async function tryMove(m) {
    if (!m || s.state !== "play") return;
    const seq = s.seq;
    setState("wait");
    controls.error.textContent = "";
    s.hint = [];
    draw();
    let r;
    try {
      r = await puzzleMove(s.pz.id, s.line.concat([m]), mode === "streak" ? "streak" : "");
    } catch (err) {
      if (!s.alive || seq !== s.seq) return;
      setState("play");
      controls.error.textContent = errorWords(err, { illegal_move: "puzzles.illegal", bad_line: "puzzles.badLine", no_puzzle: "puzzles.none" });
      draw();
      return;
    }
    if (!s.alive || seq !== s.seq) return;
    controls.played();
    s.line.push(r.move);
    s.shown[s.line.length] = { view: r.view, position: r.position };
    showRating(r.rating);
    if (r.result === "right") {
      clear(feedback).append(h("p", { class: "right", "data-testid": "puzzle-right" }, t("puzzles.right")));
      draw();
      s.timer = setTimeout(() => {
        if (!s.alive || seq !== s.seq) return;
        s.line.push(r.reply);
        s.shown[s.line.length] = { view: r.replyView, position: r.replyPosition };
        clear(feedback).append(h("p", { class: "right", "data-testid": "puzzle-right" }, t("puzzles.rightReply", { player: seatName(replier()), move: r.reply })));
        setState("play");
        showPly(s.line.length);
      }, replyDelay);
      return;
    }
    if (r.result === "solved") {
      setState("solved");
      clear(feedback).append(h("p", { class: "solved", "data-testid": "puzzle-solved" }, t("puzzles.solved")));
      if (mode === "streak") {
        s.streak.solved++;
        saveBest();
      }
    } else {
      setState("failed");
      clear(feedback).append(h("p", { class: "wrong", "data-testid": "puzzle-wrong" }, t("puzzles.wrong", { move: r.move })));
      if (r.refutation) feedback.append(refutationWords(r.refutation));
      else if (s.pz.fastest) feedback.append(h("p", { class: "small" }, t("puzzles.maybeSlower")));
      feedback.append(h("p", { class: "small", "data-testid": "puzzle-solution" }, t("puzzles.solutionWas", { moves: r.solution.join(" ") })));
      s.solution = r.solution;
      if (mode === "streak") {
        saveBest();
        feedback.append(h("p", { "data-testid": "streak-over" }, t("puzzles.streakOver", { n: s.streak.solved })));
      }
    }
    drawStreak();
    hintBtn.hidden = true;
    retryBtn.hidden = r.result !== "wrong" || mode === "streak";
    solutionBtn.hidden = r.result !== "wrong";
    nextBtn.hidden = false;
    nextBtn.textContent = mode === "streak" && r.result === "wrong" ? t("puzzles.newStreak") : t("puzzles.continue");
    draw();
    nextBtn.focus();
  }

  // replier is the seat that answers the solver: the next seat.
  const replier = () => (s.pz.toMove + 1) % s.pz.playerNames.length;

  // refutationWords says why a wrong move is wrong.
  function refutationWords(rf) {
    if (rf.stillWins) return h("p", { "data-testid": "puzzle-refutation", "data-score": String(rf.score) }, t("puzzles.stillWins"));
    const line = rf.line.join(" ");
    return h(
      "p",
      { "data-testid": "puzzle-refutation", "data-score": String(rf.score), "data-line": line },
      t("puzzles.refutation", { player: seatName(replier()), line, result: scoreWords(rf.score) }),
      rf.exact ? "" : " " + t("puzzles.refute.byEngine"),
    );
  }

  function saveBest() {
    const best = Number(loadJSON(streakKey, 0)) || 0;
    if (s.streak.solved > best) saveJSON(streakKey, s.streak.solved);
  }

  // hint shows where the next move starts.
  async function hint() {
    if (s.state !== "play") return;
    const seq = s.seq;
    try {
      const r = await puzzleHint(s.pz.id, s.line, mode === "streak" ? "streak" : "");
      if (!s.alive || seq !== s.seq) return;
      s.hint = r.cells;
      clear(feedback).append(h("p", { "data-testid": "puzzle-hint-text" }, t("puzzles.hintText", { cells: r.cells.join(", ") })));
      showRating(r.rating);
      if (s.pz.player && !s.pz.attempted && mode !== "streak") {
        feedback.append(h("p", { class: "small muted" }, t("puzzles.hintCost")));
        s.pz.attempted = true;
      }
      draw();
    } catch (err) {
      if (s.alive) controls.error.textContent = errorWords(err, { bad_line: "puzzles.badLine", no_puzzle: "puzzles.none" });
    }
  }

  // retry takes the wrong move back (the attempt is no longer rated).
  function retry() {
    if (s.state !== "failed") return;
    s.line.pop();
    s.pz.attempted = true;
    s.hint = [];
    clear(feedback);
    drawRatingNote();
    setState("play");
    retryBtn.hidden = solutionBtn.hidden = nextBtn.hidden = true;
    hintBtn.hidden = false;
    showPly(s.line.length);
  }

  // showSolution plays the solution through from the start.
  async function showSolution() {
    const seq = ++s.seq;
    const sol = s.solution || [];
    setState("replay");
    solutionBtn.hidden = retryBtn.hidden = true;
    s.line = [];
    s.shown = [s.shown[0]];
    draw(0);
    for (let i = 0; i < sol.length; i += 2) {
      let r;
      try {
        r = await puzzleMove(s.pz.id, sol.slice(0, i + 1), replayMode);
      } catch (err) {
        if (s.alive && seq === s.seq) controls.error.textContent = errorWords(err, { bad_line: "puzzles.badLine" });
        return;
      }
      await new Promise((ok) => setTimeout(ok, replyDelay));
      if (!s.alive || seq !== s.seq) return;
      s.line.push(r.move);
      s.shown[s.line.length] = { view: r.view, position: r.position };
      draw();
      if (r.reply) {
        await new Promise((ok) => setTimeout(ok, replyDelay));
        if (!s.alive || seq !== s.seq) return;
        s.line.push(r.reply);
        s.shown[s.line.length] = { view: r.replyView, position: r.replyPosition };
        draw();
      }
    }
    setState("failed");
  }

  // next goes on: the next puzzle, the next step of a streak, or a new
  // streak after a mistake.
  function next() {
    if (mode === "streak") {
      if (s.state === "solved") s.streak.step++;
      else s.streak = { seed: Math.random().toString(36).slice(2, 10), step: 0, solved: 0 };
      load();
      return;
    }
    if (mode === "next") {
      load();
      return;
    }
    navigate("/puzzles" + (s.pz ? "?game=" + encodeURIComponent(s.pz.game) : ""));
  }

  function chooseGame(g) {
    s.game = g;
    drawChoices();
    setQuery();
    if (mode === "streak") s.streak = { seed: Math.random().toString(36).slice(2, 10), step: 0, solved: 0 };
    s.pz = null;
    load();
  }

  function chooseTheme(th) {
    s.theme = th;
    setQuery();
    s.pz = null;
    load();
  }

  // setQuery writes the chosen game and theme into the address.
  function setQuery() {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of [["game", s.game], ["theme", s.theme]]) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    const qs = p.toString();
    history.replaceState(null, "", location.pathname + (qs ? "?" + qs : ""));
  }

  load();
  return () => {
    s.alive = false;
    clearTimeout(s.timer);
  };
}

// puzzleHistoryPage shows the signed-in player's puzzle rating and
// attempts.
export function puzzleHistoryPage(root) {
  document.title = t("puzzles.historyTitle") + " – stax";
  const box = h("section", { "data-testid": "puzzle-history" });
  root.append(tabs("puzzles-history"), h("h1", {}, t("puzzles.historyTitle")), box);
  let alive = true;
  puzzleHistory().then(
    (hs) => {
      if (!alive) return;
      const r = hs.rating;
      box.append(h("p", { "data-testid": "history-rating", "data-rating": String(r.rating) }, t("puzzles.historyRating", { rating: formatNumber(Math.round(r.rating)) + (r.provisional ? "?" : ""), n: r.attempts })));
      if (!hs.attempts.length) {
        box.append(h("p", { class: "muted" }, t("puzzles.historyEmpty")));
        return;
      }
      const list = h("ol", { class: "puzzle-attempts", "data-testid": "history-attempts" });
      for (const a of hs.attempts) {
        list.append(
          h(
            "li",
            { "data-testid": "history-attempt", "data-puzzle": a.puzzle, "data-solved": String(a.solved), "data-rated": String(a.rated) },
            h("a", { href: "/puzzles/" + encodeURIComponent(a.puzzle), "data-link": "" }, gameModule(a.spec.split("(")[0]).title + " · " + a.themes.map((th) => themeWords(th, gameModule(a.spec.split("(")[0]))).join(", ")),
            " — ",
            h("span", { class: a.solved ? "solved" : "wrong" }, t(a.solved ? "puzzles.historySolved" : "puzzles.historyFailed")),
            a.rated ? " · " + t("puzzles.historyChange", { after: formatNumber(Math.round(a.playerAfter)), diff: signed(a.playerAfter - a.playerBefore) }) : " · " + t("puzzles.historyUnrated"),
            " · ",
            h("span", { class: "small muted" }, timeAgo(a.at)),
          ),
        );
      }
      box.append(list);
    },
    (err) => {
      if (alive) box.append(h("p", { class: "error", role: "alert", "data-testid": "history-error" }, errorWords(err, { 401: "puzzles.historySignIn", 501: "puzzles.historyNoAccounts" })));
    },
  );
  return () => {
    alive = false;
  };
}
