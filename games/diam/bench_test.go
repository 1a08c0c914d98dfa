package diam_test

import (
	"testing"

	"stax/game"
	"stax/games/diam"
)

// benchPositions are the positions the perft benchmarks count from.
var benchPositions = []struct {
	name  string
	opts  game.Options
	pos   string
	depth int
}{
	{"start", nil, "-/-/-/-/-/-/-/- 1", 5},
	{"midgame", nil, "yg/r/bb/-/gr/y/-/rb 1", 4},
	{"drop-any", game.Options{"drop": "any"}, "yg/r/bb/-/gr/y/-/rb 1", 4},
	{"teams", game.Options{"players": "4", "teams": "true"}, "yg/r/bb/-/gr/y/-/rb 1", 5},
}

// BenchmarkPerft measures the specialised perft; leaves/s is the figure
// docs/performance.md quotes.
func BenchmarkPerft(b *testing.B) {
	for _, bp := range benchPositions {
		g, err := diam.New(bp.opts)
		if err != nil {
			b.Fatal(err)
		}
		s, err := g.Parse(bp.pos)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bp.name, func(b *testing.B) {
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				n = s.Perft(bp.depth)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// BenchmarkPerftGeneric measures perft through the game.State interface
// (Legal, Apply, Undo), without bulk counting.
func BenchmarkPerftGeneric(b *testing.B) {
	g, err := diam.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewStart()
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n = game.PerftGeneric(s, 4)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkApplyUndo measures one Apply and Undo through the interface.
func BenchmarkApplyUndo(b *testing.B) {
	g, err := diam.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.Parse("yg/r/bb/-/gr/y/-/rb 1")
	if err != nil {
		b.Fatal(err)
	}
	moves := s.Legal(nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Apply(moves[i])
		s.Undo()
		if i++; i == len(moves) {
			i = 0
		}
	}
}
