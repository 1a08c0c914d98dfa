// svg.js builds SVG elements, as dom.js builds HTML ones: the boards of
// render.js, the analysis board's arrows and evaluation graph, the rating
// plots and the header's icons.

const NS = "http://www.w3.org/2000/svg";

// svg creates an SVG element with attributes (undefined, null and false
// ones are left out) and children (nodes, or text for anything else;
// null, undefined and false are left out; arrays are flattened).
export function svg(name, attrs = {}, ...children) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}
