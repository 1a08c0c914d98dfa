// render.js draws boards as SVG from position strings: the same code draws
// the boards in play, in replays and the diagrams of the rules pages.
//
// Every drawing is plain SVG whose clickable parts carry data attributes
// (data-sq and data-depth on grid boards, data-cell and data-level on
// Diam's ring) and data-testid values for tests.

import { parseGrid, parseDiam, diams, squareName, DIAM_COLOURS } from "./position.js";

const NS = "http://www.w3.org/2000/svg";

// el creates an SVG element with attributes and children.
export function el(name, attrs = {}, ...children) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

// Colours of grid pieces: each has an outline that contrasts with it, so
// both show on light and dark squares.
const PIECE = {
  w: { fill: "#fbfaf5", stroke: "#1a1a1a", name: "white" },
  b: { fill: "#202020", stroke: "#b8b8b8", name: "black" },
};

const SQ = 100; // the side of a grid square, in SVG units

// render draws a position of the named game. marks may hold:
//   last: squares or cells of the last move (highlighted),
//   selected: squares or cells picked so far,
//   targets: squares or cells where the picked piece may go,
//   sources: squares or cells that may be picked,
//   depth: on a grid, the number of top pieces picked on the selected stack,
//   level: on Diam, the level of the picked piece,
//   flip: draw the board from the second player's side,
//   interactive: make squares, cells and pieces focusable buttons,
//   label: an accessible name for the drawing.
export function render(game, pos, marks = {}) {
  if (game === "diam") return renderDiam(pos, marks);
  return renderGrid(game, pos, marks);
}

