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

// moveEstimate is one move's verdict from search.
type moveEstimate struct {
	move  string
	score int    // for the player who moves, higher is better
	text  string // the verdict in words
}

// analyzeSearch estimates the verdict of every move by searching the
// position it leads to.
func analyzeSearch(e *env, g game.Game, s game.State, budget time.Duration) error {
	me := s.ToMove()
	var out []moveEstimate
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Apply(m)
		est := moveEstimate{move: s.FormatMove(m)}
		if c.Terminal() {
			sc := search.ProvenDraw
			switch c.Outcome().Results[me] {
			case game.Win:
				sc = search.WinIn(1)
			case game.Loss:
				sc = search.LossIn(1)
			}
			est.score, est.text = sc.Int(), sc.String()+" (exact: the move ends the game)"
			out = append(out, est)
			continue
		}
		ab := search.NewAlphaBeta(ai.Evaluator(g), 18, 1)
		res, err := ab.Play(context.Background(), search.Position{State: c, Prior: []uint64{s.Hash()}}, search.Limits{Time: budget}, nil)
		if err != nil {
			return err
		}
		// The score is the next player's: ours when we move again, its
		// negation in a two-player game, and with more players it is
		// reported as theirs.
		next := c.ToMove()
		sc := res.Score
		how := fmt.Sprintf(" (depth %d, estimate)", res.Depth)
		if sc.IsProven() {
			how = " (proven by search)"
		}
		switch {
		case next == me:
			if sc.Proven == game.Win || sc.Proven == game.Loss {
				sc.Plies++
			}
			est.score, est.text = sc.Int(), sc.String()+how
		case g.Players() == 2:
			sc = sc.Before()
			est.score, est.text = sc.Int(), sc.String()+how
		default:
			est.score = -sc.Int()
			est.text = fmt.Sprintf("for %s, to move next: %s%s", g.PlayerName(next), sc, how)
		}
		out = append(out, est)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	fmt.Fprintf(e.stdout, "%s: %s to move; verdicts are from %v of search per move: win N or loss N (plies), draw, or the evaluation's estimate\n",
		s, g.PlayerName(me), budget)
	for _, est := range out {
		fmt.Fprintf(e.stdout, "%-10s %s\n", est.move, est.text)
	}
	return nil
}
