package ai

import (
	"math/bits"

	"stax/game"
	"stax/games/pisola"
)

// pisolaEval scores Pisola positions by what decides the game, as a
// weighted sum of the terms of pisolaTerms (each the difference between the
// two sides), with one set of weights for the placing phase and one for
// the moving phase, fitted to self-play games (pisolaWeights; see
// TunePisola, stax tune pisola and docs/strength.md). The terms:
//   - squares controlled (topped), the final score, and among them the
//     locked ones, which are points for good;
//   - mobility: the moves each side has, as a side without moves ends the
//     game, and the squares it can reach;
//   - prospects: an unlocked stack the opponent can land on is likely to
//     change hands (the more so when the opponent is to move), and one
//     nobody can reach any more is close to locking for its owner.
//
// During placing every piece is a single; the same terms then favour
// squares from which pieces can move and that the opponent's pieces do
// not hem in.
//
// The roofs variant, where the roofs placed (locked stacks one tops)
// decide the game, keeps a hand-set weighting of the same terms.
type pisolaEval struct{}

// The terms of the evaluation, each counted for both sides.
const (
	ptOwn      = iota // squares topped
	ptLocked          // locked squares topped
	ptExposed         // unlocked stacks topped that the opponent can land on
	ptSafe            // unlocked stacks topped that nobody can land on
	ptMobility        // moves, at most 40
	ptReach           // squares the side can land on
	ptTall            // unlocked stacks topped of height 2 or more
	ptHit             // the side is to move and can land on an opponent's unlocked stack
	ptTempo           // the side is to move (moving phase)
	ptCorner          // corner squares topped
	ptEdge            // edge squares topped, corners aside
	ptCenter          // squares topped two or more squares away from every edge
	ptPairs           // orthogonally adjacent pairs of squares topped
	numPisolaTerms
)

// pisolaTermNames names the terms, for the tuning's report.
var pisolaTermNames = [numPisolaTerms]string{"own", "locked", "exposed", "safe", "mobility", "reach", "tall", "hit", "tempo", "corner", "edge", "center", "pairs"}

// pisolaWeights holds the weights of the terms, for the placing phase and
// the moving phase, in evaluation units (a square is worth about 100).
// They were fitted by TunePisola (stax tune pisola; docs/strength.md).
var pisolaWeights = [2][numPisolaTerms]int{
	{29, 30, -16, 1, 1, -4, 0, 0, 0, 7, 1, -7, 3},
	{121, -9, -17, 4, 14, -1, -16, 40, 0, 5, -4, 1, -2},
}

// pisolaRegions holds the squares of the regions the terms count, for each
// board size.
type pisolaRegions struct {
	corner, edge, center uint64
	notLastFile          uint64 // squares with a neighbour to the east
}

var pisolaRegionsBySize = [9]*pisolaRegions{6: newPisolaRegions(6), 8: newPisolaRegions(8)}

func newPisolaRegions(n int) *pisolaRegions {
	r := &pisolaRegions{}
	for sq := 0; sq < n*n; sq++ {
		f, k := sq%n, sq/n
		bit := uint64(1) << sq
		d := min(f, k, n-1-f, n-1-k)
		onEdgeF, onEdgeK := f == 0 || f == n-1, k == 0 || k == n-1
		switch {
		case onEdgeF && onEdgeK:
			r.corner |= bit
		case d == 0:
			r.edge |= bit
		case d >= 2:
			r.center |= bit
		}
		if f < n-1 {
			r.notLastFile |= bit
		}
	}
	return r
}

// pisolaTerms returns the terms of s for each side, White first.
func pisolaTerms(s *pisola.State) (t [2][numPisolaTerms]int) {
	g := s.Game().(*pisola.Game)
	n := g.Size()
	rg := pisolaRegionsBySize[n]
	locked := s.LockedSquares()
	var reach [2]uint64 // squares each side can land on
	var mob [2]int
	var tall [2]int
	for c := 0; c < 2; c++ {
		for m := s.Tops(c) &^ locked; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			h := s.Height(sq)
			tg := g.Targets(sq, h) &^ locked
			reach[c] |= tg
			mob[c] += bits.OnesCount64(tg)
			if h >= 2 {
				tall[c]++
			}
		}
	}
	for c := 0; c < 2; c++ {
		tops := s.Tops(c)
		free := tops &^ locked
		v := &t[c]
		v[ptOwn] = bits.OnesCount64(tops)
		v[ptLocked] = bits.OnesCount64(tops & locked)
		v[ptExposed] = bits.OnesCount64(free & reach[1-c])
		v[ptSafe] = bits.OnesCount64(free &^ reach[1-c] &^ reach[c])
		v[ptMobility] = min(mob[c], 40)
		v[ptReach] = bits.OnesCount64(reach[c])
		v[ptTall] = tall[c]
		v[ptCorner] = bits.OnesCount64(tops & rg.corner)
		v[ptEdge] = bits.OnesCount64(tops & rg.edge)
		v[ptCenter] = bits.OnesCount64(tops & rg.center)
		v[ptPairs] = bits.OnesCount64(tops&tops>>1&rg.notLastFile) + bits.OnesCount64(tops&tops>>n)
	}
	if s.Moving() {
		c := s.ToMove()
		t[c][ptTempo] = 1
		if reach[c]&s.Tops(1-c)&^locked != 0 {
			t[c][ptHit] = 1
		}
	}
	return t
}

func (pisolaEval) Evaluate(st game.State, p int) int {
	s := st.(*pisola.State)
	t := pisolaTerms(s)
	q := 1 - p
	if g := s.Game().(*pisola.Game); g.Roofs() {
		side := func(v *[numPisolaTerms]int) int {
			return 40*v[ptOwn] + 220*min(v[ptLocked], g.NumRoofs()) - 20*v[ptExposed] + 10*v[ptSafe] + 4*v[ptMobility] + 20*v[ptTempo]
		}
		return side(&t[p]) - side(&t[q])
	}
	w := &pisolaWeights[0]
	if s.Moving() {
		w = &pisolaWeights[1]
	}
	score := 0
	for i, x := range w {
		score += x * (t[p][i] - t[q][i])
	}
	return score
}
