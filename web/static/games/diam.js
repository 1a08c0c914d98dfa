// games/diam.js: what the interface says about Diam.

import { code, figure, li, p, section, list } from "../pages/rules-kit.js";

export default {
  name: "diam",
  title: "Diam",
  notation: "e.g. r@3, 3:2+ or pass",
  // linkOptions disables options that the others make meaningless: teams
  // exist only with four players. values maps keys to values; input(key)
  // returns an option's input element.
  linkOptions(values, input) {
    const teams = input("teams");
    if (!teams) return;
    const four = values.players === "4";
    teams.disabled = !four;
    if (!four && teams.checked) {
      teams.checked = false;
      values.teams = "false";
    }
  },
  rules: {
    intro: "Diam is played on a ring of 8 cells, each holding up to 4 pieces, with 16 pieces: 4 red, 4 yellow, 4 green and 4 blue. Player 1 owns red and yellow, player 2 green and blue. Make a diam: two pieces of one colour facing each other across the ring at the same height.",
    sections: () => [
      section("The ring"),
      p("The cells are numbered 1 to 8 clockwise; cell i faces cell i+4 across the centre. Levels are numbered 1 (bottom) to 4."),
      figure("diam", "-/-/-/-/-/-/-/- 1", "The empty ring: player 1 moves first."),
      section("A turn"),
      list(
        li("Place a piece of one of your colours from your reserve on an empty cell (with ", code("drop=any"), ", on any cell holding fewer than 4 pieces); or"),
        li("move one of your pieces on the board, at any level, one cell clockwise or counter-clockwise, carrying every piece above it. The destination may not end up with more than 4 pieces."),
      ),
      figure("diam", "g/rb/yg/-/b/r/y/- 1", "Player 1 picks the red piece at level 1 of cell 2: with the blue piece above it, it may go to cell 1 or cell 3.", {
        selected: ["2"],
        depth: 2,
        targets: ["1", "3"],
      }),
      section("Winning"),
      p("A diam is two pieces of the same colour on opposite cells at the same level, level 2 or higher. After a move, if there is a diam, the owner of the highest one wins — even when it is the mover's opponent. A player with no legal move passes. A third repetition or 200 moves end the game as a draw."),
      figure("diam", "gr/-/y/-/br/g/-/- 2", "Red on level 2 of cells 1 and 5: a diam for player 1."),
      section("Four players"),
      p("With ", code("players=4"), " each player has one colour, in turn order red, green, yellow, blue. With ", code("teams=true"), " red and yellow play against green and blue, and a player may move a partner's pieces but only place from their own reserve."),
      section("Notation"),
      p("Placing is ", code("<colour>@<cell>"), " with colour r, y, g or b, e.g. ", code("r@3"), "; moving is ", code("<cell>:<level><dir>"), " with + clockwise and - counter-clockwise, e.g. ", code("3:2+"), " moves the piece at level 2 of cell 3, and all above it, to cell 4. Passing is ", code("pass"), "."),
      section("Colours"),
      p("Pieces carry a letter and a texture as well as a colour: R red (plain), Y yellow (stripes), G green (dots), B blue (grid)."),
    ],
  },
};
