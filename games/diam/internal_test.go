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

// perftMakeAll counts leaves like perft but makes and unmakes every move
// of the last ply too, to measure make and unmake themselves.
func (b *board) perftMakeAll(g *Game, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [32]game.Move
	moves := b.gen(g, buf[:0])
	if len(moves) == 0 {
		if !b.someoneElseMoves(g) {
			return 0
		}
		moves = append(moves, PassMove)
	}
	var n uint64
	for _, m := range moves {
		u := b.make(g, m)
		if b.won == 0 {
			n += b.perftMakeAll(g, depth-1)
		} else if depth == 1 {
			n++
		}
		b.unmake(u)
	}
	return n
}

func TestPerftMakeAll(t *testing.T) {
	g, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pos := range []string{"-/-/-/-/-/-/-/- 1", "y/rg/-/b/brg/-/r/- 1", "ryry/gbgb/bgbg/ryry/-/-/-/- 2"} {
		s, err := g.Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		for d := 1; d <= 4; d++ {
			b := s.board
			if got, want := b.perftMakeAll(g, d), s.Perft(d); got != want {
				t.Errorf("%q depth %d: %d, Perft %d", pos, d, got, want)
			}
		}
	}
}

// BenchmarkPerftMakeAll measures perft without bulk counting: every leaf
// is made and unmade.
func BenchmarkPerftMakeAll(b *testing.B) {
	g, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	s := g.NewStart()
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		bd := s.board
		n = bd.perftMakeAll(g, 5)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}
