// wire.js reads the board views and game states the server sends in their
// compact form (docs/api.md, "View" and the "update" message) into the
// form the pages draw from: a board's cells with their names, stacks and
// marks, and its legal moves one by one, {text, kind, piece, from, count,
// to}. The same code reads the views of the engine in the browser
// (cmd/stax-wasm builds them with the server's package).

// ALPHABET writes the cells of a move group, one character each: the
// cell's index (server/view/board.Alphabet).
export const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// cellNames returns the names of a board's cells in order: a1, b1, …, a2,
// … on a grid, 1 to size around a ring.
export function cellNames(board) {
  const n = board.size;
  if (board.topology === "ring") return Array.from({ length: n }, (_, i) => String(i + 1));
  return Array.from({ length: n * n }, (_, i) => String.fromCharCode(97 + (i % n)) + String(1 + Math.floor(i / n)));
}

// adjacent reports whether cells i and j are neighbours: orthogonally on a
// grid, next to each other around a ring.
export function adjacent(board, i, j) {
  const n = board.size;
  if (board.topology === "ring") {
    const d = (i - j + n) % n;
    return i !== j && (d === 1 || d === n - 1);
  }
  const [fi, ri, fj, rj] = [i % n, Math.floor(i / n), j % n, Math.floor(j / n)];
  return (ri === rj && Math.abs(fi - fj) === 1) || (fi === fj && Math.abs(ri - rj) === 1);
}

const cellsOf = (text, n) => [...(text || "")].map((c) => ALPHABET.indexOf(c)).filter((i) => i >= 0 && i < n);
const fill = (text, from, to) => text.replaceAll("{from}", from).replaceAll("{to}", to);

// choices returns every choice of pick cells of set, in its order, no two
// of them neighbours when apart.
function choices(board, set, pick, apart) {
  const out = [];
  const cur = [];
  const walk = (from) => {
    if (cur.length === pick) {
      out.push([...cur]);
      return;
    }
    for (let i = from; i < set.length; i++) {
      const c = set[i];
      if (apart && cur.some((d) => adjacent(board, c, d))) continue;
      cur.push(c);
      walk(i + 1);
      cur.pop();
    }
  };
  walk(0);
  return out;
}

// expandMoves spells out the legal moves of a view's groups (its "moves",
// by kind) on its board.
export function expandMoves(board, groups) {
  const names = cellNames(board);
  const out = [];
  if (!groups) return out;
  for (const g of groups.place || []) {
    const set = cellsOf(g.to, names.length);
    if (!g.pick) {
      for (const c of set) out.push({ text: fill(g.text, "", names[c]), kind: "place", piece: g.piece, to: [names[c]] });
      continue;
    }
    for (const cs of choices(board, set, g.pick, g.apart)) {
      const to = cs.map((c) => names[c]);
      out.push({ text: fill(g.text, "", to.join(g.join || "")), kind: "place", piece: g.piece, to });
    }
  }
  for (const g of groups.shift || []) {
    for (const list of g.from || []) {
      const [from, ...tos] = cellsOf(list, Math.min(names.length, board.stacks.length));
      if (from === undefined) continue;
      const count = g.level ? board.stacks[from].length - g.level + 1 : g.count;
      for (const c of tos) out.push({ text: fill(g.text, names[from], names[c]), kind: "shift", from: names[from], count, to: [names[c]] });
    }
  }
  if (groups.pass) out.push({ text: groups.pass, kind: "pass" });
  return out;
}

// isWire reports whether v is a board view as the server sends it.
const isWire = (v) => Boolean(v && typeof v === "object" && v.board && Array.isArray(v.board.stacks) && typeof v.board.topology === "string");

// expandView returns the view the pages draw from: its board's cells
// spelled out ({name, stack, marks, levels}) and its moves one by one. A
// view already spelled out, or anything else, is returned as it is.
export function expandView(v) {
  if (!isWire(v)) return v;
  const { stacks, marks, levels, ...rest } = v.board;
  const names = cellNames(v.board);
  const cells = stacks.map((stack, i) => ({ name: names[i], stack }));
  for (const [mark, list] of Object.entries(marks || {})) for (const i of list) if (cells[i]) (cells[i].marks = cells[i].marks || []).push(mark);
  for (const [i, ls] of Object.entries(levels || {})) if (cells[i]) cells[i].levels = ls;
  return { ...v, board: { ...rest, cells }, moves: expandMoves(v.board, v.moves) };
}

// expandViews spells out every board view found in x (an answer of the
// API or the engine, itself a view or holding some), in place, and
// returns it.
export function expandViews(x, depth = 0) {
  if (isWire(x)) return expandView(x);
  if (!x || typeof x !== "object" || depth > 6) return x;
  if (Array.isArray(x)) {
    x.forEach((y, i) => (x[i] = expandViews(y, depth + 1)));
    return x;
  }
  for (const [k, y] of Object.entries(x)) x[k] = expandViews(y, depth + 1);
  return x;
}

// nested lists the fields of a state that an update changes field by
// field ("" is the state itself).
const NESTED = { "": ["view", "clock"], view: ["board"] };

function merge(s, u, path) {
  const out = { ...s };
  for (const [k, v] of Object.entries(u)) {
    const o = s[k];
    if ((NESTED[path] || []).includes(k) && o && v && typeof o === "object" && typeof v === "object" && !Array.isArray(v)) out[k] = merge(o, v, k);
    else if (path === "board" && k === "stacks" && Array.isArray(o) && v && !Array.isArray(v)) {
      const stacks = [...o];
      for (const [i, st] of Object.entries(v)) stacks[Number(i)] = st;
      out[k] = stacks;
    } else if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

// applyUpdate returns the state (as the server sends it) after an update
// message's state u, or null when u is out of step with it (its ply is
// neither the state's nor the next): the client should reconnect. The
// changed fields replace the state's, view, view.board and clock field by
// field, the board's stacks cell by cell; a new ply appends the move and
// position to moves and positions.
export function applyUpdate(s, u) {
  if (!s || (u.ply !== s.ply && u.ply !== s.ply + 1)) return null;
  const next = merge(s, u, "");
  if (u.ply === s.ply + 1) {
    next.moves = (s.moves || []).concat([u.lastMove]);
    next.positions = (s.positions || []).concat([u.position]);
  }
  return next;
}

// drawnState returns a game's state as the pages draw it: its view spelled
// out and legal, the notation of its legal moves.
export function drawnState(s) {
  const view = expandView(s.view);
  return { ...s, view, legal: view && view.moves ? view.moves.map((m) => m.text) : [] };
}
