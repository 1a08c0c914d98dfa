package prove

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"stax/game"
	"stax/games/diam"
)

// The two-player variants, one per placing rule.
var specs = []string{"diam", "diam(drop=any)"}

func load(t testing.TB, spec string) *diam.Game {
	t.Helper()
	gg, err := game.Registry{diam.Info}.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	return gg.(*diam.Game)
}

// positionString writes colours as a position string, independently of
// the rules package.
func positionString(col [4]uint32, toMove int) string {
	var sb strings.Builder
	for cell := 0; cell < 8; cell++ {
		if cell > 0 {
			sb.WriteByte('/')
		}
		n := 0
		for l := 0; l < 4; l++ {
			for c := 0; c < 4; c++ {
				if col[c]>>(4*cell+l)&1 != 0 {
					sb.WriteByte("rgyb"[c])
					n++
				}
			}
		}
		if n == 0 {
			sb.WriteByte('-')
		}
	}
	fmt.Fprintf(&sb, " %d", toMove+1)
	return sb.String()
}

// playouts returns positions that are not over from random games, taken
// between plies from and to.
func playouts(g *diam.Game, seed uint64, n, from, to int) []*diam.State {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*diam.State
	for len(out) < n {
		s := g.NewStart()
		stop := from + rng.IntN(to-from+1)
		for ply := 0; ply < stop && !s.Terminal(); ply++ {
			moves := s.Legal(nil)
			s.Apply(moves[rng.IntN(len(moves))])
		}
		if !s.Terminal() {
			out = append(out, s.Copy())
		}
	}
	return out
}

func prove(t *testing.T, s *Solver, st *diam.State, goal Goal) Answer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := s.Prove(ctx, st, goal)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAgainstExhaustive compares the solver's answers on positions late
// in random games with a plain minimax to a few plies (Minimax, which
// knows only the rules): every win or loss
// the minimax finds is proven, and every proof short enough to check is
// confirmed by it.
func TestAgainstExhaustive(t *testing.T) {
	n, depth, limit := 30, 5, int64(50_000)
	if testing.Short() {
		n, depth, limit = 14, 4, 10_000
	}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			g := load(t, spec)
			s, err := New(g, Options{TableBytes: 8 << 20, Workers: 2, NodeLimit: limit})
			if err != nil {
				t.Fatal(err)
			}
			var wins, losses, proofsChecked int
			for _, st := range playouts(g, 11, n, 10, 40) {
				ex := Minimax(st.Copy(), depth)
				win := prove(t, s, st, Win)
				loss := prove(t, s, st, Loss)
				if win.Proven && loss.Proven {
					t.Fatalf("%s: proven both a win and a loss", st)
				}
				switch ex {
				case 1:
					wins++
					if !win.Proven || !loss.Disproven {
						t.Errorf("%s: the side to move wins within %d plies; solver: win %+v, loss %+v", st, depth, win, loss)
					}
				case -1:
					losses++
					if !loss.Proven || !win.Disproven {
						t.Errorf("%s: the side to move loses within %d plies; solver: win %+v, loss %+v", st, depth, win, loss)
					}
				}
				for _, x := range []struct {
					a    Answer
					want int
				}{{win, 1}, {loss, -1}} {
					if x.a.Proven && x.a.Plies <= depth {
						proofsChecked++
						if got := Minimax(st.Copy(), x.a.Plies); got != x.want {
							t.Errorf("%s: proof of %d plies (%+v), but minimax to that depth says %d", st, x.a.Plies, x.a, got)
						}
					}
				}
			}
			t.Logf("%d positions: %d wins and %d losses within %d plies, %d proofs checked", n, wins, losses, depth, proofsChecked)
			if wins == 0 || losses == 0 {
				t.Errorf("the positions tested %d wins and %d losses: pick others", wins, losses)
			}
		})
	}
}

// images returns the 128 images of a position under the transformations
// the solver folds: the ring's rotations and reflections, red with
// yellow, green with blue, and the players exchanged with the side to
// move. They are computed cell by cell, independently of canon.go.
func images(col [4]uint32, toMove int) (out []struct {
	col    [4]uint32
	toMove int
}) {
	for refl := 0; refl < 2; refl++ {
		for r := 0; r < 8; r++ {
			for swaps := 0; swaps < 8; swaps++ {
				var perm = [4]int{0, 1, 2, 3}
				if swaps&1 != 0 {
					perm[0], perm[2] = perm[2], perm[0]
				}
				if swaps&2 != 0 {
					perm[1], perm[3] = perm[3], perm[1]
				}
				p := toMove
				if swaps&4 != 0 {
					perm = [4]int{perm[1], perm[0], perm[3], perm[2]}
					p = 1 - p
				}
				var img [4]uint32
				for c := 0; c < 4; c++ {
					for cell := 0; cell < 8; cell++ {
						to := (cell + r) % 8
						if refl == 1 {
							to = (8 - cell + r) % 8
						}
						img[perm[c]] |= (col[c] >> (4 * cell) & 0xF) << (4 * to)
					}
				}
				out = append(out, struct {
					col    [4]uint32
					toMove int
				}{img, p})
			}
		}
	}
	return out
}

