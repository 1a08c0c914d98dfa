// board-view.js draws a game's board on its page: the live position from
// the state's view, and any earlier position of a replay from views the
// server gives for it (GET /api/view). Clicks and Enter on cells and
// pieces go to onPick(cell, depth).

import { view } from "../../api.js";
import { clear, h } from "../../dom.js";
import { render } from "../../render.js";

export class BoardView {
  // constructor takes onPick(cell, depth), called for a click on a cell
  // (depth 0) or on the piece at that depth from the top of its stack.
  constructor(onPick) {
    this.box = h("div", { class: "board-box", "data-testid": "board-box" });
    this.views = new Map(); // ply -> View of a replayed position
    this.spec = "";
    this.box.addEventListener("click", (ev) => {
      const t = ev.target;
      const cell = t.closest && t.closest("[data-sq]");
      if (!cell) return;
      const piece = t.closest("[data-depth]");
      onPick(cell.getAttribute("data-sq"), piece ? Number(piece.getAttribute("data-depth")) : 0);
    });
    // Enter or Space on a focused cell or piece acts as a click.
    this.box.addEventListener("keydown", (ev) => {
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
  // Without a view it shows the position string.
  draw(v, ply, pos, marks) {
    // Keep the keyboard focus on the same cell or piece.
    const focused = this.box.contains(document.activeElement) ? focusKey(document.activeElement) : "";
    clear(this.box).append(v ? render(v, { ...marks, pos }) : h("p", { "data-testid": "board", "data-pos": pos }, pos));
    if (focused) {
      const again = this.box.querySelector(focused);
      if (again) again.focus();
    }
    this.box.classList.toggle("interactive", Boolean(marks.interactive));
    this.box.setAttribute("data-ply", String(ply));
  }
}

// focusKey returns a selector that finds the same cell or piece in a
// redrawn board, or "".
function focusKey(e) {
  const id = e.getAttribute && e.getAttribute("data-testid");
  return id ? `[data-testid="${id}"]` : "";
}
