package ai

import (
	"context"
	"slices"
	"testing"

	"stax/games/pogo"
	"stax/games/pogo/solve"
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

// TestPerfectFromTable checks the perfect level's answer where the table
// is cached (it is never built by tests): from a position White wins in 9
// plies, it plays a move after which Black loses in 8, and scores it so.
func TestPerfectFromTable(t *testing.T) {
	tb, err := solve.OpenCached(true)
	if err != nil {
		t.Skipf("no cached table (run stax solve pogo): %v", err)
	}
	g := load(t, "pogo")
	s, err := g.ParseState("b,-,wbb/bw,w,-/ww,bw,b w")
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(g, "perfect")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Play(context.Background(), s, search.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != search.WinScore-9 {
		t.Errorf("score %d, want WinScore-9", res.Score)
	}
	c := s.Clone().(*pogo.State)
	c.Apply(res.Move)
	if v := tb.Verdict(c); v.String() != "loss in 8" {
		t.Errorf("after %s Black has %v, want loss in 8", s.FormatMove(res.Move), v)
	}
}
