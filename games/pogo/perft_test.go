package pogo_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pogo"
)

var update = flag.Bool("update", false, "rewrite testdata/perft.txt from the naive generator")

// perftPositions are the positions of testdata/perft.txt, with the depth
// each line goes to.
var perftPositions = []struct {
	spec, pos string
	depth     int
}{
	{"pogo", "start", 7},
	{"pogo(u=false)", "start", 7},
	{"pogo(first=black)", "start", 6},
	{"pogo", "b,-,wbb/bw,w,-/ww,bw,b w", 6},
	{"pogo(u=false)", "b,-,wbb/bw,w,-/ww,bw,b w", 6},
	{"pogo", "-,wwb,w/bbww,-,b/-,bw,b b", 6},
	{"pogo", "bbbwww,-,-/-,bbb,-/-,-,www w", 6},
	{"pogo", "b,-,-/w,-,-/bbbbbwwwww,-,- w", 5},
	{"pogo", "-,-,bbbbbbwwwww/-,-,-/w,-,- b", 3},
}

func TestPerft(t *testing.T) {
	if *update {
		writePerft(t)
	}
	gametest.CheckPerft(t, pogo.Info, "testdata/perft.txt", game.Perft)
}

// TestPerftGeneric checks the specialised perft against the one that plays
// moves through the State interface.
func TestPerftGeneric(t *testing.T) {
	gametest.CheckPerft(t, pogo.Info, "testdata/perft.txt", func(s game.State, d int) uint64 {
		if d > 5 {
			return game.Perft(s, d)
		}
		return game.PerftGeneric(s, d)
	})
}

// TestPerftNaive checks the table against the naive generator, which walks
// the actual self-avoiding paths on the board.
func TestPerftNaive(t *testing.T) {
	limit := uint64(3_000_000)
	if testing.Short() {
		limit = 100_000
	}
	cases, err := gametest.ReadPerft("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		s, err := c.State(pogo.Info)
		if err != nil {
			t.Fatal(err)
		}
		u := s.Game().Options().Bool("u")
		p := naiveParse(t, s.String())
		for i, want := range c.Counts {
			if want > limit {
				break
			}
			if got := naivePerft(p, i+1, u); got != want {
				t.Errorf("line %d %s %s depth %d: naive %d, table %d", c.Line, c.Spec, c.Position, i+1, got, want)
			}
		}
	}
}

// writePerft regenerates the table, counting with the naive generator so
// that the table does not depend on the code it checks.
func writePerft(t *testing.T) {
	f, err := os.Create("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "# Pogo perft: spec ; position (or start) ; D<depth> <leaf count> ...")
	fmt.Fprintln(f, "# Counted by the naive path-walking generator of naive_test.go (go test -run TestPerft -update).")
	for _, pp := range perftPositions {
		c := gametest.PerftCase{Spec: pp.spec, Position: pp.pos}
		s, err := c.State(pogo.Info)
		if err != nil {
			t.Fatal(err)
		}
		p := naiveParse(t, s.String())
		for d := 1; d <= pp.depth; d++ {
			c.Counts = append(c.Counts, naivePerft(p, d, s.Game().Options().Bool("u")))
		}
		fmt.Fprintln(f, gametest.FormatPerft(c))
	}
}

func TestDivide(t *testing.T) {
	g, _ := pogo.New(nil)
	var total uint64
	for _, e := range game.Divide(g.Start(), 3) {
		total += e.Nodes
	}
	if want := game.Perft(g.Start(), 3); total != want {
		t.Errorf("divide sums to %d, perft 3 is %d", total, want)
	}
}
