package prove

import (
	"testing"
	"unsafe"
)

// BenchmarkProve measures the solver's speed on positions from random
// games, one worker, without an evaluation: it reports positions searched
// per second and bytes of table per stored position.
func BenchmarkProve(b *testing.B) {
	for _, spec := range specs {
		b.Run(spec, func(b *testing.B) {
			g := load(b, spec)
			positions := playouts(g, 13, 8, 6, 14)
			var nodes, entries int64
			for i := 0; i < b.N; i++ {
				s, _ := New(g, Options{TableBytes: 64 << 20, Workers: 1, NodeLimit: 20_000})
				for _, st := range positions {
					if _, err := s.Prove(b.Context(), st, Win); err != nil {
						b.Fatal(err)
					}
				}
				p := s.Progress()
				nodes += p.Nodes
				entries += p.Entries
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(unsafe.Sizeof(entry{})), "B/entry")
			b.ReportMetric(float64(entries)/float64(nodes), "entries/node")
		})
	}
}

// BenchmarkKey measures the canonical key of a position (128 images).
func BenchmarkKey(b *testing.B) {
	g := load(b, "diam")
	positions := playouts(g, 13, 64, 6, 30)
	b.ResetTimer()
	var sink uint64
	for i := 0; i < b.N; i++ {
		st := positions[i&63]
		sink += keyOf(st.Colours(), st.ToMove())
	}
	_ = sink
}
