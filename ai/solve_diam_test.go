package ai

import (
	"context"
	"testing"
	"time"

	"stax/game"
	"stax/games/diam"
	"stax/search"
)

// TestStrongestDiamPlaysProofs checks that the strongest level of Diam
// plays a win the solver proves to its end, and that when it is lost it
// says so and still moves.
func TestStrongestDiamPlaysProofs(t *testing.T) {
	// Positions where player 2, to move, is lost (the solver proves it in
	// a few thousand nodes).
	for spec, pos := range map[string]string{"diam": "gr/-/-/r/g/-/-/- 2", "diam(drop=any)": "gry/b/r/-/g/-/-/- 2"} {
		t.Run(spec, func(t *testing.T) {
			g := load(t, spec).(*diam.Game)
			lost, err := g.Parse(pos)
			if err != nil {
				t.Fatal(err)
			}
			p2, err := NewSeeded(g, "strongest", 1)
			if err != nil {
				t.Fatal(err)
			}
			// Node budgets keep the test independent of the machine's load.
			res, err := p2.Play(context.Background(), search.Position{State: lost}, search.Limits{Nodes: 600_000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Score.Proven != game.Loss {
				t.Errorf("%s: score %v; want a proven loss", lost, res.Score)
			}
			// Player 1 then wins whatever player 2 does.
			s := lost.Copy()
			s.Apply(res.Move)
			p1, _ := NewSeeded(g, "strongest", 2)
			random := search.NewRandom(3)
			for ply := 0; !s.Terminal(); ply++ {
				if ply > 60 {
					t.Fatalf("no diam after 60 plies: %s", s)
				}
				player := search.Player(random)
				if s.ToMove() == 0 {
					player = p1
				}
				r, err := player.Play(context.Background(), search.Position{State: s}, search.Limits{Nodes: 300_000}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if s.ToMove() == 0 && r.Score.Proven != game.Win {
					t.Errorf("%s: player 1 scores %v; want a proven win", s, r.Score)
				}
				s.Apply(r.Move)
			}
			if w := s.Outcome().Winners(); len(w) != 1 || w[0] != 0 {
				t.Errorf("%s: %s; want player 1 to win", s, s.Outcome().Describe(g))
			}
		})
	}
}

func TestProveDiamMoves(t *testing.T) {
	g := load(t, "diam").(*diam.Game)
	s, err := g.Parse("gr/-/-/r/g/-/-/- 2")
	if err != nil {
		t.Fatal(err)
	}
	scores, err := ProveDiamMoves(context.Background(), s, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if moves := s.Legal(nil); len(scores) < len(moves)/2 {
		t.Errorf("%d of %d moves settled; all lose, most within a second", len(scores), len(moves))
	}
	for m, sc := range scores {
		if sc.Proven != game.Loss || sc.Plies < 2 {
			t.Errorf("%s: %v; want a loss", s.FormatMove(m), sc)
		}
	}
}

// TestPerfectDiam checks the perfect level of diam(drop=any) from the
// proof of the start: player 2 answers player 1's first piece by winning,
// and player 1 at the start knows it is lost. It proves the start, which
// takes some tens of seconds, so -short skips it.
func TestPerfectDiam(t *testing.T) {
	if testing.Short() {
		t.Skip("proves the start of diam(drop=any); run without -short")
	}
	g := load(t, "diam(drop=any)").(*diam.Game)
	tables := NewTables(TablesConfig{Dir: t.TempDir()})
	defer tables.Close()
	cfg := Config{Tables: tables}
	p, err := cfg.NewSeeded(g, "perfect", 1)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewStart()
	s.Apply(diam.PlaceMove(diam.Red, 0))
	// A node budget (the solver gets all of it) rather than time, so that
	// the machine's load does not matter.
	lim := search.Limits{Nodes: 4_000_000}
	res, err := p.Play(context.Background(), search.Position{State: s}, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score.Proven != game.Win || (res.Move != diam.PlaceMove(diam.Green, 0) && res.Move != diam.PlaceMove(diam.Blue, 0)) {
		t.Errorf("%s: perfect plays %s, %v; want g@1 or b@1, a proven win", s, s.FormatMove(res.Move), res.Score)
	}
	res, err = p.Play(context.Background(), search.Position{State: g.NewStart()}, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score.Proven != game.Loss {
		t.Errorf("start: perfect scores %v; want a proven loss", res.Score)
	}
}
