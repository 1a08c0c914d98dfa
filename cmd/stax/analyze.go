package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"stax/ai"
	"stax/game"
	"stax/games"
	"stax/games/diam"
	"stax/games/pogo"
	"stax/search"
)

func runAnalyze(e *env, args []string) error {
	fs := newFlags(e, "analyze")
	pos := fs.String("pos", "", "the position string (default: the start)")
	load := fs.String("load", "", "review the game of a record `FILE`: every move with its mark and the better moves")
	recordNo := fs.Int("record", 0, "with --load, the record `N` to review in a file of several (from 1)")
	depth := fs.Int("depth", 0, "search to this depth instead of for a time (the same verdicts on every machine)")
	asJSON := fs.Bool("json", false, "print the verdicts, or the review, as JSON")
	budget := fs.Duration("time", 0, "search time per move, for games other than Pogo (default: 300ms, less when there are many moves, 15s in all at most); with --load, per position (default 300ms)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *budget < 0 || *depth < 0 {
		return &usageError{"--time and --depth must be positive"}
	}
	if *load != "" {
		if len(rest) > 0 || *pos != "" {
			return &usageError{"--load takes the game from the record; give no spec and no --pos with it"}
		}
		return reviewFile(e, *load, *recordNo, search.ReviewOptions{Time: *budget, Depth: *depth}, *asJSON)
	}
	if len(rest) != 1 {
		return &usageError{"want one game spec, e.g. stax analyze pogo --pos 'bb,bb,bb/-,-,-/ww,ww,ww w', or --load FILE"}
	}
	g, s, err := loadPosition(rest[0], *pos)
	if err != nil {
		return err
	}
	if s.Terminal() {
		if *asJSON {
			return writeJSON(e.stdout, analysisOf(g, s, search.Analysis{Exact: true}))
		}
		fmt.Fprintf(e.stdout, "no moves: %s\n", s.Outcome().Describe(g))
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, closeTables, err := analysisConfig(ctx, e, g)
	if err != nil {
		return err
	}
	defer closeTables()
	if *budget == 0 && *depth == 0 {
		*budget = min(300*time.Millisecond, 15*time.Second/time.Duration(len(s.Legal(nil)))).Round(time.Millisecond)
	}
	moves := len(s.Legal(nil))
	a, err := cfg.Analyze(ctx, search.Position{State: s}, search.AnalyzeOptions{Time: *budget * time.Duration(moves), Depth: *depth, Prove: *depth == 0})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, analysisOf(g, s, a))
	}
	printAnalysis(e.stdout, g, s, a, *budget, *depth)
	return nil
}

// analysisConfig returns the AI configuration of an analysis of g: for
// Pogo, with its solved table, waited for (built first when missing).
// The returned function releases the tables.
func analysisConfig(ctx context.Context, e *env, g game.Game) (ai.Config, func(), error) {
	pg, ok := g.(*pogo.Game)
	if !ok {
		return ai.Config{}, func() {}, nil
	}
	tables := newTables(e.stderr)
	if _, err := tables.Wait(ctx, pg.U()); err != nil {
		tables.Close()
		return ai.Config{}, nil, err
	}
	return ai.Config{Tables: tables}, tables.Close, nil
}

// printAnalysis writes the verdict of every move of s, best first.
func printAnalysis(w io.Writer, g game.Game, s game.State, a search.Analysis, budget time.Duration, depth int) {
	mover := g.PlayerName(s.ToMove())
	if a.Exact {
		fmt.Fprintf(w, "%s: %s for %s (exact, from the table)\n", s, a.Best().Score, mover)
		for _, v := range a.Moves {
			fmt.Fprintf(w, "%-8s %s\n", s.FormatMove(v.Move), v.Score)
		}
		return
	}
	what := fmt.Sprintf("%v of search per move", budget)
	if depth > 0 {
		what = fmt.Sprintf("a search to depth %d", depth)
	} else if _, ok := g.(*diam.Game); ok && g.Players() == 2 {
		what = fmt.Sprintf("%v of proof-number solving and %v of search per move", budget/2, budget/2)
	}
	fmt.Fprintf(w, "%s: %s to move; verdicts for %s are from %s: win N or loss N (plies), draw, or the evaluation's estimate\n",
		s, mover, mover, what)
	for _, v := range a.Moves {
		how := fmt.Sprintf(" (depth %d, estimate)", v.Depth)
		switch v.Source {
		case search.FromEnd:
			how = " (exact: the move ends the game)"
		case search.FromSolver:
			how = " (exact, by the solver: the length of its proof, not always the shortest)"
		case search.FromSearchProof:
			how = " (proven by search)"
		}
		fmt.Fprintf(w, "%-10s %s\n", s.FormatMove(v.Move), v.Score.String()+how)
	}
}

