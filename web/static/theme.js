// theme.js chooses light or dark: the visitor's choice with the switch in
// the header, remembered on this device, else the system's
// (prefers-color-scheme), followed as it changes.

import { load, save } from "./storage.js";

const KEY = "stax.theme";
const dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

// chosen returns the theme chosen on this device, or "".
const chosen = () => load(KEY);

// theme returns the theme in use: "light" or "dark".
export function theme() {
  return chosen() || (dark && dark.matches ? "dark" : "light");
}

// applyTheme sets the theme in use on the page.
export function applyTheme() {
  document.documentElement.setAttribute("data-theme", theme());
}

// toggleTheme switches to the other theme and remembers the choice.
export function toggleTheme() {
  if (!save(KEY, theme() === "dark" ? "light" : "dark")) {
    // Without storage the choice lasts until the page is reloaded.
    document.documentElement.setAttribute("data-theme", document.documentElement.getAttribute("data-theme") === "dark" ? "light" : "dark");
    return;
  }
  applyTheme();
}

if (dark && dark.addEventListener) dark.addEventListener("change", applyTheme);
