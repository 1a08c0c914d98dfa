package pisola

import (
	"math/bits"

	"stax/game"
)

// mustBeApart reports whether the two pieces of a placing must not be
// orthogonally adjacent, given the empty squares. They may be adjacent
// only when no pair of non-adjacent empty squares exists. Squares form a
// grid graph, which has no triangles, so among three or more empty squares
// two are always apart: adjacent pairs are allowed exactly when two empty
// squares remain.
func mustBeApart(empty uint64) bool { return bits.OnesCount64(empty) > 2 }

// Legal appends the legal moves to dst: during placing every allowed pair
// of empty squares in reading order, then every stack move by origin and
// destination in reading order.
func (s *State) Legal(dst []game.Move) []game.Move {
	geo := s.g.geo
	if !s.moving {
		empty := geo.full &^ s.occ
		apart := mustBeApart(empty)
		for e := empty; e != 0; e &= e - 1 {
			a := bits.TrailingZeros64(e)
			rest := e & (e - 1)
			if apart {
				rest &^= geo.target[a][1]
			}
			for ; rest != 0; rest &= rest - 1 {
				dst = append(dst, PlaceMove(a, bits.TrailingZeros64(rest)))
			}
		}
		return dst
	}
	if s.stopped() {
		return dst
	}
	for from := s.top[s.toMove] &^ s.locked; from != 0; from &= from - 1 {
		x := bits.TrailingZeros64(from)
		for to := geo.target[x][s.height[x]] &^ s.locked; to != 0; to &= to - 1 {
			dst = append(dst, StackMove(x, bits.TrailingZeros64(to)))
		}
	}
	return dst
}

// countMoves returns the number of legal moves.
func (s *State) countMoves() uint64 {
	geo := s.g.geo
	if !s.moving {
		e := geo.full &^ s.occ
		if !mustBeApart(e) {
			return 1
		}
		k := bits.OnesCount64(e)
		adjacent := bits.OnesCount64(e&(e>>1)&geo.notLastFile) + bits.OnesCount64(e&(e>>geo.n))
		return uint64(k*(k-1)/2 - adjacent)
	}
	if s.stopped() {
		return 0
	}
	var n int
	for from := s.top[s.toMove] &^ s.locked; from != 0; from &= from - 1 {
		x := bits.TrailingZeros64(from)
		n += bits.OnesCount64(geo.target[x][s.height[x]] &^ s.locked)
	}
	return uint64(n)
}

// canMove reports whether player p has a stack move in the moving phase. A
// player whose colour tops only locked stacks has none.
func (s *State) canMove(p int) bool {
	geo := s.g.geo
	for from := s.top[p] &^ s.locked; from != 0; from &= from - 1 {
		x := bits.TrailingZeros64(from)
		if geo.target[x][s.height[x]]&^s.locked != 0 {
			return true
		}
	}
	return false
}

// stopped reports whether the moving phase is over for a reason other than
// the player to move having no move: a player has placed all their roofs,
// or, with end=any, the player who just moved cannot move any more.
func (s *State) stopped() bool {
	return s.roofsDone() || s.g.endAny && !s.canMove(s.toMove^1)
}

// Perft counts the leaves of the move tree of the given depth. It plays the
// moves on s itself with make and unmake, counting the moves of the last
// ply without playing them, and leaves s as it found it.
func (s *State) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return s.perft(depth)
}

func (s *State) perft(depth int) uint64 {
	if depth == 1 {
		return s.countMoves()
	}
	geo := s.g.geo
	var u undoRecord
	var n uint64
	if !s.moving {
		empty := geo.full &^ s.occ
		apart := mustBeApart(empty)
		for e := empty; e != 0; e &= e - 1 {
			a := bits.TrailingZeros64(e)
			rest := e & (e - 1)
			if apart {
				rest &^= geo.target[a][1]
			}
			for ; rest != 0; rest &= rest - 1 {
				s.make(PlaceMove(a, bits.TrailingZeros64(rest)), &u)
				n += s.perft(depth - 1)
				s.unmake(&u)
			}
		}
		return n
	}
	if s.stopped() {
		return 0
	}
	// Make and unmake restore the masks, so those read here stay valid.
	for from := s.top[s.toMove] &^ s.locked; from != 0; from &= from - 1 {
		x := bits.TrailingZeros64(from)
		for to := geo.target[x][s.height[x]] &^ s.locked; to != 0; to &= to - 1 {
			s.make(StackMove(x, bits.TrailingZeros64(to)), &u)
			n += s.perft(depth - 1)
			s.unmake(&u)
		}
	}
	return n
}
