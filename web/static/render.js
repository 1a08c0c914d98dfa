// render.js draws boards as SVG from the server's board views
// (docs/api.md, "View"): the same code draws the boards in play, in
// replays and the diagrams of the rules pages. It knows topologies — a grid
// of squares, a ring of cells — and colours, never a game.
//
// Every drawing is plain SVG whose clickable parts carry data attributes
// (data-sq with the cell's name and data-depth with a piece's depth from
// the top of its stack; data-sq and data-depth on grid boards, data-cell
// and data-level as well on rings) and data-testid values for tests.

import { colourWords, t } from "./i18n.js";
import { svg as el } from "./svg.js";

// COLOURS gives each colour name of the pieces its fill, an outline that
// contrasts with it (so both show on light and dark ground), the ink of a
// letter on it and a texture, so that pieces differ by more than hue.
const COLOURS = {
  white: { fill: "#fbfaf5", stroke: "#1a1a1a", ink: "#000" },
  black: { fill: "#202020", stroke: "#b8b8b8", ink: "#fff" },
  red: { fill: "#d62828", stroke: "#1a1a1a", ink: "#fff", pattern: "plain" },
  yellow: { fill: "#f6c915", stroke: "#1a1a1a", ink: "#000", pattern: "stripes" },
  green: { fill: "#2a9d3f", stroke: "#1a1a1a", ink: "#fff", pattern: "dots" },
  blue: { fill: "#1f5fbf", stroke: "#1a1a1a", ink: "#fff", pattern: "grid" },
};

// SPARE colours pieces whose colour has no entry in COLOURS.
const SPARE = ["#7b2cbf", "#e76f51", "#2a9d8f", "#8d6e63"];

// colourOf returns the drawing colours of the piece with the given letter.
export function colourOf(board, letter) {
  const i = board.pieces.findIndex((p) => p.letter === letter);
  const p = board.pieces[i];
  const c = p && COLOURS[p.name];
  if (c) return { ...c, name: p.name, letter };
  return { fill: SPARE[Math.max(i, 0) % SPARE.length], stroke: "#1a1a1a", ink: "#fff", name: p ? p.name : letter, letter };
}

// pieceOwner returns the seat owning the piece with the given letter.
export const pieceOwner = (board, letter) => (board.pieces.find((p) => p.letter === letter) || { player: -1 }).player;

// render draws a board view. marks may hold:
//   pos: the position string, kept in data-pos,
//   last: cells of the last move (highlighted; the view's own by default),
//   selected: cells picked so far,
//   targets: cells where the picked pieces may go,
//   sources: cells that may be picked,
//   depth: the number of top pieces picked on the selected cell,
//   flip: draw a grid from the second player's side,
//   interactive: make cells and pieces focusable buttons,
//   label: an accessible name for the drawing.
// A board of a topology this module does not know is not guessed at: the
// drawing says so (renderUnknown), and the page's other controls (the
// typed move, the list of legal moves) still work.
export function render(view, marks = {}) {
  const board = view.board;
  const m = { ...marks, last: marks.last || view.last || [] };
  if (board.topology === "ring") return renderRing(board, m);
  if (board.topology === "grid") return renderGrid(board, m);
  return renderUnknown(board, m);
}

// renderUnknown draws, in place of a board whose topology this module
// cannot draw, a frame that says so.
function renderUnknown(board, marks) {
  const words = t("board.unknownTopology", { topology: String(board.topology) });
  const svg = el("svg", {
    viewBox: "0 0 400 120",
    class: "board unknown",
    role: "img",
    "aria-label": words,
    "data-testid": "board",
    "data-pos": marks.pos,
    "data-topology": "unknown",
  });
  svg.append(el("rect", { x: 2, y: 2, width: 396, height: 116, rx: 8, class: "unknown-frame", fill: "none", stroke: "currentColor" }));
  // SVG text does not wrap: the words go in a foreignObject, as HTML.
  const fo = el("foreignObject", { x: 12, y: 8, width: 376, height: 104 });
  const p = document.createElement("p");
  p.className = "unknown-topology";
  p.setAttribute("data-testid", "unknown-topology");
  p.textContent = words;
  fo.append(p);
  svg.append(fo);
  return svg;
}

