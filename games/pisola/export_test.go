package pisola

import "stax/game"

// Hooks for the external tests: internals they check the exported
// behaviour against.

// ComputeHash recomputes the position's hash from scratch.
func (s *State) ComputeHash() uint64 { return s.computeHash() }

// CountMoves counts the legal moves without listing them.
func (s *State) CountMoves() uint64 { return s.countMoves() }

// MoveTo returns the square a move puts pieces on: the second square of a
// placement, the destination of a stack move.
func MoveTo(m game.Move) int {
	_, to := decode(m)
	return to
}

// PerftMakeAll counts leaves like Perft but makes and unmakes every move,
// the last ply's too, to measure make and unmake without bulk counting.
func (s *State) PerftMakeAll(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var u undoRecord
	var n uint64
	var buf [128]game.Move
	for _, m := range s.Legal(buf[:0]) {
		s.make(m, &u)
		n += s.PerftMakeAll(depth - 1)
		s.unmake(&u)
	}
	return n
}
