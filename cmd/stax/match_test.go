package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/game/record"
	"stax/games"
)

func TestMatchCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.txt")
	args := []string{"match", "--game", "pogo", "--engine", "g=stax:greedy", "--engine", "r=stax:random", "--games", "4", "--movetime", "5", "--openings", "1", "--out", out}
	for round := 1; round <= 2; round++ {
		stdout, stderr, err := runCmd(t, "", args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Match: pogo, 4 of 4 games", "Elo vs field [95%]", "g vs r: "} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
		if !strings.Contains(stderr, "4/4 games") {
			t.Errorf("progress on stderr:\n%s", stderr)
		}
		text, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := record.ParseAll(string(text))
		if err != nil || len(recs) != 4*round {
			t.Fatalf("round %d: %d records, %v; want %d appended", round, len(recs), err, 4*round)
		}
		for _, r := range recs {
			if _, err := r.Replay(games.Registry()); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestMatchCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "stax:random"}, "missing --game"},
		{[]string{"--game", "pogo"}, "missing --engine"},
		{[]string{"--game", "chess", "--engine", "stax:random"}, "unknown game"},
		{[]string{"--game", "pogo", "--engine", "x="}, "want NAME=CMD"},
		{[]string{"--game", "pogo", "--engine", "stax:random", "--games", "0"}, "at least 1"},
		{[]string{"--game", "pogo", "--engine", "stax:random", "--sprt", "10,0"}, "ELO0 < ELO1"},
		{[]string{"--game", "pogo", "--engine", "stax:random", "--engine", "stax:greedy", "--engine", "stax:easy", "--sprt", "0,10"}, "exactly two"},
		{[]string{"--game", "pogo", "--engine", "stax:nobody"}, "nobody"},
	}
	for _, tc := range tests {
		_, _, err := runCmd(t, "", append([]string{"match", "--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stax match %q: %v; want an error mentioning %q", tc.args, err, tc.want)
		}
	}
}
