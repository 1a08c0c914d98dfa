package ai

import (
	"context"
	"slices"
	"testing"

	"stax/games/pogo"
	"stax/search"
)

// TestPerfectLevel checks that only Pogo and diam(drop=any) offer the
// perfect level, and only with tables; and that without a table a perfect player still plays
// a legal move (by search) rather than building the table.
func TestPerfectLevel(t *testing.T) {
	tables := NewTables(TablesConfig{Dir: t.TempDir()})
	defer tables.Close()
	cfg := Config{Tables: tables}
	for _, tc := range []struct {
		cfg  Config
		spec string
		want bool
	}{{cfg, "pogo", true}, {cfg, "pogo(u=false)", true}, {cfg, "diam", false}, {cfg, "diam(drop=any)", true}, {Config{}, "diam(drop=any)", false}, {Config{}, "pogo", false}} {
		g := load(t, tc.spec)
		if got := slices.Contains(tc.cfg.Levels(g), "perfect"); got != tc.want {
			t.Errorf("Levels(%s) = %v; perfect listed %v, want %v", tc.spec, tc.cfg.Levels(g), got, tc.want)
		}
	}
	g := load(t, "pogo")
	if _, err := New(g, "perfect"); err == nil {
		t.Error("New(pogo, perfect) without tables succeeded")
	}
	if cfg.Ready(g, "perfect") || !cfg.Ready(g, "hard") {
		t.Errorf("Ready(perfect) = %v, Ready(hard) = %v without a table; want false, true", cfg.Ready(g, "perfect"), cfg.Ready(g, "hard"))
	}
	p, err := cfg.New(g, "perfect")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Play(context.Background(), search.Position{State: g.Start()}, search.Limits{Depth: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	if _, err := s.ParseMove(s.FormatMove(res.Move)); err != nil {
		t.Errorf("perfect played an illegal move: %v", err)
	}
	if tables.Ready(true) {
		t.Error("a perfect move built the table although the tables may not build")
	}
}

// TestPerfectFromTable checks the perfect level's answer where the table
// is cached (it is never built by tests): from a position White wins in 9
// plies, it plays a move after which Black loses in 8, and scores it so.
func TestPerfectFromTable(t *testing.T) {
	tables, tb := cachedPogoTable(t)
	cfg := Config{Tables: tables}
	g := load(t, "pogo")
	s, err := g.ParseState("b,-,wbb/bw,w,-/ww,bw,b w")
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Ready(g, "perfect") {
		t.Error("Ready(perfect) = false with the table")
	}
	p, err := cfg.New(g, "perfect")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Play(context.Background(), search.Position{State: s}, search.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != search.WinIn(9) {
		t.Errorf("score %v, want win 9", res.Score)
	}
	c := s.Clone().(*pogo.State)
	c.Apply(res.Move)
	if v := tb.Verdict(c); v.String() != "loss in 8" {
		t.Errorf("after %s Black has %v, want loss in 8", s.FormatMove(res.Move), v)
	}
}
