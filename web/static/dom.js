// dom.js builds HTML elements.

// h creates an element. attrs sets properties for on* handlers and
// "class"/"text", and attributes for everything else.
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "value") e.value = v;
    else if (k === "checked" || k === "disabled" || k === "selected") e[k] = Boolean(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// clear removes every child of an element and returns it.
export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
  return e;
}

// navigate goes to a path inside the app without reloading the page.
export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("stax:navigate"));
}
