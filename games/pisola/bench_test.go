package pisola_test

import (
	"testing"

	"stax/game"
)

// benchPositions are moving-phase positions for the perft benchmark, with
// a depth that takes a few hundred milliseconds.
var benchPositions = []struct {
	name, opts, pos string
	depth           int
}{
	{"full", "", fullBoard, 4},
	{"mid", "", midGame, 6},
	{"roofs", "roofs=true", "-,w,-,w,www,bb/bb,-,wbwwb^,-,wb,-/-,b,b,bwbbb^,-,-/bwwb,-,b,-,ww,w/-,-,w,-,-,-/-,-,bwwb^,-,-,- w", 6},
	{"8x8", "size=8", "-,-,bb,-,bwwbw,-,-,-/-,-,-,-,b,www,bw,bb/b,-,wbbwb,-,-,-,-,-/bw,bw,bw,-,-,-,bbww,-/-,-,ww,-,-,-,-,wbwb/-,www,w,w,-,-,-,-/bbbw,ww,-,bw,-,bb,bbbwbw,-/-,-,w,-,bwb,wb,-,- w", 5},
}

// BenchmarkPerft measures the specialised perft on moving-phase positions
// and reports leaf nodes per second.
func BenchmarkPerft(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			s := parse(b, bp.opts, bp.pos)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += s.Perft(bp.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftMakeAll measures perft on the moving-phase positions with
// every leaf made and unmade.
func BenchmarkPerftMakeAll(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			s := parse(b, bp.opts, bp.pos)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += s.PerftMakeAll(bp.depth - 1)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftGeneric measures perft through the State interface (Legal,
// Apply and Undo), as search code sees the game.
func BenchmarkPerftGeneric(b *testing.B) {
	for _, bp := range benchPositions[:2] {
		b.Run(bp.name, func(b *testing.B) {
			s := parse(b, bp.opts, bp.pos)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += game.PerftGeneric(s, bp.depth-1)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkApplyUndo measures one move made and taken back through the
// State interface.
func BenchmarkApplyUndo(b *testing.B) {
	s := parse(b, "", midGame)
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

// BenchmarkLegal measures move generation into a reused buffer.
func BenchmarkLegal(b *testing.B) {
	for _, bp := range []struct{ name, pos string }{{"placing", ""}, {"moving", midGame}} {
		b.Run(bp.name, func(b *testing.B) {
			s := load(b, "").NewStart()
			if bp.pos != "" {
				s = parse(b, "", bp.pos)
			}
			buf := make([]game.Move, 0, s.Game().MaxMoves())
			b.ReportAllocs()
			for b.Loop() {
				buf = s.Legal(buf[:0])
			}
		})
	}
}
