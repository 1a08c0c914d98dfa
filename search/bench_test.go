package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"stax/ai"
	"stax/game"
	"stax/games"
	"stax/search"
)

var benchSpecs = []string{"pogo", "pisola", "pisola(size=8)", "diam", "diam(players=4)"}

func loadBench(b *testing.B, spec string) game.Game {
	g, err := games.Load(spec)
	if err != nil {
		b.Skipf("%s: %v", spec, err)
	}
	return g
}

// BenchmarkPlayout measures uniformly random playouts from the start to the
// end of the game (or 400 plies), by make and unmake, on one goroutine.
func BenchmarkPlayout(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run(spec, func(b *testing.B) {
			g := loadBench(b, spec)
			s := g.Start()
			u := s.(game.Undoer)
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]game.Move, 0, g.MaxMoves())
			plies := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n := 0
				for ; n < 400; n++ {
					buf = s.Legal(buf[:0])
					if len(buf) == 0 {
						break
					}
					s.Apply(buf[rng.IntN(len(buf))])
				}
				plies += n
				for ; n > 0; n-- {
					u.Undo()
				}
			}
			b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
		})
	}
}

// BenchmarkMCTS measures MCTS iterations (playouts) per second on one
// worker from the start position.
func BenchmarkMCTS(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run(spec, func(b *testing.B) {
			g := loadBench(b, spec)
			m := search.NewMCTS(ai.Evaluator(g), 1)
			m.Workers = 1
			m.NoReuse = true
			b.ReportAllocs()
			b.ResetTimer()
			res, err := m.Play(context.Background(), search.Position{State: g.Start()}, search.Limits{Nodes: int64(b.N)}, nil)
			if err != nil {
				b.Fatal(err)
			}
			_ = res
		})
	}
}

// BenchmarkAlphaBeta measures alpha-beta nodes per second from the start
// position, to a fixed depth per game, with the game's evaluation and an
// emptied transposition table for each search.
func BenchmarkAlphaBeta(b *testing.B) {
	depths := map[string]int{"pogo": 8, "pisola": 3, "pisola(size=8)": 2, "diam": 7, "diam(players=4)": 9}
	for _, spec := range benchSpecs {
		b.Run(spec, func(b *testing.B) {
			g := loadBench(b, spec)
			var nodes int64
			a := search.NewAlphaBeta(ai.Evaluator(g), 18, 1)
			b.ReportAllocs()
			b.ResetTimer()
			nodes += searchToDepth(b, a, g, depths[spec])
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkAlphaBetaThreads measures the time alpha-beta takes to finish
// a fixed depth from the start position with one thread and with two (lazy
// SMP), with an emptied table for each search: the time per operation is
// the time to depth.
func BenchmarkAlphaBetaThreads(b *testing.B) {
	depths := map[string]int{"pogo": 10, "pisola": 4, "diam": 9}
	for _, spec := range []string{"pogo", "pisola", "diam"} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", spec, threads), func(b *testing.B) {
				g := loadBench(b, spec)
				a := search.NewAlphaBeta(ai.Evaluator(g), 20, 1)
				a.Threads = threads
				b.ResetTimer()
				nodes := searchToDepth(b, a, g, depths[spec])
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}

// searchToDepth searches g's start to depth b.N times with a emptied
// table each time, and returns the nodes searched.
func searchToDepth(b *testing.B, a *search.AlphaBeta, g game.Game, depth int) int64 {
	var nodes int64
	for i := 0; i < b.N; i++ {
		a.ClearTable()
		res, err := a.Play(context.Background(), search.Position{State: g.Start()}, search.Limits{Depth: depth}, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Nodes
	}
	return nodes
}
