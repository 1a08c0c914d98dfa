package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"  good game ", "good game", true},
		{"gg ♟", "gg ♟", true},
		{"", "", false},
		{"   ", "", false},
		{"two\nlines", "", false},
		{"bell\x07", "", false},
		{"\xff\xfe", "", false},
		{strings.Repeat("é", MaxLength), strings.Repeat("é", MaxLength), true},
		{strings.Repeat("a", MaxLength+1), "", false},
	} {
		got, err := Clean(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Clean(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func line(room string, sec int) Line {
	return Line{Type: "chat", Room: room, From: "ann", Text: fmt.Sprint(sec), At: time.Unix(int64(sec), 0).UTC()}
}

// TestKeep checks that a room keeps its last Keep lines, and that a line
// of no room is dropped.
func TestKeep(t *testing.T) {
	var g Log
	for i := 0; i < Keep+7; i++ {
		g.Add(line(Players, i))
	}
	if g.Add(line("lobby", 1)) {
		t.Fatal("a line of an unknown room was kept")
	}
	got := g.Lines(Players)
	if len(got) != Keep || got[0].Text != "7" || got[Keep-1].Text != fmt.Sprint(Keep+6) {
		t.Fatalf("kept %d lines from %s to %s; want the last %d", len(got), got[0].Text, got[len(got)-1].Text, Keep)
	}
	if len(g.Lines(Spectators)) != 0 || g.Len() != Keep {
		t.Fatalf("spectators %d, len %d", len(g.Lines(Spectators)), g.Len())
	}
}

// TestMerge checks that lines from another instance join in time order,
// once, and that only the rooms that gained lines are reported.
func TestMerge(t *testing.T) {
	var g Log
	g.Add(line(Players, 1))
	g.Add(line(Players, 3))
	changed := g.Merge([]Line{line(Players, 2), line(Players, 3), line(Players, 1)})
	if fmt.Sprint(changed) != "[players]" {
		t.Fatalf("changed %v; want [players]", changed)
	}
	var texts []string
	for _, l := range g.Lines(Players) {
		texts = append(texts, l.Text)
	}
	if fmt.Sprint(texts) != "[1 2 3]" {
		t.Fatalf("lines %v; want [1 2 3]", texts)
	}
	if changed := g.Merge([]Line{line(Players, 2)}); len(changed) != 0 {
		t.Fatalf("a line known already changed %v", changed)
	}
}

// TestHistory checks that the history takes the newest lines of both rooms
// that fit the budget, oldest first.
func TestHistory(t *testing.T) {
	var g Log
	for i := 0; i < 10; i++ {
		room := Players
		if i%2 == 1 {
			room = Spectators
		}
		g.Add(line(room, i))
	}
	b, _ := json.Marshal(line(Spectators, 9)) // the longer of the two rooms
	h := g.History(3 * (len(b) + 1))
	if len(h) != 3 || h[0].Text != "7" || h[2].Text != "9" {
		t.Fatalf("history %v; want the lines 7, 8 and 9", h)
	}
	if h := g.History(1 << 20); len(h) != 10 || h[0].Text != "0" {
		t.Fatalf("history with room for all: %d lines", len(h))
	}
}
