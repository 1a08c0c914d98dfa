// rules.js holds the rules page of each game. Its diagrams are drawn from
// position strings by the same code that draws the boards in play.

import { listGames } from "./api.js";
import { h } from "./dom.js";
import { render } from "./render.js";

// figure draws one diagram with a caption.
function figure(game, pos, caption, marks = {}) {
  let drawing;
  try {
    drawing = render(game, pos, { ...marks, label: caption });
  } catch (err) {
    drawing = h("p", { class: "error" }, String(err.message || err));
  }
  return h("figure", { class: "diagram", "data-testid": "diagram" }, drawing, h("figcaption", {}, caption), h("code", { class: "pos" }, pos));
}

const p = (...xs) => h("p", {}, ...xs);
const li = (...xs) => h("li", {}, ...xs);
const code = (s) => h("code", {}, s);

const RULES = {
  pogo: {
    title: "Pogo",
    intro: "Pogo is played on a 3x3 board by two players, White and Black, each with six pieces. Pieces stack without limit, and whoever is on top of a stack controls it.",
    sections: () => [
      h("h2", {}, "Setting up"),
      p("White starts with stacks of two on a1, b1 and c1; Black on a3, b3 and c3. White moves first (the option ", code("first=black"), " swaps that)."),
      figure("pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", "The starting position."),
      h("h2", {}, "Moving"),
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
      h("h2", {}, "Winning"),
      p("You win as soon as every stack on the board is topped by your colour: your opponent then has nothing to move. The same position repeated for the third time, or 400 moves in all, ends the game as a draw."),
      figure("pogo", "-,bww,-/-,wbbw,-/bbw,-,bw b", "White tops every stack: White has won."),
      h("h2", {}, "Notation"),
      p("A move is written ", code("<count><from>-<to>"), ", e.g. ", code("1a1-a2"), ", ", code("2b1-c2"), " or ", code("3a1-b1"), ". The count is always written, because one piece and three pieces can reach the same square."),
    ],
  },
  pisola: {
    title: "Pisola",
    intro: "Pisola is played on a 6x6 board (or 8x8 with size=8) by White and Black with 18 pieces each (32 on 8x8). The pieces are placed first, then stacks move and lock; the player on top of more squares at the end wins.",
    sections: () => [
      h("h2", {}, "Placing"),
      p("On each turn a player puts two pieces of their colour on two different empty squares that are not orthogonally next to each other (unless no such pair is left). When the board is full, moving begins with White to move."),
      figure("pisola", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,b,-,-,-/-,w,-,-,b,-/-,-,-,-,-,-/w,-,-,-,-,- w", "White picks c1; every marked square may be the second one (b1, d1 and c2 touch c1).", {
        selected: ["c1"],
        targets: ["e1", "f1", "a2", "b2", "d2", "e2", "f2", "a3", "c3", "d3", "f3", "a4", "b4", "d4", "e4", "f4", "a5", "b5", "c5", "d5", "e5", "f5", "a6", "b6", "c6", "d6", "e6", "f6"],
      }),
      h("h2", {}, "Moving"),
      p("A player moves one whole stack topped by their colour (a single piece is a stack of height 1) in a straight orthogonal line exactly as many squares as it is tall, jumping over anything, onto an empty square or onto a stack that is not locked. The moved stack goes on top."),
      figure("pisola", "b,w,b,w,b,w/w,b,w,b,w,b/b,w,bw,-,b,w/w,-,w,b,w,b/b,wb,b,w,b,w/w,b,w,b,w,b w", "The stack on c4 is two pieces tall: it moves exactly two squares, to a4, e4, c6 or c2.", {
        selected: ["c4"],
        targets: ["a4", "e4", "c6", "c2"],
      }),
      h("h2", {}, "Locking"),
      p("After every move (and when moving begins), a stack that has no legal destination becomes locked: its top piece is turned to its cross face. This repeats until nothing changes. A lock is permanent: a locked stack never moves and nothing lands on it. A stack as tall as the board's side can never move and locks at once."),
      figure("pisola", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w", "A game in progress: the stacks on d4 (Black on top) and f1 (White on top) are locked, shown with a cross on the top piece."),
      h("h2", {}, "The end"),
      p("As soon as a player can no longer move a stack of their colour, the game ends, checked after every move, the mover's own included (with ", code("end=tomove"), ", only when the player to move has no legal move). Each player scores the squares whose top piece is theirs, locked stacks included; the higher score wins and equal scores draw. A third repetition or 1000 moves end the game and it is scored the same way."),
      h("h2", {}, "Roofs"),
      p("With ", code("roofs=true"), " pieces have no cross face; each player has 6 roofs (8 on 8x8). A stack that becomes locked gets a roof of its top piece's colour. A player who has put on all their roofs wins at once (if both do on the same move, the mover wins); otherwise, when the game ends because a player cannot move, more roofs placed wins and equal is a draw."),
      figure("pisola", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb^,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw^ w", "The same position in the roofs variant: Black's roof on d4 and White's on f1."),
      h("h2", {}, "Notation"),
      p("A placement is ", code("<square>+<square>"), " with the squares in reading order (a1, b1, …, a2, …), e.g. ", code("a1+c3"), "; a move is ", code("<from>-<to>"), ", e.g. ", code("c3-c5"), "."),
    ],
  },
  diam: {
    title: "Diam",
    intro: "Diam is played on a ring of 8 cells, each holding up to 4 pieces, with 16 pieces: 4 red, 4 yellow, 4 green and 4 blue. Player 1 owns red and yellow, player 2 green and blue. Make a diam: two pieces of one colour facing each other across the ring at the same height.",
    sections: () => [
      h("h2", {}, "The ring"),
      p("The cells are numbered 1 to 8 clockwise; cell i faces cell i+4 across the centre. Levels are numbered 1 (bottom) to 4."),
      figure("diam", "-/-/-/-/-/-/-/- 1", "The empty ring: player 1 moves first."),
      h("h2", {}, "A turn"),
      h(
        "ul",
        {},
        li("Place a piece of one of your colours from your reserve on an empty cell (with ", code("drop=any"), ", on any cell holding fewer than 4 pieces); or"),
        li("move one of your pieces on the board, at any level, one cell clockwise or counter-clockwise, carrying every piece above it. The destination may not end up with more than 4 pieces."),
      ),
      figure("diam", "g/rb/yg/-/b/r/y/- 1", "Player 1 picks the red piece at level 1 of cell 2: with the blue piece above it, it may go to cell 1 or cell 3.", {
        selected: [2],
        level: 1,
        targets: [1, 3],
      }),
      h("h2", {}, "Winning"),
      p("A diam is two pieces of the same colour on opposite cells at the same level, level 2 or higher. After a move, if there is a diam, the owner of the highest one wins — even when it is the mover's opponent. A player with no legal move passes. A third repetition or 200 moves end the game as a draw."),
      figure("diam", "gr/-/y/-/br/g/-/- 2", "Red on level 2 of cells 1 and 5: a diam for player 1."),
      h("h2", {}, "Four players"),
      p("With ", code("players=4"), " each player has one colour, in turn order red, green, yellow, blue. With ", code("teams=true"), " red and yellow play against green and blue, and a player may move a partner's pieces but only place from their own reserve."),
      h("h2", {}, "Notation"),
      p("Placing is ", code("<colour>@<cell>"), " with colour r, y, g or b, e.g. ", code("r@3"), "; moving is ", code("<cell>:<level><dir>"), " with + clockwise and - counter-clockwise, e.g. ", code("3:2+"), " moves the piece at level 2 of cell 3, and all above it, to cell 4. Passing is ", code("pass"), "."),
      h("h2", {}, "Colours"),
      p("Pieces carry a letter and a texture as well as a colour: R red (plain), Y yellow (stripes), G green (dots), B blue (grid)."),
    ],
  },
};

// rulesPage draws the rules of game into root.
export function rulesPage(root, game) {
  const r = RULES[game];
  document.title = `${r.title} rules – stax`;
  const nav = h(
    "p",
    { class: "rules-nav" },
    ...Object.keys(RULES).map((g) => (g === game ? h("strong", {}, RULES[g].title) : h("a", { href: "/rules/" + g, "data-link": "" }, RULES[g].title))),
  );
  const variants = h("section", { class: "variants" });
  root.append(
    h(
      "article",
      { class: "rules", "data-testid": "rules-" + game },
      nav,
      h("h1", {}, `${r.title}: the rules`),
      p(r.intro),
      ...r.sections(),
      variants,
      p(h("a", { class: "button primary", href: "/?game=" + game, "data-link": "", "data-testid": "play-" + game }, `Play ${r.title}`)),
    ),
  );
  listGames()
    .then((games) => {
      const g = (games || []).find((x) => x.name === game);
      if (!g || !g.options || !g.options.length) return;
      variants.append(
        h("h2", {}, "Options"),
        h(
          "table",
          { class: "options-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "option"), h("th", {}, "default"), h("th", {}, "meaning"))),
          h("tbody", {}, g.options.map((o) => h("tr", {}, h("td", {}, code(o.key)), h("td", {}, code(o.default)), h("td", {}, o.doc || "")))),
        ),
      );
    })
    .catch(() => {});
}
