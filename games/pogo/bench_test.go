package pogo_test

import (
	"testing"

	"stax/game"
	"stax/games/pogo"
)

// BenchmarkPerft measures leaves per second of the specialised perft from
// the start and from a middle-game position, on one core.
func BenchmarkPerft(b *testing.B) {
	g, _ := pogo.New(nil)
	for _, bc := range []struct {
		name, pos string
		depth     int
	}{
		{"start-d6", "bb,bb,bb/-,-,-/ww,ww,ww w", 6},
		{"middle-d6", "b,-,wbb/bw,w,-/ww,bw,b w", 6},
	} {
		s := mustState(b, g, bc.pos)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				n = s.Perft(bc.depth)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

// BenchmarkPerftGeneric measures the same count through the game.State
// interface (Legal, Apply, Undo), as search code sees the game.
func BenchmarkPerftGeneric(b *testing.B) {
	g, _ := pogo.New(nil)
	s := g.Start()
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n = game.PerftGeneric(s, 5)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}
