package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"stax/game"
	"stax/games/diam"
	"stax/games/pogo"
	"stax/games/pogo/solve"
	"stax/search"
)

// perfectLevel is the level that plays Pogo from the solved table.
const perfectLevel = "perfect"

// extraLevels returns the levels g offers beyond the searching ones:
// "perfect" for Pogo and for diam(drop=any) when c has tables (Config's
// sign that the perfect levels are wanted; Diam's needs no table file).
func (c Config) extraLevels(g game.Game) []string {
	if _, ok := g.(*pogo.Game); ok && c.Tables != nil {
		return []string{perfectLevel}
	}
	if dg, ok := g.(*diam.Game); ok && offersPerfect(dg) && c.Tables != nil {
		return []string{perfectLevel}
	}
	return nil
}

// perfect plays Pogo perfectly from the table of package solve: the
// quickest win, else a draw, else the slowest loss, and among moves of
// equal verdict the one that leaves the opponent the most losing replies.
// It takes the table from its Tables on each move; while the table is
// missing or being built (Config.Ready is false) it plays as "strongest"
// instead.
type perfect struct {
	g        *pogo.Game
	tables   *Tables
	fallback search.Player
}

func newPerfect(g *pogo.Game, tables *Tables, ev search.Evaluator, seed uint64) search.Player {
	return &perfect{g: g, tables: tables, fallback: newLevel(g, "strongest", ev, seed)}
}

// Play returns the perfect move of pos. Its score is exact: WinScore-n for a
// win in n plies, -(WinScore-n) for a loss in n, 0 for a draw; the
// principal variation follows perfect play for up to 20 plies.
func (p *perfect) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	start := time.Now()
	s := pos.State
	ps, ok := s.(*pogo.State)
	if !ok {
		return search.Result{}, fmt.Errorf("ai: the perfect level plays Pogo, not %s", s.Game().Info().Name)
	}
	t, err := p.tables.Table(p.g.U())
	if err != nil {
		return p.fallback.Play(ctx, pos, lim, report)
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
		Score:   VerdictScore(best.Verdict),
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

// VerdictScore returns the score of a verdict of Pogo's solved table: a
// proven win, loss or draw.
func VerdictScore(v solve.Verdict) search.Score {
	if v.Result == game.Draw {
		return search.ProvenDraw
	}
	return search.Score{Proven: v.Result, Plies: v.Plies}
}

// SetThreads sets the threads of the fallback search.
func (p *perfect) SetThreads(n int) {
	if r, ok := p.fallback.(search.Resources); ok {
		r.SetThreads(n)
	}
}

// SetHashSize sizes the fallback search's table.
func (p *perfect) SetHashSize(mb int) {
	if r, ok := p.fallback.(search.Resources); ok {
		r.SetHashSize(mb)
	}
}
