package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestSolveCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "want one game spec"},
		{[]string{"solve", "pisola"}, "only Pogo and two-player Diam are solved"},
		{[]string{"solve", "diam(players=4)"}, "two-player Diam"},
		{[]string{"solve", "diam", "--out", "x"}, "--out applies to Pogo only"},
		{[]string{"solve", "pogo", "--checkpoint", "x"}, "--checkpoint applies to Diam only"},
		{[]string{"solve", "pogo", "--duration", "1m"}, "--duration applies to Diam only"},
		{[]string{"solve", "pogo", "--time", "1m"}, "--duration applies to Diam only"},
		{[]string{"solve", "diam", "--pos", "r/r 1"}, "want 8"},
		{[]string{"solve", "diam", "--table", "0"}, "must be positive"},
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

// TestSolveDiamCommand proves a small Diam position through the command,
// with a checkpoint, and resumes from it.
func TestSolveDiamCommand(t *testing.T) {
	ckpt := filepath.Join(t.TempDir(), "diam.ckpt")
	args := []string{"solve", "diam", "--pos", "gr/-/-/r/g/-/-/- 2", "--table", "4", "--checkpoint", ckpt, "--duration", "1m", "--threads", "2"}
	out, errOut, err := runCmd(t, "", args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Player 2 (green, blue) to move loses (proven") || !strings.Contains(errOut, "no checkpoint at") {
		t.Errorf("stax %v:\n%s\n%s", args, out, errOut)
	}
	if _, err := os.Stat(ckpt); err != nil {
		t.Fatalf("no checkpoint written: %v", err)
	}
	out, errOut, err = runCmd(t, "", args...)
	if err != nil || !strings.Contains(errOut, "resumed from") || !strings.Contains(out, "loses (proven") {
		t.Errorf("resuming: %v\n%s\n%s", err, out, errOut)
	}
	if err := os.WriteFile(ckpt, []byte("STAXPOGO"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "", args...); err == nil || !strings.Contains(err.Error(), "not a Diam solver checkpoint") {
		t.Errorf("a bad checkpoint: %v", err)
	}
}

// TestAnalyzeDiamExact checks that analyze gives the solver's exact
// verdicts in two-player Diam.
func TestAnalyzeDiamExact(t *testing.T) {
	out, _, err := runCmd(t, "", "analyze", "diam", "--pos", "gr/-/-/r/g/-/-/- 2", "--time", "100ms")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "g@2        loss 2 (exact, by the solver") || regexp.MustCompile(`(?m)^\S+\s+win `).MatchString(out) {
		t.Errorf("stax analyze diam of a lost position:\n%s", out)
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

// TestPerfectOnEmptyCache checks the perfect level on a machine without
// Pogo's table: stax match solves it before the first game and stax engine
// before its readyok (saying meanwhile that it is preparing), and perfect
// then plays from the table: it loses no game to random, and scores a won
// position as a win. It solves Pogo twice (minutes of CPU), so it runs
// only when STAX_SOLVE_FULL is set.
func TestPerfectOnEmptyCache(t *testing.T) {
	if os.Getenv("STAX_SOLVE_FULL") == "" {
		t.Skip("set STAX_SOLVE_FULL=1 to solve the whole game")
	}
	t.Run("match", func(t *testing.T) {
		t.Setenv("STAX_CACHE_DIR", t.TempDir())
		stdout, stderr, err := runCmd(t, "", "match", "--quiet", "pogo", "--engine", "p=stax:perfect", "--engine", "r=stax:random",
			"--games", "4", "--time", "20ms", "--openings", "1")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "solving pogo(u=true) for the perfect level") {
			t.Errorf("no news of the solve on stderr:\n%s", stderr)
		}
		if !regexp.MustCompile(`p vs r: \+\d+ =\d+ -0,`).MatchString(stdout) {
			t.Errorf("perfect lost to random:\n%s", stdout)
		}
	})
	t.Run("engine", func(t *testing.T) {
		t.Setenv("STAX_CACHE_DIR", t.TempDir())
		in := "stax\nnewgame pogo\nsetoption name level value perfect\nisready\nposition pos b,-,wbb/bw,w,-/ww,bw,b w\ngo\n"
		stdout, stderr, err := runCmd(t, in, "engine")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		ready := slices.Index(lines, "readyok")
		if ready < 0 || !strings.HasPrefix(lines[len(lines)-1], "bestmove ") {
			t.Fatalf("want readyok, then a bestmove:\n%s", stdout)
		}
		if !slices.ContainsFunc(lines[:ready], func(l string) bool { return strings.HasPrefix(l, "info string preparing level perfect for pogo") }) {
			t.Errorf("no word of the preparation before readyok:\n%s", stdout)
		}
		if !strings.Contains(stdout, "score win 9") {
			t.Errorf("a position White wins in 9 is not scored so:\n%s", stdout)
		}
		if !strings.Contains(stderr, "table saved to") {
			t.Errorf("no news of the solve on stderr:\n%s", stderr)
		}
	})
}
