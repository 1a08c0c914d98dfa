// board-view.js draws the board of a game page and of the analysis board:
// the live position from the state's view, and any earlier position of a
// replay from views the server gives for it (GET /api/view). Clicks and Enter on cells and
// pieces go to onPick(cell, depth).

import { view } from "./api.js";
import { clear, h } from "./dom.js";
import { render } from "./render.js";

export class BoardView {
  // constructor takes onPick(cell, depth), called for a click on a cell
  // (depth 0) or on the piece at that depth from the top of its stack.
  constructor(onPick) {
    // The box itself takes the focus while no cell can (between two of
    // the player's moves), so that the keyboard's place is not lost.
    this.box = h("div", { class: "board-box", tabindex: "-1", "data-testid": "board-box" });
    this.lastFocus = ""; // the cell or piece focused before the box took the focus
    this.views = new Map(); // ply -> View of a replayed position
    this.spec = "";
    this.box.addEventListener("click", (ev) => {
      const t = ev.target;
      const cell = t.closest && t.closest("[data-sq]");
      if (!cell) return;
      const piece = t.closest("[data-depth]");
      onPick(cell.getAttribute("data-sq"), piece ? Number(piece.getAttribute("data-depth")) : 0);
    });
    // Enter or Space on a focused cell or piece acts as a click; the
    // arrow keys move the focus to the nearest cell or piece that way.
    this.box.addEventListener("keydown", (ev) => {
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
      if (dir) {
        const next = nearest(this.box, ev.target, dir);
        if (next) {
          ev.preventDefault();
          next.focus();
        }
        return;
      }
      if (ev.key !== "Enter" && ev.key !== " ") return;
      const t = ev.target;
      if (!t || !t.getAttribute || t.getAttribute("role") !== "button") return;
      ev.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
  }

  // viewAt returns the view of ply of state st, or null while it is being
  // fetched; then is called once it arrives.
  viewAt(st, ply, then) {
    if (st.spec !== this.spec) {
      this.views.clear();
      this.spec = st.spec;
    }
    if (ply === st.ply) return st.view || null;
    const have = this.views.get(ply);
    if (have) return have;
    const req = ply === 0 ? view(st.spec, st.positions[0]) : view(st.spec, st.positions[ply - 1], st.moves[ply - 1]);
    req.then((v) => {
      this.views.set(ply, v);
      then();
    }, () => {});
    return null;
  }

  // draw draws position pos of ply from view v with the marks of render.
  // Without a view it shows the position string. When marks.played is the
  // move that leads from the position drawn last (the ply before) to this
  // one, the pieces it moved slide from where they were (see animate).
  draw(v, ply, pos, marks) {
    // Keep the keyboard focus on the same cell or piece.
    const focused = this.box.contains(document.activeElement) ? focusKey(document.activeElement) : "";
    const before = this.drawn;
    const move = marks.played && before && before.view && before.ply === ply - 1 && before.flip === Boolean(marks.flip)
      ? (before.view.moves || []).find((m) => m.text === marks.played) : null;
    const from = move && !reducedMotion() ? startingPoints(this.box, move) : null;
    const drawing = v ? render(v, { ...marks, pos }) : h("p", { "data-testid": "board", "data-pos": pos }, pos);
    clear(this.box).append(drawing);
    this.drawn = { view: v, ply, flip: Boolean(marks.flip) };
    if (from && v) animate(drawing, move, from);
    const boxFocused = document.activeElement === this.box;
    if (focused) {
      const again = this.box.querySelector(focused);
      if (again) again.focus();
      // A cell that cannot take the focus now (it is not the player's
      // turn) leaves it to the box until it can.
      if (!again || document.activeElement !== again) {
        this.lastFocus = focused;
        this.box.focus({ preventScroll: true });
      }
    } else if (boxFocused && this.lastFocus) {
      const again = this.box.querySelector(this.lastFocus);
      if (again) again.focus({ preventScroll: true });
    }
    this.box.classList.toggle("interactive", Boolean(marks.interactive));
    this.box.setAttribute("data-ply", String(ply));
  }
}

// slide is how long a move's pieces take to reach their place, in ms.
const slide = 240;

// reducedMotion reports whether the visitor asked for less motion.
const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// piecesOf returns the top n pieces of a cell in a drawing, top first.
function piecesOf(root, cell, n) {
  const out = [];
  for (const e of root.querySelectorAll("[data-depth]")) {
    const d = Number(e.getAttribute("data-depth"));
    if (e.getAttribute("data-sq") === cell && d >= 1 && d <= n) out[d - 1] = e;
  }
  return out.filter(Boolean);
}

// startingPoints returns where the pieces of a shift were in the drawing
// still shown, top first, as boxes in the board's units; for other kinds
// of moves it returns [], as their pieces come from the reserve.
function startingPoints(box, move) {
  if (move.kind === "place") return [];
  if (move.kind !== "shift") return null;
  return piecesOf(box, move.from, move.count).map((e) => e.getBBox());
}

// animate makes the pieces a move brought in the new drawing come from
// where they were: a shift's stack slides from its origin to its
// destination, a placed piece drops in. The moving pieces carry the class
// "moving" and an SVG transform transition until they settle.
function animate(svg, move, from) {
  let moving = [];
  if (move.kind === "shift") {
    const to = piecesOf(svg, move.to[0], move.count);
    if (to.length !== from.length) return;
    moving = to.map((e, i) => {
      const b = e.getBBox();
      return [e, `translate(${from[i].x - b.x}px, ${from[i].y - b.y}px)`];
    });
  } else {
    moving = move.to.flatMap((cell) => piecesOf(svg, cell, 1)).map((e) => [e, "translate(0px, -40px)"]);
  }
  if (!moving.length) return;
  // The destination is drawn last, so that the stack slides over the
  // cells on its way.
  for (const [e] of moving) {
    const cell = e.closest("[data-sq]:not([data-depth])");
    if (cell && cell.parentNode) cell.parentNode.append(cell);
  }
  for (const [e, start] of moving) {
    e.classList.add("moving");
    e.style.transition = "none";
    e.style.transform = start;
    if (move.kind === "place") e.style.opacity = "0";
  }
  svg.getBoundingClientRect(); // the start is laid out before the transition
  requestAnimationFrame(() => {
    for (const [e] of moving) {
      e.style.transition = `transform ${slide}ms ease-out, opacity ${slide}ms ease-out`;
      e.style.transform = "";
      e.style.opacity = "";
    }
    setTimeout(() => {
      for (const [e] of moving) {
        e.classList.remove("moving");
        e.style.transition = "";
      }
    }, slide + 30);
  });
}

// nearest returns the cell or piece of the board that one can focus
// nearest to from in direction dir ([dx, dy] on the screen), or the first
// one when from is none of them; null when there is none that way.
function nearest(box, from, dir) {
  const all = [...box.querySelectorAll('[role="button"][tabindex]')];
  if (!all.length) return null;
  if (!all.includes(from)) return all[0];
  const centre = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const e of all) {
    if (e === from) continue;
    const [x, y] = centre(e);
    const along = (x - x0) * dir[0] + (y - y0) * dir[1];
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dir[1] - (y - y0) * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) {
      best = e;
      bestScore = score;
    }
  }
  return best;
}

// focusKey returns a selector that finds the same cell or piece in a
// redrawn board, or "".
function focusKey(e) {
  const id = e.getAttribute && e.getAttribute("data-testid");
  return id ? `[data-testid="${id}"]` : "";
}
