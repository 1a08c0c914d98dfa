package bots

import (
	"fmt"
	"testing"
	"time"
)

// TestNewsFilterBounded checks that an event stream's memory of the games
// and challenges it told stays bounded: past its bound it forgets those no
// longer going on, and still tells the end of one that is.
func TestNewsFilterBounded(t *testing.T) {
	line := func(typ, kind, id string) []byte {
		return fmt.Appendf(nil, `{"type":%q,%q:{"id":%q}}`, typ, kind, id)
	}
	asked := 0
	f := newNewsFilter(time.Time{}, func(string) bool { return true }, func() ([]string, []string, error) {
		asked++
		return []string{"g0"}, nil, nil
	})
	f.max = 10
	if !f.keep(line(EventGameStart, "game", "g0")) {
		t.Fatal("the start of a game was not told")
	}
	for i := range 100 {
		// Challenges accepted, and games ended, with no news of it.
		f.keep(line(EventChallenge, "challenge", fmt.Sprint("c", i)))
		f.keep(line(EventGameStart, "game", fmt.Sprint("g", i+1)))
	}
	if n := len(f.playing) + len(f.asked); n > f.max {
		t.Errorf("it remembers %d games and challenges; want at most %d", n, f.max)
	}
	if asked == 0 || asked > 100 {
		t.Errorf("it asked what is going on %d times for 200 lines; want some, and far fewer than the lines", asked)
	}
	if !f.keep(line(EventGameFinish, "game", "g0")) {
		t.Error("the end of the game going on was not told")
	}
}

// TestNewsFilter checks which of the feed's news an event stream opened at
// noon tells: news late for what happened before it opened is dropped,
// news of what happened since is told however soon it ended, and nothing
// is told twice.
func TestNewsFilter(t *testing.T) {
	noon := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	challenge := func(typ, id string, made time.Time) []byte {
		return fmt.Appendf(nil, `{"type":%q,"challenge":{"id":%q,"created":%q}}`, typ, id, made.Format(time.RFC3339Nano))
	}
	game := func(typ, id string) []byte { return fmt.Appendf(nil, `{"type":%q,"game":{"id":%q}}`, typ, id) }
	for _, tc := range []struct {
		name  string
		first [][]byte // the stream's first lines
		live  [][]byte
		want  []bool // whether each live line is told
	}{
		{"a challenge made since, ended at once",
			nil,
			[][]byte{challenge(EventChallenge, "c1", noon.Add(time.Millisecond)), challenge(EventChallengeDeclined, "c1", noon.Add(time.Millisecond))},
			[]bool{true, true}},
		{"a challenge made in the millisecond the stream opened",
			nil,
			[][]byte{challenge(EventChallenge, "c1", noon), challenge(EventChallengeCanceled, "c1", noon)},
			[]bool{true, true}},
		{"late news of a challenge made before and closed since",
			nil,
			[][]byte{challenge(EventChallenge, "closed", noon.Add(-time.Millisecond)), challenge(EventChallengeDeclined, "closed", noon.Add(-time.Millisecond))},
			[]bool{false, false}},
		{"late news of a challenge made before and still open",
			nil,
			[][]byte{challenge(EventChallenge, "open", noon.Add(-time.Second))},
			[]bool{true}},
		{"a challenge the first lines told",
			[][]byte{challenge(EventChallenge, "open", noon.Add(-time.Second))},
			[][]byte{challenge(EventChallenge, "open", noon.Add(-time.Second)), challenge(EventChallengeCanceled, "open", noon.Add(-time.Second))},
			[]bool{false, true}},
		{"news of a challenge delivered twice",
			nil,
			[][]byte{challenge(EventChallenge, "c1", noon.Add(time.Second)), challenge(EventChallenge, "c1", noon.Add(time.Second))},
			[]bool{true, false}},
		{"a game that ended before the stream opened",
			nil,
			[][]byte{game(EventGameFinish, "g1")},
			[]bool{false}},
		{"a game started and ended since, its start delivered twice",
			nil,
			[][]byte{game(EventGameStart, "g1"), game(EventGameStart, "g1"), game(EventGameFinish, "g1"), game(EventGameFinish, "g1")},
			[]bool{true, false, true, false}},
		{"a game the first lines told",
			[][]byte{game(EventGameStart, "g1")},
			[][]byte{game(EventGameStart, "g1"), game(EventGameFinish, "g1")},
			[]bool{false, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newNewsFilter(noon, func(id string) bool { return id == "open" }, func() ([]string, []string, error) { return nil, nil, nil })
			for _, l := range tc.first {
				f.first(l)
			}
			for i, l := range tc.live {
				if got := f.keep(l); got != tc.want[i] {
					t.Errorf("line %d %s: told %v; want %v", i, l, got, tc.want[i])
				}
			}
		})
	}
}
