// Package pisola implements Pisola, a two-phase stacking game for two
// players on a 6x6 (or 8x8) board, exactly as the project's rules
// specification (docs/rules.md) describes it.
//
// Each player has 18 pieces (32 on 8x8). In the placing phase the players,
// White first, put two pieces of their colour on two empty squares per
// turn; the two may not be orthogonally adjacent unless no two empty
// squares are apart. When the board is full the moving phase begins, White
// to move: a player moves a whole stack topped by their colour (a single
// piece is a stack of height 1) in a straight orthogonal line exactly as
// many squares as its height, jumping over anything, onto an empty square
// or an unlocked stack, and lands on top. After every move, and when the
// moving phase begins, every unlocked stack with no destination locks,
// repeatedly until nothing changes; a stack at least as tall as the board's
// side therefore locks at once. Locked stacks never move and are never
// landed on. The game ends as soon as either player cannot move, checked
// after every move (with end=tomove, only when the player to move cannot
// move): each player scores the squares they top, locked stacks included,
// and the higher score wins; equal scores draw.
//
// In the roofs variant each player has 6 roofs (8 on 8x8), one put on each
// locked stack in the colour of its top piece. A player who has put on all
// their roofs wins at once; if a move completes both players' roofs, the
// player who moved wins. Otherwise the game ends as above, scored by the
// roofs placed.
//
// Options:
//   - size (6 or 8, default 6): the side of the board.
//   - roofs (default false): the roofs variant.
//   - end (any or tomove, default any): when the moving phase ends, as
//     soon as either player cannot move, or only when the player to move
//     cannot.
//   - rep (default 3): the number of occurrences of a position that ends
//     the game; 0 turns repetition off.
//   - maxplies (default 1000): the ply cap; 0 means none.
//
// Repetition and the ply cap end the game scored as at the end: squares,
// or roofs in the roofs variant. Outcomes carry the scores.
//
// Position strings give the ranks from the highest down, each square's
// pieces bottom to top as w and b (- when empty), a locked stack followed
// by * (^ in the roofs variant), then the side to move:
// "-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,- w"
// is the start. Moves are written <sq>+<sq> for a placing, the squares in
// reading order (a1 < b1 < ... < a2; either order is accepted), and
// <from>-<to> for a stack move, e.g. a1+c3 and c3-c5.
//
// # Points the rules leave open, and how this package settles them
//
// The adjacency exception. The squares form a grid, which has no
// triangles, so among three or more empty squares two are always apart:
// adjacent pieces are allowed exactly when the last two empty squares are
// adjacent, and then that pair is the only move.
//
// Locking during placing. Locking applies after every move, but while
// pieces are being placed every piece is a single piece with an unlocked
// neighbour, so nothing locks; nor does anything lock when the moving
// phase begins on a full board of single pieces. The rule is applied all
// the same, and a placing-phase position with a lock mark is refused.
//
// Locks follow from the board. A stack locks only when every square its
// height away is off the board or already locked, and a locked stack never
// changes again; so the locked stacks of any reachable position are
// exactly the least fixed point of the locking rule on its board. Parse
// computes that fixed point and refuses a position whose marks differ from
// it, naming the first square that is wrong (a stack that must be marked,
// or a mark on a stack that can still move); it never adds or removes
// marks itself. Two adjacent single pieces, for example, can never both be
// locked.
//
// Placing-phase positions. Each turn places two pieces of one colour, so
// both counts are even; White is to move when they are equal and Black
// when White has two more. Anything else is refused. A full board of
// single pieces is the start of the moving phase, with White to move.
// The game is never over while pieces are being placed: the player to
// move always has two empty squares to fill.
//
// Roofs beyond the last. The move that puts on a player's last roof may
// lock further stacks; the game is over then and those need no roof, but a
// position string still marks every locked stack with ^. So a finished
// game may show more roofed stacks of one colour than the player has
// roofs; Parse accepts it as the finished game it is, and the score counts
// at most the roofs a player has. When both players show all their roofs,
// the player who is not to move made the last move and wins.
//
// Blocked players. Once the locking rule has run, every unlocked stack has
// a destination, so the player to move is blocked exactly when every stack
// they top is locked, or they top none. The game then ends even if the
// opponent could still move, and the blocked player wins if they top more
// squares.
//
// # Implementation
//
// Squares are numbered file + size*rank from a1, in reading order, and
// sets of squares are uint64 masks (an 8x8 board uses all 64 bits). Each
// stack is a height and one bit per piece (set for Black). A precomputed
// table gives, for each square and height, the squares at exactly that
// distance in the four directions, so a stack's destinations are one mask
// and the number of moves is a sum of population counts. After a stack
// move only the destination can lock first, and a newly locked square can
// only block the stacks that reach it, so the locking rule runs as a short
// work list from the destination. Apply and Undo keep a stack of undo
// records, and the specialised Perft makes and unmakes moves with records
// on the call stack and counts the last ply in bulk, allocating nothing.
// The Zobrist hash covers every piece by square, level and colour, the
// locks, the phase and the side to move, and is updated incrementally.
package pisola
