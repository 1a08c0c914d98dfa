// players.js names the players: the name this device remembers for its
// player, and the labels of seats.

import { colourWords } from "./i18n.js";
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
