package puzzlegen

import (
	"context"
	"fmt"
	"strings"

	"stax/ai"
	"stax/game"
	"stax/games/diam"
	"stax/games/diam/prove"
	"stax/puzzle"
)

// DiamMaxMoves is the longest forced diam Diam puzzles are made of, in
// moves of the solver.
const DiamMaxMoves = 3

// diamSolverNodes bounds each question asked of the Diam solver: whether
// the side to move of a position wins by force.
const diamSolverNodes = 2_000

// Diam makes puzzles of the two-player Diam variant g from the positions
// of games.
func Diam(ctx context.Context, g *diam.Game, opts Options) ([]puzzle.Puzzle, error) {
	if g.Players() != 2 {
		return nil, fmt.Errorf("puzzlegen: Diam puzzles are two-player; %s has %d players", game.SpecOf(g), g.Players())
	}
	s, err := newDiamSolver(g)
	if err != nil {
		return nil, err
	}
	if len(opts.Levels) == 0 {
		opts.Levels = []string{"beginner", "greedy", "easy", "medium"}
	}
	return generate(ctx, g, &diamFinder{g: g, s: s, ctx: ctx}, opts)
}

// newDiamSolver returns the solver that finds the positions won by force.
func newDiamSolver(g *diam.Game) (*prove.Solver, error) {
	s, err := prove.New(g, prove.Options{TableBytes: 16 << 20, Workers: 1, NodeLimit: diamSolverNodes,
		Evaluate: ai.Evaluator(g).Evaluate})
	if err != nil {
		return nil, fmt.Errorf("puzzlegen: %w", err)
	}
	return s, nil
}

// DiamTargets returns targets of n puzzles in all for a Diam variant:
// forced diams in 1, 2 and 3 moves in the proportions 1:2:2.
func DiamTargets(n int) map[puzzle.Theme]int {
	return split(n, map[puzzle.Theme]int{puzzle.DiamIn(1): 1, puzzle.DiamIn(2): 2, puzzle.DiamIn(3): 2})
}

type diamFinder struct {
	g   *diam.Game
	s   *prove.Solver
	ctx context.Context // stops the solver
}

func (f *diamFinder) find(_, gs game.State) (puzzle.Puzzle, bool) {
	st := gs.(*diam.State).Copy()
	if _, _, _, over := st.Diam(); over || len(st.Legal(nil)) < 3 {
		return puzzle.Puzzle{}, false
	}
	// The solver finds the positions won by force; a bounded search then
	// finds the shortest win and checks that its line is unique.
	if a, err := f.s.Prove(f.ctx, st, prove.Win); err != nil || !a.Proven {
		return puzzle.Puzzle{}, false
	}
	plies := 0
	for d := 1; d <= 2*DiamMaxMoves-1; d += 2 {
		if wins(st, d) {
			plies = d
			break
		}
	}
	if plies == 0 {
		return puzzle.Puzzle{}, false
	}
	line, ok := f.line(st, plies)
	if !ok {
		return puzzle.Puzzle{}, false
	}
	n := (plies + 1) / 2
	rating := 700 + 400*(n-1)
	return newPuzzle(f.g, st, line, rating, game.NoMove, puzzle.DiamIn(n)), true
}

// line returns the line of a forced diam within plies from st in which
// each of the winner's moves is the only one that forces it that soon
// and each reply puts it off longest, or false.
func (f *diamFinder) line(st *diam.State, plies int) ([]game.Move, bool) {
	me := st.ToMove()
	var win game.Move
	n := 0
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		ok := false
		if c, _, _, over := st.Diam(); over {
			ok = f.g.Owner(c) == me
		} else {
			ok = loses(st, plies-1)
		}
		st.Undo()
		if ok {
			n++
			win = m
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
	for _, r := range st.Legal(nil) {
		st.Apply(r)
		_, _, _, over := st.Diam()
		var rest []game.Move
		ok := false
		if !over && !wins(st, plies-4) {
			rest, ok = f.line(st, plies-2)
		}
		st.Undo()
		if ok {
			return append([]game.Move{win, r}, rest...), true
		}
	}
	return nil, false
}

// wins reports whether the side to move of st makes a diam of its own
// within plies, whatever the opponent does.
func wins(st *diam.State, plies int) bool {
	if plies < 1 || st.Terminal() {
		return false
	}
	if _, ok := st.WinningMove(); ok {
		return true
	}
	if plies < 3 {
		return false
	}
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		_, _, _, over := st.Diam() // not a winning move: a diam is the opponent's
		ok := !over && loses(st, plies-1)
		st.Undo()
		if ok {
			return true
		}
	}
	return false
}

// loses reports whether the side to move of st suffers a diam of the
// opponent's within plies, whatever it does.
func loses(st *diam.State, plies int) bool {
	if plies < 2 || st.Terminal() {
		return false
	}
	if _, ok := st.WinningMove(); ok {
		return false
	}
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		_, _, _, over := st.Diam() // not a winning move: a diam is the opponent's
		ok := over || wins(st, plies-1)
		st.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// key writes st with player 1 to move (the players' colours exchanged if
// player 2 is to move) as the least of its images under the ring's 16
// symmetries and the exchanges of red with yellow and of green with blue.
func (f *diamFinder) key(gs game.State) string {
	st := gs.(*diam.State)
	var cells [8][]int
	for c := range cells {
		for l := 0; l < st.Height(c); l++ {
			col := st.Piece(c, l)
			if st.ToMove() == 1 {
				col ^= 1 // red <-> green, yellow <-> blue
			}
			cells[c] = append(cells[c], col)
		}
	}
	best := ""
	for sym := 0; sym < 16; sym++ {
		for swap := 0; swap < 4; swap++ {
			var b strings.Builder
			for i := 0; i < 8; i++ {
				from := (i + sym) % 8
				if sym >= 8 {
					from = (8 - i + sym) % 8
				}
				for _, col := range cells[from] {
					if swap&1 != 0 && col&1 == 0 || swap&2 != 0 && col&1 == 1 {
						col ^= 2 // red <-> yellow, green <-> blue
					}
					b.WriteByte("rgyb"[col])
				}
				b.WriteByte('/')
			}
			if s := b.String(); best == "" || s < best {
				best = s
			}
		}
	}
	return best
}
