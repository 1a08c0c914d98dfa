package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"time"

	"stax/ai"
	"stax/game"
	"stax/games/diam"
	"stax/games/pogo"
	"stax/search"
)

const analyzeUsage = "<spec> [--pos S] [--time D]"

func runAnalyze(e *env, args []string) error {
	fs := newFlags(e, "analyze")
	pos := fs.String("pos", "", "the position string (default: the start)")
	budget := fs.Duration("time", 0, "search time per move, for games other than Pogo (default: 300ms, less when there are many moves, 15s in all at most)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"want one game spec, e.g. stax analyze pogo --pos 'bb,bb,bb/-,-,-/ww,ww,ww w'"}
	}
	g, s, err := loadPosition(rest[0], *pos)
	if err != nil {
		return err
	}
	if s.Terminal() {
		fmt.Fprintf(e.stdout, "no moves: %s\n", s.Outcome().Describe(g))
		return nil
	}
	if pg, ok := g.(*pogo.Game); ok {
		return analyzePogo(e, pg, s.(*pogo.State))
	}
	if *budget < 0 {
		return &usageError{"--time must be positive"}
	}
	if *budget == 0 {
		*budget = min(300*time.Millisecond, 15*time.Second/time.Duration(len(s.Legal(nil)))).Round(time.Millisecond)
	}
	return analyzeSearch(e, g, s, *budget)
}

// analyzePogo prints the exact verdict of every move from the table.
func analyzePogo(e *env, g *pogo.Game, s *pogo.State) error {
	tables := newTables(e.stderr)
	defer tables.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	t, err := tables.Wait(ctx, g.U())
	if err != nil {
		return err
	}
	moves := t.Moves(s)
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Verdict.Better(moves[j].Verdict) })
	fmt.Fprintf(e.stdout, "%s: %s for %s (exact, from the table)\n", s, ai.VerdictScore(t.Verdict(s)), g.PlayerName(s.ToMove()))
	for _, m := range moves {
		fmt.Fprintf(e.stdout, "%-8s %s\n", s.FormatMove(m.Move), ai.VerdictScore(m.Verdict))
	}
	return nil
}

// analyzeSearch estimates the verdict of every move by one search from
// the position that scores every move for the player to move (in
// four-player Diam, the mover against the three others), with budget of
// search time per move in all.
func analyzeSearch(e *env, g game.Game, s game.State, budget time.Duration) error {
	moves := len(s.Legal(nil))
	ab := search.NewAlphaBeta(ai.Evaluator(g), 20, 1)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Two-player Diam: half the time goes to the solver, whose proofs
	// are exact.
	var exact map[game.Move]search.Score
	if ds, ok := s.(*diam.State); ok && g.Players() == 2 {
		var err error
		if exact, err = ai.ProveDiamMoves(ctx, ds, budget*time.Duration(moves)/2); err != nil {
			return err
		}
		budget /= 2
	}
	scores, err := ab.ScoreMoves(ctx, search.Position{State: s}, search.Limits{Time: budget * time.Duration(moves)})
	if err != nil {
		return err
	}
	for i, ms := range scores {
		if sc, ok := exact[ms.Move]; ok {
			scores[i].Score = sc
		}
	}
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].Score.Int() > scores[j].Score.Int() })
	what := fmt.Sprintf("%v of search per move", budget)
	if exact != nil {
		what = fmt.Sprintf("%v of proof-number solving and %v of search per move", budget, budget)
	}
	fmt.Fprintf(e.stdout, "%s: %s to move; verdicts for %s are from %s: win N or loss N (plies), draw, or the evaluation's estimate\n",
		s, g.PlayerName(s.ToMove()), g.PlayerName(s.ToMove()), what)
	for _, ms := range scores {
		c := s.Clone()
		c.Apply(ms.Move)
		how := fmt.Sprintf(" (depth %d, estimate)", ms.Depth)
		_, solved := exact[ms.Move]
		switch {
		case c.Terminal():
			how = " (exact: the move ends the game)"
		case solved:
			how = " (exact, by the solver: the length of its proof, not always the shortest)"
		case ms.Score.IsProven():
			how = " (proven by search)"
		}
		fmt.Fprintf(e.stdout, "%-10s %s\n", s.FormatMove(ms.Move), ms.Score.String()+how)
	}
	return nil
}
