package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/game/record"
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

// TestPuzzlesGenerateCommand makes three Diam puzzles twice with one seed
// and checks that the files are the same, replay, and name the command.
func TestPuzzlesGenerateCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("self-plays Diam games (seconds)")
	}
	dir := t.TempDir()
	var texts []string
	for _, name := range []string{"a.txt", "b.txt"} {
		out := filepath.Join(dir, name)
		_, errOut, err := runCmd(t, "", "puzzles", "generate", "diam(drop=any)", "--count", "3", "--seed", "3", "--quiet", "--out", out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(errOut, "3 puzzles in") || !strings.Contains(errOut, "seed 3") {
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
	if !strings.Contains(texts[0], "# made by: stax puzzles generate diam(drop=any) --seed 3 --count 3 --out ") {
		t.Errorf("the file does not say how it was made:\n%s", texts[0])
	}
	ps, err := puzzle.Read(strings.NewReader(texts[0]))
	if err != nil || len(ps) != 3 {
		t.Fatalf("reading the file: %d puzzles, %v; want 3", len(ps), err)
	}
	for _, p := range ps {
		if err := puzzle.Check(games.All(), p); err != nil {
			t.Error(err)
		}
	}
}

// TestRecordStates reads a game saved by stax play and checks that the
// puzzles are looked for in each of its positions, and only in the games
// of the variant asked for.
func TestRecordStates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.txt")
	if _, _, err := runCmd(t, "", "play", "diam(drop=any)", "--seat1", "random", "--seat2", "random", "--seed", "4", "--save", path); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ParseAll(string(text))
	if err != nil || len(recs) != 1 {
		t.Fatalf("the saved game: %d records, %v; want 1", len(recs), err)
	}
	tests := []struct {
		spec  string
		games int
	}{
		{"diam(drop=any)", 1},
		{"diam", 0},
		{"pogo", 0},
	}
	for _, tt := range tests {
		g, err := games.Load(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		states, err := recordStates(path, g)
		if err != nil || len(states) != tt.games {
			t.Errorf("recordStates(%s) = %d games, %v; want %d", tt.spec, len(states), err, tt.games)
			continue
		}
		if tt.games == 1 {
			if n := len(states[0]); n != len(recs[0].Moves)+1 {
				t.Errorf("recordStates(%s): %d positions for %d moves", tt.spec, n, len(recs[0].Moves))
			}
			if last := states[0][len(states[0])-1]; !last.Terminal() {
				t.Errorf("recordStates(%s): the last position %s is not over", tt.spec, last)
			}
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("[Game \"diam\"]\n\n1. x@9 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, _ := games.Load("diam")
	if _, err := recordStates(bad, g); err == nil || !strings.Contains(err.Error(), "game 1") {
		t.Errorf("recordStates of an illegal game: %v; want an error naming game 1", err)
	}
}
