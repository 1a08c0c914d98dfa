// Package pogo implements Pogo, a 3x3 stacking game for two players,
// exactly as the project's rules specification (docs/rules.md) describes
// it.
//
// Each player has six pieces, starting as two-piece stacks on their first
// rank: White on a1, b1, c1 and Black on a3, b3, c3. A player moves the top
// k pieces (k = 1, 2 or 3) of a stack whose top piece is theirs, as one
// block, exactly k orthogonal steps, turning allowed but never revisiting a
// square of the path, jumping over anything; the block lands on top of the
// destination. On 3x3 the destinations are exactly the squares at
// Manhattan distance k, plus, for k = 3, the squares at distance 1 reached
// by a U-shaped path (the option u=false forbids that U move). A player
// wins as soon as every non-empty stack is topped by their colour.
//
// Options:
//   - u (default true): allow the U-shaped three-piece move.
//   - first (white or black, default white): who moves first.
//   - rep (default 3): the number of occurrences of a position that ends
//     the game as a draw; 0 turns repetition off.
//   - maxplies (default 400): the ply cap, a draw; 0 means none.
//
// Position strings give the ranks from 3 down to 1, each square's pieces
// from bottom to top as w and b, then the side to move:
// "bb,bb,bb/-,-,-/ww,ww,ww w" is the start. A position must hold exactly
// six pieces of each colour, as every reachable one does. A position in
// which one colour tops every stack is a finished game won by that colour,
// whoever is to move.
//
// Moves are written <k><from>-<to>, e.g. 1a1-a2, 2b1-c2, 3a1-b1.
//
// The State keeps each stack as a height and a bit per piece (set for
// Black), with masks of the squares each colour tops, so move generation,
// make and unmake are a few bit operations and allocate nothing.
package pogo
