// storage.js keeps small values on this device (localStorage) and does
// without when the browser refuses storage (private browsing, storage
// turned off or full): a read then gives its fallback and a write is
// dropped, so that nothing else needs a try/catch.

// area returns the browser's localStorage, or null when it refuses it.
function area() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// load returns the text stored under key, or fallback.
export function load(key, fallback = "") {
  try {
    const v = area()?.getItem(key);
    return v === null || v === undefined ? fallback : v;
  } catch {
    return fallback;
  }
}

// save stores text under key (removes it when text is null) and reports
// whether it was kept.
export function save(key, text) {
  try {
    const s = area();
    if (!s) return false;
    if (text === null || text === undefined) s.removeItem(key);
    else s.setItem(key, String(text));
    return true;
  } catch {
    return false;
  }
}

// loadJSON returns the value stored as JSON under key, or fallback when
// there is none or it is not JSON.
export function loadJSON(key, fallback) {
  const text = load(key, "");
  if (!text) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

// saveJSON stores value as JSON under key and reports whether it was kept.
export const saveJSON = (key, value) => save(key, JSON.stringify(value));
