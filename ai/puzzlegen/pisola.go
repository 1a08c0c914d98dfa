package puzzlegen

import (
	"context"
	"fmt"

	"stax/ai"
	"stax/game"
	"stax/games/pisola"
	"stax/puzzle"
	"stax/search"
)

// The searches that judge Pisola's positions: every move is scored by
// alpha-beta to a fixed depth (so that the verdicts are the same on every
// machine), first shallow, to find the candidates, then deep.
const (
	pisolaQuickDepth = 3
	// PisolaDepth is the depth of the deep search that states a Pisola
	// puzzle's margin.
	PisolaDepth = 7
	// PisolaMargin is how much better, in the evaluation's points (a
	// square held is worth about 100), the best move of a Pisola puzzle
	// is than every other in both searches.
	PisolaMargin = 200
)

// Pisola makes best-move puzzles of the Pisola variant g: positions of
// the moving phase, just after a mistake of the opponent's (a move that
// the shallow search scores at least ReviewThresholds' Mistake below the
// best), in which one move is better than every other by PisolaMargin in
// a search of pisolaQuickDepth plies and in one of PisolaDepth. No proof
// exists: the puzzle says "best move", not "forced win".
func Pisola(ctx context.Context, g *pisola.Game, opts Options) ([]puzzle.Puzzle, error) {
	if len(opts.Levels) == 0 {
		opts.Levels = []string{"beginner", "easy", "medium"}
	}
	f := &pisolaFinder{g: g, ctx: ctx, mistake: ai.ReviewThresholds(g).Mistake, cache: map[string]search.Analysis{}}
	ps, err := generate(ctx, g, f, opts)
	if err == nil && f.err != nil {
		err = f.err
	}
	return ps, err
}

// PisolaTargets returns a target of n best-move puzzles.
func PisolaTargets(n int) map[puzzle.Theme]int { return map[puzzle.Theme]int{puzzle.BestMove: n} }

type pisolaFinder struct {
	g       *pisola.Game
	ctx     context.Context
	mistake int
	// cache holds the shallow analyses of the positions seen last, by
	// position string: the next position's find needs this one's.
	cache map[string]search.Analysis
	err   error // the first error of a search
}

// analyze scores every move of st to depth, or returns false (keeping the
// error) when the search fails.
func (f *pisolaFinder) analyze(st game.State, depth int) (search.Analysis, bool) {
	if f.err != nil {
		return search.Analysis{}, false
	}
	key := st.String()
	if a, ok := f.cache[key]; ok && depth == pisolaQuickDepth {
		return a, true
	}
	a, err := ai.Config{}.Analyze(f.ctx, search.Position{State: st}, search.AnalyzeOptions{Depth: depth})
	if err != nil {
		f.err = fmt.Errorf("puzzlegen: analysing %s: %w", st, err)
		return search.Analysis{}, false
	}
	if depth == pisolaQuickDepth {
		if len(f.cache) > 64 {
			clear(f.cache)
		}
		f.cache[key] = a
	}
	return a, true
}

// margin returns how much better a's best move is than its second.
func margin(a search.Analysis) int {
	if len(a.Moves) < 2 {
		return 0
	}
	return a.Moves[0].Score.Int() - a.Moves[1].Score.Int()
}

func (f *pisolaFinder) find(prevState, gs game.State) (puzzle.Puzzle, bool) {
	st := gs.(*pisola.State)
	prev, ok := prevState.(*pisola.State)
	if !ok || !prev.Moving() || !st.Moving() || len(st.Legal(nil)) < 3 {
		return puzzle.Puzzle{}, false
	}
	// The opponent's move that led here was a mistake.
	before, ok := f.analyze(prev, pisolaQuickDepth)
	if !ok {
		return puzzle.Puzzle{}, false
	}
	played := game.NoMove
	for _, m := range prev.Legal(nil) {
		c := prev.Clone()
		c.Apply(m)
		if c.String() == st.String() {
			played = m
			break
		}
	}
	v, ok := before.Find(played)
	if !ok || before.Best().Score.Int()-v.Score.Int() < f.mistake {
		return puzzle.Puzzle{}, false
	}
	quick, ok := f.analyze(st, pisolaQuickDepth)
	if !ok || margin(quick) < PisolaMargin || quick.Best().Score.Proven == game.Loss {
		return puzzle.Puzzle{}, false
	}
	deep, ok := f.analyze(st, PisolaDepth)
	if !ok || margin(deep) < PisolaMargin || deep.Best().Move != quick.Best().Move {
		return puzzle.Puzzle{}, false
	}
	best := deep.Best().Move
	rating := 1400
	if natural(st, ai.Evaluator(f.g)) != best {
		rating += 150
	}
	return newPuzzle(f.g, st, []game.Move{best}, rating, game.NoMove, puzzle.BestMove), true
}

// key is the position string: Pisola's puzzles are few, and a position
// met twice in self-play is met in the same orientation.
func (f *pisolaFinder) key(st game.State) string { return st.String() }
