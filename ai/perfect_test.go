package ai

import (
	"context"
	"slices"
	"testing"

	"stax/search"
)

// TestPerfectLevel checks that only Pogo offers the perfect level, and
// that without a cached table a test binary's perfect player still plays
// a legal move (by search) rather than building the table.
func TestPerfectLevel(t *testing.T) {
	t.Setenv("STAX_CACHE_DIR", t.TempDir())
	for _, tc := range []struct {
		spec string
		want bool
	}{{"pogo", true}, {"pogo(u=false)", true}, {"diam", false}} {
		g := load(t, tc.spec)
		if got := slices.Contains(Levels(g), "perfect"); got != tc.want {
			t.Errorf("Levels(%s) = %v; perfect listed %v, want %v", tc.spec, Levels(g), got, tc.want)
		}
	}
	g := load(t, "pogo")
	p, err := New(g, "perfect")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Play(context.Background(), g.Start(), search.Limits{Depth: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	if _, err := s.ParseMove(s.FormatMove(res.Move)); err != nil {
		t.Errorf("perfect played an illegal move: %v", err)
	}
}
