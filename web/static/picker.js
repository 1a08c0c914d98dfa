// picker.js turns clicks into moves. It knows nothing of legality beyond
// the list of legal moves the server sends: a square, cell or piece can be
// picked only when some legal move starts there, and a destination is
// offered only when a legal move ends there.

import { parseMove } from "./position.js";

// Picker holds what has been picked towards a move of one position.
export class Picker {
  // constructor takes the game's name and the legal moves in notation.
  constructor(game, legal) {
    this.game = game;
    this.moves = [];
    for (const text of legal || []) {
      const mv = parseMove(game, text);
      if (mv) this.moves.push({ ...mv, text });
    }
    this.reset();
  }

  // reset forgets what was picked.
  reset() {
    this.src = null; // a square (grid) or cell number (Diam)
    this.count = 0; // Pogo: pieces taken from src (0: not chosen yet)
    this.level = 0; // Diam: the level of the picked piece
    this.colour = ""; // Diam: the colour picked from the reserve
    this.pair = []; // Pisola placing: squares picked so far
    this.dest = null; // Pogo: a destination reached by several counts
    this.hint = "";
  }

  // placing reports whether the moves are Pisola placements.
  get placing() {
    return this.moves.some((m) => m.kind === "place");
  }

  // canPass reports whether pass is a legal move.
  get canPass() {
    return this.moves.some((m) => m.kind === "pass");
  }

  // fromSource returns the step or shift moves that start at the picked
  // source (with the picked count, in Pogo, once one is chosen).
  fromSource() {
    return this.moves.filter((m) => {
      if (this.game === "diam") return m.kind === "shift" && m.cell === this.src && m.level === this.level;
      return m.kind === "step" && m.from === this.src && (!this.count || m.count === this.count);
    });
  }

  // sources returns what may be picked to start a move.
  sources() {
    const s = new Set();
    for (const m of this.moves) {
      if (m.kind === "step") s.add(m.from);
      else if (m.kind === "shift") s.add(m.cell);
      else if (m.kind === "place") m.squares.forEach((q) => s.add(q));
    }
    return [...s];
  }

  // targets returns the squares or cells that finish or continue the move
  // picked so far.
  targets() {
    if (this.placing) {
      if (this.pair.length !== 1) return [];
      const a = this.pair[0];
      const t = new Set();
      for (const m of this.moves) {
        if (m.kind !== "place") continue;
        if (m.squares[0] === a) t.add(m.squares[1]);
        if (m.squares[1] === a) t.add(m.squares[0]);
      }
      return [...t];
    }
    if (this.colour) {
      return this.moves.filter((m) => m.kind === "drop" && m.colour === this.colour).map((m) => m.cell);
    }
    if (this.src === null) return [];
    return [...new Set(this.fromSource().map((m) => m.to))];
  }

  // counts returns the numbers of pieces (Pogo) that may leave the picked
  // stack, or those that reach the pending destination.
  counts() {
    if (this.game !== "pogo" || this.src === null) return [];
    const s = new Set();
    for (const m of this.moves) {
      if (m.kind === "step" && m.from === this.src && (this.dest === null || m.to === this.dest)) s.add(m.count);
    }
    return [...s].sort();
  }

  // reserveColours returns the colours (Diam) that may be placed.
  reserveColours() {
    return [...new Set(this.moves.filter((m) => m.kind === "drop").map((m) => m.colour))];
  }

  // pairMove returns the legal placement of the two picked squares, or "".
  pairMove() {
    if (this.pair.length !== 2) return "";
    const [a, b] = this.pair;
    const m = this.moves.find(
      (m) => m.kind === "place" && ((m.squares[0] === a && m.squares[1] === b) || (m.squares[0] === b && m.squares[1] === a)),
    );
    return m ? m.text : "";
  }

  // marks returns what the board should highlight.
  marks() {
    const selected = [];
    if (this.placing) selected.push(...this.pair);
    else if (this.src !== null) selected.push(this.src);
    if (this.dest !== null) selected.push(this.dest);
    const nothingPicked = this.src === null && !this.colour && this.pair.length === 0;
    return {
      selected,
      targets: this.targets(),
      sources: nothingPicked && !this.placing ? this.sources() : [],
      depth: this.game === "pogo" ? this.count : 0,
      level: this.level,
    };
  }

