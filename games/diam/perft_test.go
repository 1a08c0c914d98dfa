package diam_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/diam"
)

var update = flag.Bool("update", false, "rewrite testdata/perft.txt")

const perftFile = "testdata/perft.txt"

// perftPositions are the lines of testdata/perft.txt: every variant from
// the start, and positions from play that exercise each rule.
var perftPositions = []struct{ spec, pos, why string }{
	{"diam", "start", ""},
	{"diam(drop=any)", "start", ""},
	{"diam(players=4)", "start", ""},
	{"diam(drop=any,players=4)", "start", ""},
	{"diam(players=4,teams=true)", "start", ""},
	{"diam(drop=any,players=4,teams=true)", "start", ""},
	{"diam", "-/r/r/yr/r/-/g/bg 1", "after 14 plies of a random game"},
	{"diam", "y/rg/-/b/brg/-/r/- 1", "2:1- makes a red diam at level 2 and a green one at level 3: player 2 wins"},
	{"diam", "ryry/gbgb/bgbg/ryry/-/-/-/- 2", "player 2 must pass"},
	{"diam(drop=any)", "r/gry/yy/bg/grg/-/-/- 1", "r@1 and 2:2- make red diams"},
	{"diam(players=4)", "b/gryr/yggg/rbby/-/r/by/- 2", "green must pass"},
	{"diam(drop=any,players=4)", "byyb/gyg/bygr/rg/-/-/-/rrb 3", "yellow must pass"},
	{"diam(players=4,teams=true)", "-/ryy/y/-/-/r/gb/g 3", "yellow may move red"},
	{"diam(drop=any,players=4,teams=true)", "y/-/bg/-/gr/r/by/br 3", "yellow wins with a red diam by 8:2+"},
	{"diam", "-/rr/-/-/-/gr/-/- 2", "a finished game: red diam at level 2"},
}

// Depths grow until a count passes updateLimit (at least minDepth).
const (
	minDepth    = 5
	updateLimit = 4_000_000
)

func TestPerft(t *testing.T) {
	if *update {
		writePerft(t)
	}
	gametest.CheckPerft(t, diam.Info, perftFile, game.Perft)
}

func writePerft(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Diam perft: spec ; position (or start) ; D<depth> <leaf count> ...\n")
	b.WriteString("# Counted by the bitboard perft (go test -run TestPerft -update); TestPerftNaive\n")
	b.WriteString("# checks the smaller counts with the naive generator of naive_test.go and\n")
	b.WriteString("# TestPerftGeneric those up to 20 million through the game.State interface.\n")
	for _, pp := range perftPositions {
		c := gametest.PerftCase{Spec: pp.spec, Position: pp.pos}
		s, err := c.State(diam.Info)
		if err != nil {
			t.Fatal(err)
		}
		for d := 1; ; d++ {
			n := game.Perft(s, d)
			c.Counts = append(c.Counts, n)
			if (d >= minDepth && n > updateLimit) || n == 0 || d == 12 {
				break
			}
		}
		if pp.why != "" {
			b.WriteString("# " + pp.why + "\n")
		}
		b.WriteString(gametest.FormatPerft(c) + "\n")
	}
	if err := os.WriteFile(perftFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPerftGeneric checks the table through the game.State interface,
// with Legal, Apply and Undo, up to 20 million leaves (2 million under
// -short).
func TestPerftGeneric(t *testing.T) {
	limit := uint64(20_000_000)
	if testing.Short() {
		limit = gametest.ShortLimit
	}
	checkTable(t, limit, func(g game.Game, s game.State, d int) uint64 { return game.PerftGeneric(s, d) })
}

// TestPerftNaive checks the table with the naive generator up to 600,000
// leaves (30,000 under -short).
func TestPerftNaive(t *testing.T) {
	limit := uint64(600_000)
	if testing.Short() {
		limit = 30_000
	}
	checkTable(t, limit, func(g game.Game, s game.State, d int) uint64 {
		return naiveOf(g).perft(parseNaive(s.String()), d)
	})
}

func checkTable(t *testing.T, limit uint64, count func(g game.Game, s game.State, d int) uint64) {
	cases, err := gametest.ReadPerft(perftFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("line%d", c.Line), func(t *testing.T) {
			s, err := c.State(diam.Info)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range c.Counts {
				if want > limit {
					break
				}
				if got := count(s.Game(), s, i+1); got != want {
					t.Errorf("%s %s depth %d: got %d, want %d", c.Spec, c.Position, i+1, got, want)
				}
			}
		})
	}
}

// TestNaiveAgrees plays random games in every variant and checks at each
// position that the legal moves, the position after each, and the outcome
// agree with the naive generator.
func TestNaiveAgrees(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, spec := range variantSpecs {
		g := load(t, spec)
		n := naiveOf(g)
		t.Run(spec, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(len(spec))))
			for i := 0; i < games; i++ {
				s := g.Start()
				for ply := 0; ply < 120; ply++ {
					pos := s.String()
					np := parseNaive(pos)
					if np.String() != pos {
						t.Fatalf("naive reads %q as %q", pos, np)
					}
					moves := s.Legal(nil)
					got := make([]string, len(moves))
					for j, m := range moves {
						got[j] = s.FormatMove(m)
					}
					want := n.legal(np)
					if !slices.Equal(sorted(got), sorted(want)) {
						t.Fatalf("%q: moves %v, naive %v", pos, got, want)
					}
					if s.Terminal() != (len(want) == 0) {
						t.Fatalf("%q: terminal %v, naive has %d moves", pos, s.Terminal(), len(want))
					}
					if len(moves) == 0 {
						checkNaiveOutcome(t, g, n, s, np)
						break
					}
					winning := false
					for j, m := range moves {
						c := s.Clone()
						c.Apply(m)
						after := n.apply(np, got[j])
						if w := after.String(); c.String() != w {
							t.Fatalf("%q after %s: %q, naive %q", pos, got[j], c, w)
						}
						if dc, _ := n.diam(after); dc != 0 && slices.Contains(n.winners(dc), np.toMove) {
							winning = true
						}
					}
					if m, ok := s.(*diam.State).WinningMove(); ok != winning {
						t.Fatalf("%q: WinningMove says %v (%s), naive %v", pos, ok, s.FormatMove(m), winning)
					} else if ok {
						c := s.Clone()
						c.Apply(m)
						if !slices.Contains(c.Outcome().Winners(), s.ToMove()) {
							t.Fatalf("%q: WinningMove %s does not win: %s", pos, s.FormatMove(m), c.Outcome().Describe(g))
						}
					}
					s.Apply(moves[rng.IntN(len(moves))])
				}
			}
		})
	}
}

func checkNaiveOutcome(t *testing.T, g game.Game, n naive, s game.State, np naivePos) {
	t.Helper()
	o := s.Outcome()
	c, level := n.diam(np)
	if c == 0 {
		t.Fatalf("%q: finished without a diam", s)
	}
	var win []int
	for _, p := range n.winners(c) {
		win = append(win, p-1)
	}
	if got := o.Winners(); !slices.Equal(got, win) {
		t.Fatalf("%q: winners %v, naive %v (diam in %c at level %d)", s, got, win, c, level)
	}
	if want := fmt.Sprintf("diam at level %d in %s", level, diam.ColourName(strings.IndexByte("rgyb", c))); !strings.HasPrefix(o.Detail, want) {
		t.Errorf("%q: detail %q, want it to start %q", s, o.Detail, want)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
