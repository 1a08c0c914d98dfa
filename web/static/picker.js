// picker.js turns clicks into moves. It knows nothing of legality beyond
// the legal moves the server sends with the board view (docs/server.md,
// "View"): a cell or piece can be picked only when some legal move starts
// there, and a destination is offered only when a legal move ends there.
//
// It knows three kinds of move and no game:
//   shift  the top count pieces of a cell go to another: pick the cell (or
//          the piece at that depth, or a count), then the destination;
//   place  a piece from the reserve goes on each of the cells listed: pick
//          the piece, then the cell; or, when a move places on several
//          cells, pick the cells and confirm;
//   pass   a button.

import { t } from "./i18n.js";

// Picker holds what has been picked towards a move of one position.
export class Picker {
  // constructor takes the legal moves of a View: {text, kind, from, count,
  // piece, to}.
  constructor(moves) {
    this.moves = (moves || []).map((m) => ({ ...m, to: m.to || [] }));
    this.reset();
  }

  // reset forgets what was picked.
  reset() {
    this.src = null; // the cell pieces are taken from
    this.count = 0; // the pieces taken from src (0: not chosen yet)
    this.piece = ""; // the piece picked from the reserve
    this.group = []; // the cells picked for a placing on several cells
    this.dest = null; // a destination reached by several counts
    this.hint = "";
  }

  // placing reports whether the moves place pieces on several cells at
  // once, which are picked one by one and confirmed.
  get placing() {
    return this.moves.some((m) => m.kind === "place" && m.to.length > 1);
  }

  // canPass reports whether pass is a legal move.
  get canPass() {
    return this.moves.some((m) => m.kind === "pass");
  }

  // shifts returns the shift moves from the picked cell (with the picked
  // count, once one is chosen).
  shifts() {
    return this.moves.filter((m) => m.kind === "shift" && m.from === this.src && (!this.count || m.count === this.count));
  }

  // sources returns the cells that may be picked to start a move.
  sources() {
    const s = new Set();
    for (const m of this.moves) {
      if (m.kind === "shift") s.add(m.from);
      else if (m.kind === "place" && m.to.length > 1) m.to.forEach((c) => s.add(c));
    }
    return [...s];
  }

  // targets returns the cells that finish or continue the move picked so
  // far.
  targets() {
    if (this.placing) {
      if (!this.group.length) return [];
      const t = new Set();
      for (const m of this.groupMoves()) m.to.forEach((c) => !this.group.includes(c) && t.add(c));
      return [...t];
    }
    const piece = this.piece || (this.src === null ? this.sole() : "");
    if (piece) return [...new Set(this.moves.filter((m) => m.kind === "place" && m.piece === piece).flatMap((m) => m.to))];
    if (this.src === null) return [];
    return [...new Set(this.shifts().flatMap((m) => m.to))];
  }

  // groupMoves returns the placings on several cells that contain every
  // picked cell.
  groupMoves() {
    return this.moves.filter((m) => m.kind === "place" && m.to.length > 1 && this.group.every((c) => m.to.includes(c)));
  }

  // counts returns the numbers of pieces that may leave the picked cell,
  // or those that reach the pending destination.
  counts() {
    if (this.src === null) return [];
    const s = new Set();
    for (const m of this.moves) {
      if (m.kind === "shift" && m.from === this.src && (this.dest === null || m.to.includes(this.dest))) s.add(m.count);
    }
    return [...s].sort((a, b) => a - b);
  }

  // sole returns the only piece that may be placed one at a time, or "":
  // a click on a cell then places it without picking it first.
  sole() {
    const pieces = this.reservePieces();
    return pieces.length === 1 ? pieces[0] : "";
  }

  // reservePieces returns the pieces that may be placed one at a time.
  reservePieces() {
    return [...new Set(this.moves.filter((m) => m.kind === "place" && m.to.length === 1).map((m) => m.piece))];
  }

  // groupMove returns the legal placing of exactly the picked cells, or "".
  groupMove() {
    const m = this.groupMoves().find((m) => m.to.length === this.group.length);
    return m ? m.text : "";
  }

