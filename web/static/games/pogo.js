// games/pogo.js: what the interface says about Pogo.

import { code, figure, p, section } from "../pages/rules-kit.js";

export default {
  name: "pogo",
  title: "Pogo",
  // notation is the example shown in the move box.
  notation: "e.g. 1a1-a2",
  // countButtons: the number of pieces is part of every move, so the
  // buttons to choose it show even when one count is possible.
  countButtons: "always",
  // rules is the rules page: an introduction and its sections, built with
  // the kit of pages/rules-kit.js.
  rules: {
    intro: "Pogo is played on a 3x3 board by two players, White and Black, each with six pieces. Pieces stack without limit, and whoever is on top of a stack controls it.",
    sections: () => [
      section("Setting up"),
      p("White starts with stacks of two on a1, b1 and c1; Black on a3, b3 and c3. White moves first (the option ", code("first=black"), " swaps that)."),
      figure("pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", "The starting position."),
      section("Moving"),
      p("Pick a stack whose top piece is yours and take its top 1, 2 or 3 pieces (never more than the stack holds; the pieces under the top may be of either colour). The block moves exactly as many orthogonal steps as it has pieces, turning if you like but never stepping back onto a square of its own path, and jumps over anything on the way. It lands on top of whatever stands on the destination."),
      figure("pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", "Two pieces taken from b1 move two steps: to a2, c2 or b3.", {
        selected: ["b1"],
        depth: 2,
        targets: ["a2", "c2", "b3"],
      }),
      p("On 3x3 this means: one piece goes to a neighbouring square; two pieces go two squares away, straight or bent; three pieces go three squares away, or to a neighbouring square along a U-shaped path. The option ", code("u=false"), " forbids the U move."),
      figure("pogo", "-,bb,bw/-,-,-/bww,bb,www w", "Three pieces taken from a1: to b1 or a2 by a U, or three steps away to c2 or b3.", {
        selected: ["a1"],
        depth: 3,
        targets: ["b1", "a2", "c2", "b3"],
      }),
      section("Winning"),
      p("You win as soon as every stack on the board is topped by your colour: your opponent then has nothing to move. The same position repeated for the third time, or 400 moves in all, ends the game as a draw."),
      figure("pogo", "-,bww,-/-,wbbw,-/bbw,-,bw b", "White tops every stack: White has won."),
      section("Notation"),
      p("A move is written ", code("<count><from>-<to>"), ", e.g. ", code("1a1-a2"), ", ", code("2b1-c2"), " or ", code("3a1-b1"), ". The count is always written, because one piece and three pieces can reach the same square."),
    ],
  },
};
