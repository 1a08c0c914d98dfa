package solve

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSolve solves the game with 5 pieces a side (1,401,298 classes
// of positions), a tenth of the real game's size, with 1 and 2 workers.
func BenchmarkSolve(b *testing.B) {
	indexerFor(5)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("n=5/workers=%d", w), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := solveN(context.Background(), 5, Options{U: true, Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIndex measures the index of a position, symmetries folded.
func BenchmarkIndex(b *testing.B) {
	x := indexerFor(Pieces)
	var ps []pos
	for idx := uint32(0); idx < x.total; idx += x.total / 1024 {
		ps = append(ps, x.decode(idx))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		x.index(&ps[i%len(ps)], i&1 == 0)
		i++
	}
}

// BenchmarkMoves measures the verdicts of every move of a position.
func BenchmarkMoves(b *testing.B) {
	tb, err := solveN(context.Background(), 3, Options{U: true, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := tb.x.decode(tb.x.total / 2)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		tb.successors(&p, func(idx uint32) { n += int(tb.val[idx]) })
	}
}
