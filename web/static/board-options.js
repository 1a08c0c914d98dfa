// board-options.js keeps this device's options of the boards: whether the
// coordinates are drawn (on every board: the page's root has the class
// no-coords when they are not) and whether a move picked on the board of
// a game waits for a confirmation before it is sent (offered on touch
// screens, where a finger easily lands on the wrong square).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { load, save } from "./storage.js";

const coordsKey = "stax.coords";
const confirmKey = "stax.confirmMoves";

export const coordsShown = () => load(coordsKey, "on") !== "off";
export const confirmMoves = () => load(confirmKey, "off") === "on";

// touchScreen reports whether the device is pointed at with a finger.
const touchScreen = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

function applyCoords() {
  document.documentElement.classList.toggle("no-coords", !coordsShown());
}
applyCoords();

// boardOptions returns the options' checkboxes; changed() is called after
// one changes. The confirmation is offered on a touch screen, or once
// chosen.
export function boardOptions(changed = () => {}) {
  const box = (id, on, words, set) => {
    const input = h("input", { type: "checkbox", id, checked: on, "data-testid": id });
    input.addEventListener("change", () => {
      set(input.checked);
      changed();
    });
    return h("label", { for: id, class: "board-option" }, input, " ", t(words));
  };
  const parts = [box("opt-coords", coordsShown(), "options.coords", (on) => {
    save(coordsKey, on ? "on" : "off");
    applyCoords();
  })];
  if (touchScreen() || confirmMoves()) {
    parts.push(box("opt-confirm", confirmMoves(), "options.confirmMoves", (on) => save(confirmKey, on ? "on" : "off")));
  }
  return h("div", { class: "board-options small", "data-testid": "board-options" }, ...parts);
}
