// i18n.js translates the interface: English, French and Spanish. The words
// of the pages are in i18n/<lang>.js; each game module (games/*.js) holds
// its own words (rules, notation, option labels) in its text field, one
// object per language. The language is the one the visitor chose with the
// switch in the header (remembered on this device), else the one the server
// took from the browser's Accept-Language for <html lang>, else English.
// English, the words of last resort, is always loaded, and the language in
// use before the first word (the server preloads the one of <html lang>);
// another is loaded when the visitor switches to it (setLanguage).

import { load, save } from "./storage.js";
import en from "./i18n/en.js";

// LANGUAGES lists the languages with their names in themselves.
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
];

// CATALOGS holds the words of the pages, by language: those loaded.
export const CATALOGS = { en };

// catalogs imports the catalogue of each language but English.
const catalogs = {
  fr: () => import("./i18n/fr.js"),
  es: () => import("./i18n/es.js"),
};

// loadCatalog loads the catalogue of a language, if it is not yet.
async function loadCatalog(code) {
  if (!CATALOGS[code] && catalogs[code]) CATALOGS[code] = (await catalogs[code]()).default;
}

const KEY = "stax.lang";

// chosen returns the language remembered on this device, or "".
const chosen = () => load(KEY);

// language returns the code of the interface's language.
export function language() {
  const known = (l) => (l && LANGUAGES.some((x) => x.code === l.slice(0, 2).toLowerCase()) ? l.slice(0, 2).toLowerCase() : "");
  return known(chosen()) || known(document.documentElement.lang) || "en";
}

// setLanguage loads the words of a language and remembers the visitor's
// choice (without storage, until the page is reloaded).
export async function setLanguage(code) {
  await loadCatalog(code);
  save(KEY, code);
  document.documentElement.lang = code;
}

await loadCatalog(language());

// fill replaces {name} in text with params.name.
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));

// plurals caches an Intl.PluralRules per language.
const plurals = {};

// pluralKey returns the key of the words of key for the number n in
// language lang: key.<category> when the catalogue has that plural form
// (Intl.PluralRules: "one" is 1 in English, 0 and 1 in French; "two",
// "few" and "many" where a language has them), else key.
export function pluralKey(key, n, lang) {
  if (typeof n !== "number" || !Number.isFinite(n)) return key;
  const rules = (plurals[lang] ??= new Intl.PluralRules(lang));
  const k = key + "." + rules.select(n);
  return k in (CATALOGS[lang] || en) ? k : key;
}

// t returns the words of key in the interface's language, with {name}
// replaced by params.name; a key with plural forms takes params.n and
// chooses the form by the language's plural rules (pluralKey). Unknown keys
// fall back to English, then to the key itself.
export function t(key, params) {
  const lang = language();
  const cat = CATALOGS[lang] || en;
  const n = params ? params.n : undefined;
  const text = key in cat ? cat[pluralKey(key, n, lang)] : (en[pluralKey(key, n, "en")] ?? key);
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
// game module's words, else the words of the options every game has (in
// English only where the schema has none), else the schema's.
export function optionWords(mod, o, what) {
  const key = `option.${o.key}.${what}`;
  const schema = (what === "label" ? o.label : o.doc) || "";
  const own = gameText(mod, key, undefined);
  if (own !== undefined) return own;
  const cat = CATALOGS[language()] || en;
  if ((language() !== "en" || !schema) && key in cat) return cat[key];
  return schema;
}

// levelWords returns the name of a computer level (as the server names
// it: random, beginner, easy…) in the interface's language.
export const levelWords = (level) => (("level." + level) in CATALOGS.en ? t("level." + level) : level);

// playerWords returns a player's name (as the server writes it) in the
// interface's language, from the game module's words "name.<name>".
export const playerWords = (mod, name) => gameText(mod, "name." + name, name);

// colourWords returns a colour name of the pieces in the interface's
// language.
export function colourWords(name) {
  const key = "colour." + name;
  return (CATALOGS[language()] || en)[key] ?? en[key] ?? name;
}

// errorWords writes an error for people, always from the catalogue, never
// in the server's own words (which stay English and are meant for the
// console). In order: the key own gives for the error's code, where the
// page knows better what went wrong (e.g. {bad_message:
// "extras.chatRefused"}); the words of the code (error.<code>: the
// websocket's codes and those of docs/api.md), with the move it was about;
// the key own gives for its HTTP status (e.g. {404: "lobby.noSuchPlayer"});
// the words of the status (error.http.<status>); the general words
// (error.unknown). err is an Error of api.js, a websocket error message, or
// any exception.
export function errorWords(err, own = {}) {
  const e = err || {};
  const params = { move: e.move || "" };
  if (e.code && own[e.code]) return t(own[e.code], params);
  if (e.code && "error." + e.code in en) return t("error." + e.code, params);
  if (e.status && own[e.status]) return t(own[e.status], params);
  if (e.status && `error.http.${e.status}` in en) return t(`error.http.${e.status}`);
  if (e.status >= 500) return t("error.http.500");
  if (e.status >= 400) return t("error.http.400");
  if (!e.code && !e.status) console.warn("stax:", err);
  return t("error.unknown");
}
