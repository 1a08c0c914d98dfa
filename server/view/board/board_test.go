package board_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/games"
	"stax/server/view/board"
)

// TestGroups checks, along random games of every variant, that the
// groups of a view spell out exactly the legal moves, each with its
// notation and cells, and its cells exactly the board.
func TestGroups(t *testing.T) {
	for _, spec := range []string{"pogo", "pogo(u=false)", "pisola", "pisola(size=8)", "pisola(size=8,roofs=true)", "diam", "diam(drop=any)", "diam(players=4)", "diam(players=4,teams=true)"} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range 4 {
			r := rand.New(rand.NewPCG(uint64(seed), 1))
			st := g.Start()
			for ply := 0; ply < 300 && !st.Terminal(); ply++ {
				v := board.Of(st, false, nil)
				legal := st.Legal(nil)
				b := st.(game.Viewer).Board()
				var want []string
				for _, m := range legal {
					mv := st.(game.Viewer).ViewMove(m)
					w := board.MoveView{Text: st.FormatMove(m), Kind: mv.Kind.String()}
					switch mv.Kind {
					case game.Place:
						w.Piece = string(mv.Piece)
					case game.Shift:
						w.From, w.Count = b.Cells[mv.From].Name, mv.Count
					}
					for _, c := range mv.To {
						w.To = append(w.To, b.Cells[c].Name)
					}
					want = append(want, fmt.Sprint(w))
				}
				var got []string
				for _, m := range v.List() {
					got = append(got, fmt.Sprint(m))
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s at %s: the groups %+v spell out\n%v\nwant\n%v", spec, st, v.Moves, got, want)
				}
				cells := v.Board.Cells()
				for i, c := range b.Cells {
					if got := cells[i]; got.Name != c.Name || got.Stack != c.Stack || !slices.Equal(got.Marks, c.Marks.Names()) || !slices.Equal(got.Levels, c.Levels) {
						t.Fatalf("%s at %s: cell %d is %+v; want %+v", spec, st, i, got, c)
					}
				}
				st.Apply(legal[r.IntN(len(legal))])
			}
		}
	}
}

// TestPlacingSet checks that Pisola's placings are one group: every pair
// of the empty squares, apart, written a1+c3.
func TestPlacingSet(t *testing.T) {
	g, _ := games.Load("pisola(size=8)")
	v := board.Of(g.Start(), false, nil)
	if p := v.Moves.Place; len(p) != 1 || len(v.Moves.Shift) != 0 || p[0].Pick != 2 || !p[0].Apart || p[0].Join != "+" || p[0].To != board.Alphabet || p[0].Text != "{to}" {
		t.Fatalf("Pisola 8x8's start: %+v; want one group of the 64 squares, two apart", v.Moves)
	}
	if l := v.List(); len(l) != 1904 || l[0].Text != "a1+c1" || !strings.Contains(fmt.Sprint(v.Legal()), "h7+g8") {
		t.Fatalf("Pisola 8x8's start: %d moves, the first %+v", len(l), l[0])
	}
}
