package chat

import (
	"fmt"
	"testing"
	"time"
)

// TestRemove removes the lines of a sender with a text from both rooms,
// and nothing else.
func TestRemove(t *testing.T) {
	var g Log
	for i, l := range []Line{
		{Room: Players, From: "bob", Text: "rude"},
		{Room: Players, From: "ann", Text: "rude"},
		{Room: Spectators, From: "bob", Text: "rude"},
		{Room: Players, From: "bob", Text: "fine"},
	} {
		l.At = time.Unix(int64(i), 0)
		g.Add(l)
	}
	for _, c := range []struct {
		from, text string
		changed    string
		players    int
		spectators int
	}{
		{"bob", "nothing said", "[]", 3, 1},
		{"bob", "rude", "[players spectators]", 2, 0},
		{"bob", "rude", "[]", 2, 0},
		{"ann", "rude", "[players]", 1, 0},
	} {
		changed := g.Remove(c.from, c.text)
		if fmt.Sprint(changed) != c.changed && !(c.changed == "[]" && changed == nil) || len(g.Lines(Players)) != c.players || len(g.Lines(Spectators)) != c.spectators {
			t.Errorf("Remove(%q, %q): changed %v, %d and %d lines left; want %s, %d and %d", c.from, c.text, changed,
				len(g.Lines(Players)), len(g.Lines(Spectators)), c.changed, c.players, c.spectators)
		}
	}
	if l := g.Lines(Players); l[0].Text != "fine" {
		t.Errorf("the line left: %+v; want bob's fine one", l)
	}
}
