package diam

import (
	"math/rand/v2"
	"testing"

	"stax/game"
)

// TestAllPassDraw builds a ring that play can never reach, every cell
// full, to check the rule that ends a game no player can move in.
func TestAllPassDraw(t *testing.T) {
	for _, opts := range []game.Options{nil, {"players": "4"}, {"players": "4", "teams": "true", "drop": "any"}} {
		g, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		s := &State{g: g}
		// Colours cycle with the level and shift by one more across each
		// diameter, so that no two opposite pieces at one level match.
		for cell := 0; cell < numCells; cell++ {
			for l := 0; l < maxHeight; l++ {
				s.col[(cell+cell>>2+l)&3] |= 1 << (4*cell + l)
			}
		}
		s.init()
		if s.won != 0 {
			t.Fatalf("the full ring has a diam")
		}
		if !s.Terminal() || len(s.Legal(nil)) != 0 || s.Perft(1) != 0 {
			t.Errorf("%d players: full ring: terminal %v, moves %v", g.players, s.Terminal(), s.Legal(nil))
		}
		o := s.Outcome()
		if !o.IsDraw() || o.Reason != game.ByRules || o.Detail != "no player can move" {
			t.Errorf("%d players: full ring outcome %s", g.players, o.Describe(g))
		}
	}
}

// TestSomeoneCanMove checks on random rings the claim of the package doc
// that with at most 4 pieces of each colour some player always has a move,
// so the all-pass draw never arises in play.
func TestSomeoneCanMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, opts := range []game.Options{nil, {"players": "4"}} {
		g, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20000; i++ {
			s := &State{g: g}
			for _, c := range rng.Perm(16) {
				cell := rng.IntN(numCells + 2) // sometimes left in reserve
				if cell >= numCells || s.h[cell] == maxHeight {
					continue
				}
				s.col[c&3] |= 1 << (4*cell + int(s.h[cell]))
				s.h[cell]++
			}
			s.toMove = uint8(rng.IntN(g.players))
			s.init()
			if s.blocked() {
				t.Fatalf("nobody can move in %s", s)
			}
		}
	}
}
