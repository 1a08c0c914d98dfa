package ai

import (
	"math/rand/v2"
	"stax/game"
	"testing"

	"stax/games/pogo"
)

// randomPogoStates returns positions of random Pogo games.
func randomPogoStates(t *testing.T, n int) []*pogo.State {
	g := load(t, "pogo").(*pogo.Game)
	rng := rand.New(rand.NewPCG(1, 2))
	var out []*pogo.State
	for len(out) < n {
		s := g.NewStart()
		for !s.Terminal() && len(out) < n {
			legal := s.Legal(nil)
			s.Apply(legal[rng.IntN(len(legal))])
			out = append(out, s.Copy())
		}
	}
	return out
}

// image returns s under symmetry t of the board (bit 0 mirrors the files,
// bit 1 the ranks, bit 2 swaps files and ranks).
func image(t *testing.T, s *pogo.State, sym int) *pogo.State {
	stacks := make([]string, 9)
	for sq := 0; sq < 9; sq++ {
		var b []byte
		for l := 0; l < s.Height(sq); l++ {
			b = append(b, "wb"[s.Piece(sq, l)])
		}
		if len(b) == 0 {
			b = []byte("-")
		}
		stacks[pogoSymmetries[sym][sq]] = string(b)
	}
	c, err := s.Game().(*pogo.Game).Compose(stacks, s.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	return c.(*pogo.State)
}

// TestPogoEvalSymmetric checks that the evaluation gives the same score to
// a position and its images under the symmetries of the board, and
// opposite scores to the two players.
func TestPogoEvalSymmetric(t *testing.T) {
	for _, s := range randomPogoStates(t, 500) {
		v := pogoEval{}.Evaluate(s, 0)
		if w := (pogoEval{}).Evaluate(s, 1); w != -v {
			t.Fatalf("%s: %d for White, %d for Black", s, v, w)
		}
		for sym := 1; sym < 8; sym++ {
			c := image(t, s, sym)
			if w := (pogoEval{}).Evaluate(c, 0); w != v {
				t.Fatalf("%s scores %d, its image %s %d", s, v, c, w)
			}
		}
	}
}

// TestPogoEvalAllocs checks that the evaluation allocates nothing.
func TestPogoEvalAllocs(t *testing.T) {
	states := randomPogoStates(t, 64)
	i := 0
	if n := testing.AllocsPerRun(100, func() {
		pogoEval{}.Evaluate(states[i%len(states)], 0)
		i++
	}); n != 0 {
		t.Errorf("Evaluate allocates %.1f times a call, want 0", n)
	}
}

// pogoLinearEval is pogoEval without its network, for comparisons.
type pogoLinearEval struct{}

func (pogoLinearEval) Evaluate(st game.State, p int) int {
	s := st.(*pogo.State)
	var f pogoFeatures
	f.extract(s)
	if s.ToMove() != p {
		return -f.linear()
	}
	return f.linear()
}
