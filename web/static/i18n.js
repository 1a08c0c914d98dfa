// i18n.js translates the interface: English, French and Spanish. The words
// of the pages are in i18n/<lang>.js; each game module (games/*.js) holds
// its own words (rules, notation, option labels) in its text field, one
// object per language. The language is the one the visitor chose with the
// switch in the header (remembered on this device), else the one the server
// took from the browser's Accept-Language for <html lang>, else English.

import en from "./i18n/en.js";
import fr from "./i18n/fr.js";
import es from "./i18n/es.js";

// LANGUAGES lists the languages with their names in themselves.
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
];

// CATALOGS holds the words of the pages, by language.
export const CATALOGS = { en, fr, es };

const KEY = "stax.lang";

// chosen returns the language remembered on this device, or "".
function chosen() {
  try {
    return localStorage.getItem(KEY) || "";
  } catch {
    return "";
  }
}

// language returns the code of the interface's language.
export function language() {
  const known = (l) => (l && CATALOGS[l.slice(0, 2).toLowerCase()] ? l.slice(0, 2).toLowerCase() : "");
  return known(chosen()) || known(document.documentElement.lang) || "en";
}

// setLanguage remembers the visitor's choice.
export function setLanguage(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // Without storage the choice lasts until the page is reloaded.
  }
  document.documentElement.lang = code;
}

// fill replaces {name} in text with params.name.
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));

// t returns the words of key in the interface's language, with {name}
// replaced by params.name; a key with a plural form takes params.n and
// uses key.one when n is 1. Unknown keys fall back to English, then to the
// key itself.
export function t(key, params) {
  const cat = CATALOGS[language()];
  const k = params && params.n === 1 && (key + ".one") in en ? key + ".one" : key;
  const text = cat[k] ?? en[k] ?? k;
  return fill(text, params);
}

// gameText returns the words of key in a game module's text, in the
// interface's language, or fallback.
export function gameText(mod, key, fallback = "", params) {
  const text = mod.text || {};
  const w = (text[language()] || {})[key] ?? (text.en || {})[key];
  return w === undefined ? fallback : fill(w, params);
}

// formatNumber writes a number in the interface's language.
export const formatNumber = (n) => new Intl.NumberFormat(language()).format(n);

// timeAgo writes a past time in words in the interface's language, e.g.
// "5 minutes ago" or "il y a 5 minutes".
export function timeAgo(iso) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const s = Math.max(0, (Date.now() - at) / 1000);
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  if (s < 60) return rtf.format(0, "second");
  if (s < 3600) return rtf.format(-Math.floor(s / 60), "minute");
  if (s < 86400) return rtf.format(-Math.floor(s / 3600), "hour");
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(at));
}

// optionWords returns the label or doc (what) of an option of a game: the
// game module's words, else for another language than English the words
// of the options every game has, else the schema's.
export function optionWords(mod, o, what) {
  const key = `option.${o.key}.${what}`;
  const schema = (what === "label" ? o.label : o.doc) || "";
  const own = gameText(mod, key, undefined);
  if (own !== undefined) return own;
  if (language() !== "en" && key in CATALOGS[language()]) return CATALOGS[language()][key];
  return schema;
}

// playerWords returns a player's name (as the server writes it) in the
// interface's language, from the game module's words "name.<name>".
export const playerWords = (mod, name) => gameText(mod, "name." + name, name);

// colourWords returns a colour name of the pieces in the interface's
// language.
export function colourWords(name) {
  const key = "colour." + name;
  return CATALOGS[language()][key] ?? en[key] ?? name;
}

// errorWords writes an error from the server for people: in English the
// server's own words; in another language the words of its code (the
// websocket's codes, docs/server.md) with the move it was about, else the
// words of its HTTP status, else the server's words.
export function errorWords(err) {
  if (language() === "en") return err.message || err.code || "";
  const cat = CATALOGS[language()];
  if (err.code && "error." + err.code in cat) return t("error." + err.code, { move: err.move || "" });
  const byStatus = `error.http.${err.status}`;
  if (err.status && byStatus in cat) return t(byStatus);
  return err.message || err.code || "";
}
