package lobby

import (
	"testing"
	"time"

	"stax/games"
	"stax/server/store"
)

// TestPairingReach checks who is paired with whom: ratings within 100 at
// once, the reach growing with the longer wait of the two, up to 500.
func TestPairingReach(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	cases := []struct {
		name                 string
		self, other          float64
		selfWait, otherWaits time.Duration
		want                 bool
	}{
		{"equal", 1500, 1500, 0, 0, true},
		{"100 apart", 1500, 1600, 0, 0, true},
		{"101 apart", 1500, 1601, 0, 0, false},
		{"200 apart, the other waited 10 s", 1500, 1700, 0, 10 * time.Second, true},
		{"200 apart, this one waited 10 s", 1700, 1500, 10 * time.Second, 0, true},
		{"200 apart, 9 s", 1500, 1700, 0, 9 * time.Second, false},
		{"500 apart after a minute", 1500, 2000, 0, time.Minute, true},
		{"501 apart after an hour", 1500, 2001, 0, time.Hour, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			self := &store.Waiting{Rating: c.self, Created: now.Add(-c.selfWait)}
			other := &store.Waiting{Rating: c.other, Created: now.Add(-c.otherWaits)}
			if got := matchAt(now)(self, other); got != c.want {
				t.Fatalf("paired %v; want %v", got, c.want)
			}
		})
	}
}

// TestPresetsRated checks that every preset makes a rated seek in every
// rating pool's game.
func TestPresetsRated(t *testing.T) {
	lb := New(Config{Games: games.All()})
	for _, p := range presets {
		for _, spec := range []string{"pogo", "pisola", "pisola(size=8)", "diam"} {
			if _, _, err := lb.parseSeek(&SeekRequest{Spec: spec, Clock: p.Clock, Days: p.Days, Rated: true}); err != nil {
				t.Errorf("preset %s in %s: %v", p.Name, spec, err)
			}
		}
	}
}