// renderGrid draws a Pogo or Pisola board.
function renderGrid(game, pos, marks) {
  const p = parseGrid(pos);
  const n = p.size;
  // Room for the coordinates, which grow with the board so that they stay
  // readable when it is scaled down.
  const MARGIN = n <= 3 ? 22 : n <= 6 ? 30 : 36;
  const font = n <= 3 ? 14 : n <= 6 ? 20 : 25;
  const W = n * SQ + MARGIN;
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${W}`,
    class: "board grid " + game,
    role: "img",
    "aria-label": marks.label || `${game} position ${pos}`,
    "data-testid": "board",
    "data-pos": pos,
  });
  const set = (xs) => new Set(xs || []);
  const last = set(marks.last);
  const selected = set(marks.selected);
  const targets = set(marks.targets);
  const sources = set(marks.sources);
  for (let rank = 0; rank < n; rank++) {
    for (let file = 0; file < n; file++) {
      const name = squareName(file, rank);
      const col = marks.flip ? n - 1 - file : file;
      const row = marks.flip ? rank : n - 1 - rank;
      const x = MARGIN + col * SQ;
      const y = row * SQ;
      const sq = p.squares.get(name);
      const g = el("g", {
        class: "square",
        "data-sq": name,
        "data-testid": "sq-" + name,
        tabindex: marks.interactive ? 0 : undefined,
        role: marks.interactive ? "button" : undefined,
        "aria-label": marks.interactive ? squareLabel(name, sq) : undefined,
        "data-height": sq.pieces.length,
        "data-locked": sq.locked ? "true" : undefined,
        "data-roofed": sq.roofed ? "true" : undefined,
      });
      const dark = (file + rank) % 2 === 0;
      g.append(el("rect", { x, y, width: SQ, height: SQ, class: dark ? "sq-dark" : "sq-light" }));
      if (last.has(name)) g.append(el("rect", { x, y, width: SQ, height: SQ, class: "sq-last" }));
      if (sources.has(name)) g.append(el("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: "sq-source" }));
      if (selected.has(name)) g.append(el("rect", { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: "sq-selected" }));
      if (sq.locked) g.append(el("rect", { x, y, width: SQ, height: SQ, class: "sq-locked" }));
      drawStack(g, name, sq, x, y, selected.has(name) ? marks.depth || 0 : 0);
      if (targets.has(name)) {
        g.classList.add("target");
        g.append(el("circle", { cx: x + SQ - 15, cy: y + 15, r: 9, class: "target-dot" }));
        g.append(el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "sq-target" }));
      }
      svg.append(g);
    }
  }
  // Coordinates.
  for (let i = 0; i < n; i++) {
    const col = marks.flip ? n - 1 - i : i;
    const row = marks.flip ? i : n - 1 - i;
    svg.append(el("text", { x: MARGIN + col * SQ + SQ / 2, y: n * SQ + font + 2, class: "coord", "font-size": font }, "abcdefgh"[i]));
    svg.append(el("text", { x: MARGIN / 2, y: row * SQ + SQ / 2 + font / 3, class: "coord", "font-size": font }, String(i + 1)));
  }
  return svg;
}

// squareLabel describes a square for screen readers, e.g. "b1: 2 pieces,
// white on top".
function squareLabel(name, sq) {
  const h = sq.pieces.length;
  if (h === 0) return name + ": empty";
  const top = PIECE[sq.pieces[h - 1]].name;
  const lock = sq.roofed ? ", roofed" : sq.locked ? ", locked" : "";
  return `${name}: ${h} piece${h > 1 ? "s" : ""}, ${top} on top${lock}`;
}

// drawStack draws the pile of discs of one square, bottom to top, with its
// height, lock cross and roof. picked discs from the top are raised.
function drawStack(g, name, sq, x, y, picked) {
  const h = sq.pieces.length;
  if (h === 0) return;
  const top = sq.pieces[h - 1];
  const roofRoom = sq.roofed ? 16 : 0;
  const area = 76 - roofRoom; // vertical room for the discs
  const t = Math.min(20, area / h);
  const w = 76;
  const cx = x + SQ / 2;
  const bottom = y + 90;
  for (let i = 0; i < h; i++) {
    const c = sq.pieces[i];
    const depth = h - i; // 1 for the top piece
    const lift = depth <= picked ? 5 : 0;
    const dy = bottom - (i + 1) * t - lift;
    g.append(
      el("rect", {
        x: cx - w / 2,
        y: dy,
        width: w,
        height: Math.max(t - 1, 1.5),
        rx: Math.min(t / 2, 7),
        fill: PIECE[c].fill,
        stroke: PIECE[c].stroke,
        "stroke-width": t > 5 ? 2 : 1,
        class: "disc" + (depth <= picked ? " picked" : ""),
        "data-sq": name,
        "data-depth": depth,
        "data-testid": `disc-${name}-${depth}`,
      }),
    );
  }
  const topY = bottom - h * t;
  if (sq.locked && !sq.roofed) {
    // The top piece turned to its cross face: a cross over the top disc,
    // drawn light under dark so it shows on either colour.
    const s = 14;
    const ty = topY + Math.max(t - 1, 1.5) / 2;
    const d = `M${cx - s} ${ty - s}L${cx + s} ${ty + s}M${cx + s} ${ty - s}L${cx - s} ${ty + s}`;
    g.append(el("path", { d, stroke: "#fff", "stroke-width": 9, "stroke-linecap": "round", class: "lock-halo" }));
    g.append(el("path", { d, stroke: "#c1121f", "stroke-width": 5, "stroke-linecap": "round", class: "lock-cross", "data-testid": "lock-" + name }));
  }
  if (sq.roofed) {
    g.append(
      el("path", {
        d: `M${cx - 40} ${topY - 1}L${cx} ${topY - 18}L${cx + 40} ${topY - 1}Z`,
        fill: PIECE[top].fill,
        stroke: PIECE[top].stroke,
        "stroke-width": 2.5,
        "stroke-linejoin": "round",
        class: "roof",
        "data-testid": "roof-" + name,
      }),
    );
  }
  if (h >= 3) {
    g.append(el("circle", { cx: x + 13, cy: y + 13, r: 10, class: "height-badge" }));
    g.append(el("text", { x: x + 13, y: y + 17.5, class: "height-text" }, String(h)));
  }
}

// Diam's geometry: cells on a circle, cell 1 at the top, numbered
// clockwise; each cell a tower of 4 level slots.
const DW = 440;
const RING = 148;
const SLOT_W = 60;
const SLOT_H = 23;

// diamCellCentre returns the centre of cell i (1-based).
export function diamCellCentre(i) {
  const a = ((-90 + (i - 1) * 45) * Math.PI) / 180;
  return [DW / 2 + RING * Math.cos(a), DW / 2 + RING * Math.sin(a)];
}

// renderDiam draws Diam's ring.
function renderDiam(pos, marks) {
  const p = parseDiam(pos);
  const svg = el("svg", {
    viewBox: `0 0 ${DW} ${DW}`,
    class: "board diam",
    role: "img",
    "aria-label": marks.label || `diam position ${pos}`,
    "data-testid": "board",
    "data-pos": pos,
  });
  const set = (xs) => new Set((xs || []).map(Number));
  const last = set(marks.last);
  const selected = set(marks.selected);
  const targets = set(marks.targets);
  const sources = set(marks.sources);
  const won = diams(p.cells);
  // The diameters, faint, so opposite cells read as pairs.
  for (let i = 1; i <= 4; i++) {
    const [x1, y1] = diamCellCentre(i);
    const [x2, y2] = diamCellCentre(i + 4);
    svg.append(el("line", { x1, y1, x2, y2, class: "diameter" }));
  }
  svg.append(el("circle", { cx: DW / 2, cy: DW / 2, r: RING, class: "ring" }));
  for (let i = 1; i <= 8; i++) {
    const [cx, cy] = diamCellCentre(i);
    const x = cx - SLOT_W / 2;
    const y0 = cy + 2 * SLOT_H; // the bottom of the tower
    const g = el("g", {
      class: "cell",
      "data-cell": i,
      "data-testid": "cell-" + i,
      tabindex: marks.interactive ? 0 : undefined,
      role: marks.interactive ? "button" : undefined,
      "aria-label": marks.interactive ? `cell ${i}, ${p.cells[i - 1].length} pieces` : undefined,
      "data-height": p.cells[i - 1].length,
    });
    g.append(el("rect", { x: x - 5, y: y0 - 4 * SLOT_H - 5, width: SLOT_W + 10, height: 4 * SLOT_H + 10, rx: 8, class: "cell-bg" }));
    if (last.has(i)) g.append(el("rect", { x: x - 5, y: y0 - 4 * SLOT_H - 5, width: SLOT_W + 10, height: 4 * SLOT_H + 10, rx: 8, class: "cell-last" }));
    if (sources.has(i)) g.append(el("rect", { x: x - 3, y: y0 - 4 * SLOT_H - 3, width: SLOT_W + 6, height: 4 * SLOT_H + 6, rx: 7, class: "cell-source" }));
    if (selected.has(i)) g.append(el("rect", { x: x - 3, y: y0 - 4 * SLOT_H - 3, width: SLOT_W + 6, height: 4 * SLOT_H + 6, rx: 7, class: "cell-selected" }));
    for (let level = 1; level <= 4; level++) {
      const y = y0 - level * SLOT_H;
      const c = p.cells[i - 1][level - 1];
      if (!c) {
        g.append(el("rect", { x: x + 2, y: y + 2, width: SLOT_W - 4, height: SLOT_H - 4, rx: 4, class: "slot", "data-cell": i, "data-level": level }));
        continue;
      }
      const col = DIAM_COLOURS[c];
      const inDiam = won.some((d) => d.level === level && d.cells.includes(i));
      const picked = selected.has(i) && marks.level && level >= marks.level;
      const piece = el("g", {
        class: "piece" + (picked ? " picked" : "") + (inDiam ? " in-diam" : ""),
        "data-cell": i,
        "data-level": level,
        "data-colour": c,
        "data-testid": `piece-${i}-${level}`,
        tabindex: marks.interactive ? 0 : undefined,
        role: marks.interactive ? "button" : undefined,
        "aria-label": marks.interactive ? `${col.name} piece at level ${level} of cell ${i}` : undefined,
      });
      piece.append(el("rect", { x: x + 1, y: y + 1, width: SLOT_W - 2, height: SLOT_H - 2, rx: 5, fill: col.fill, class: "piece-body" }));
      piece.append(el("rect", { x: x + 1, y: y + 1, width: SLOT_W - 2, height: SLOT_H - 2, rx: 5, fill: `url(#pat-${c})`, class: "piece-pattern" }));
      piece.append(el("text", { x: cx, y: y + SLOT_H / 2 + 5, fill: col.ink, class: "piece-letter" }, col.letter));
      g.append(piece);
    }
    if (targets.has(i)) {
      g.classList.add("target");
      g.append(el("rect", { x: x - 6, y: y0 - 4 * SLOT_H - 6, width: SLOT_W + 12, height: 4 * SLOT_H + 12, rx: 9, class: "cell-target" }));
    }
    // The cell's number, outside the ring.
    const [lx, ly] = labelPos(i);
    g.append(el("text", { x: lx, y: ly, class: "cell-number" }, String(i)));
    svg.append(g);
  }
  for (const d of won) {
    const [x1, y1] = diamCellCentre(d.cells[0]);
    const [x2, y2] = diamCellCentre(d.cells[1]);
    const dy = 2 * SLOT_H - (d.level - 0.5) * SLOT_H;
    svg.append(el("line", { x1, y1: y1 + dy, x2, y2: y2 + dy, class: "diam-line", "data-testid": "diam-line" }));
  }
  return svg;
}

