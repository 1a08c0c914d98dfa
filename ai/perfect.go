package ai

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"stax/game"
	"stax/games/pogo"
	"stax/games/pogo/solve"
	"stax/search"
)

// perfectLevel is the level that plays Pogo from the solved table.
const perfectLevel = "perfect"

// extraLevels returns the levels g offers beyond the searching ones:
// "perfect" for Pogo.
func extraLevels(g game.Game) []string {
	if _, ok := g.(*pogo.Game); ok {
		return []string{perfectLevel}
	}
	return nil
}

// perfect plays Pogo perfectly from the table of package solve: the
// quickest win, else a draw, else the slowest loss, and among moves of
// equal verdict the one that leaves the opponent the most losing replies.
// The table is loaded (or built, with a message from solve.Notify, and
// cached) on the first move.
//
// When buildMissingTables is false the table is never built implicitly:
// if it is not already cached, the level plays as "strongest" instead.
type perfect struct {
	g        *pogo.Game
	fallback search.Player
}

func newPerfect(g *pogo.Game, ev search.Evaluator, seed uint64) search.Player {
	return &perfect{g: g, fallback: newLevel(g, "strongest", ev, seed)}
}

// buildMissingTables says whether the perfect level builds a table that is
// not cached yet (taking some seconds) on its first move. The package's
// tests turn it off so that the tests that play every level stay quick.
var buildMissingTables = true

// table opens the variant's table, honouring ctx while it is built.
func (p *perfect) table(ctx context.Context) (*solve.Table, error) {
	if !buildMissingTables {
		return solve.OpenCached(p.g.U())
	}
	type opened struct {
		t   *solve.Table
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		t, err := solve.Open(p.g.U())
		ch <- opened{t, err}
	}()
	select {
	case o := <-ch:
		return o.t, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Play returns the perfect move of s. Its score is exact: WinScore-n for a
// win in n plies, -(WinScore-n) for a loss in n, 0 for a draw; the
// principal variation follows perfect play for up to 20 plies.
func (p *perfect) Play(ctx context.Context, s game.State, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	start := time.Now()
	ps, ok := s.(*pogo.State)
	if !ok {
		return search.Result{}, fmt.Errorf("ai: the perfect level plays Pogo, not %s", s.Game().Info().Name)
	}
	t, err := p.table(ctx)
	if !buildMissingTables && errors.Is(err, os.ErrNotExist) {
		return p.fallback.Play(ctx, s, lim, report)
	}
	if err != nil {
		return search.Result{}, err
	}
	best, moves, ok := t.Best(ps)
	if !ok {
		return search.Result{}, errors.New("ai: no legal move: the game is over")
	}
	pv := []game.Move{best.Move}
	c := ps.Copy()
	c.Apply(best.Move)
	for len(pv) < 20 {
		next, _, ok := t.Best(c)
		if !ok {
			break
		}
		pv = append(pv, next.Move)
		c.Apply(next.Move)
	}
	res := search.Result{
		Move:    best.Move,
		Score:   verdictScore(best.Verdict),
		PV:      pv,
		Depth:   best.Verdict.Plies,
		Nodes:   int64(len(moves)),
		Elapsed: time.Since(start),
	}
	if report != nil {
		report(search.Progress{Depth: res.Depth, Score: res.Score, Nodes: res.Nodes, Elapsed: res.Elapsed, PV: res.PV})
	}
	return res, nil
}

// verdictScore converts a verdict into a search score.
func verdictScore(v solve.Verdict) int {
	switch v.Result {
	case game.Win:
		return search.WinScore - v.Plies
	case game.Loss:
		return -(search.WinScore - v.Plies)
	}
	return 0
}
