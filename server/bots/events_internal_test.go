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
