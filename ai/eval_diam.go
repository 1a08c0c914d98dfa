package ai

import (
	"stax/game"
	"stax/games/diam"
)

// diamEval scores Diam positions by the diams in preparation: a piece at
// level 2 or higher whose opposite cell is exactly that high is half a
// diam, which the owner completes by bringing a piece of that colour onto
// the opposite cell (a threat, counted when some step or placement can do
// it at once); a piece facing a lower cell is a diam for later, if the
// cell can still grow (its capacity). Higher levels weigh more, as the
// highest diam wins. A colour counts for the player who owns it (in the
// team game, for the team), against everyone else.
type diamEval struct{}

// Weights by level (0-based; level 0 makes no diam).
var (
	diamThreatNow = [4]int{0, 60, 90, 130}   // completable this turn
	diamHalf      = [4]int{0, 20, 30, 45}    // the opposite cell is at the level
	diamLater     = [4]int{0, 6, 9, 12}      // the opposite cell is lower
	diamToMove    = [4]int{0, 250, 350, 500} // an immediate threat of the side to move
)

func (diamEval) Evaluate(st game.State, p int) int {
	s := st.(*diam.State)
	g := s.Game().(*diam.Game)
	toMove := s.ToMove()
	var h [8]int
	for c := 0; c < 8; c++ {
		h[c] = s.Height(c)
	}
	// best immediate threat level of the side to move's colours, to count
	// once only: one winning move is enough.
	bestNow := 0
	score := 0
	for cell := 0; cell < 8; cell++ {
		for l := 1; l < h[cell]; l++ {
			c := s.Piece(cell, l)
			o := cell ^ 4
			owner := g.Owner(c)
			sign := -1
			if g.SameTeam(owner, p) {
				sign = 1
			}
			v := 0
			switch {
			case h[o] == l:
				v = diamHalf[l]
				if canLand(s, g, c, o, l, h) {
					v += diamThreatNow[l]
					if canMoveColour(g, toMove, c) {
						if g.SameTeam(owner, p) {
							bestNow = max(bestNow, l)
						} else {
							bestNow = min(bestNow, -l)
						}
					}
				}
			case h[o] < l:
				v = diamLater[l]
			}
			score += sign * v
		}
	}
	if bestNow > 0 {
		score += diamToMove[bestNow]
	} else if bestNow < 0 {
		score -= diamToMove[-bestNow]
	}
	// Reserves: pieces in hand keep options open.
	for c := 0; c < 4; c++ {
		if g.SameTeam(g.Owner(c), p) {
			score += 3 * s.Reserve(c)
		} else {
			score -= 3 * s.Reserve(c)
		}
	}
	return score
}

// canMoveColour reports whether player p may move or place colour c.
func canMoveColour(g *diam.Game, p, c int) bool { return g.CanMove(p, c) || g.CanPlace(p, c) }

// canLand reports whether a piece of colour c can be brought onto cell o
// (of height l) in one turn by some player allowed to: a step from a
// neighbour carrying a block that fits, or a placement from the reserve
// (on an empty cell, or any cell with drop=any).
func canLand(s *diam.State, g *diam.Game, c, o, l int, h [8]int) bool {
	if s.Reserve(c) > 0 && (l == 0 || g.DropAny()) {
		return true
	}
	for _, n := range [2]int{(o + 1) & 7, (o + 7) & 7} {
		for lv := 0; lv < h[n]; lv++ {
			if s.Piece(n, lv) == c && l+h[n]-lv <= 4 {
				return true
			}
		}
	}
	return false
}
