package games_test

import (
	"strings"
	"testing"

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
