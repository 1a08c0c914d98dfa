package ai

import (
	"context"
	"slices"
	"time"

	"stax/game"
	"stax/games/diam"
	"stax/games/pogo"
	"stax/search"
)

// lineLength bounds the best line of Pogo's table.
const lineLength = 20

// Analyze scores every legal move of pos for the player to move: exactly
// from Pogo's table when c has it ready, else by one alpha-beta search of
// every move within opt.Time (in two-player Diam with opt.Prove, half of
// it to the solver first). It honours ctx.
func (c Config) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	s := pos.State
	if s.Terminal() {
		return search.Analysis{}, search.ErrNoMoves
	}
	if ps, ok := s.(*pogo.State); ok && c.Tables != nil {
		if a, ok := c.analyzeTable(ps); ok {
			return a, nil
		}
	}
	budget := opt.Time
	if budget <= 0 && opt.Depth <= 0 {
		budget = time.Second
	}
	var exact map[game.Move]search.Score
	if ds, ok := s.(*diam.State); ok && opt.Prove && s.Game().Players() == 2 {
		var err error
		if exact, err = ProveDiamMoves(ctx, ds, budget/2); err != nil {
			return search.Analysis{}, err
		}
		budget /= 2
	}
	ab := search.NewAlphaBeta(Evaluator(s.Game()), 18, 1)
	scores, err := ab.ScoreMoves(ctx, pos, search.Limits{Time: budget, Depth: opt.Depth})
	if err != nil {
		return search.Analysis{}, err
	}
	var a search.Analysis
	for _, ms := range scores {
		v := search.MoveVerdict{Move: ms.Move, Score: ms.Score, Depth: ms.Depth}
		after := s.Clone()
		after.Apply(ms.Move)
		ends := after.Terminal()
		if sc, ok := exact[ms.Move]; ok {
			v.Score, v.Source = sc, search.FromSolver
		}
		switch {
		case ends:
			v.Source = search.FromEnd
		case v.Source == search.FromSolver:
		case ms.Score.IsProven():
			v.Source = search.FromSearchProof
		}
		a.Moves = append(a.Moves, v)
	}
	slices.SortStableFunc(a.Moves, func(x, y search.MoveVerdict) int { return y.Score.Int() - x.Score.Int() })
	a.Line = []game.Move{a.Moves[0].Move}
	// The principal variation: the search again to the depth reached,
	// quick with its table filled by the scoring.
	if best := a.Moves[0]; best.Source == search.FromSearch && ctx.Err() == nil {
		if res, err := ab.Play(ctx, pos, search.Limits{Depth: best.Depth}, nil); err == nil && res.Move == best.Move && len(res.PV) > 0 {
			a.Line = res.PV
		}
	}
	return a, nil
}

// analyzeTable reads every move's verdict from Pogo's table, if ready.
func (c Config) analyzeTable(s *pogo.State) (search.Analysis, bool) {
	g := s.Game().(*pogo.Game)
	t, err := c.Tables.Table(g.U())
	if err != nil {
		return search.Analysis{}, false
	}
	best, moves, ok := t.Best(s)
	if !ok {
		return search.Analysis{}, false
	}
	a := search.Analysis{Exact: true}
	for _, m := range moves {
		a.Moves = append(a.Moves, search.MoveVerdict{Move: m.Move, Score: VerdictScore(m.Verdict), Source: search.FromTable})
	}
	slices.SortStableFunc(a.Moves, func(x, y search.MoveVerdict) int {
		if x.Move == best.Move {
			return -1
		}
		if y.Move == best.Move {
			return 1
		}
		return y.Score.Int() - x.Score.Int()
	})
	c2 := s.Copy()
	for m := best; ok && len(a.Line) < lineLength; m, _, ok = t.Best(c2) {
		a.Line = append(a.Line, m.Move)
		c2.Apply(m.Move)
	}
	return a, true
}

// ReviewThresholds returns the thresholds of g's evaluation: in Pisola
// a square held is worth about 100 points (a roof about 220 in the roofs
// variant), in four-player Diam a threat to complete a diam 60 to 500
// points. Two-player Diam's tuned evaluation predicts results by a
// logistic of scale 0.00127 a point, and its thresholds are the drops
// that lower the expected result from an even position by about 5, 12
// and 25 points in a hundred. Pogo's review is exact and needs none,
// though a Pogo review without the table falls back on these.
func ReviewThresholds(g game.Game) search.Thresholds {
	switch g := g.(type) {
	case *diam.Game:
		if g.Players() == 2 {
			return search.Thresholds{Inaccuracy: 150, Mistake: 400, Blunder: 850}
		}
		return search.Thresholds{Inaccuracy: 40, Mistake: 100, Blunder: 250}
	case *pogo.Game:
		return search.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200}
	}
	return search.Thresholds{Inaccuracy: 50, Mistake: 120, Blunder: 300}
}

// Review analyses every move of the game h holds with Analyze and marks
// each against the best (see search.ReviewGame and search.Judge), with
// the thresholds of ReviewThresholds.
func (c Config) Review(ctx context.Context, h *game.History, opt search.ReviewOptions, progress func(done, total int)) (search.Review, error) {
	analyze := func(ctx context.Context, pos search.Position) (search.Analysis, error) {
		return c.Analyze(ctx, pos, search.AnalyzeOptions{Time: opt.Time, Depth: opt.Depth})
	}
	return search.ReviewGame(ctx, h, analyze, ReviewThresholds(h.Game()), opt, progress)
}
