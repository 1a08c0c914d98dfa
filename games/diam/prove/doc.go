// Package prove is a weak solver for two-player Diam (drop=empty and
// drop=any): it proves, for a position, that the side to move wins or
// that it loses against every defence, by depth-first proof-number search
// (df-pn) over a bounded transposition table.
//
// Values are those of the position alone, as for Pogo's solver: the ply
// cap is ignored, and a line that repeats a position on the current path
// counts as a failure for the player trying to win, so a proof is a finite
// tree of moves ending in diams and never relies on repetition. Proofs are
// therefore certain. Disproofs ("the side to move cannot force a win") are
// found the same way but may be wrong where a repetition seen on one line
// is reused on another through the table (the graph-history interaction);
// they are reported as such, never as exact draws.
//
// Positions are stored under a canonical key: the position with player 1
// to move (exchanging the players' colours if player 2 is to move), then
// the least image under the ring's 16 symmetries and the swaps of red with
// yellow and of green with blue — 128 images folded into one entry of 16
// bytes (canon.go explains why each keeps values). The key is exact (51
// bits: heights in base 5 and two bits a piece), so entries never collide.
//
// The search uses df-pn with the 1+ε threshold of Pawlewicz and Lew, the
// table replacing the entry of least work (the size of the subtree it
// stood for) in a full bucket. Before a position is searched it is
// checked for a finished game, a repetition, and a move that makes a
// winning diam at once (diam.State.WinningMove); a position in which every
// move lets the opponent make one is thus settled as soon as it is
// expanded. An evaluation function given by the caller orders the moves
// and sets the first proof and disproof numbers. Several workers share the
// table and split the moves of the position being proven; the table can
// be written to a checkpoint file and read back, so that a long proof can
// stop and resume.
package prove
