// Package diam implements Diam, the stacking game on a ring of eight cells
// (seed text 003 of the project's sources), exactly as the project's rules
// specification describes it.
//
// The ring has 8 cells, numbered 1 to 8 clockwise; cell i is opposite cell
// i+4. A cell holds 0 to 4 pieces, at levels 1 (bottom) to 4. There are 4
// pieces of each colour: red, yellow, green and blue. With two players,
// player 1 owns red and yellow and player 2 green and blue; player 1 moves
// first. With four players (players=4) each owns one colour and they move
// in the order red, green, yellow, blue. In the team game (teams=true, four
// players only) red and yellow play against green and blue: a player may
// move a partner's pieces but places only from their own reserve.
//
// A turn is either a placement, a piece of one's colour from the reserve on
// an empty cell (drop=any: on any cell holding fewer than 4), or a step: one
// of one's pieces, at any level, moves one cell clockwise or
// counter-clockwise carrying every piece above it, onto the top of the
// destination, which must not end up with more than 4 pieces. A diam is two
// pieces of one colour at the same level, 2 or higher, on opposite cells.
// After a turn, if a diam stands, the owner of the colour of the highest
// diam wins (in the team game, that colour's team), whoever moved. A player
// with no legal move passes; repetition (rep, default 3) and the ply cap
// (maxplies, default 200) end the game as a draw.
//
// Options:
//   - players (2 or 4, default 2): the number of players.
//   - teams (default false): the four-player team game; asking for it with
//     two players is an error.
//   - drop (empty or any, default empty): where pieces are placed.
//   - rep (default 3): the number of occurrences of a position that ends
//     the game as a draw; 0 turns repetition off.
//   - maxplies (default 200): the ply cap, a draw; 0 means none.
//
// Position strings give the cells 1 to 8 separated by /, each its pieces
// bottom to top (r, y, g, b) or - when empty, then a space and the number
// of the player to move: "-/-/-/-/-/-/-/- 1" is the start. Reserves are
// implied by the board. Moves are written <colour>@<cell> for a placement
// (r@3), <cell>:<level><dir> for a step, dir + clockwise (8 to 1) or -
// counter-clockwise (3:2+ moves the piece at level 2 of cell 3, and all
// above it, to cell 4), and pass.
//
// # Rule decisions
//
// docs/rules.md leaves these points to the implementation; this package settles
// them as follows.
//
//   - Players are numbered from 0 in the API and from 1 in position
//     strings and names; cells and levels from 0 in the API and from 1 in
//     notation.
//   - The diam rule is checked after every turn, placements included: with
//     drop=any a placement on a cell of height 1 or more can make a diam. A
//     diam in an opponent's colour made by the mover wins for the
//     opponent, and it wins even when the mover also made a lower diam.
//   - The all-pass draw: a position is terminal, a draw, when neither the
//     player to move nor any other player has a move other than a pass.
//     When only the player to move has none, their one legal move is a
//     pass, which changes only the side to move. The draw can never
//     actually arise: with pieces on the ring, some non-empty cell is next
//     to a cell holding fewer than 4 (the ring cannot be full with 16
//     pieces), and the owner of its top piece can move it there; with none,
//     the player to move can place. The rule is implemented all the same,
//     and tested on a ring that only the package's own tests can build.
//   - Passing when another move exists is illegal.
//   - Perft counts a pass as one move; a position with a diam has no moves.
//   - A position string may give any player to move and any arrangement of
//     at most 4 pieces per cell and per colour. A string that shows a diam
//     is a finished game, whoever is to move. Diams on more than one
//     diameter are rejected: the move that ends a game adds pieces to one
//     cell only, so all its diams lie on one diameter, one per level.
//   - The hash covers the pieces by cell, level and colour, and the side to
//     move; the reserves follow from the board.
//   - In the four-player game without teams a diam wins for its colour's
//     player alone and the three others lose; in the team game both
//     partners win. A resignation in the team game loses for both
//     partners (Game implements game.Teams).
//
// The State keeps one 32-bit board per colour (bit 4*cell+level) and the
// height of each cell, so a step moves a block of pieces with a shift and a
// mask per colour, a diam is two nibbles ANDed, and perft counts the moves
// of the last ply with popcounts; make, unmake and perft allocate nothing.
package diam
