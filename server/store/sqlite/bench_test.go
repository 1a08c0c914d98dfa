package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// benchStore returns a store holding games g0..g(n-1).
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "b.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	for i := 0; i < n; i++ {
		if err := s.Create(context.Background(), newGame(fmt.Sprint("g", i))); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkAppendMove commits one move at a time: the latency of a move's
// commit when nothing else is written.
func BenchmarkAppendMove(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.AppendMove(ctx, "g0", i, "1a1-a2", time.Now(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendMoveParallel commits moves of 1000 games from many
// goroutines at once, which group commit shares out.
func BenchmarkAppendMoveParallel(b *testing.B) {
	const games = 1000
	s := benchStore(b, games)
	ctx := context.Background()
	var plies [games]atomic.Int64
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(64)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			g := next.Add(1) % games
			ply := plies[g].Add(1) - 1
			if err := s.AppendMove(ctx, fmt.Sprint("g", g), int(ply), "1a1-a2", time.Now(), nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
