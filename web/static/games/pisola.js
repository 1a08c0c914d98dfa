// games/pisola.js: what the interface says about Pisola.

import { code, figure, p, section } from "../pages/rules-kit.js";

export default {
  name: "pisola",
  title: "Pisola",
  notation: "e.g. a1+c3 or c3-c5",
  rules: {
    intro: "Pisola is played on a 6x6 board (or 8x8 with size=8) by White and Black with 18 pieces each (32 on 8x8). The pieces are placed first, then stacks move and lock; the player on top of more squares at the end wins.",
    sections: () => [
      section("Placing"),
      p("On each turn a player puts two pieces of their colour on two different empty squares that are not orthogonally next to each other (unless no such pair is left). When the board is full, moving begins with White to move."),
      figure("pisola", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,b,-,-,-/-,w,-,-,b,-/-,-,-,-,-,-/w,-,-,-,-,- w", "White picks c1; every marked square may be the second one (b1, d1 and c2 touch c1).", {
        selected: ["c1"],
        targets: ["e1", "f1", "a2", "b2", "d2", "e2", "f2", "a3", "c3", "d3", "f3", "a4", "b4", "d4", "e4", "f4", "a5", "b5", "c5", "d5", "e5", "f5", "a6", "b6", "c6", "d6", "e6", "f6"],
      }),
      section("Moving"),
      p("A player moves one whole stack topped by their colour (a single piece is a stack of height 1) in a straight orthogonal line exactly as many squares as it is tall, jumping over anything, onto an empty square or onto a stack that is not locked. The moved stack goes on top."),
      figure("pisola", "b,w,b,w,b,w/w,b,w,b,w,b/b,w,bw,-,b,w/w,-,w,b,w,b/b,wb,b,w,b,w/w,b,w,b,w,b w", "The stack on c4 is two pieces tall: it moves exactly two squares, to a4, e4, c6 or c2.", {
        selected: ["c4"],
        targets: ["a4", "e4", "c6", "c2"],
      }),
      section("Locking"),
      p("After every move (and when moving begins), a stack that has no legal destination becomes locked: its top piece is turned to its cross face. This repeats until nothing changes. A lock is permanent: a locked stack never moves and nothing lands on it. A stack as tall as the board's side can never move and locks at once."),
      figure("pisola", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w", "A game in progress: the stacks on d4 (Black on top) and f1 (White on top) are locked, shown with a cross on the top piece."),
      section("The end"),
      p("As soon as a player can no longer move a stack of their colour, the game ends, checked after every move, the mover's own included (with ", code("end=tomove"), ", only when the player to move has no legal move). Each player scores the squares whose top piece is theirs, locked stacks included; the higher score wins and equal scores draw. A third repetition or 1000 moves end the game and it is scored the same way."),
      section("Roofs"),
      p("With ", code("roofs=true"), " pieces have no cross face; each player has 6 roofs (8 on 8x8). A stack that becomes locked gets a roof of its top piece's colour. A player who has put on all their roofs wins at once (if both do on the same move, the mover wins); otherwise, when the game ends because a player cannot move, more roofs placed wins and equal is a draw."),
      figure("pisola(roofs=true)", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb^,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw^ w", "The same position in the roofs variant: Black's roof on d4 and White's on f1."),
      section("Notation"),
      p("A placement is ", code("<square>+<square>"), " with the squares in reading order (a1, b1, …, a2, …), e.g. ", code("a1+c3"), "; a move is ", code("<from>-<to>"), ", e.g. ", code("c3-c5"), "."),
    ],
  },
};
