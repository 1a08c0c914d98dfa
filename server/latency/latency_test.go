package latency

import (
	"testing"
	"time"
)

// TestQuantile checks the quantiles reported: the top of the bucket,
// capped by the largest duration recorded.
func TestQuantile(t *testing.T) {
	var h Histogram
	if q := h.Quantile(0.99); q != 0 {
		t.Errorf("p99 of nothing = %v; want 0", q)
	}
	for range 99 {
		h.Add(100 * time.Microsecond)
	}
	h.Add(50 * time.Millisecond)
	if q := h.Quantile(0.5); q != 128*time.Microsecond {
		t.Errorf("p50 = %v; want 128µs", q)
	}
	if q := h.Quantile(1); q != 50*time.Millisecond {
		t.Errorf("max = %v; want 50ms", q)
	}
	s := h.Snapshot()
	if s.Count != 100 || h.Count() != 100 || s.Sum != 99*100*time.Microsecond+50*time.Millisecond {
		t.Errorf("snapshot %d durations summing to %v; want 100 summing to 59.9ms", s.Count, s.Sum)
	}
	if s.Counts[7] != 99 || s.Counts[16] != 1 {
		t.Errorf("buckets %v; want 99 in bucket 7 (64–128 µs) and 1 in bucket 16", s.Counts)
	}
}

// TestSince checks the quantiles of what a histogram recorded between two
// snapshots: a load test reads the server's own latencies over its
// measurement only, not over the setup before it.
func TestSince(t *testing.T) {
	var h Histogram
	for range 1000 {
		h.Add(300 * time.Millisecond) // the setup's slow commits
	}
	before := h.Snapshot()
	for range 99 {
		h.Add(3 * time.Millisecond)
	}
	h.Add(40 * time.Millisecond)
	d := h.Snapshot().Since(before)
	tests := []struct {
		q    float64
		want time.Duration
	}{
		{0.5, 4096 * time.Microsecond},
		{0.99, 65536 * time.Microsecond},
		{1, 65536 * time.Microsecond},
	}
	for _, tt := range tests {
		if got := d.Quantile(tt.q); got != tt.want {
			t.Errorf("q%v of the durations since = %v; want %v", tt.q, got, tt.want)
		}
	}
	if d.Count != 100 || d.Sum != 99*3*time.Millisecond+40*time.Millisecond {
		t.Errorf("since: %d durations summing to %v; want 100 summing to 337ms", d.Count, d.Sum)
	}
	if q := (Snapshot{}).Quantile(0.99); q != 0 {
		t.Errorf("p99 of nothing = %v; want 0", q)
	}
	if q := h.Quantile(0.5); q != 300*time.Millisecond {
		t.Errorf("p50 of the whole histogram = %v; want 300ms (the largest recorded)", q)
	}
}
