package ai

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"stax/engine/match"
	"stax/game"
	"stax/games"
	"stax/search"
)

// variants covers every option of every game.
var variants = []string{
	"pogo", "pogo(u=false)", "pogo(first=black)",
	"pisola", "pisola(roofs=true)", "pisola(size=8)", "pisola(size=8,roofs=true)",
	"diam", "diam(drop=any)", "diam(players=4)", "diam(players=4,teams=true)",
	"diam(players=4,teams=true,drop=any)",
}

func load(t testing.TB, spec string) game.Game {
	t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		t.Fatalf("Load(%q): %v", spec, err)
	}
	return g
}

func TestLevels(t *testing.T) {
	for _, info := range games.All() {
		g := load(t, info.Name)
		want := []string{"beginner", "easy", "medium", "hard", "strongest"}
		if got := Levels(g); strings.Join(got[:5], ",") != strings.Join(want, ",") {
			t.Errorf("Levels(%s) = %v, want %v first", info.Name, got, want)
		}
		for _, l := range append(Levels(g), "random", "greedy") {
			if p, err := New(g, l); err != nil || p == nil {
				t.Errorf("New(%s, %q) = %v, %v", info.Name, l, p, err)
			}
		}
		_, err := New(g, "grandmaster")
		if err == nil || !strings.Contains(err.Error(), "beginner") || !strings.Contains(err.Error(), "greedy") {
			t.Errorf("New(%s, unknown) error %v does not list the valid levels", info.Name, err)
		}
	}
}

// TestLegalMoves plays a game at every level in every variant through the
// match runner, which forfeits a player that fails or plays an illegal
// move.
func TestLegalMoves(t *testing.T) {
	plies := 60
	if testing.Short() {
		plies = 24
	}
	for _, spec := range variants {
		g := load(t, spec)
		capped := spec + "(maxplies=" + strconv.Itoa(plies) + ")"
		if strings.Contains(spec, "(") {
			capped = strings.TrimSuffix(spec, ")") + ",maxplies=" + strconv.Itoa(plies) + ")"
		}
		gc := load(t, capped)
		for _, level := range append(Levels(g), "random", "greedy") {
			t.Run(spec+"/"+level, func(t *testing.T) {
				rep, err := match.Run(context.Background(), match.Config{
					Game: gc, Engines: []match.Engine{{Name: level, Level: level}}, Games: 1,
					Nodes: 200, Seed: 1, NewPlayer: NewSeeded,
				})
				if err != nil {
					t.Fatal(err)
				}
				res := rep.Games[0]
				if res.Fault != "" {
					t.Fatalf("after %v: %s", res.Record.Moves, res.Fault)
				}
				if !res.Outcome.Over() {
					t.Fatalf("game not over after %d plies", res.Plies)
				}
			})
		}
	}
}

// TestStrongestTime checks that the strongest level answers within 2 s
// from each game's start and from a position later in the game.
func TestStrongestTime(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, spec := range []string{"pogo", "pisola", "diam", "diam(players=4)"} {
		g := load(t, spec)
		p, err := New(g, "strongest")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := p.Play(context.Background(), search.Position{State: g.Start()}, search.Limits{}, nil)
		if took := time.Since(start); err != nil || took > 2*time.Second {
			t.Errorf("%s: strongest took %v, %v", spec, took, err)
		}
		if res.Move == game.NoMove {
			t.Errorf("%s: no move", spec)
		}
	}
}

func TestTighter(t *testing.T) {
	tests := []struct{ a, b, want search.Limits }{
		{search.Limits{}, search.Limits{Time: time.Second}, search.Limits{Time: time.Second}},
		{search.Limits{Time: time.Hour, Nodes: 5}, search.Limits{Time: time.Second}, search.Limits{Time: time.Second, Nodes: 5}},
		{search.Limits{Depth: 3}, search.Limits{Depth: 5}, search.Limits{Depth: 3}},
	}
	for _, tc := range tests {
		if got := tighter(tc.a, tc.b); got != tc.want {
			t.Errorf("tighter(%+v, %+v) = %+v, want %+v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestElo checks that the games with a measured scale rate every level
// up to strongest, random at 0 and each level above the one below, and
// that a four-player variant has its own scale.
func TestElo(t *testing.T) {
	for _, spec := range []string{"pogo", "pisola", "diam", "diam(players=4)"} {
		g := load(t, spec)
		prev, ok := Elo(g, "random")
		if !ok || prev != 0 {
			t.Errorf("%s: random rated %d, %v; want 0, true", spec, prev, ok)
		}
		for _, level := range []string{"beginner", "easy", "medium", "hard", "strongest"} {
			r, ok := Elo(g, level)
			if !ok || r <= prev {
				t.Errorf("%s: %s rated %d, %v; want above %d", spec, level, r, ok, prev)
			}
			prev = r
		}
	}
	two, _ := Elo(load(t, "diam"), "hard")
	four, _ := Elo(load(t, "diam(players=4)"), "hard")
	if two == four {
		t.Errorf("diam and diam(players=4) share hard's rating %d; want a scale each", two)
	}
}
