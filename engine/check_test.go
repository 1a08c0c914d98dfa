package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"stax/engine/internal/enginetest"
	"stax/games"
)

// TestCheck runs the conformance check against the built-in engine (no
// violation, on a fake clock that never moves: a slow machine cannot make
// it late) and against engines that break the protocol on purpose (each
// violation reported; those that never answer are waited for on the
// system's clock).
func TestCheck(t *testing.T) {
	specs := []string{"pogo", "diam(players=4)"}
	if !testing.Short() {
		specs = []string{"pogo", "pisola", "diam", "diam(players=4,teams=true)"}
	}
	tests := []struct {
		name string
		cmd  []string
		want []string // in the violations; none for a good engine
	}{
		{"stax", []string{progs.Stax, "engine", "--level", "easy"}, nil},
		{"illegal", []string{progs.Bad, "-mode", "illegal", "-after", "2"}, []string{"pogo: move 3: bestmove 1a1-c3 is illegal"}},
		{"garbage", []string{progs.Bad, "-mode", "garbage", "-after", "2"}, []string{`unexpected line "Hello! I am a chess engine. e2e4?" while searching`, "no bestmove within"}},
		{"crash", []string{progs.Bad, "-mode", "crash"}, []string{"pogo: go: the engine's output ended (did it crash?)"}},
		{"flood", []string{progs.Bad, "-mode", "flood"}, []string{`info score "cp": not an integer`, "no bestmove within"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := CheckConfig{
				Command: tc.cmd, Registry: games.All(), Specs: specs,
				MoveTime: 20 * time.Millisecond, MaxPlies: 12,
			}
			if tc.want == nil {
				cfg.Clock = enginetest.NewClock()
			}
			rep, err := Check(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(rep.Violations, "\n")
			if tc.want == nil {
				if len(rep.Violations) > 0 || rep.Games != len(specs) {
					t.Errorf("%d games, violations:\n%s", rep.Games, all)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("violations lack %q:\n%s", w, all)
				}
			}
		})
	}
	if _, err := Check(context.Background(), CheckConfig{Command: []string{"/no/such/engine"}, Registry: games.All(), Specs: specs}); err == nil {
		t.Error("Check of a command that does not exist: no error")
	}
}
