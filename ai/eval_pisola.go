package ai

import (
	"math/bits"

	"stax/game"
	"stax/games/pisola"
)

// pisolaEval scores Pisola positions by what decides the game:
//   - squares controlled (topped), the final score, and among them the
//     locked ones, which are points for good;
//   - in the roofs variant, roofs placed (locked stacks one tops), which
//     decide the game, ahead of squares;
//   - mobility: the moves each side has, as a side without moves ends the
//     game;
//   - prospects: an unlocked stack the opponent can land on is likely to
//     change hands, and one nobody can reach any more is close to
//     locking for its owner.
//
// During placing every piece is a single; the same terms then favour
// squares from which pieces can move and that the opponent's pieces do
// not hem in.
type pisolaEval struct{}

func (pisolaEval) Evaluate(st game.State, p int) int {
	s := st.(*pisola.State)
	g := s.Game().(*pisola.Game)
	q := 1 - p
	locked := s.LockedSquares()
	var reach [2]uint64 // squares each side can land on
	var mob [2]int
	for c := 0; c < 2; c++ {
		for m := s.Tops(c) &^ locked; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			t := g.Targets(sq, s.Height(sq)) &^ locked
			reach[c] |= t
			mob[c] += bits.OnesCount64(t)
		}
	}
	var side [2]int
	for c := 0; c < 2; c++ {
		tops := s.Tops(c)
		own := bits.OnesCount64(tops)
		lk := bits.OnesCount64(tops & locked)
		free := tops &^ locked
		exposed := bits.OnesCount64(free & reach[1-c])
		safe := bits.OnesCount64(free &^ reach[1-c] &^ reach[c])
		v := 100*own + 30*lk - 35*exposed + 15*safe + 4*min(mob[c], 40)
		if g.Roofs() {
			v = 40*own + 220*min(lk, g.NumRoofs()) - 20*exposed + 10*safe + 4*min(mob[c], 40)
		}
		side[c] = v
	}
	score := side[p] - side[q]
	if s.Moving() {
		if s.ToMove() == p {
			score += 20
		} else {
			score -= 20
		}
	}
	return score
}