  // clickSquare handles a click on a grid square, optionally on the disc at
  // the given depth from the top. It returns a move to send, or "".
  clickSquare(sq, depth = 0) {
    if (this.placing) return this.clickPlace(sq);
    this.hint = "";
    if (this.src !== null && sq === this.src) {
      // Clicking a disc of the picked stack chooses how many pieces to take.
      if (this.game === "pogo" && depth >= 1 && this.moves.some((m) => m.from === sq && m.count === depth)) {
        this.count = this.count === depth ? 0 : depth;
        this.dest = null;
        return "";
      }
      this.reset();
      return "";
    }
    if (this.src !== null && this.targets().includes(sq)) {
      const c = this.fromSource().filter((m) => m.to === sq);
      if (c.length === 1) {
        const text = c[0].text;
        this.reset();
        return text;
      }
      // Pogo: one and three pieces can both land here.
      this.dest = sq;
      this.hint = "Several counts reach " + sq + ": choose how many pieces to move.";
      return "";
    }
    if (this.sources().includes(sq)) {
      this.reset();
      this.src = sq;
      if (this.game === "pogo" && depth >= 1 && this.moves.some((m) => m.from === sq && m.count === depth)) this.count = depth;
      return "";
    }
    this.reset();
    return "";
  }

  // chooseCount picks how many pieces (Pogo) leave the picked stack; with
  // a pending destination it completes the move.
  chooseCount(k) {
    if (this.src === null) return "";
    if (this.dest !== null) {
      const m = this.moves.find((m) => m.kind === "step" && m.from === this.src && m.to === this.dest && m.count === k);
      if (m) {
        this.reset();
        return m.text;
      }
      return "";
    }
    this.count = this.count === k ? 0 : k;
    return "";
  }

  // clickPlace handles a click during Pisola's placing.
  clickPlace(sq) {
    this.hint = "";
    const i = this.pair.indexOf(sq);
    if (i >= 0) {
      this.pair.splice(i, 1);
      return "";
    }
    if (this.pair.length === 1 && !this.targets().includes(sq)) {
      if (this.sources().includes(sq)) {
        this.hint = "Those two squares cannot be placed together (they touch).";
      }
      return "";
    }
    if (this.pair.length === 2) {
      // Replace the second square when the first pairs with the new one.
      const first = this.pair[0];
      this.pair = [first];
      if (!this.targets().includes(sq)) {
        this.pair = [sq];
        return "";
      }
    }
    if (this.pair.length === 0 && !this.sources().includes(sq)) return "";
    this.pair.push(sq);
    return "";
  }

  // clickCell handles a click on Diam's ring: on a piece (level >= 1) or
  // on the cell itself (level 0).
  clickCell(cell, level = 0) {
    this.hint = "";
    if (this.targets().includes(cell) && !(this.src === cell)) {
      const m = this.colour
        ? this.moves.find((m) => m.kind === "drop" && m.colour === this.colour && m.cell === cell)
        : this.fromSource().find((m) => m.to === cell);
      if (m) {
        this.reset();
        return m.text;
      }
    }
    if (level >= 1 && this.src === cell && this.level === level) {
      this.reset();
      return "";
    }
    if (level >= 1 && this.moves.some((m) => m.kind === "shift" && m.cell === cell && m.level === level)) {
      this.reset();
      this.src = cell;
      this.level = level;
      return "";
    }
    if (level === 0) {
      // A click beside the pieces picks the cell's only movable level, if
      // it has exactly one.
      const levels = [...new Set(this.moves.filter((m) => m.kind === "shift" && m.cell === cell).map((m) => m.level))];
      if (levels.length === 1 && this.src !== cell) {
        this.reset();
        this.src = cell;
        this.level = levels[0];
        return "";
      }
    }
    this.reset();
    return "";
  }

  // pickColour picks a colour from the reserve (Diam).
  pickColour(c) {
    const again = this.colour === c;
    this.reset();
    if (!again) this.colour = c;
  }
}
