// Package latency keeps histograms of durations cheap enough to record on
// every move: power-of-two buckets of microseconds, from which the server
// reports quantiles (GET /debug/stats) and Prometheus histograms
// (/metrics).
package latency

import (
	"math/bits"
	"sync"
	"time"
)

// Buckets is how many buckets a Histogram has.
const Buckets = 32

// Histogram counts durations in power-of-two buckets of microseconds.
// Its zero value is empty and ready; it is safe for concurrent use.
type Histogram struct {
	mu      sync.Mutex     // guards the fields below
	buckets [Buckets]int64 // bucket i counts durations in [2^(i-1), 2^i) µs
	n       int64
	max     time.Duration
	sum     time.Duration
}

// Add records one duration.
func (h *Histogram) Add(d time.Duration) {
	us := uint64(d / time.Microsecond)
	i := bits.Len64(us)
	if i >= len(h.buckets) {
		i = len(h.buckets) - 1
	}
	h.mu.Lock()
	h.buckets[i]++
	h.n++
	h.max = max(h.max, d)
	h.sum += d
	h.mu.Unlock()
}

// Count returns how many durations were recorded.
func (h *Histogram) Count() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Quantile returns an upper bound of the q-quantile: the top of its
// bucket, or the largest duration recorded when that is less.
func (h *Histogram) Quantile(q float64) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == 0 {
		return 0
	}
	return min(quantile(&h.buckets, h.n, q), h.max)
}

// quantile returns the top of the bucket of the q-quantile of the n
// durations counted in buckets.
func quantile(buckets *[Buckets]int64, n int64, q float64) time.Duration {
	want := min(int64(q*float64(n)), n-1)
	var seen int64
	for i, c := range buckets {
		seen += c
		if seen > want {
			return UpperBound(i)
		}
	}
	return UpperBound(Buckets - 1)
}

// Snapshot returns the histogram's counts as they are now.
func (h *Histogram) Snapshot() Snapshot {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Snapshot{Counts: h.buckets, Count: h.n, Sum: h.sum}
}

// Snapshot is a histogram's counts at one time, for metrics: Counts[i]
// counts the durations of at least 2^(i-1) µs and below 2^i µs (Counts[0]
// those below 1 µs), the last bucket also those above.
type Snapshot struct {
	Counts [Buckets]int64
	Count  int64
	Sum    time.Duration
}

// Since returns what the histogram recorded between earlier, a snapshot
// of the same histogram, and s.
func (s Snapshot) Since(earlier Snapshot) Snapshot {
	d := Snapshot{Count: s.Count - earlier.Count, Sum: s.Sum - earlier.Sum}
	for i := range d.Counts {
		d.Counts[i] = s.Counts[i] - earlier.Counts[i]
	}
	return d
}

// Quantile returns an upper bound of the q-quantile of the durations s
// counts: the top of its bucket (0 when s counts none).
func (s Snapshot) Quantile(q float64) time.Duration {
	if s.Count <= 0 {
		return 0
	}
	return quantile(&s.Counts, s.Count, q)
}

// UpperBound returns the least duration above every one bucket i counts.
func UpperBound(i int) time.Duration { return time.Duration(1<<i) * time.Microsecond }
