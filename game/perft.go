package game

// Perft counts the leaves of the move tree of the given depth from s. It
// uses the state's own Perft when it has one, and otherwise plays the moves
// on clones (or with Undo where the state offers it). s is left unchanged.
func Perft(s State, depth int) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth)
	}
	return PerftGeneric(s, depth)
}

// PerftGeneric counts leaves through the State interface alone, without a
// game's specialised Perft. Tests use it to check the specialised one.
func PerftGeneric(s State, depth int) uint64 {
	bufs := make([][]Move, depth+1)
	if _, ok := s.(Undoer); ok {
		c := s.Clone()
		return perftUndo(c, c.(Undoer), depth, bufs)
	}
	return perftClone(s, depth, bufs)
}

func perftUndo(s State, u Undoer, depth int, bufs [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := s.Legal(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		s.Apply(m)
		n += perftUndo(s, u, depth-1, bufs)
		u.Undo()
	}
	return n
}

func perftClone(s State, depth int, bufs [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := s.Legal(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := s.Clone()
		c.Apply(m)
		n += perftClone(c, depth-1, bufs)
	}
	return n
}

// DivideEntry is one root move and the leaf count below it.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide returns, for every legal move of s in generation order, the perft
// count of the given depth below it (depth >= 1).
func Divide(s State, depth int) []DivideEntry {
	moves := s.Legal(nil)
	out := make([]DivideEntry, len(moves))
	for i, m := range moves {
		c := s.Clone()
		c.Apply(m)
		out[i] = DivideEntry{Move: s.FormatMove(m), Nodes: Perft(c, depth-1)}
	}
	return out
}
