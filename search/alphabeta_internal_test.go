package search

import (
	"testing"

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
