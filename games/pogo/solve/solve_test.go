package solve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"stax/game"
	"stax/games/pogo"
)

// TestIndex checks that the index is a bijection between its range and the
// classes of positions under the symmetries, and that the orbits add up to
// every arrangement.
func TestIndex(t *testing.T) {
	for n := 1; n <= Pieces; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			x := indexerFor(n)
			want := int(binom[2*n+8][8] * binom[2*n][n])
			if x.size != want {
				t.Fatalf("size %d, want %d", x.size, want)
			}
			step := uint32(1)
			if n == Pieces {
				step = 13 // the orbits are summed in full up to n=5
				if testing.Short() {
					step = 97
				}
			}
			var orbits int64
			for idx := uint32(0); idx < x.total; idx += step {
				p := x.decode(idx)
				got, ci := x.index(&p, false)
				cl := &x.canon[ci]
				if got != idx {
					t.Fatalf("index(decode(%d) = %s) = %d", idx, posString(&p), got)
				}
				c := x.colourRank[word(&p, 0)]
				orbits += int64(x.orbit(&p, cl, c))
				// Every image of p has p's index.
				for g := uint8(1); g < 8; g++ {
					var img pos
					for sq := 0; sq < numSquares; sq++ {
						img.h[syms[g][sq]] = p.h[sq]
						img.b[syms[g][sq]] = p.b[sq]
					}
					if got, _ := x.index(&img, false); got != idx {
						t.Fatalf("index of image %d of %s = %d, want %d", g, posString(&p), got, idx)
					}
				}
			}
			if step == 1 && orbits != int64(x.size) {
				t.Errorf("orbits sum to %d, want %d", orbits, x.size)
			}
			t.Logf("%d pieces a side: %d arrangements, %d up to symmetry", n, x.size, x.total)
		})
	}
}

