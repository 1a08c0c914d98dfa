package ai

import (
	"math/bits"

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
//
// The score is linear in the features of diamFeatures, weighted by w:
// two-player games use diamWeights2, tuned from self-play results
// (TuneDiam, stax tune diam), the others diamWeights4.
type diamEval struct{ w *diamWeights }

// The features of a Diam position, each counted for the evaluating
// player's side minus the others' (see diamFeatures). The ones by level
// have three entries, for levels 2, 3 and 4 (0-based 1 to 3).
const (
	fThreat   = 0  // half a diam its owner can complete this turn
	fHalf     = 3  // half a diam: the opposite cell is exactly as high
	fLater    = 6  // the opposite cell is lower by two or more
	fNear     = 9  // the opposite cell is lower by one
	fCovered  = 12 // the opposite cell is higher
	fToMove   = 15 // the side to move's best threat, counted once
	fGround   = 18 // pieces at level 1
	fTop      = 19 // stacks topped by a colour, by height 1 to 4
	fReserve  = 23 // pieces in hand
	fTempo    = 24 // the side to move
	fDouble   = 25 // two or more cells where the side not to move threatens
	diamNFeat = 26
)

// diamWeights weighs the features of diamFeatures, in evaluation units.
type diamWeights [diamNFeat]int32

// diamWeights4 are the hand-set weights of the four-player games (the
// weights that every Diam level used before the two-player ones were
// tuned): threats, half diams, diams for later whatever the gap, the side
// to move's best threat and the reserves.
var diamWeights4 = diamWeights{
	fThreat: 60, fThreat + 1: 90, fThreat + 2: 130,
	fHalf: 20, fHalf + 1: 30, fHalf + 2: 45,
	fLater: 6, fLater + 1: 9, fLater + 2: 12,
	fNear: 6, fNear + 1: 9, fNear + 2: 12,
	fToMove: 250, fToMove + 1: 350, fToMove + 2: 500,
	fReserve: 3,
}

// diamWeights2 are the weights of the two-player games, tuned by
// TuneDiam (stax tune diam, 6,000 self-play games at 6,000 nodes a move,
// seed 1).
var diamWeights2 = diamWeights{
	fThreat: 720, fThreat + 1: 545, fThreat + 2: 231,
	fHalf: 201, fHalf + 1: 437, fHalf + 2: 435,
	fLater: 6, fLater + 1: 633, fLater + 2: 413,
	fNear: 690, fNear + 1: 721, fNear + 2: 392,
	fCovered: 388, fCovered + 1: 525, fCovered + 2: 275,
	fToMove: -306, fToMove + 1: -317, fToMove + 2: 2025,
	fGround: 67,
	fTop:    11, fTop + 1: 57, fTop + 2: -23, fTop + 3: 385,
	fReserve: -555, fTempo: 303, fDouble: -271,
}

// diamEvaluator returns the evaluation of g's levels.
func diamEvaluator(g *diam.Game) diamEval {
	if g.Players() == 2 {
		return diamEval{w: &diamWeights2}
	}
	return diamEval{w: &diamWeights4}
}

// Evaluate implements search.Evaluator.
func (e diamEval) Evaluate(st game.State, p int) int {
	var f [diamNFeat]int32
	diamFeatures(st.(*diam.State), p, &f)
	v := int32(0)
	for i, x := range f {
		v += e.w[i] * x
	}
	return int(v)
}

// diamFeatures sets f to the features of s for player p (see the f...
// constants): the count for p's side minus the count for the others.
func diamFeatures(s *diam.State, p int, f *[diamNFeat]int32) {
	g := s.Game().(*diam.Game)
	toMove := s.ToMove()
	moverFriend := g.SameTeam(toMove, p)
	var h [8]int
	for c := 0; c < 8; c++ {
		h[c] = s.Height(c)
	}
	var friendly [4]bool
	for c := range friendly {
		friendly[c] = g.SameTeam(g.Owner(c), p)
	}
	// best immediate threat level of the side to move's colours, to count
	// once only: one winning move is enough; and the cells where each
	// side threatens.
	bestNow := 0
	var threatCells [2]uint8 // p's side, the others
	for cell := 0; cell < 8; cell++ {
		if h[cell] == 0 {
			continue
		}
		top := s.Piece(cell, h[cell]-1)
		if friendly[top] {
			f[fTop+h[cell]-1]++
		} else {
			f[fTop+h[cell]-1]--
		}
		for l := 0; l < h[cell]; l++ {
			c := s.Piece(cell, l)
			sign := int32(-1)
			if friendly[c] {
				sign = 1
			}
			if l == 0 {
				f[fGround] += sign
				continue
			}
			o := cell ^ 4
			switch {
			case h[o] == l:
				f[fHalf+l-1] += sign
				if canLand(s, g, c, o, l, h) {
					f[fThreat+l-1] += sign
					side := 0
					if !friendly[c] {
						side = 1
					}
					threatCells[side] |= 1 << o
					if canMoveColour(g, toMove, c) {
						if friendly[c] {
							bestNow = max(bestNow, l)
						} else {
							bestNow = min(bestNow, -l)
						}
					}
				}
			case h[o] == l-1:
				f[fNear+l-1] += sign
			case h[o] < l:
				f[fLater+l-1] += sign
			default:
				f[fCovered+l-1] += sign
			}
		}
	}
	if bestNow > 0 {
		f[fToMove+bestNow-1]++
	} else if bestNow < 0 {
		f[fToMove-bestNow-1]--
	}
	// The side not to move with two threats cannot be stopped by one
	// block, unless the side to move wins at once.
	if moverFriend {
		f[fTempo]++
		if bits.OnesCount8(threatCells[1]) >= 2 {
			f[fDouble]--
		}
	} else {
		f[fTempo]--
		if bits.OnesCount8(threatCells[0]) >= 2 {
			f[fDouble]++
		}
	}
	// Reserves: pieces in hand keep options open.
	for c := 0; c < 4; c++ {
		if friendly[c] {
			f[fReserve] += int32(s.Reserve(c))
		} else {
			f[fReserve] -= int32(s.Reserve(c))
		}
	}
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
