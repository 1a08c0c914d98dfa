package pisola_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pisola"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/: the counts of perft.txt (at the depths it lists) and the board drawings")

const perftFile = "testdata/perft.txt"

// TestPerft checks the perft table with the specialised Perft (go test
// -run TestPerft -update recounts it).
func TestPerft(t *testing.T) {
	if *update {
		if err := gametest.RecountPerft(perftFile, pisola.Info, game.Perft); err != nil {
			t.Fatal(err)
		}
	}
	gametest.CheckPerft(t, pisola.Info, perftFile, game.Perft)
}

// TestPerftGeneric checks the table through the State interface alone
// (Legal, Apply and Undo), up to the depths whose counts are within limit:
// the generic perft builds every leaf move.
func TestPerftGeneric(t *testing.T) {
	checkPerftUpTo(t, 5_000_000, 200_000, func(s game.State, depth int) uint64 {
		return game.PerftGeneric(s, depth)
	})
}

// TestPerftNaive checks the table against the naive rules of
// naive_test.go, as deep as they run quickly.
func TestPerftNaive(t *testing.T) {
	checkPerftUpTo(t, 200_000, 20_000, func(s game.State, depth int) uint64 {
		g := s.Game().(*pisola.Game)
		return naivePerft(naiveParse(s.String(), g.Size(), g.Roofs(), g.EndAny()), depth)
	})
}

// checkPerftUpTo checks every line of the perft table with count, at the
// depths whose expected count is at most limit (shortLimit under -short).
func checkPerftUpTo(t *testing.T, limit, shortLimit uint64, count func(s game.State, depth int) uint64) {
	if testing.Short() {
		limit = shortLimit
	}
	cases, err := gametest.ReadPerft(perftFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("line%d", c.Line), func(t *testing.T) {
			s, err := c.State(pisola.Info)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range c.Counts {
				if want > limit {
					break
				}
				if got := count(s, i+1); got != want {
					t.Errorf("%s %s depth %d: got %d, table %d", c.Spec, c.Position, i+1, got, want)
				}
			}
		})
	}
}

// TestAgainstNaive plays random games with both implementations side by
// side and compares, at every step, the position string, the legal moves
// and the outcome.
func TestAgainstNaive(t *testing.T) {
	games := 24
	if testing.Short() {
		games = 6
	}
	starts := []struct{ opts, pos string }{
		{"", ""},
		{"roofs=true", ""},
		{"size=8", ""},
		{"size=8,roofs=true", ""},
		{"end=tomove", ""},
		{"roofs=true,end=tomove", ""},
		{"", midGame},
		{"roofs=true", "-,-,bww,-,-,-/-,-,-,wbbbw^,bwbwbbw^,-/bbwbww^,-,-,-,-,b/-,-,b,bwbww^,-,-/-,-,bwwww^,-,-,-/-,-,-,-,wbb,- w"},
	}
	for i := 0; i < games; i++ {
		st := starts[i%len(starts)]
		t.Run(fmt.Sprintf("%d-%s", i, st.opts), func(t *testing.T) {
			g := load(t, st.opts)
			s := g.NewStart()
			if st.pos != "" {
				s = parse(t, st.opts, st.pos)
			}
			p := naiveParse(s.String(), g.Size(), g.Roofs(), g.EndAny())
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			for ply := 0; ply < 400; ply++ {
				compareNaive(t, s, p)
				moves := p.moves()
				if len(moves) == 0 {
					return
				}
				m := moves[rng.IntN(len(moves))]
				fast, err := s.ParseMove(m.String())
				if err != nil {
					t.Fatalf("%s: ParseMove(%q): %v", s, m, err)
				}
				s.Apply(fast)
				p = p.play(m)
			}
		})
	}
}

func compareNaive(t *testing.T, s *pisola.State, p naivePos) {
	t.Helper()
	if s.String() != p.String() {
		t.Fatalf("position %s, naive %s", s, p)
	}
	var got []string
	for _, m := range s.Legal(nil) {
		got = append(got, s.FormatMove(m))
	}
	slices.Sort(got)
	if want := p.moveStrings(); !slices.Equal(got, want) {
		t.Fatalf("%s: moves %v, naive %v", s, got, want)
	}
	if n := s.CountMoves(); n != uint64(len(got)) {
		t.Fatalf("%s: countMoves %d, Legal %d", s, n, len(got))
	}
	o := s.Outcome()
	winner, scores := p.outcome()
	want := map[string]string{"": "*", "w": "1-0", "b": "0-1", "draw": "1/2-1/2"}[winner]
	if o.ResultString() != want || (o.Over() && (o.Scores[pisola.White] != scores[0] || o.Scores[pisola.Black] != scores[1])) {
		t.Fatalf("%s: outcome %s %v, naive %s %v", s, o.ResultString(), o.Scores, want, scores)
	}
	if o.Over() != s.Terminal() {
		t.Fatalf("%s: Terminal %v, outcome %v", s, s.Terminal(), o)
	}
	w, sc := p.score()
	want = map[string]string{"w": "1-0", "b": "0-1", "draw": "1/2-1/2"}[w]
	if a := s.Adjudicate(game.ByPlyCap); a.ResultString() != want || a.Scores[pisola.White] != sc[0] || a.Scores[pisola.Black] != sc[1] {
		t.Fatalf("%s: adjudicated %s %v, naive %s %v", s, a.ResultString(), a.Scores, want, sc)
	}
}

// TestPerftMakeAll checks the benchmark's perft without bulk counting
// against the table on moving-phase lines.
func TestPerftMakeAll(t *testing.T) {
	for _, bp := range benchPositions {
		s := parse(t, bp.opts, bp.pos)
		for d := 1; d <= 3; d++ {
			if got, want := s.PerftMakeAll(d), s.Perft(d); got != want {
				t.Errorf("%s depth %d: %d, Perft %d", bp.name, d, got, want)
			}
		}
	}
}
