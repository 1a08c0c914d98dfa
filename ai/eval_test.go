package ai

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"stax/game"
	"stax/games/pisola"
)

// randomPositions returns the positions of a few random games of spec.
func randomPositions(t *testing.T, spec string, games int) []game.State {
	t.Helper()
	g := load(t, spec)
	rng := rand.New(rand.NewPCG(1, 2))
	var out []game.State
	var buf []game.Move
	for range games {
		s := g.Start()
		for ply := 0; ply < 200 && !s.Terminal(); ply++ {
			out = append(out, s.Clone())
			buf = s.Legal(buf[:0])
			s.Apply(buf[rng.IntN(len(buf))])
		}
	}
	return out
}

// TestEvaluators checks every game's evaluation on positions of random
// games: it scores a position for one player as minus its score for the
// other (in two-player games), and allocates nothing.
func TestEvaluators(t *testing.T) {
	for _, spec := range []string{"pogo", "pisola", "pisola(size=8)", "pisola(roofs=true)", "diam", "diam(players=4)"} {
		t.Run(spec, func(t *testing.T) {
			ev := Evaluator(load(t, spec))
			for _, s := range randomPositions(t, spec, 3) {
				a, b := ev.Evaluate(s, 0), ev.Evaluate(s, 1)
				if s.Game().Players() == 2 && a != -b {
					t.Fatalf("%s: %d for the first player, %d for the second", s, a, b)
				}
				if n := testing.AllocsPerRun(10, func() { ev.Evaluate(s, 0) }); n != 0 {
					t.Fatalf("%s: %v allocations an evaluation", s, n)
				}
			}
		})
	}
}

// TestPisolaTerms checks the terms of Pisola's evaluation against what
// they count, on positions of random games.
func TestPisolaTerms(t *testing.T) {
	for _, spec := range []string{"pisola", "pisola(size=8)"} {
		for _, st := range randomPositions(t, spec, 3) {
			s := st.(*pisola.State)
			tm := pisolaTerms(s)
			hits := 0
			for c := 0; c < 2; c++ {
				v := tm[c]
				tops := s.Tops(c)
				if v[ptOwn] != bits.OnesCount64(tops) || v[ptLocked] > v[ptOwn] || v[ptExposed]+v[ptSafe] > v[ptOwn]-v[ptLocked] {
					t.Fatalf("%s: side %d: inconsistent counts %v", s, c, v)
				}
				if v[ptCorner]+v[ptEdge]+v[ptCenter] > v[ptOwn] || v[ptMobility] > 40 || v[ptTall] > v[ptOwn]-v[ptLocked] {
					t.Fatalf("%s: side %d: inconsistent counts %v", s, c, v)
				}
				hits += v[ptHit]
				if v[ptTempo] == 1 != (s.Moving() && s.ToMove() == c) {
					t.Fatalf("%s: side %d: tempo %d", s, c, v[ptTempo])
				}
			}
			if !s.Moving() && (hits != 0 || tm[0][ptLocked]+tm[1][ptLocked] != 0) {
				t.Fatalf("%s: placing with hits or locks: %v", s, tm)
			}
		}
	}
}
