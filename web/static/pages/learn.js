// learn.js is the lessons' page, as Lichess's "Learn": each game and each
// of its variants taught in short steps. A step shows a position and a
// goal ("move two pions to b2", "top every stack"); the learner makes one move
// on the board and the server judges it with the game's rules, answering
// what the move missed. After the last lesson of a game a button starts a
// first game against the beginner computer. The words of a lesson are its
// game module's (lesson.<id>.…, beside the game's rules), the page's own
// the catalogue's (lessons.…); the page knows no rule.
//
// URLs: /learn          the games and their lessons
//       /learn/<id>     one lesson (?step=N to open a step, from 1)

import { createGame, lessonGet, lessonIndex, lessonMove, saveToken, variant } from "../api.js";
import { clear, h, navigate } from "../dom.js";
import { gameModule } from "../games/index.js";
import { Picker } from "../picker.js";
import { BoardView } from "../board-view.js";
import { Controls } from "../controls.js";
import { errorWords, gameText, playerWords, t } from "../i18n.js";

// lessonWords returns the words of key of the lesson id of game, e.g.
// key "title" or "one.goal", from the game's module.
const lessonWords = (game, id, key, params) => gameText(gameModule(game), ["lesson", id, key].join("."), "", params);

// learnPage draws the list of the lessons into root.
export function learnPage(root) {
  document.title = t("lessons.title") + " – stax";
  const box = h("div", { class: "lesson-index", "data-testid": "lesson-index" });
  root.append(h("h1", {}, t("lessons.title")), h("p", { class: "lead" }, t("lessons.lead")), box);
  let alive = true;
  lessonIndex().then(
    (idx) => {
      if (!alive) return;
      const byGame = new Map();
      for (const l of idx.lessons) {
        if (!byGame.has(l.game)) byGame.set(l.game, { title: l.title, lessons: [] });
        byGame.get(l.game).lessons.push(l);
      }
      for (const [name, g] of byGame) {
        box.append(
          h(
            "section",
            { class: "lesson-game", "data-testid": "lessons-" + name },
            h("h2", {}, gameModule(name).title || g.title),
            h(
              "ol",
              { class: "lesson-list" },
              g.lessons.map((l) =>
                h(
                  "li",
                  {},
                  h("a", { href: "/learn/" + encodeURIComponent(l.id), "data-link": "", "data-testid": "lesson-" + l.id }, lessonWords(l.game, l.id, "title")),
                  " ",
                  h("span", { class: "small muted" }, t("lessons.steps", { n: l.steps })),
                ),
              ),
            ),
          ),
        );
      }
    },
    (err) => {
      if (alive) box.append(h("p", { class: "error", role: "alert" }, errorWords(err)));
    },
  );
  return () => {
    alive = false;
  };
}