// TestSymmetry checks the canonical keys against explicit transforms:
// every image of a position has the same key, the same number of move
// sequences to depth 3 and the same value by minimax, and the solver,
// run afresh on an image, never contradicts its answer on the original.
func TestSymmetry(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 2
	}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			g := load(t, spec)
			for _, st := range playouts(g, 5, n, 6, 30) {
				key := keyOf(st.Colours(), st.ToMove())
				perft := st.Perft(3)
				value := Minimax(st.Copy(), 3)
				s0, _ := New(g, Options{TableBytes: 1 << 20, Workers: 1, NodeLimit: 5000})
				win0, loss0 := prove(t, s0, st, Win), prove(t, s0, st, Loss)
				for i, img := range images(st.Colours(), st.ToMove()) {
					str := positionString(img.col, img.toMove)
					im, err := g.Parse(str)
					if err != nil {
						t.Fatalf("image %d of %s: %v", i, st, err)
					}
					if k := keyOf(im.Colours(), im.ToMove()); k != key {
						t.Fatalf("image %s of %s: key %x, want %x", im, st, k, key)
					}
					if p := im.Perft(3); p != perft {
						t.Fatalf("image %s of %s: perft 3 %d, want %d", im, st, p, perft)
					}
					if v := Minimax(im, 3); v != value {
						t.Fatalf("image %s of %s: minimax value %d, want %d", im, st, v, value)
					}
					if i%16 != 5 {
						continue
					}
					s1, _ := New(g, Options{TableBytes: 1 << 20, Workers: 1, NodeLimit: 5000})
					win, loss := prove(t, s1, im, Win), prove(t, s1, im, Loss)
					if win.Proven && !win0.Proven && win0.Settled() || loss.Proven && !loss0.Proven && loss0.Settled() ||
						win0.Proven && !win.Proven && win.Settled() || loss0.Proven && !loss.Proven && loss.Settled() {
						t.Fatalf("image %s of %s: win %+v loss %+v; original: win %+v loss %+v", im, st, win, loss, win0, loss0)
					}
				}
			}
		})
	}
}

// TestEncode checks that keys decode to the canonical position.
func TestEncode(t *testing.T) {
	for _, spec := range specs {
		g := load(t, spec)
		for _, st := range playouts(g, 3, 200, 0, 60) {
			c := canonical(st.Colours())
			got, ok := decode(encode(c))
			if !ok || got != c {
				t.Fatalf("%s: decode(encode(%x)) = %x, %v", st, c, got, ok)
			}
		}
	}
	// Bits above the key, heights past 5^8, 32 pieces, 5 red pieces.
	for _, k := range []uint64{1 << keyBits, 390625, 390624, 9} {
		if _, ok := decode(k); ok {
			t.Errorf("decode(%#x) accepted", k)
		}
	}
}

// TestVerify checks proofs with the rules alone, and that a false proof
// planted in the table is caught.
func TestVerify(t *testing.T) {
	for spec, pos := range map[string]string{"diam": "gr/-/-/r/g/-/-/- 2", "diam(drop=any)": "gry/b/r/-/g/-/-/- 2"} {
		t.Run(spec, func(t *testing.T) {
			g := load(t, spec)
			st, err := g.Parse(pos)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := New(g, Options{TableBytes: 16 << 20, Workers: 1})
			if a := prove(t, s, st, Loss); !a.Proven {
				t.Fatalf("%s: %+v; want a proven loss", st, a)
			}
			for _, below := range []int{0, 3} {
				stats, err := s.Verify(t.Context(), st, Loss, below)
				if err != nil {
					t.Fatalf("below %d: %v", below, err)
				}
				if stats.Positions == 0 || (below > 0) != (stats.Minimax > 0) {
					t.Errorf("below %d: %+v", below, stats)
				}
			}
			// Plant a false proof: a position after a losing move, whose
			// side to move does not win, marked won.
			c := st.Copy()
			c.Apply(c.Legal(nil)[0])
			for _, m := range c.Legal(nil) {
				c.Apply(m)
				if !c.Terminal() && Minimax(c, 3) != 1 {
					s.tt.store(id(keyOf(c.Colours(), c.ToMove()), askWin), 0, 9, 1)
					if _, err := s.Verify(t.Context(), c, Win, 0); err == nil {
						t.Errorf("%s: a planted proof of a win checks", c)
					}
					break
				}
				c.Undo()
			}
		})
	}
}