const SQ = 100; // the side of a grid square, in SVG units

// boardSVG starts the drawing of a board.
function boardSVG(board, marks, size, topology) {
  return el("svg", {
    viewBox: `0 0 ${size} ${size}`,
    class: "board " + topology,
    // A board one can play on holds buttons: it is a group of them, not
    // an image.
    role: marks.interactive ? "group" : "img",
    "aria-label": marks.label || `board ${marks.pos || ""}`,
    "data-testid": "board",
    "data-pos": marks.pos,
    "data-topology": topology,
  });
}

const asSet = (xs) => new Set((xs || []).map(String));

// renderGrid draws a grid of squares, each a pile of discs.
function renderGrid(board, marks) {
  const n = board.size;
  // Room for the coordinates, which grow with the board so that they stay
  // readable when it is scaled down.
  const MARGIN = n <= 3 ? 22 : n <= 6 ? 30 : 36;
  const font = n <= 3 ? 14 : n <= 6 ? 20 : 25;
  const W = n * SQ + MARGIN;
  // The radius of the height badges and target dots, larger on big boards
  // so that they stay readable when the board is scaled down.
  const badge = n > 6 ? 16 : 12;
  const svg = boardSVG(board, marks, W, "grid");
  const last = asSet(marks.last);
  const selected = asSet(marks.selected);
  const targets = asSet(marks.targets);
  const sources = asSet(marks.sources);
  board.cells.forEach((cell, i) => {
    const file = i % n;
    const rank = Math.floor(i / n);
    const name = cell.name;
    const col = marks.flip ? n - 1 - file : file;
    const row = marks.flip ? rank : n - 1 - rank;
    const x = MARGIN + col * SQ;
    const y = row * SQ;
    const locked = hasMark(cell, "locked");
    const roofed = hasMark(cell, "roofed");
    const g = el("g", {
      class: "square",
      "data-sq": name,
      "data-testid": "sq-" + name,
      tabindex: marks.interactive ? 0 : undefined,
      role: marks.interactive ? "button" : undefined,
      "aria-label": marks.interactive ? cellLabel(board, cell) : undefined,
      "data-height": cell.stack.length,
      "data-locked": locked ? "true" : undefined,
      "data-roofed": roofed ? "true" : undefined,
    });
    const dark = (file + rank) % 2 === 0;
    g.append(el("rect", { x, y, width: SQ, height: SQ, class: dark ? "sq-dark" : "sq-light" }));
    if (last.has(name)) g.append(el("rect", { x, y, width: SQ, height: SQ, class: "sq-last" }));
    if (sources.has(name)) g.append(el("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: "sq-source" }));
    if (selected.has(name)) g.append(el("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: "sq-selected" }));
    if (locked) g.append(el("rect", { x, y, width: SQ, height: SQ, class: "sq-locked" }));
    const ghost = marks.ghost && marks.ghost.cells.includes(name) ? marks.ghost.piece : "";
    drawPile(g, board, cell, x, y, selected.has(name) ? marks.depth || 0 : 0, badge, ghost);
    if (targets.has(name)) {
      g.classList.add("target");
      g.append(el("circle", { cx: x + SQ - badge - 3, cy: y + badge + 3, r: badge - 1, class: "target-dot" }));
      g.append(el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "sq-target" }));
    }
    svg.append(g);
  });
  // Coordinates.
  for (let i = 0; i < n; i++) {
    const col = marks.flip ? n - 1 - i : i;
    const row = marks.flip ? i : n - 1 - i;
    svg.append(el("text", { x: MARGIN + col * SQ + SQ / 2, y: n * SQ + font + 2, class: "coord", "font-size": font }, board.cells[i].name.slice(0, 1)));
    svg.append(el("text", { x: MARGIN / 2, y: row * SQ + SQ / 2 + font / 3, class: "coord", "font-size": font }, board.cells[i * n].name.slice(1)));
  }
  return svg;
}

const hasMark = (cell, m) => (cell.marks || []).includes(m);

// cellLabel describes a cell for screen readers, e.g. "b1: 2 pieces, white
// on top".
function cellLabel(board, cell) {
  const h = cell.stack.length;
  if (h === 0) return t("board.empty", { cell: cell.name });
  const top = colourWords(colourOf(board, cell.stack[h - 1]).name);
  const mark = ["roofed", "locked"].find((m) => hasMark(cell, m));
  return t("board.cell", { cell: cell.name, n: h, top }) + (mark ? ", " + t("board." + mark) : "");
}

// drawPile draws the pile of discs of one square, bottom to top, with its
// height, lock cross and roof, below the corners kept for the height badge
// and the target dot (of radius badge). picked discs from the top are
// raised; ghost is a piece about to be placed, drawn faint on top.
function drawPile(g, board, cell, x, y, picked, badge, ghost) {
  const stack = cell.stack + ghost;
  const h = stack.length;
  if (h === 0) return;
  const name = cell.name;
  const roofed = hasMark(cell, "roofed");
  const top = colourOf(board, stack[h - 1]);
  const area = 90 - (2 * badge + 6) - (roofed ? 16 : 0); // vertical room for the discs
  const t = Math.min(20, area / h);
  const w = 76;
  const cx = x + SQ / 2;
  const bottom = y + 90;
  for (let i = 0; i < h; i++) {
    const c = colourOf(board, stack[i]);
    if (ghost && i === h - 1) {
      g.append(el("rect", { x: cx - w / 2, y: bottom - h * t, width: w, height: Math.max(t - 1, 1.5), rx: Math.min(t / 2, 7), fill: c.fill, stroke: c.stroke, "stroke-width": 2, class: "ghost", "data-testid": "ghost-" + name }));
      continue;
    }
    const depth = h - 1 - i + (ghost ? 0 : 1); // 1 for the top piece
    const lift = depth <= picked ? 5 : 0;
    const lit = hasMark(cell, "highlighted") && ((cell.levels || []).includes(i + 1) || (cell.levels || []).includes(0));
    g.append(
      el("rect", {
        x: cx - w / 2,
        y: bottom - (i + 1) * t - lift,
        width: w,
        height: Math.max(t - 1, 1.5),
        rx: Math.min(t / 2, 7),
        fill: c.fill,
        stroke: c.stroke,
        "stroke-width": t > 5 ? 2 : 1,
        class: "disc" + (depth <= picked ? " picked" : "") + (lit ? " highlighted" : ""),
        "data-sq": name,
        "data-depth": depth,
        "data-colour": c.name,
        "data-testid": `disc-${name}-${depth}`,
      }),
    );
  }
  const topY = bottom - h * t;
  if (hasMark(cell, "locked") && !roofed) {
    // The top piece turned to its cross face: a cross over the top disc,
    // drawn light under dark so it shows on either colour.
    const s = 14;
    const ty = topY + Math.max(t - 1, 1.5) / 2;
    const d = `M${cx - s} ${ty - s}L${cx + s} ${ty + s}M${cx + s} ${ty - s}L${cx - s} ${ty + s}`;
    g.append(el("path", { d, stroke: "#fff", "stroke-width": 9, "stroke-linecap": "round", class: "lock-halo" }));
    g.append(el("path", { d, stroke: "#c1121f", "stroke-width": 5, "stroke-linecap": "round", class: "lock-cross", "data-testid": "lock-" + name }));
  }
  if (roofed) {
    g.append(
      el("path", {
        d: `M${cx - 40} ${topY - 1}L${cx} ${topY - 18}L${cx + 40} ${topY - 1}Z`,
        fill: top.fill,
        stroke: top.stroke,
        "stroke-width": 2.5,
        "stroke-linejoin": "round",
        class: "roof",
        "data-testid": "roof-" + name,
      }),
    );
  }
  if (cell.stack.length >= 3) {
    g.append(el("circle", { cx: x + badge + 3, cy: y + badge + 3, r: badge, class: "height-badge" }));
    g.append(el("text", { x: x + badge + 3, y: y + badge + 3 + badge * 0.45, class: "height-text", "font-size": badge * 1.25 }, String(cell.stack.length)));
  }
}

// The geometry of rings: cells on a circle, the first at the top, numbered
// clockwise; each cell a tower of level slots.
const DW = 440;
const RING = 148;
const SLOT_W = 60;
const SLOT_H = 23;

// ringCentre returns the centre of cell i (0-based) of a ring of n.
function ringCentre(i, n) {
  const a = ((-90 + (i * 360) / n) * Math.PI) / 180;
  return [DW / 2 + RING * Math.cos(a), DW / 2 + RING * Math.sin(a)];
}

// renderRing draws a ring of cells, each a tower of pieces.
function renderRing(board, marks) {
  const n = board.size;
  const levels = Math.max(board.height || 0, ...board.cells.map((c) => c.stack.length), 1);
  const slotH = Math.min(SLOT_H, (4 * SLOT_H) / levels);
  const svg = boardSVG(board, marks, DW, "ring");
  const last = asSet(marks.last);
  const selected = asSet(marks.selected);
  const targets = asSet(marks.targets);
  const sources = asSet(marks.sources);
  // The diameters, faint, so facing cells read as pairs.
  for (let i = 0; i < n / 2; i++) {
    const [x1, y1] = ringCentre(i, n);
    const [x2, y2] = ringCentre(i + n / 2, n);
    svg.append(el("line", { x1, y1, x2, y2, class: "diameter" }));
  }
  svg.append(el("circle", { cx: DW / 2, cy: DW / 2, r: RING, class: "ring" }));
  const tower = 4 * SLOT_H;
  board.cells.forEach((cell, i) => {
    const [cx, cy] = ringCentre(i, n);
    const name = cell.name;
    const h = cell.stack.length;
    const x = cx - SLOT_W / 2;
    const y0 = cy + 2 * SLOT_H; // the bottom of the tower
    const g = el("g", {
      class: "cell",
      "data-cell": name,
      "data-sq": name,
      "data-testid": "cell-" + name,
      tabindex: marks.interactive ? 0 : undefined,
      role: marks.interactive ? "button" : undefined,
      "aria-label": marks.interactive ? t("board.ringCell", { cell: name, n: h }) : undefined,
      "data-height": h,
    });
    const frame = (pad, cls, rx) => el("rect", { x: x - pad, y: y0 - tower - pad, width: SLOT_W + 2 * pad, height: tower + 2 * pad, rx, class: cls });
    g.append(frame(5, "cell-bg", 8));
    if (last.has(name)) g.append(frame(5, "cell-last", 8));
    if (sources.has(name)) g.append(frame(3, "cell-source", 7));
    if (selected.has(name)) g.append(frame(3, "cell-selected", 7));
    for (let level = 1; level <= levels; level++) {
      const y = y0 - level * slotH;
      const letter = cell.stack[level - 1];
      if (!letter) {
        g.append(el("rect", { x: x + 2, y: y + 2, width: SLOT_W - 4, height: slotH - 4, rx: 4, class: "slot", "data-cell": name, "data-level": level }));
        continue;
      }
      const col = colourOf(board, letter);
      const depth = h - level + 1;
      const lit = hasMark(cell, "highlighted") && ((cell.levels || []).includes(level) || (cell.levels || []).includes(0));
      const picked = selected.has(name) && marks.depth && depth <= marks.depth;
      const piece = el("g", {
        class: "piece" + (picked ? " picked" : "") + (lit ? " highlighted" : ""),
        "data-cell": name,
        "data-sq": name,
        "data-level": level,
        "data-depth": depth,
        "data-colour": col.name,
        "data-testid": `piece-${name}-${level}`,
        tabindex: marks.interactive ? 0 : undefined,
        role: marks.interactive ? "button" : undefined,
        "aria-label": marks.interactive ? t("board.piece", { colour: colourWords(col.name), level, cell: name }) : undefined,
      });
      piece.append(...slotPiece(col, x + 1, y + 1, SLOT_W - 2, slotH - 2));
      g.append(piece);
    }
    if (targets.has(name)) {
      g.classList.add("target");
      g.append(frame(6, "cell-target", 9));
    }
    // The cell's name, outside the ring, on the side away from the centre.
    const side = i > n / 2 ? -1 : 1;
    g.append(el("text", { x: cx + side * (SLOT_W / 2 + 16), y: cy + 6, class: "cell-number" }, name));
    svg.append(g);
  });
  // Highlighted pieces at one level of facing cells are joined by a line.
  for (let i = 0; i < n / 2; i++) {
    const a = board.cells[i];
    const b = board.cells[i + n / 2];
    for (const level of a.levels || []) {
      if (!(b.levels || []).includes(level) || level === 0) continue;
      const [ax, ay] = ringCentre(i, n);
      const [bx, by] = ringCentre(i + n / 2, n);
      const dy = 2 * SLOT_H - (level - 0.5) * slotH;
      // The line runs between the towers, from the edge of one to the
      // edge of the other, clear of the pieces and their letters.
      const [x1, y1] = towerExit(ax, ay, ax, ay + dy, bx, by + dy);
      const [x2, y2] = towerExit(bx, by, bx, by + dy, ax, ay + dy);
      svg.append(el("line", { x1, y1, x2, y2, class: "highlight-line", "data-testid": "highlight-line" }));
    }
  }
  return svg;
}

// towerExit returns where the segment from (px, py), inside the tower of
// the cell centred on (cx, cy), towards (qx, qy) leaves the tower's frame.
function towerExit(cx, cy, px, py, qx, qy) {
  const halfW = SLOT_W / 2 + 8;
  const top = cy - 2 * SLOT_H - 8;
  const bottom = cy + 2 * SLOT_H + 8;
  const dx = qx - px;
  const dy = qy - py;
  let t = 1;
  if (dx > 0) t = Math.min(t, (cx + halfW - px) / dx);
  if (dx < 0) t = Math.min(t, (cx - halfW - px) / dx);
  if (dy > 0) t = Math.min(t, (bottom - py) / dy);
  if (dy < 0) t = Math.min(t, (top - py) / dy);
  return [px + t * dx, py + t * dy];
}

// slotPiece draws one piece of a ring as a rounded slot with its texture
// and its letter.
function slotPiece(col, x, y, w, h) {
  const out = [el("rect", { x, y, width: w, height: h, rx: 5, fill: col.fill, class: "piece-body" })];
  if (col.pattern) out.push(el("rect", { x, y, width: w, height: h, rx: 5, fill: `url(#pat-${col.pattern})`, class: "piece-pattern" }));
  if (h >= 12) out.push(el("text", { x: x + w / 2, y: y + h / 2 + 5, fill: col.ink, class: "piece-letter" }, col.letter.toUpperCase()));
  return out;
}

// installPatterns defines, once per page, the textures of the pieces: plain,
// stripes, dots and a grid. The drawings refer to them by id.
export function installPatterns() {
  if (document.getElementById("pat-stripes")) return;
  const holder = el("svg", { width: 0, height: 0, class: "pattern-holder", "aria-hidden": "true" });
  const defs = el("defs");
  holder.append(defs);
  defs.append(el("pattern", { id: "pat-plain", width: 8, height: 8, patternUnits: "userSpaceOnUse" }));
  defs.append(
    el("pattern", { id: "pat-stripes", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "rgba(0,0,0,.28)", "stroke-width": 3 })),
  );
  defs.append(
    el("pattern", { id: "pat-dots", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      el("circle", { cx: 4, cy: 4, r: 1.6, fill: "rgba(255,255,255,.45)" })),
  );
  defs.append(
    el("pattern", { id: "pat-grid", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      el("path", { d: "M0 4H8M4 0V8", stroke: "rgba(255,255,255,.3)", "stroke-width": 1.2 })),
  );
  document.body.prepend(holder);
}

// chip draws one piece of a board as a small standalone SVG, for reserves,
// seats and legends: a disc for grids, a slot for rings.
export function chip(board, letter, size = 22) {
  const col = colourOf(board, letter);
  if (board.topology === "ring") {
    const svg = el("svg", { viewBox: "0 0 56 22", width: size * 1.6, height: size * 0.63, class: "chip", "aria-hidden": "true", "data-colour": col.name });
    svg.append(...slotPiece(col, 1, 1, 54, 20));
    return svg;
  }
  const svg = el("svg", { viewBox: "0 0 40 16", width: size * 1.8, height: size * 0.72, class: "chip", "aria-hidden": "true", "data-colour": col.name });
  svg.append(el("rect", { x: 2, y: 2, width: 36, height: 12, rx: 6, fill: col.fill, stroke: col.stroke, "stroke-width": 2 }));
  return svg;
}
