package play

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/clock"
	"stax/server/store"
	"stax/server/update"
)

// The limits of docs/performance.md ("Messages"): the full state of a
// Pisola 8x8 game at its start, and every update of every game.
const (
	maxStartState = 12 << 10
	maxUpdate     = 1 << 10
)

// catalogueSpecs returns a spec for every variant of every game the site
// offers: each combination of the games' yes-or-no and multiple-choice
// options (numeric options keep their defaults), those the rules refuse
// left out.
func catalogueSpecs(t testing.TB) []string {
	var out []string
	for _, info := range games.All() {
		specs := []string{""}
		for _, o := range info.Options {
			var values []string
			switch {
			case o.Kind == game.Bool:
				values = []string{"false", "true"}
			case o.Kind == game.Choice || len(o.Choices) > 0:
				values = o.Choices
			default:
				continue
			}
			var next []string
			for _, s := range specs {
				for _, v := range values {
					next = append(next, s+","+o.Key+"="+v)
				}
			}
			specs = next
		}
		for _, s := range specs {
			spec := info.Name + "(" + strings.TrimPrefix(s, ",") + ")"
			g, err := games.Load(spec)
			if err != nil {
				continue
			}
			if canon := game.SpecOf(g).String(); !slices.Contains(out, canon) {
				out = append(out, canon)
			}
		}
	}
	if len(out) < 3 {
		t.Fatalf("only %d variants in the catalogue: %v", len(out), out)
	}
	return out
}

// sizes is what messageSizes measures of one variant.
type sizes struct {
	start     int    // the full state at the start
	maxState  int    // the largest full state at the end of the games played
	maxUpdate int    // the largest update
	updatePly int    // the ply of the largest update
	updates   int    // the updates measured
	largest   string // the largest update
}

// messageSizes plays games of spec with random legal moves, as players
// do, with a Fischer clock, and measures the full state at the start and every
// update the room broadcasts after each move.
func messageSizes(t testing.TB, spec string, games, plies int) sizes {
	var out sizes
	for n := range games {
		s, l, c := newFuzzGame(t, spec)
		l.clk = clock.New(store.Clock{Initial: 5 * time.Minute, Increment: 3 * time.Second}, l.g.Players(), time.Now())
		l.changed()
		drain(c)
		l.broadcast()
		if n == 0 {
			out.start = len(l.stateMsg())
		}
		held := stateOfMsg(t, drain(c)[0])
		r := rand.New(rand.NewPCG(uint64(n), 7))
		for !l.h.Over() && l.h.Ply() < plies {
			legal := l.h.State().Legal(nil)
			text := l.h.State().FormatMove(legal[r.IntN(len(legal))])
			l.mu.Lock()
			err := s.play(context.Background(), l, c.seats, text, nil)
			l.mu.Unlock()
			if err != nil {
				t.Fatalf("%s: %s: %v", spec, text, err)
			}
			for _, msg := range drain(c) {
				out.updates++
				if len(msg) > out.maxUpdate {
					out.maxUpdate, out.updatePly = len(msg), l.h.Ply()
					out.largest = string(msg)
				}
				var err error
				if held, err = update.Apply(held, stateOfMsg(t, msg)); err != nil {
					t.Fatalf("%s at ply %d: %v", spec, l.h.Ply(), err)
				}
			}
			// The state kept is the server's (its history checked at
			// the end).
			if got, want := canonical(t, held, "moves", "positions"), canonical(t, l.current()); got != want {
				t.Fatalf("%s at ply %d: the state kept from the updates is\n%.3000s\nwant\n%.3000s", spec, l.h.Ply(), got, want)
			}
		}
		if got, want := canonical(t, held), canonical(t, stateOfMsg(t, l.stateMsg())); got != want {
			t.Fatalf("%s at ply %d: the state kept from the updates is\n%.3000s\nwant\n%.3000s", spec, l.h.Ply(), got, want)
		}
		out.maxState = max(out.maxState, len(l.stateMsg()))
	}
	return out
}

// stateOfMsg returns the state of a state or update message.
func stateOfMsg(t testing.TB, msg []byte) json.RawMessage {
	var m Message
	if err := json.Unmarshal(msg, &m); err != nil || m.Type != "state" && m.Type != "update" {
		t.Fatalf("not a state or an update (%v): %.200s", err, msg)
	}
	return m.State
}

// canonical returns a JSON object with its keys in order, without the
// fields named.
func canonical(t testing.TB, v json.RawMessage, without ...string) string {
	var x map[string]any
	if err := json.Unmarshal(v, &x); err != nil {
		t.Fatal(err)
	}
	for _, k := range without {
		delete(x, k)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// drain returns the messages queued for c.
func drain(c *client) [][]byte { return c.Take() }

// TestMessageSizes holds the messages of every variant of the catalogue
// to the limits of docs/performance.md: the full state of Pisola 8x8 at
// its start at most 12 KB, every update at most 1 KB (over random games
// with a clock). With -v it prints the sizes.
//
//	go test ./server/play -run TestMessageSizes -v
func TestMessageSizes(t *testing.T) {
	t.Logf("%-36s %12s %12s %12s", "variant", "start state", "end state", "update max")
	for _, spec := range catalogueSpecs(t) {
		s := messageSizes(t, spec, 3, 400)
		t.Logf("%-36s %12d %12d %12d (ply %d, %d updates)", spec, s.start, s.maxState, s.maxUpdate, s.updatePly, s.updates)
		if strings.HasPrefix(spec, "pisola") && strings.Contains(spec, "size=8") && s.start > maxStartState {
			t.Errorf("%s: the full state at the start is %d bytes; want at most %d", spec, s.start, maxStartState)
		}
		if s.maxUpdate > maxUpdate {
			t.Errorf("%s: an update of %d bytes (at ply %d); want at most %d:\n%s", spec, s.maxUpdate, s.updatePly, maxUpdate, s.largest)
		}
	}
}

// BenchmarkMessageSizes reports, for every variant, the bytes of the full
// state at the start and of the largest update over a random game, and
// the time to build an update.
//
//	go test ./server/play -run XXX -bench MessageSizes
func BenchmarkMessageSizes(b *testing.B) {
	for _, spec := range catalogueSpecs(b) {
		b.Run(spec, func(b *testing.B) {
			var s sizes
			for b.Loop() {
				s = messageSizes(b, spec, 1, 400)
			}
			b.ReportMetric(float64(s.start), "start-B")
			b.ReportMetric(float64(s.maxUpdate), "update-max-B")
		})
	}
}
