package games_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games"
)

// variants are run through the conformance kit besides each game's
// defaults.
var variants = []string{
	"pogo(u=false)",
	"pogo(first=black,maxplies=30)",
	"pogo(rep=2)",
	"pisola(roofs=true)",
	"pisola(size=8)",
	"pisola(size=8,roofs=true,maxplies=60)",
	"diam(drop=any)",
	"diam(players=4,maxplies=40)",
	"diam(players=4,teams=true,drop=any)",
}

func TestConformance(t *testing.T) {
	specs := append([]string{}, games.All().Names()...)
	specs = append(specs, variants...)
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			g, err := games.Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Config{Games: 6})
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"chess", `unknown game "chess"`},
		{"pogo(x=1)", `unknown option "x"`},
		{"pogo(u=maybe)", `want true or false`},
		{"pogo(maxplies=-1)", `want an integer from 0`},
		{"pogo(u=true", `missing closing parenthesis`},
		{"pogo(u)", `want key=value`},
		{"(u=true)", `missing game name`},
		{"pogo(u=true,u=false)", `given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := games.Load(tt.spec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load(%q) error = %v, want it to mention %q", tt.spec, err, tt.want)
			}
		})
	}
}

// TestCompose checks that every game's positions can be set up by hand
// (game.Composer): the stacks and the player to move of a position seen
// through its board view compose the same position, along random games,
// and a stack the rules refuse gets the parser's message.
func TestCompose(t *testing.T) {
	for _, info := range games.All() {
		g, err := info.Variant(nil)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := g.(game.Composer)
		if !ok {
			t.Errorf("%s cannot be set up by hand: no Compose", info.Name)
			continue
		}
		rng := rand.New(rand.NewPCG(1, 2))
		s := g.Start()
		for ply := 0; ply < 40 && !s.Terminal(); ply++ {
			b := s.(game.Viewer).Board()
			stacks := make([]string, len(b.Cells))
			for i, cell := range b.Cells {
				stacks[i] = cell.Stack
			}
			got, err := c.Compose(stacks, b.ToMove)
			if err != nil || got.String() != s.String() {
				t.Errorf("%s: Compose of %s = %v, %v", info.Name, s, got, err)
				break
			}
			moves := s.Legal(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
		b := g.Start().(game.Viewer).Board()
		stacks := make([]string, len(b.Cells))
		stacks[0] = "?"
		if _, err := c.Compose(stacks, 0); err == nil {
			t.Errorf("%s: Compose accepts a stack of unknown pieces", info.Name)
		}
		if _, err := c.Compose(stacks[:1], 0); err == nil {
			t.Errorf("%s: Compose accepts too few stacks", info.Name)
		}
	}
}