// lessonPage plays the lesson id in root. It returns the page's clean-up.
export function lessonPage(root, id) {
  document.title = t("lessons.title") + " – stax";
  const s = {
    alive: true,
    lesson: null, // GET /api/lessons/{id}
    at: 0, // the step shown
    state: "load", // load, play, wait, done, missed, complete
    shown: null, // {view, position} on the board
    last: "", // the move played, shown on the board
    picker: null,
    hint: [],
    seq: 0,
  };
  const first = Number(new URLSearchParams(location.search).get("step")) || 1;

  const board = new BoardView((cell, depth) => {
    if (s.state !== "play" || !s.picker) return;
    controls.result(s.picker.click(cell, depth));
  });
  const controls = new Controls((m) => tryMove(m), () => draw());
  const title = h("h1", { "data-testid": "lesson-title" }, t("lessons.title"));
  const intro = h("p", { class: "lead", "data-testid": "lesson-intro" });
  const progress = h("p", { class: "small muted", "data-testid": "lesson-progress" });
  const text = h("p", { "data-testid": "lesson-text" });
  const goal = h("p", { class: "status", "data-testid": "lesson-goal" });
  const feedback = h("div", { class: "lesson-feedback", "aria-live": "polite", "data-testid": "lesson-feedback" });
  const hintBtn = h("button", { type: "button", class: "secondary", "data-testid": "lesson-hint", onclick: () => showHint() }, t("lessons.hint"));
  const retryBtn = h("button", { type: "button", class: "secondary", hidden: true, "data-testid": "lesson-retry", onclick: () => showStep(s.at) }, t("lessons.retry"));
  const nextBtn = h("button", { type: "button", hidden: true, "data-testid": "lesson-next", onclick: () => showStep(s.at + 1) }, t("lessons.nextStep"));
  const endBox = h("div", { class: "actions", hidden: true, "data-testid": "lesson-end" });
  const sideCol = h("div", { class: "side-col" }, controls.form, controls.error, controls.legalBox);
  const page = h("section", { class: "lesson", "data-testid": "lesson", "data-state": "load" });
  page.append(
    h("nav", { class: "actions" }, h("a", { href: "/learn", "data-link": "", class: "button secondary", "data-testid": "lessons-all" }, t("lessons.all"))),
    title,
    intro,
    // The task and what the server said of the move come before the
    // board, so that a phone shows them with it.
    h("div", { class: "lesson-task" }, progress, text, goal, feedback, h("div", { class: "actions" }, hintBtn, retryBtn, nextBtn), endBox),
    h(
      "div",
      { class: "play" },
      h("div", { class: "board-col" }, board.box, controls.buttons, controls.hint, controls.info),
      sideCol,
    ),
  );
  root.append(page);

  function setState(state) {
    s.state = state;
    page.setAttribute("data-state", state);
  }

  const step = () => s.lesson.items[s.at];
  const mod = () => gameModule(s.lesson ? s.lesson.game : "");
  const seatName = (i) => playerWords(mod(), (step() && step().playerNames[i]) || String(i + 1));

  async function load() {
    progress.textContent = t("lessons.loading");
    try {
      const l = await lessonGet(id);
      if (!s.alive) return;
      s.lesson = l;
      title.textContent = lessonWords(l.game, l.id, "title");
      document.title = lessonWords(l.game, l.id, "title") + " – stax";
      intro.textContent = lessonWords(l.game, l.id, "intro");
      page.setAttribute("data-lesson", l.id);
      showStep(Math.min(Math.max(first - 1, 0), l.items.length - 1));
    } catch (err) {
      if (s.alive) progress.textContent = errorWords(err, { no_lesson: "lessons.none", 404: "lessons.none" });
    }
  }

  // showStep shows step i at its position, or the end of the lesson after
  // the last.
  function showStep(i) {
    s.seq++;
    if (i >= s.lesson.items.length) {
      complete();
      return;
    }
    s.at = i;
    const st = step();
    s.shown = { view: st.view, position: st.position };
    s.last = "";
    s.hint = [];
    page.setAttribute("data-step", st.id);
    progress.textContent = t("lessons.step", { n: i + 1, total: s.lesson.items.length });
    text.textContent = lessonWords(s.lesson.game, s.lesson.id, st.id + ".text");
    goal.textContent = t("lessons.goal", { goal: lessonWords(s.lesson.game, s.lesson.id, st.id + ".goal") });
    clear(feedback);
    controls.error.textContent = "";
    hintBtn.hidden = false;
    retryBtn.hidden = nextBtn.hidden = endBox.hidden = true;
    sideCol.hidden = false;
    setState("play");
    s.picker = mod().picker ? mod().picker(st.view ? st.view.moves : []) : new Picker(st.view ? st.view.moves : []);
    draw();
  }

  // draw redraws the board and the controls.
  function draw() {
    if (!s.lesson || !s.shown) return;
    const st = step();
    const live = s.state === "play";
    const marks = live && s.picker ? s.picker.marks() : {};
    marks.interactive = live;
    marks.flip = st.toMove === 1 && st.playerNames.length === 2;
    marks.label = t("lessons.boardLabel", { title: lessonWords(s.lesson.game, s.lesson.id, "title") });
    if (s.last) marks.played = s.last;
    board.draw(s.shown.view, s.last ? 1 : 0, s.shown.position, marks);
    for (const cell of s.hint) {
      for (const e of board.box.querySelectorAll(`[data-sq="${CSS.escape(cell)}"]:not([data-depth])`)) e.classList.add("hinted");
    }
    const v = s.shown.view;
    const view = { status: live ? "playing" : "finished", players: st.playerNames.length, toMove: v ? v.board.toMove : st.toMove, playerNames: st.playerNames, legal: live && v ? v.moves.map((m) => m.text) : [] };
    controls.draw({ st: view, held: live ? [st.toMove] : [], board: v ? v.board : null, picker: s.picker, interactive: live, pos: s.shown.position, seatName, module: mod() });
    hintBtn.disabled = !live;
  }

  // missWords says in words a condition of the goal that a move missed.
  function missWords(m) {
    if (m.code === "lost") {
      if (m.got === "draw") return t("lessons.miss.draw");
      const players = m.got.split(",").map((i) => seatName(Number(i)));
      return t("lessons.miss.lost", { player: players.join(" / ") });
    }
    if ((m.code === "from" || m.code === "to") && !m.got) return t(`lessons.miss.${m.code}None`, { want: m.want });
    return t("lessons.miss." + m.code, { want: m.want, got: m.got, n: Number(m.want) });
  }

  // tryMove sends the learner's move to the server, which judges it.
  async function tryMove(m) {
    if (!m || s.state !== "play") return;
    const seq = s.seq;
    setState("wait");
    controls.error.textContent = "";
    let r;
    try {
      r = await lessonMove(s.lesson.id, s.at, m);
    } catch (err) {
      if (!s.alive || seq !== s.seq) return;
      setState("play");
      controls.error.textContent = errorWords(err, { illegal_move: "lessons.illegal", bad_step: "lessons.none", no_lesson: "lessons.none" });
      draw();
      return;
    }
    if (!s.alive || seq !== s.seq) return;
    controls.played();
    s.shown = { view: r.view, position: r.position };
    s.last = r.move;
    s.hint = [];
    hintBtn.hidden = true;
    if (r.result === "done") {
      setState("done");
      clear(feedback).append(h("p", { class: "done", "data-testid": "lesson-done" }, t("lessons.done", { move: r.move })));
      const last = s.at + 1 >= s.lesson.items.length;
      nextBtn.textContent = last ? t("lessons.finish") : t("lessons.nextStep");
      nextBtn.hidden = false;
      draw();
      nextBtn.focus();
      return;
    }
    setState("missed");
    clear(feedback).append(
      h("p", { class: "missed", "data-testid": "lesson-missed" }, t("lessons.missed", { move: r.move })),
      h("ul", { "data-testid": "lesson-misses" }, r.misses.map((x) => h("li", { "data-code": x.code }, missWords(x)))),
    );
    retryBtn.hidden = false;
    draw();
    retryBtn.focus();
  }

  // showHint marks where a move meeting the goal starts.
  function showHint() {
    if (s.state !== "play") return;
    s.hint = step().hint || [];
    clear(feedback).append(h("p", { "data-testid": "lesson-hint-text" }, t("lessons.hintText", { cells: s.hint.join(", ") })));
    draw();
  }

  // complete shows the end of the lesson: the next lesson of the game, and
  // a first game against the beginner computer.
  function complete() {
    setState("complete");
    progress.textContent = "";
    text.textContent = "";
    goal.textContent = "";
    clear(feedback).append(h("p", { class: "done", "data-testid": "lesson-complete" }, t("lessons.complete")));
    hintBtn.hidden = retryBtn.hidden = nextBtn.hidden = sideCol.hidden = true;
    const l = s.lesson;
    const play = h("button", { type: "button", "data-testid": "lesson-play", onclick: () => playBeginner(play) }, t("lessons.play"));
    clear(endBox).append(
      l.next ? h("a", { href: "/learn/" + encodeURIComponent(l.next), "data-link": "", class: "button", "data-testid": "lesson-next-lesson" }, t("lessons.nextLesson", { title: lessonWords(l.game, l.next, "title") })) : null,
      play,
      h("p", { class: "error small", role: "alert", "data-testid": "lesson-error" }),
    );
    endBox.hidden = false;
    (l.next ? endBox.querySelector("a") : play).focus();
  }

  // playBeginner starts a game of the lesson's game: the learner first,
  // the beginner computer in every other seat.
  async function playBeginner(btn) {
    btn.disabled = true;
    const spec = s.lesson.play;
    try {
      const v = await variant(spec);
      const seats = [];
      for (let i = 0; i < v.players; i++) seats.push(i === 0 ? { kind: "human" } : { kind: "ai", level: "beginner" });
      const res = await createGame({ spec, seats });
      saveToken(res.id, res.token);
      navigate("/game/" + res.id);
    } catch (err) {
      btn.disabled = false;
      endBox.querySelector("[data-testid=lesson-error]").textContent = t("lessons.cannotStart", { error: errorWords(err, { 503: "home.levelPreparing" }) });
    }
  }

  load();
  return () => {
    s.alive = false;
  };
}
