// players.js names the players: the name this device remembers for its
// player, the labels of seats, and the mark of a bot account.

import { h } from "./dom.js";
import { colourWords, t } from "./i18n.js";
import { load, save } from "./storage.js";

const NAME = "stax.name";

// savedName returns the name last given on this device, or "".
export const savedName = () => load(NAME);

// saveName remembers the player's name on this device (the name is
// optional: without storage it is not remembered).
export function saveName(name) {
  if (name) save(NAME, name);
}

// seatLabel names a seat, adding the colours of its pieces when its name
// does not give them, e.g. "Player 1 (red, yellow)".
export function seatLabel(board, seat, pname) {
  if (!board) return pname;
  const cols = board.pieces.filter((p) => p.player === seat).map((p) => colourWords(p.name));
  if (!cols.length || cols.some((c) => pname.toLowerCase().includes(c))) return pname;
  return `${pname} (${cols.join(", ")})`;
}

// botBadge is the mark shown next to a bot account's name, wherever the
// name shows.
export const botBadge = () => h("span", { class: "badge bot-badge", title: t("account.botBadgeTitle"), "data-testid": "bot-badge" }, t("account.botBadge"));