  // marks returns what the board should highlight.
  marks() {
    const selected = this.placing ? [...this.group] : this.src !== null ? [this.src] : [];
    if (this.dest !== null) selected.push(this.dest);
    const nothingPicked = this.src === null && !this.piece && this.group.length === 0;
    const placing = this.moves.find((m) => m.kind === "place" && m.to.length > 1);
    return {
      ghost: placing && this.group.length ? { piece: placing.piece, cells: [...this.group] } : null,
      selected,
      targets: this.targets(),
      sources: nothingPicked && !this.placing ? this.sources() : [],
      depth: this.count,
    };
  }

  // click handles a click on a cell, optionally on the piece at the given
  // depth from the top of its stack (1 for the top piece). It returns a
  // move to send, or "".
  click(cell, depth = 0) {
    this.hint = "";
    if (this.placing) return this.clickGroup(cell);
    const counted = (c) => depth >= 1 && this.moves.some((m) => m.kind === "shift" && m.from === c && m.count === depth);
    const piece = this.piece || (this.src === null && !this.sources().includes(cell) ? this.sole() : "");
    if (piece) {
      const m = this.moves.find((m) => m.kind === "place" && m.to.length === 1 && m.piece === piece && m.to[0] === cell);
      if (m) {
        this.reset();
        return m.text;
      }
    }
    if (this.src !== null && cell === this.src) {
      // A piece of the picked stack chooses how many pieces to take.
      if (counted(cell) && this.count !== depth) {
        this.count = depth;
        this.dest = null;
        return "";
      }
      this.reset();
      return "";
    }
    if (this.src !== null && this.targets().includes(cell)) {
      const c = this.shifts().filter((m) => m.to.includes(cell));
      if (c.length === 1) {
        this.reset();
        return c[0].text;
      }
      // Several counts land here: the player chooses one.
      this.dest = cell;
      this.hint = t("picker.severalCounts", { cell });
      return "";
    }
    if (this.sources().includes(cell)) {
      this.reset();
      this.src = cell;
      if (counted(cell)) this.count = depth;
      return "";
    }
    this.reset();
    if (this.reservePieces().length > 1 && this.moves.some((m) => m.kind === "place" && m.to.length === 1 && m.to[0] === cell)) {
      this.hint = t("picker.reserveFirst");
    }
    return "";
  }

  // guide returns what to do first when nothing is picked, for newcomers,
  // or "".
  guide() {
    if (this.src !== null || this.piece || this.group.length || this.reservePieces().length < 2) return "";
    const shifts = this.moves.some((m) => m.kind === "shift");
    return t(shifts ? "picker.guideShift" : "picker.guide");
  }

  // chooseCount picks how many pieces leave the picked cell; with a
  // pending destination it completes the move.
  chooseCount(k) {
    if (this.src === null) return "";
    if (this.dest !== null) {
      const m = this.moves.find((m) => m.kind === "shift" && m.from === this.src && m.to.includes(this.dest) && m.count === k);
      if (m) {
        this.reset();
        return m.text;
      }
      return "";
    }
    // A count already picked stays picked: clicking it again is no reason
    // to forget it.
    this.count = k;
    return "";
  }

  // clickGroup handles a click while cells are picked for a placing on
  // several cells.
  clickGroup(cell) {
    const i = this.group.indexOf(cell);
    if (i >= 0) {
      this.group.splice(i, 1);
      return "";
    }
    const size = Math.max(...this.moves.filter((m) => m.kind === "place").map((m) => m.to.length));
    if (this.group.length > 0 && this.group.length < size && !this.targets().includes(cell)) {
      if (this.sources().includes(cell)) this.hint = t("picker.cannotGroup", { cells: this.group.join(", "), cell });
      return "";
    }
    if (this.group.length === size) {
      // Replace the last cell when the others go with the new one.
      const rest = this.group.slice(0, -1);
      this.group = rest;
      if (!this.targets().includes(cell)) {
        this.group = [cell];
        return "";
      }
    }
    if (this.group.length === 0 && !this.sources().includes(cell)) return "";
    this.group.push(cell);
    // The last cell of a placing plays it.
    const m = this.groupMove();
    if (m && this.group.length === size) {
      this.reset();
      return m;
    }
    return "";
  }

  // pickPiece picks a piece from the reserve, or drops it when picked.
  pickPiece(letter) {
    const again = this.piece === letter;
    this.reset();
    if (!again) this.piece = letter;
  }
}
