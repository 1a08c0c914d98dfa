package ai

import (
	"math/bits"

	"stax/game"
	"stax/games/pogo"
)

// pogoEval scores Pogo positions after the strategy of the seed texts:
//   - stacks controlled (topped) by each side;
//   - attacks: a stack is attacked by the stacks that can land on it; a
//     stack the opponent attacks more than its owner defends is in danger
//     (the basic rule "never move to a square with more enemy threats
//     than friendly ones");
//   - own triplets: a stack topped by three or more of one's own pieces
//     reaches almost the whole board, and if captured leaves the captor
//     pinned;
//   - pinned pieces: a stack topped by a thin layer of the opponent above
//     one's own pieces cannot be moved by the opponent without freeing
//     them;
//   - mobility, the number of moves each side has;
//   - parity: the side to move has the initiative.
type pogoEval struct{}

// pogoReach returns, for each square, how many of player p's stacks can
// land on it, and p's number of moves.
func pogoReach(g *pogo.Game, s *pogo.State, p int) (attacks [9]int, mobility int) {
	for m := s.Tops(p); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros16(m)
		kmax := min(s.Height(sq), 3)
		var any uint16
		for k := 1; k <= kmax; k++ {
			d := g.Destinations(k, sq)
			any |= d
			mobility += bits.OnesCount16(d)
		}
		for d := any; d != 0; d &= d - 1 {
			attacks[bits.TrailingZeros16(d)]++
		}
	}
	return attacks, mobility
}

// topRun returns the number of pieces of the top colour at the top of sq.
func topRun(s *pogo.State, sq int) (colour, run int) {
	h := s.Height(sq)
	if h == 0 {
		return -1, 0
	}
	colour = s.Piece(sq, h-1)
	for l := h - 1; l >= 0 && s.Piece(sq, l) == colour; l-- {
		run++
	}
	return colour, run
}

func (pogoEval) Evaluate(st game.State, p int) int {
	s := st.(*pogo.State)
	g := s.Game().(*pogo.Game)
	q := 1 - p
	var side [2]int
	var att [2][9]int
	var mob [2]int
	att[0], mob[0] = pogoReach(g, s, 0)
	att[1], mob[1] = pogoReach(g, s, 1)
	for sq := 0; sq < 9; sq++ {
		c, run := topRun(s, sq)
		if c < 0 {
			continue
		}
		o := 1 - c
		h := s.Height(sq)
		v := 100 + 6*min(h, 6) // a controlled stack, more for a tall one
		if run >= 3 {
			v += 40 // an own triplet
		}
		if run < h {
			// Enemy pieces under the top run: held prisoner. If the run is
			// thin, moving the stack frees them: the captor is pinned.
			v += 12 * (h - run)
			if run <= 2 {
				v -= 15
			}
		}
		// Attacks: danger when the opponent attacks more than we defend.
		if att[o][sq] > 0 {
			v -= 25
			if att[o][sq] > att[c][sq] {
				v -= 20
			}
		}
		side[c] += v
	}
	score := side[p] - side[q] + 3*(mob[p]-mob[q])
	if s.ToMove() == p {
		score += 30
	} else {
		score -= 30
	}
	return score
}
