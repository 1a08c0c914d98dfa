package search

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"stax/game"
)

// TestTTPacking checks that a table entry round-trips through its packed
// word at the extremes of every field.
func TestTTPacking(t *testing.T) {
	for _, d := range []ttData{
		{move: 1, score: 0, depth: 1, flag: ttExact},
		{move: game.Move(^uint32(0)), score: WinScore + maxPly, depth: 127, flag: ttLower},
		{move: 12345, score: -(WinScore + maxPly), depth: 0, flag: ttUpper},
		{move: 7, score: -1, depth: 64, flag: ttExact},
	} {
		if got := unpack(d.pack()); got != d {
			t.Errorf("unpack(pack(%+v)) = %+v", d, got)
		}
	}
}

// TestHashSize checks that the table takes the largest power of two of
// entries that fits in the megabytes given.
func TestHashSize(t *testing.T) {
	a := NewAlphaBeta(nil, 10, 1)
	for _, tc := range []struct {
		mb   int
		want int64
	}{{1, 1 << 20}, {16, 16 << 20}, {24, 16 << 20}, {64, 64 << 20}} {
		a.SetHashSize(tc.mb)
		if got := a.HashSize(); got != tc.want {
			t.Errorf("SetHashSize(%d): %d bytes; want %d", tc.mb, got, tc.want)
		}
	}
}

// TestClockBudget checks the share of a clock a move takes.
func TestClockBudget(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		c    Clock
		want time.Duration
	}{
		{Clock{Remaining: 60 * time.Second}, (60*time.Second - 300*ms) / 25},
		{Clock{Remaining: 60 * time.Second, Increment: time.Second}, (60*time.Second-300*ms)/25 + 750*ms},
		{Clock{Remaining: 10 * time.Second, MovesToGo: 1}, 10*time.Second - 300*ms},
		{Clock{Remaining: 10 * time.Second, MovesToGo: 2}, (10*time.Second - 300*ms) / 2},
		{Clock{Remaining: time.Second}, 900 * ms / 25},
		// Little time and a large increment: never more than half the clock.
		{Clock{Remaining: 200 * ms, Increment: time.Second}, 90 * ms},
		{Clock{Remaining: 50 * ms}, 45 * ms / 25},
		{Clock{Remaining: ms / 2}, ms},
	} {
		if got := tc.c.Budget(); got != tc.want {
			t.Errorf("%+v.Budget() = %v; want %v", tc.c, got, tc.want)
		}
	}
	if got := (Limits{Time: 10 * ms, Clock: Clock{Remaining: time.Minute}}).Budgeted(); got.Time != 10*ms || got.Clock != (Clock{}) {
		t.Errorf("Budgeted with a tighter time: %+v", got)
	}
}

// TestSortRest checks that sortRest orders the moves after a point by
// score, best first, ties in their previous order, and leaves the others.
func TestSortRest(t *testing.T) {
	a := &abThread{moves: make([][]game.Move, 1), scores: make([][]int32, 1)}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 50 {
		n := 1 + rng.IntN(200)
		a.moves[0], a.scores[0] = a.moves[0][:0], a.scores[0][:0]
		for j := range n {
			a.moves[0] = append(a.moves[0], game.Move(j))
			a.scores[0] = append(a.scores[0], int32(rng.IntN(7)-3)<<(rng.IntN(2)*28))
		}
		from := rng.IntN(n)
		type ms struct {
			m game.Move
			s int32
		}
		var want []ms
		for j := range n {
			want = append(want, ms{a.moves[0][j], a.scores[0][j]})
		}
		slices.SortStableFunc(want[from:], func(x, y ms) int { return cmp.Compare(y.s, x.s) })
		a.sortRest(0, from)
		for j := range n {
			if got := (ms{a.moves[0][j], a.scores[0][j]}); got != want[j] {
				t.Fatalf("n %d, from %d: position %d holds %v, want %v", n, from, j, got, want[j])
			}
		}
	}
}
