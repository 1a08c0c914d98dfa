package play

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"stax/server/clock"
	"stax/server/store"
	"stax/server/update"
)

// TestEncodeGames checks, on the states of random games of every variant
// of the catalogue with a clock, that each update applied to the state it
// was made from (as a client applies it) gives the new state, after
// every move, and that equal states make none.
func TestEncodeGames(t *testing.T) {
	plies := 120
	if testing.Short() {
		plies = 40
	}
	for _, spec := range catalogueSpecs(t) {
		s, l, c := newFuzzGame(t, spec)
		l.clk = clock.New(store.Clock{Initial: 5 * time.Minute, Increment: 3 * time.Second}, l.g.Players(), time.Now())
		l.changed()
		prev := slices.Clone(l.current())
		r := rand.New(rand.NewPCG(uint64(len(spec)), 11))
		for !l.h.Over() && l.h.Ply() < plies {
			legal := l.h.State().Legal(nil)
			text := l.h.State().FormatMove(legal[r.IntN(len(legal))])
			l.mu.Lock()
			err := s.play(context.Background(), l, c.seats, text, nil)
			cur := slices.Clone(l.current())
			l.mu.Unlock()
			if err != nil {
				t.Fatalf("%s: %s: %v", spec, text, err)
			}
			drain(c)
			checkUpdate(t, spec, prev, cur)
			if u := update.Encode(update.Parse(cur), update.Parse(cur)); u != nil {
				t.Fatalf("%s at ply %d: an update between equal states: %s", spec, l.h.Ply(), u)
			}
			prev = cur
		}
	}
}

// checkUpdate checks that the update from base to cur, applied to base,
// gives cur.
func checkUpdate(t *testing.T, spec string, base, cur []byte) {
	t.Helper()
	var msg struct {
		Type  string
		State json.RawMessage
	}
	u := update.Encode(update.Parse(base), update.Parse(cur))
	if err := json.Unmarshal(u, &msg); err != nil || msg.Type != "update" {
		t.Fatalf("%s: update message %s (%v); want type update", spec, u, err)
	}
	got, err := update.Apply(base, msg.State)
	if err != nil {
		t.Fatalf("%s: applying %s: %v", spec, u, err)
	}
	if !sameJSON(got, cur) {
		t.Fatalf("%s: %s applied to\n%s\ngives\n%s\nwant\n%s", spec, u, base, got, cur)
	}
}

// sameJSON reports whether a and b encode the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
