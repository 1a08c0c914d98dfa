package main

import (
	"path/filepath"
	"strings"
	"testing"

	"stax/ai/aitest"
	"stax/game/gametest"
)

// TestReviewGolden checks stax analyze --load on recorded games against
// testdata/review/*.golden (go test -run TestReviewGolden -update
// rewrites them): Pogo exactly from the table, where Black's second move
// throws a win in 9 away for a loss in 2 (a blunder) and White's first a
// draw (a mistake); Diam by a search to a fixed depth.
func TestReviewGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		table bool
	}{
		{"pogo", nil, true},
		{"diam", []string{"--depth", "4"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.table {
				aitest.Tables(t)
				t.Setenv("STAX_CACHE_DIR", aitest.Dir(t))
			}
			args := append([]string{"analyze", "--load", filepath.Join("testdata", "review", tc.name+".txt")}, tc.args...)
			out, stderr, err := runCmd(t, "", args...)
			if err != nil {
				t.Fatalf("stax %s: %v\n%s", strings.Join(args, " "), err, stderr)
			}
			gametest.Golden(t, filepath.Join("testdata", "review", tc.name+".golden"), out, *update)
		})
	}
}

// TestReviewErrors checks that a bad review command line says what was
// expected.
func TestReviewErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--load", "testdata/review/pogo.txt", "pogo"}, "give no spec"},
		{[]string{"analyze", "--load", "testdata/review/none.txt"}, "no such file"},
		{[]string{"analyze", "--load", "testdata/review/diam.txt", "--depth", "-1"}, "must be positive"},
	} {
		_, _, err := runCmd(t, "", tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stax %s: %v; want an error saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}

// TestHintRanksEveryMove checks that hint in stax play lists every legal
// move with its verdict, exactly from the table in Pogo even when the
// hint level is a weak one.
func TestHintRanksEveryMove(t *testing.T) {
	aitest.Tables(t)
	t.Setenv("STAX_CACHE_DIR", aitest.Dir(t))
	out, _, err := runCmd(t, lines("hint", "quit"), "play", "pogo", "--hint", "beginner", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hint: 1a1-b1 (draw; exact, from the table)", " 1. 1a1-b1     draw", "16. 2c1-b2     loss 12"} {
		if !strings.Contains(out, want) {
			t.Errorf("hint output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runCmd(t, lines("hint", "quit"), "play", "diam", "--hint", "beginner", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "by the beginner level's search") || !strings.Contains(out, "16. ") {
		t.Errorf("diam hint does not rank the 16 moves:\n%s", out)
	}
}
