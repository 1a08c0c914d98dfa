package play

import "time"

// Histogram is a snapshot of one of live play's latency histograms, for
// metrics: Counts[i] counts the durations of at least 2^(i-1) µs and below
// 2^i µs (Counts[0] those below 1 µs), the last bucket also those above.
type Histogram struct {
	Counts [32]int64
	Count  int64
	Sum    time.Duration
}

// UpperBound returns the least duration above every one bucket i counts.
func (Histogram) UpperBound(i int) time.Duration { return time.Duration(1<<i) * time.Microsecond }

func (h *latency) snapshot() Histogram {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Histogram{Counts: h.buckets, Count: h.n, Sum: h.sum}
}
