// position.js parses the position strings and move notation as the rules
// (docs/rules.md) for display. The server is the judge of legality; this
// module only reads what it is sent.

// gameName returns the game's name from a spec such as "pogo(u=false)".
export function gameName(spec) {
  const i = spec.indexOf("(");
  return (i < 0 ? spec : spec.slice(0, i)).trim().toLowerCase();
}

// specOptions returns the options written in a spec as an object.
export function specOptions(spec) {
  const out = {};
  const i = spec.indexOf("(");
  if (i < 0) return out;
  for (const kv of spec.slice(i + 1, spec.lastIndexOf(")")).split(",")) {
    const [k, v] = kv.split("=");
    if (k && v !== undefined) out[k.trim()] = v.trim();
  }
  return out;
}

// FILES names the files of the largest grid board.
export const FILES = "abcdefgh";

// squareName returns the name of the square at 0-based file and rank.
export function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

// squareIndex returns [file, rank] (0-based) of a square name, or null.
export function squareIndex(name) {
  const m = /^([a-h])([1-8])$/.exec(name);
  if (!m) return null;
  return [FILES.indexOf(m[1]), Number(m[2]) - 1];
}

// parseGrid parses a Pogo or Pisola position string. It returns
// {size, squares, toMove} where squares maps a square name to
// {pieces: ["w","b",...] bottom to top, locked, roofed}, or throws.
export function parseGrid(pos) {
  const [board, side] = pos.trim().split(/\s+/);
  if (!board || (side !== "w" && side !== "b")) {
    throw new Error("bad position: " + pos);
  }
  const ranks = board.split("/");
  const size = ranks.length;
  const squares = new Map();
  ranks.forEach((row, i) => {
    const rank = size - 1 - i;
    const cols = row.split(",");
    if (cols.length !== size) throw new Error("bad rank " + row);
    cols.forEach((text, file) => {
      let t = text;
      let locked = false;
      let roofed = false;
      if (t.endsWith("*")) {
        locked = true;
        t = t.slice(0, -1);
      } else if (t.endsWith("^")) {
        locked = true;
        roofed = true;
        t = t.slice(0, -1);
      }
      const pieces = t === "-" ? [] : t.split("");
      squares.set(squareName(file, rank), { pieces, locked, roofed });
    });
  });
  return { size, squares, toMove: side };
}

// parseDiam parses a Diam position string. It returns {cells, toMove}:
// cells[0..7] are cells 1 to 8, each its pieces bottom to top ("r", "y",
// "g", "b"); toMove is the 1-based player number.
export function parseDiam(pos) {
  const [board, side] = pos.trim().split(/\s+/);
  const parts = (board || "").split("/");
  if (parts.length !== 8) throw new Error("bad position: " + pos);
  const cells = parts.map((c) => (c === "-" ? [] : c.split("")));
  return { cells, toMove: Number(side) };
}

// diams returns the diams of a Diam position: [{level, cells: [a, b],
// colour}], levels 1-based, cells 1-based.
export function diams(cells) {
  const out = [];
  for (let level = 2; level <= 4; level++) {
    for (let i = 0; i < 4; i++) {
      const a = cells[i][level - 1];
      const b = cells[i + 4][level - 1];
      if (a && a === b) out.push({ level, cells: [i + 1, i + 5], colour: a });
    }
  }
  return out;
}

// parseMove reads a move in the notation of the named game. It returns one
// of {kind: "pass"}, {kind: "step", count, from, to} (Pogo),
// {kind: "place", squares: [a, b]} and {kind: "step", from, to} (Pisola),
// {kind: "drop", colour, cell} and {kind: "shift", cell, level, dir, to}
// (Diam), or null when the text is none of these.
export function parseMove(game, text) {
  const t = text.trim();
  if (t === "pass") return { kind: "pass" };
  let m;
  switch (game) {
    case "pogo":
      m = /^([1-3])([a-c][1-3])-([a-c][1-3])$/.exec(t);
      return m ? { kind: "step", count: Number(m[1]), from: m[2], to: m[3] } : null;
    case "pisola":
      if ((m = /^([a-h][1-8])\+([a-h][1-8])$/.exec(t))) return { kind: "place", squares: [m[1], m[2]] };
      m = /^([a-h][1-8])-([a-h][1-8])$/.exec(t);
      return m ? { kind: "step", from: m[1], to: m[2] } : null;
    case "diam":
      if ((m = /^([rygb])@([1-8])$/.exec(t))) return { kind: "drop", colour: m[1], cell: Number(m[2]) };
      m = /^([1-8]):([1-4])([+-])$/.exec(t);
      if (!m) return null;
      {
        const cell = Number(m[1]);
        const to = m[3] === "+" ? (cell % 8) + 1 : ((cell + 6) % 8) + 1;
        return { kind: "shift", cell, level: Number(m[2]), dir: m[3], to };
      }
  }
  return null;
}

// moveSquares returns the squares (grid games) or cells (Diam) a move
// touches, for highlighting the last move.
export function moveSquares(game, text) {
  const mv = text ? parseMove(game, text) : null;
  if (!mv) return [];
  switch (mv.kind) {
    case "step":
      return [mv.from, mv.to];
    case "place":
      return mv.squares;
    case "drop":
      return [mv.cell];
    case "shift":
      return [mv.cell, mv.to];
  }
  return [];
}

// DIAM_COLOURS describes Diam's colours: letter, name and fill.
export const DIAM_COLOURS = {
  r: { name: "red", letter: "R", fill: "#d62828", ink: "#fff" },
  y: { name: "yellow", letter: "Y", fill: "#f6c915", ink: "#000" },
  g: { name: "green", letter: "G", fill: "#2a9d3f", ink: "#fff" },
  b: { name: "blue", letter: "B", fill: "#1f5fbf", ink: "#fff" },
};

// diamPlayerColours returns the colours each player owns (index 0 is player
// 1) for 2 or 4 players.
export function diamPlayerColours(players) {
  return players === 4 ? [["r"], ["g"], ["y"], ["b"]] : [["r", "y"], ["g", "b"]];
}

// reserves counts the pieces not yet on the board: for Diam an object
// colour -> count (4 each), for Pisola {w, b} from the pieces per player.
export function diamReserves(cells) {
  const r = { r: 4, y: 4, g: 4, b: 4 };
  for (const c of cells) for (const p of c) r[p]--;
  return r;
}

// gridCounts counts the pieces of each colour on a grid board.
export function gridCounts(squares) {
  const n = { w: 0, b: 0 };
  for (const sq of squares.values()) for (const p of sq.pieces) n[p]++;
  return n;
}
