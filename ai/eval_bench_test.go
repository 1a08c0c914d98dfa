package ai

import (
	"math/rand/v2"
	"testing"

	"stax/game"
	"stax/search"
)

// BenchmarkEvaluate measures each game's evaluation (and Pogo's
// hand-written one, which its levels below strongest play with) on
// positions of random games.
func BenchmarkEvaluate(b *testing.B) {
	for _, c := range []struct {
		name, spec string
		ev         search.Evaluator
	}{
		{"pogo", "pogo", nil},
		{"pogo-hand", "pogo", pogoHandEval{}},
		{"pogo-linear", "pogo", pogoLinearEval{}},
		{"pisola", "pisola", nil},
		{"diam", "diam", nil},
	} {
		g := load(b, c.spec)
		ev := c.ev
		if ev == nil {
			ev = Evaluator(g)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		var states []game.State
		for len(states) < 256 {
			s := g.Start()
			for !s.Terminal() && len(states) < 256 {
				legal := s.Legal(nil)
				s.Apply(legal[rng.IntN(len(legal))])
				states = append(states, s.Clone())
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			sum := 0
			for i := 0; b.Loop(); i++ {
				sum += ev.Evaluate(states[i&255], 0)
			}
			_ = sum
		})
	}
}
