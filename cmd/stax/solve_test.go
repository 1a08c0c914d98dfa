package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSolveCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "want one game spec"},
		{[]string{"solve", "diam"}, "only Pogo is solved"},
		{[]string{"solve", "pogo(u=maybe)"}, "u"},
		{[]string{"analyze"}, "want one game spec"},
		{[]string{"analyze", "pogo", "--pos", "nonsense"}, "side to move"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := runCmd(t, "", tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("stax %v: error %v; want one containing %q", tc.args, err, tc.want)
			}
		})
	}
}

func TestAnalyzeCommandSearch(t *testing.T) {
	out, _, err := runCmd(t, "", "analyze", "diam", "--time", "5ms")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 17 || !strings.Contains(out, ", estimate)") || !strings.Contains(out, "r@1") {
		t.Errorf("stax analyze diam: want a header and 16 estimated moves, got:\n%s", out)
	}
	// Four players: every move is scored for the mover (Blue here), not
	// for the player after it.
	out, _, err = runCmd(t, "", "analyze", "diam(players=4)", "--pos", "r/-/y/-/g/-/-/- 4", "--time", "5ms")
	if err != nil || !strings.Contains(out, "Blue to move; verdicts for Blue are from") || strings.Contains(out, "to move next") || strings.Count(out, "estimate)") != 5 {
		t.Errorf("stax analyze diam(players=4): %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", "analyze", "pogo", "--pos", "-,-,bbbbbbwwwww/-,-,-/w,-,- b")
	if err != nil || !strings.Contains(out, "White wins") {
		t.Errorf("analyze of a finished game: %q, %v", out, err)
	}
}

// TestSolveCommandFull solves Pogo through the command and analyses the
// start from the table written. It takes about a minute of CPU, so it
// runs only when STAX_SOLVE_FULL is set.
func TestSolveCommandFull(t *testing.T) {
	if os.Getenv("STAX_SOLVE_FULL") == "" {
		t.Skip("set STAX_SOLVE_FULL=1 to solve the whole game")
	}
	dir := t.TempDir()
	t.Setenv("STAX_CACHE_DIR", dir)
	out, _, err := runCmd(t, "", "solve", "pogo", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"116396280 arrangements", "unreachable", "longest win", "first moves: 1a1-b1"} {
		if !strings.Contains(out, want) {
			t.Errorf("stax solve pogo output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pogo-u-true.tbl")); err != nil {
		t.Errorf("no cached table: %v", err)
	}
	out, _, err = runCmd(t, "", "analyze", "pogo")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 17 || !strings.Contains(lines[0], "exact") {
		t.Errorf("stax analyze pogo: want a header and 16 moves, got:\n%s", out)
	}
}