// labelPos places the number of cell i beside its tower, on the side away
// from the centre (cells 1 and 5 on the right).
function labelPos(i) {
  const [cx, cy] = diamCellCentre(i);
  const side = i >= 6 ? -1 : 1;
  return [cx + side * (SLOT_W / 2 + 16), cy + 6];
}

// installPatterns defines, once per page, a texture per Diam colour so that
// pieces differ by more than hue: red plain, yellow stripes, green dots,
// blue cross-hatching. The drawings refer to them by id.
export function installPatterns() {
  if (document.getElementById("pat-y")) return;
  const holder = el("svg", { width: 0, height: 0, class: "pattern-holder", "aria-hidden": "true" });
  const defs = el("defs");
  holder.append(defs);
  defs.append(el("pattern", { id: "pat-r", width: 8, height: 8, patternUnits: "userSpaceOnUse" }));
  defs.append(
    el("pattern", { id: "pat-y", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "rgba(0,0,0,.28)", "stroke-width": 3 })),
  );
  defs.append(
    el("pattern", { id: "pat-g", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      el("circle", { cx: 4, cy: 4, r: 1.6, fill: "rgba(255,255,255,.45)" })),
  );
  defs.append(
    el("pattern", { id: "pat-b", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      el("path", { d: "M0 4H8M4 0V8", stroke: "rgba(255,255,255,.3)", "stroke-width": 1.2 })),
  );
  document.body.prepend(holder);
}

// diamChip draws one Diam piece as a small standalone SVG, for reserves and
// legends.
export function diamChip(c, size = 30) {
  const col = DIAM_COLOURS[c];
  const svg = el("svg", { viewBox: "0 0 56 22", width: size * 1.6, height: size * 0.63, class: "chip", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 54, height: 20, rx: 5, fill: col.fill, class: "piece-body" }));
  svg.append(el("rect", { x: 1, y: 1, width: 54, height: 20, rx: 5, fill: `url(#pat-${c})`, class: "piece-pattern" }));
  svg.append(el("text", { x: 28, y: 16, fill: col.ink, class: "piece-letter" }, col.letter));
  return svg;
}

// discChip draws one grid piece as a small standalone SVG.
export function discChip(c, size = 22) {
  const svg = el("svg", { viewBox: "0 0 40 16", width: size * 1.8, height: size * 0.72, class: "chip", "aria-hidden": "true" });
  svg.append(el("rect", { x: 2, y: 2, width: 36, height: 12, rx: 6, fill: PIECE[c].fill, stroke: PIECE[c].stroke, "stroke-width": 2 }));
  return svg;
}
