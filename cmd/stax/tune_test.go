package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/ai"
)

// TestTuneCommand runs stax tune on a few games of each game: the weights
// come out as Go source, and the same seed gives the same weights.
func TestTuneCommand(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "pisola", "--games", "2", "--level", "greedy", "--openings", "2", "--iters", "10", "--workers", "1"}, "var pisolaWeights = [2][numPisolaTerms]int{"},
		{[]string{"tune", "diam", "--games", "2", "--nodes", "100", "--iters", "10"}, "var diamWeights2 = diamWeights{"},
		{[]string{"tune", "pogo", "--games", "10", "--epochs", "1"}, "var pogoWeights = [2]pogoModel{"},
	} {
		t.Run(tc.args[1], func(t *testing.T) {
			if tc.args[1] == "pogo" {
				skipWithoutPogoTable(t)
			}
			out, errOut, err := runCmd(t, "", append(tc.args, "--seed", "7")...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stax %s printed\n%s\nwant %q", strings.Join(tc.args, " "), out, tc.want)
			}
			if !strings.Contains(errOut, "seed 7") {
				t.Errorf("standard error %q: want the seed", errOut)
			}
			path := filepath.Join(dir, tc.args[1]+".go")
			if _, errOut, err := runCmd(t, "", append(tc.args, "--seed", "7", "--quiet", "--out", path)...); err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			again, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != out {
				t.Errorf("--out %s with the same seed:\n%s\nwant\n%s", path, again, out)
			}
		})
	}
}

// skipWithoutPogoTable skips a test that needs Pogo's solved table when
// it has not been built (stax solve pogo builds it).
func skipWithoutPogoTable(t *testing.T) {
	dir, err := tablesDir()
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(ai.NewTables(ai.TablesConfig{Dir: dir}).Path(true)); err != nil {
		t.Skipf("no solved table of Pogo (stax solve pogo builds it): %v", err)
	}
}

func TestTuneUsage(t *testing.T) {
	for _, args := range [][]string{
		{"tune"},
		{"tune", "pogo", "--level", "hard"},
		{"tune", "pisola", "--net"},
		{"tune", "diam", "--from", "mine"},
		{"tune", "diam(players=4)"},
		{"tune", "pisola", "--games", "10", "--records", "x.txt"},
	} {
		_, _, err := runCmd(t, "", args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("stax %s: %v; want a usage error", strings.Join(args, " "), err)
		}
	}
}
