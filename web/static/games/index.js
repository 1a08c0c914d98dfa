// games/index.js is the one list of the games the interface knows. A game
// works in the interface without a module — boards, pieces, moves and
// options come from the server's views and schema — and its module adds
// what only people need: notation hints, the rules page and, where the
// generic ways do not suit, its own picker or option links. See
// docs/adding-a-game.md.

import pogo from "./pogo.js";
import pisola from "./pisola.js";
import diam from "./diam.js";

// GAMES lists the game modules in display order.
export const GAMES = [pogo, pisola, diam];

// gameModule returns the module of the named game, or a plain one for a
// game the list does not know.
export function gameModule(name) {
  return GAMES.find((g) => g.name === name) || { name, title: name, notation: "", rules: null };
}