// reviewFile reviews the game of a record file and prints it.
func reviewFile(e *env, file string, n int, opt search.ReviewOptions, asJSON bool) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	rec, err := pickRecord(file, string(data), n)
	if err != nil {
		return err
	}
	h, err := rec.Replay(games.All())
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, closeTables, err := analysisConfig(ctx, e, h.Game())
	if err != nil {
		return err
	}
	defer closeTables()
	r, err := cfg.Review(ctx, h, opt, nil)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, reviewOf(h, describeRecord(rec), r))
	}
	printReview(e.stdout, h, describeRecord(rec), r, opt)
	return nil
}

// printReview writes a review like a backgammon program's game analysis:
// each move with its verdict, its mark, and the better moves.
func printReview(w io.Writer, h *game.History, title string, r search.Review, opt search.ReviewOptions) {
	g := h.Game()
	fmt.Fprintf(w, "Review of %s\n", title)
	if r.Exact {
		fmt.Fprintln(w, "Verdicts are exact, from the solved table: win N or loss N (plies) or draw, for the player who moves.")
		fmt.Fprintln(w, "A move that turns a win into a draw, or a draw into a loss, is a mistake (?); a win into a loss, a blunder (??).")
	} else {
		what := fmt.Sprintf("%v of search per position", cmp.Or(opt.Time, 300*time.Millisecond))
		if opt.Depth > 0 {
			what = fmt.Sprintf("a search to depth %d", opt.Depth)
		}
		th := r.Thresholds
		fmt.Fprintf(w, "Verdicts are from %s: the evaluation for the player who moves (depth), or win N, loss N, draw when proven.\n", what)
		fmt.Fprintf(w, "Marks by the drop from the best move: inaccuracy (?!) from %d, mistake (?) from %d, blunder (??) from %d points; losing a proven win, or into a proven loss, is a mistake or a blunder.\n",
			th.Inaccuracy, th.Mistake, th.Blunder)
	}
	s := h.Start()
	width := 0
	for p := 0; p < g.Players(); p++ {
		width = max(width, len(g.PlayerName(p)))
	}
	for _, m := range r.Moves {
		label := ""
		if m.Ply%g.Players() == 0 {
			label = fmt.Sprintf("%d.", m.Ply/g.Players()+1)
		}
		line := fmt.Sprintf("%4s %-*s %-10s %-16s", label, width, g.PlayerName(m.Player), s.FormatMove(m.Move), m.Played.Describe())
		if m.Mark != search.Good {
			line += fmt.Sprintf(" %-2s %s: best %s", m.Mark.Symbol(), m.Mark, m.Best.Describe())
			if len(m.Better) > 0 {
				line += "; better: " + m.BetterText(s)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		s.Apply(m.Move)
	}
	if o := h.Outcome(); o.Over() {
		fmt.Fprintf(w, "Result: %s\n", o.Describe(g))
	}
	for p := 0; p < g.Players(); p++ {
		n := r.Counts(p)
		fmt.Fprintf(w, "%s: %s, %s, %s\n", g.PlayerName(p), count(n[search.Inaccuracy], "inaccuracy", "inaccuracies"),
			count(n[search.Mistake], "mistake", "mistakes"), count(n[search.Blunder], "blunder", "blunders"))
	}
}

// count writes n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
