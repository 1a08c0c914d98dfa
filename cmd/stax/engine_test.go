package main

import (
	"os"
	"strings"
	"testing"
)

func TestEngineCommand(t *testing.T) {
	in := strings.Join([]string{
		"stax",
		"newgame diam(players=4)",
		"position startpos moves r@1 g@5",
		"setoption name level value greedy",
		"go movetime 20",
		"position pos bad",
		"quit",
		"isready", // after quit: never answered
	}, "\n")
	out, _, err := runCmd(t, in, "engine", "--level", "random")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"id name stax", "id author", "option name level type combo default random", "option name threads", "option name hash", "option name games", "option name seed", "staxok"}
	for i, w := range want {
		if i >= len(lines) || !strings.HasPrefix(lines[i], w) {
			t.Fatalf("output:\n%s\nline %d: want prefix %q", out, i, w)
		}
	}
	rest := lines[len(want):]
	if len(rest) < 2 || !strings.HasPrefix(rest[len(rest)-2], "bestmove y@") || !strings.HasPrefix(rest[len(rest)-1], "error position:") {
		t.Errorf("after the handshake:\n%s\nwant info lines, a bestmove for yellow and an error", strings.Join(rest, "\n"))
	}
	if strings.Contains(out, "readyok") {
		t.Error("the engine answered a command after quit")
	}
	if out, _, err := runCmd(t, "stax\n", "engine", "--level", "Hard"); err != nil || !strings.Contains(out, "option name level type combo default hard ") {
		t.Errorf("stax engine --level Hard: %v\n%s; want level names regardless of case", err, out)
	}
	if _, _, err := runCmd(t, "", "engine", "--level", "godlike"); err == nil || !strings.Contains(err.Error(), "godlike") {
		t.Errorf("stax engine --level godlike: %v; want a usage error", err)
	}
	if _, _, err := runCmd(t, "", "engine", "extra"); err == nil {
		t.Error("stax engine extra: no error")
	}
}

func TestEngineCheckUsage(t *testing.T) {
	if _, _, err := runCmd(t, "", "engine-check"); err == nil || !strings.Contains(err.Error(), "want the engine's command") {
		t.Errorf("stax engine-check without a command: %v", err)
	}
	if _, _, err := runCmd(t, "", "engine-check", "/no/such/engine"); err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("stax engine-check of a missing command: %v", err)
	}
}

// TestEngineCheckCommand checks stax engine with stax engine-check, the
// variants given after the engine's command, and the old --games.
func TestEngineCheckCommand(t *testing.T) {
	t.Setenv(mainChildEnv, "engine --level random")
	self := os.Args[0] + " -test.run=^TestMainChild$"
	for _, args := range [][]string{
		{"engine-check", self, "pogo", "diam(players=4)", "--time", "10ms", "--max-plies", "8"},
		{"engine-check", self, "--games", "pogo;diam", "--movetime", "10", "--plies", "8"},
	} {
		out, _, err := runCmd(t, "", args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if !strings.Contains(out, "2 games played, 0 violations") {
			t.Errorf("%v:\n%s", args, out)
		}
	}
}
