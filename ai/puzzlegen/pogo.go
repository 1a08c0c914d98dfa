package puzzlegen

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"stax/ai"
	"stax/game"
	"stax/games/pogo"
	"stax/games/pogo/solve"
	"stax/puzzle"
	"stax/search"
)

// PogoMaxMoves is the longest forced win Pogo puzzles are made of, in
// moves of the solver.
const PogoMaxMoves = 5

// Pogo makes Pogo puzzles of variant g from the positions of games,
// proving them with tb, g's solved table.
func Pogo(ctx context.Context, g *pogo.Game, tb *solve.Table, opts Options) ([]puzzle.Puzzle, error) {
	if tb.U() != g.U() || tb.Pieces() != solve.Pieces {
		return nil, fmt.Errorf("puzzlegen: the table solves pogo(u=%v) with %d pieces a side; want %s's", tb.U(), tb.Pieces(), game.SpecOf(g))
	}
	if len(opts.Levels) == 0 {
		opts.Levels = []string{"random", "beginner"}
	}
	return generate(ctx, g, &pogoFinder{g: g, tb: tb, ev: ai.Evaluator(g)}, opts)
}

// PogoTargets returns targets of n puzzles in all for Pogo: 18% saving
// the draw, 18% wins in 1, 30% in 2, 24% in 3, 8% in 4 and 2% in 5. Wins
// whose every move is the only winning one grow rarer with their length:
// a thousand games of the default levels give about 130 wins in 1, 60 in
// 2, 20 in 3, 3 in 4, and a win in 5 turns up about once in 800 games.
func PogoTargets(n int) map[puzzle.Theme]int {
	shares := map[puzzle.Theme]int{puzzle.SaveTheDraw: 18, puzzle.WinIn(1): 18, puzzle.WinIn(2): 30,
		puzzle.WinIn(3): 24, puzzle.WinIn(4): 8, puzzle.WinIn(5): 2}
	return split(n, shares)
}

// split shares n out in proportion to shares, the rounding going to the
// themes in a fixed order so that the total is n.
func split(n int, shares map[puzzle.Theme]int) map[puzzle.Theme]int {
	total := 0
	for _, s := range shares {
		total += s
	}
	out := map[puzzle.Theme]int{}
	given := 0
	for t, s := range shares {
		out[t] = n * s / total
		given += out[t]
	}
	var order []puzzle.Theme
	for t := range shares {
		order = append(order, t)
	}
	sort.Slice(order, func(i, j int) bool { return themeLess(order[i], order[j]) })
	for i := 0; given < n; i++ {
		out[order[i%len(order)]]++
		given++
	}
	return out
}

type pogoFinder struct {
	g  *pogo.Game
	tb *solve.Table
	ev search.Evaluator
}

func (f *pogoFinder) find(_, gs game.State) (puzzle.Puzzle, bool) {
	st := gs.(*pogo.State)
	moves := f.tb.Moves(st)
	if len(moves) < 3 {
		return puzzle.Puzzle{}, false
	}
	v := f.tb.Verdict(st)
	var line []game.Move
	var theme puzzle.Theme
	switch {
	case v.Result == game.Win && v.Plies <= 2*PogoMaxMoves-1:
		l, ok := f.winLine(st.Copy(), v.Plies)
		if !ok {
			return puzzle.Puzzle{}, false
		}
		line, theme = l, puzzle.WinIn((v.Plies+1)/2)
	case v.Result == game.Draw:
		saving := 0
		for _, m := range moves {
			if m.Verdict.Result != game.Loss {
				saving++
				line = []game.Move{m.Move}
			}
		}
		if saving != 1 {
			return puzzle.Puzzle{}, false
		}
		theme = puzzle.SaveTheDraw
	default:
		return puzzle.Puzzle{}, false
	}
	themes := []puzzle.Theme{theme}
	trap := natural(st, f.ev)
	if trap == line[0] || f.moveVerdict(st, trap).Result != game.Loss {
		trap = game.NoMove
	} else {
		themes = append(themes, puzzle.DontFallForIt)
	}
	return newPuzzle(f.g, st, line, f.rating(st, line, theme, trap), trap, themes...), true
}

// moveVerdict returns the verdict of m for the side to move of st.
func (f *pogoFinder) moveVerdict(st *pogo.State, m game.Move) solve.Verdict {
	c := st.Copy()
	c.Apply(m)
	return f.tb.Verdict(c).Next()
}

// winLine returns the line of a win in plies from st in which each of the
// winner's moves is its only winning move and each reply holds out
// longest, the first such in the order of the moves, or false.
func (f *pogoFinder) winLine(st *pogo.State, plies int) ([]game.Move, bool) {
	var win game.Move
	n := 0
	for _, m := range f.tb.Moves(st) {
		if m.Verdict.Result == game.Win {
			n++
			win = m.Move
		}
	}
	if n != 1 {
		return nil, false
	}
	if plies == 1 {
		return []game.Move{win}, true
	}
	st.Apply(win)
	defer st.Undo()
	longest := solve.Verdict{Result: game.Loss, Plies: plies - 1}
	for _, r := range f.tb.Moves(st) {
		if r.Verdict != longest {
			continue
		}
		st.Apply(r.Move)
		rest, ok := f.winLine(st, plies-2)
		st.Undo()
		if ok {
			return append([]game.Move{win, r.Move}, rest...), true
		}
	}
	return nil, false
}

// rating returns a puzzle's starting rating: 800 for a win in one, 250
// more for each further move, 1300 for saving the draw, and 150 more for a
// trap and for each of the solver's moves that the one-ply look would
// not choose (it is not obvious).
func (f *pogoFinder) rating(st *pogo.State, line []game.Move, theme puzzle.Theme, trap game.Move) int {
	r := 1300
	if n, ok := theme.Moves(); ok {
		r = 800 + 250*(n-1)
	}
	if trap != game.NoMove {
		r += 150
	}
	c := st.Copy()
	for i, m := range line {
		if i%2 == 0 && natural(c, f.ev) != m {
			r += 150
		}
		c.Apply(m)
	}
	return r
}

// key writes st with White to move (the colours exchanged if Black is to
// move) as the least of its images under the symmetries of the square.
func (f *pogoFinder) key(gs game.State) string {
	st := gs.(*pogo.State)
	var sq [9]string
	for i := range sq {
		var b strings.Builder
		for l := 0; l < st.Height(i); l++ {
			c := st.Piece(i, l)
			if st.ToMove() == pogo.Black {
				c ^= 1
			}
			b.WriteByte("wb"[c])
		}
		sq[i] = b.String()
	}
	best := ""
	for _, sym := range squareSymmetries {
		var b strings.Builder
		for _, from := range sym {
			b.WriteString(sq[from])
			b.WriteByte('/')
		}
		if s := b.String(); best == "" || s < best {
			best = s
		}
	}
	return best
}

// squareSymmetries lists, for each of the 8 symmetries of the 3x3 board,
// the square whose stack goes to each square (squares numbered a1, b1, c1,
// a2, ... as in package pogo).
var squareSymmetries = func() [8][9]int {
	var out [8][9]int
	for s := range out {
		for sq := 0; sq < 9; sq++ {
			x, y := sq%3, sq/3
			if s&1 != 0 {
				x = 2 - x
			}
			if s&2 != 0 {
				y = 2 - y
			}
			if s&4 != 0 {
				x, y = y, x
			}
			out[s][sq] = 3*y + x
		}
	}
	return out
}()
