package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/game/record"
	"stax/games"
)

func TestMatchCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.txt")
	args := []string{"match", "pogo", "--engine", "g=stax:greedy", "--engine", "r=stax:random", "--games", "4", "--time", "5ms", "--openings", "1", "--out", out}
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
			if _, err := r.Replay(games.All()); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestPlayLoadMatchFile checks that stax play --load offers the records of
// a stax match --out file and plays the one chosen with --record.
func TestPlayLoadMatchFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.txt")
	if _, _, err := runCmd(t, "", "match", "--quiet", "pogo", "--engine", "g=stax:greedy", "--engine", "r=stax:random", "--games", "2", "--time", "5ms", "--out", out); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCmd(t, "", "play", "--load", out)
	if err == nil || !strings.Contains(err.Error(), "holds 2 game records; choose one with --record N") || !strings.Contains(err.Error(), "1  pogo  ") || strings.Contains(err.Error(), "ParseAll") {
		t.Errorf("stax play --load of a match file: %v; want the list of its records", err)
	}
	stdout, _, err := runCmd(t, "", "play", "--load", out, "--record", "2", "--color", "never")
	if err != nil || !strings.Contains(stdout, "Game over") {
		t.Errorf("stax play --load --record 2: %v\n%s", err, stdout)
	}
	if _, _, err := runCmd(t, "", "play", "--load", out, "--record", "3"); err == nil || !strings.Contains(err.Error(), "want 1 to 2") {
		t.Errorf("stax play --record 3 of 2: %v", err)
	}
}

func TestMatchCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "stax:random"}, "missing the game"},
		{[]string{"pogo"}, "missing --engine"},
		{[]string{"chess", "--engine", "stax:random"}, "unknown game"},
		{[]string{"pogo", "--engine", "x="}, "want NAME=CMD"},
		{[]string{"pogo", "--engine", "stax:random", "--games", "0"}, "at least 1"},
		{[]string{"pogo", "--engine", "stax:random", "--sprt", "10,0"}, "ELO0 < ELO1"},
		{[]string{"pogo", "--engine", "stax:random", "--engine", "stax:greedy", "--engine", "stax:easy", "--sprt", "0,10"}, "exactly two"},
		{[]string{"pogo", "--engine", "stax:nobody"}, "nobody"},
		{[]string{"pogo", "--engine", "stax:random", "--tc", "fast"}, "want BASE+INC"},
		{[]string{"pogo", "--game", "pogo", "--engine", "stax:random"}, "want one game spec"},
		{[]string{"pogo", "--engine", "stax:random", "--time", "100"}, "want a duration"},
		{[]string{"pogo", "--engine", "stax:random", "--engine", "x=/no/such/engine"}, "engine x (/no/such/engine) failed its check before the match"},
	}
	for _, tc := range tests {
		_, _, err := runCmd(t, "", append([]string{"match", "--quiet"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stax match %q: %v; want an error mentioning %q", tc.args, err, tc.want)
		}
	}
}

// TestMatchDeprecatedFlags checks that the old spellings still work:
// --game, --movetime in milliseconds, --concurrency and a bare --timeout
// in milliseconds.
func TestMatchDeprecatedFlags(t *testing.T) {
	stdout, _, err := runCmd(t, "", "match", "--quiet", "--game", "pogo", "--engine", "g=stax:greedy", "--engine", "r=stax:random",
		"--games", "2", "--movetime", "5", "--concurrency", "2", "--timeout", "5000", "--openings", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "Match: pogo, 2 of 2 games, movetime 5") {
		t.Errorf("output:\n%s", stdout)
	}
}

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in        string
		base, inc time.Duration
		err       bool
	}{
		{"10+0.1", 10 * time.Second, 100 * time.Millisecond, false},
		{"10s+100ms", 10 * time.Second, 100 * time.Millisecond, false},
		{"1m", time.Minute, 0, false},
		{"1m+2s", time.Minute, 2 * time.Second, false},
		{"0+1", 0, 0, true},
		{"fast", 0, 0, true},
		{"10+-1", 0, 0, true},
	}
	for _, tt := range tests {
		tc, err := parseTimeControl(tt.in)
		if tt.err {
			if err == nil {
				t.Errorf("parseTimeControl(%q) = %v; want an error", tt.in, tc)
			}
			continue
		}
		if err != nil || tc.Base != tt.base || tc.Increment != tt.inc {
			t.Errorf("parseTimeControl(%q) = %v, %v; want %v+%v", tt.in, tc, err, tt.base, tt.inc)
		}
	}
}
