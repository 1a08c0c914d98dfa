package prove

import "testing"

// TestTableSpreads stores positions that differ only in the colours of
// their last pieces and in the question (the key's top bits): they must
// spread over the buckets and all stay retrievable in a roomy table.
func TestTableSpreads(t *testing.T) {
	tt := newTable(1 << 20)
	const n = 1 << 12
	for i := uint64(0); i < n; i++ {
		tt.store(i<<40|0x12345, uint32(i)+1, 7, i+1)
	}
	for i := uint64(0); i < n; i++ {
		pn, dn, _, ok := tt.lookup(i<<40 | 0x12345)
		if !ok || pn != uint32(i)+1 || dn != 7 {
			t.Fatalf("entry %d: %d %d %v", i, pn, dn, ok)
		}
	}
	if got := tt.used.Load(); got != n {
		t.Errorf("%d entries used; want %d", got, n)
	}
}

// TestTableReplacesLeastWork fills one bucket and checks that a new entry
// replaces the one of least work.
func TestTableReplacesLeastWork(t *testing.T) {
	tt := newTable(64) // one bucket
	works := []uint64{500, 3, 90000, 40}
	for i, w := range works {
		tt.store(uint64(i+1), 1, 1, w)
	}
	tt.store(99, 2, 2, 1)
	if _, _, _, ok := tt.lookup(2); ok {
		t.Error("the entry of least work was kept")
	}
	for _, id := range []uint64{1, 3, 4, 99} {
		if _, _, _, ok := tt.lookup(id); !ok {
			t.Errorf("entry %d was replaced", id)
		}
	}
	for _, n := range []uint64{0, 1, 31, 32, 33, 1000, 1 << 40} {
		if w := workOf(workClass(n)); w > n || (n > 64 && w < n-n/16) {
			t.Errorf("work %d is stored as %d", n, w)
		}
	}
}