// TestAgainstNaive solves small games (n pieces a side, same rules) with
// the table and with the slow model of naive_test.go, and compares every
// position's verdict.
func TestAgainstNaive(t *testing.T) {
	maxN := 3
	if testing.Short() {
		maxN = 2
	}
	for n := 1; n <= maxN; n++ {
		for _, u := range []bool{true, false} {
			t.Run(fmt.Sprintf("n=%d,u=%v", n, u), func(t *testing.T) {
				tb, err := solveN(context.Background(), n, Options{U: u, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				want := naiveSolve(tb)
				if len(want) != int(tb.x.total) {
					t.Fatalf("naive model has %d classes, index %d", len(want), tb.x.total)
				}
				for idx := uint32(0); idx < tb.x.total; idx++ {
					p := tb.x.decode(idx)
					got := verdictOf(tb.val[idx])
					if w := want[naiveOf(&p).key()]; got != w {
						t.Fatalf("%s: table says %v, naive %v", posString(&p), got, w)
					}
				}
			})
		}
	}
}

// checkConsistent checks every position of a table against its successors:
// a win in n has a successor lost in n-1 and none lost sooner; a loss in n
// has only successors won in at most n-1, one of them in n-1; a draw has
// no lost successor and some drawn one.
func checkConsistent(t *testing.T, tb *Table, step uint32) {
	t.Helper()
	bad := 0
	for idx := uint32(0); idx < tb.x.total && bad < 10; idx += step {
		p := tb.x.decode(idx)
		v := verdictOf(tb.val[idx])
		white, black := tops(&p)
		if white == 0 || black == 0 {
			want := Verdict{Result: game.Loss}
			if white != 0 {
				want.Result = game.Win
			}
			if v != want {
				t.Errorf("%s is over, verdict %v, want %v", posString(&p), v, want)
				bad++
			}
			continue
		}
		var best Verdict
		first := true
		tb.successors(&p, func(i uint32) {
			if mv := verdictOf(tb.val[i]).Next(); first || mv.Better(best) {
				best, first = mv, false
			}
		})
		if first || best != v {
			t.Errorf("%s: verdict %v, best move %v", posString(&p), v, best)
			bad++
		}
	}
}

// TestConsistent checks, on small games, that every position's verdict is
// the best of its moves' verdicts.
func TestConsistent(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 3
	}
	for _, u := range []bool{true, false} {
		t.Run(fmt.Sprintf("n=%d,u=%v", n, u), func(t *testing.T) {
			tb, err := solveN(context.Background(), n, Options{U: u, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, tb, 1)
		})
	}
}

// randomPositions plays random games of g and returns the positions met.
func randomPositions(g *pogo.Game, games int, seed uint64) []*pogo.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []*pogo.State
	for i := 0; i < games; i++ {
		s := g.NewStart()
		for ply := 0; ply < 200 && !s.Terminal(); ply++ {
			out = append(out, s.Copy())
			moves := s.Legal(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
		out = append(out, s.Copy())
	}
	return out
}

// TestMovesMatchPogo checks that the solver's moves from real Pogo
// positions lead to the positions package pogo's moves lead to.
func TestMovesMatchPogo(t *testing.T) {
	for _, u := range []bool{true, false} {
		g, err := pogo.New(game.Options{"u": fmt.Sprint(u)})
		if err != nil {
			t.Fatal(err)
		}
		tb := &Table{u: u, x: indexerFor(Pieces), ms: pogo.MoveTableOf(u)}
		for _, s := range randomPositions(g, 20, 7) {
			var want []uint32
			for _, m := range s.Legal(nil) {
				c := s.Copy()
				c.Apply(m)
				p := fromState(c)
				idx, _ := tb.x.index(&p, false)
				want = append(want, idx)
			}
			p := fromState(s)
			var got []uint32
			tb.successors(&p, func(idx uint32) { got = append(got, idx) })
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("u=%v %s: successors %v, want %v", u, s, got, want)
			}
		}
	}
}

// negamax searches s to depth plies and returns +1 if the side to move
// forces a win within them, -1 if it loses whatever it does, 0 otherwise.
func negamax(s *pogo.State, depth int) int {
	if s.Terminal() {
		if s.Winner() == s.ToMove() {
			return 1
		}
		return -1
	}
	if depth == 0 {
		return 0
	}
	best := -1
	for _, m := range s.Legal(nil) {
		s.Apply(m)
		v := -negamax(s, depth-1)
		s.Undo()
		if v > best {
			best = v
			if best == 1 {
				break
			}
		}
	}
	return best
}

// checkNegamax checks the table's verdicts near the end of random games
// against an exhaustive search: a win in n is found at depth n but not at
// n-2, a loss in n is proven at depth n but not at n-1, and a draw is
// neither at a modest depth.
func checkNegamax(t *testing.T, tb *Table, g *pogo.Game, positions int) {
	t.Helper()
	checked := 0
	for _, s := range randomPositions(g, 400, 11) {
		if checked >= positions {
			break
		}
		v := tb.Verdict(s)
		if v.Result != game.Draw && v.Plies > 5 {
			continue
		}
		checked++
		switch v.Result {
		case game.Win:
			if v.Plies == 0 {
				continue
			}
			if negamax(s.Copy(), v.Plies) != 1 || (v.Plies >= 3 && negamax(s.Copy(), v.Plies-2) == 1) {
				t.Errorf("%s: table says %v, search disagrees", s, v)
			}
		case game.Loss:
			if negamax(s.Copy(), v.Plies) != -1 || (v.Plies >= 1 && negamax(s.Copy(), v.Plies-1) == -1) {
				t.Errorf("%s: table says %v, search disagrees", s, v)
			}
		case game.Draw:
			if r := negamax(s.Copy(), 4); r != 0 {
				t.Errorf("%s: table says draw, search to 4 plies gives %d", s, r)
			}
		}
	}
	t.Logf("checked %d positions against search", checked)
}

// TestSolveCancelled checks that a solve stops soon after its context is
// cancelled, with the context's error.
func TestSolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var phases []string
	tb, err := Solve(ctx, Options{U: true, Workers: 1, Progress: func(p Progress) {
		phases = append(phases, p.Phase)
		if p.Phase == "retrograde" {
			cancel()
		}
	}})
	if tb != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Solve cancelled = %v, %v; want context.Canceled", tb, err)
	}
	if len(phases) == 0 || phases[len(phases)-1] != "retrograde" {
		t.Errorf("progress %q; want the solve to stop after reaching the retrograde phase", phases)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := Solve(ctx, Options{U: false, Workers: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve with a cancelled context = %v; want context.Canceled", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Solve with a cancelled context took %v", el)
	}
}

// TestFull solves both variants of the real game and checks them. It
// takes minutes, so it runs only when STAX_SOLVE_FULL is set.
func TestFull(t *testing.T) {
	if os.Getenv("STAX_SOLVE_FULL") == "" {
		t.Skip("set STAX_SOLVE_FULL=1 to solve the whole game")
	}
	for _, u := range []bool{true, false} {
		t.Run(fmt.Sprintf("u=%v", u), func(t *testing.T) {
			tb, err := Solve(context.Background(), Options{U: u})
			if err != nil {
				t.Fatal(err)
			}
			st := tb.Stats()
			t.Logf("%+v", st)
			if sum := st.Wins + st.Losses + st.Draws + st.Unreachable; sum != st.Positions || st.Positions != 116396280 {
				t.Errorf("counts sum to %d of %d", sum, st.Positions)
			}
			checkConsistent(t, tb, 1)
			g, _ := pogo.New(game.Options{"u": fmt.Sprint(u)})
			checkNegamax(t, tb, g, 300)
			for _, s := range randomPositions(g, 20, 3) {
				best, _, ok := tb.Best(s)
				if ok && best.Verdict != tb.Verdict(s) {
					t.Errorf("%s: verdict %v, Best plays %s with %v", s, tb.Verdict(s), s.FormatMove(best.Move), best.Verdict)
				}
			}
			r := tb.Reachable(g.NewStart())
			t.Logf("reachable from the start: %+v", r)
			if r.Classes != r.Wins+r.Losses+r.Draws || r.Classes > int64(tb.Positions()) || r.Draws == 0 {
				t.Errorf("reachable from the start: %+v", r)
			}
			var buf bytes.Buffer
			if _, err := tb.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			if back, err := ReadTable(&buf); err != nil || !bytes.Equal(back.val, tb.val) {
				t.Errorf("ReadTable after WriteTo: %v", err)
			}
		})
	}
}

// TestLayoutWord checks that ranking a layout by its word, and changing
// the word as an un-move does, agree with ranking the heights.
func TestLayoutWord(t *testing.T) {
	x := indexerFor(Pieces)
	for l := 0; l < x.numLayouts; l += 7 {
		h := x.layoutHeights(uint32(l))
		w, start := layoutWord(&h)
		if r := wordRank(w); r != uint32(l) {
			t.Fatalf("wordRank(layoutWord(%v)) = %d, want %d", h, r, l)
		}
		for a := 0; a < numSquares; a++ {
			for k := uint8(1); k <= min(h[a], 3); k++ {
				for b := 0; b < numSquares; b++ {
					if b == a {
						continue
					}
					at := start[b]
					if b > a {
						at -= k
					}
					got := wordRank(insertZeros(removeZeros(w, start[a], k), at, k))
					g := h
					g[a] -= k
					g[b] += k
					if want := layoutRank(&g); got != want {
						t.Fatalf("moving %d from %d to %d in %v: rank %d, want %d", k, a, b, h, got, want)
					}
				}
			}
		}
	}
}
