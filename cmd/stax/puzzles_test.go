package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/games"
	"stax/puzzle"
)

func TestPuzzlesCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"puzzles"}, "want a subcommand: generate"},
		{[]string{"puzzles", "make"}, "want a subcommand: generate"},
		{[]string{"puzzles", "generate"}, "want one game spec"},
		{[]string{"puzzles", "generate", "diam(players=4)"}, "two-player"},
		{[]string{"puzzles", "generate", "chess"}, "chess"},
		{[]string{"puzzles", "generate", "diam", "--count", "-1"}, "must not be negative"},
		{[]string{"puzzles", "generate", "diam", "--max-games", "0"}, "must be positive"},
		{[]string{"puzzles", "generate", "diam", "--records", "/nonexistent/games.txt"}, "nonexistent"},
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

// TestPuzzlesGenerateCommand makes a few Diam puzzles twice with one seed
// and checks that the files are the same, replay, and name the command.
func TestPuzzlesGenerateCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("self-plays Diam games (seconds)")
	}
	dir := t.TempDir()
	var texts []string
	for _, name := range []string{"a.txt", "b.txt"} {
		out := filepath.Join(dir, name)
		_, errOut, err := runCmd(t, "", "puzzles", "generate", "diam(drop=any)", "--count", "5", "--seed", "3", "--quiet", "--out", out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(errOut, "5 puzzles in") || !strings.Contains(errOut, "seed 3") {
			t.Errorf("standard error: %q; want the count and the seed", errOut)
		}
		text, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.ReplaceAll(string(text), name, ""))
	}
	if texts[0] != texts[1] {
		t.Errorf("two runs with one seed differ:\n%s\n%s", texts[0], texts[1])
	}
	if !strings.Contains(texts[0], "# made by: stax puzzles generate diam(drop=any) --seed 3 --count 5 --out ") {
		t.Errorf("the file does not say how it was made:\n%s", texts[0])
	}
	ps, err := puzzle.Read(strings.NewReader(texts[0]))
	if err != nil || len(ps) != 5 {
		t.Fatalf("reading the file: %d puzzles, %v; want 5", len(ps), err)
	}
	for _, p := range ps {
		if err := puzzle.Check(games.All(), p); err != nil {
			t.Error(err)
		}
	}
}
