package main

import (
	"context"
	"flag"
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
	"stax/games/pogo/solve"
)

func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve")
	out := fs.String("out", "", "Pogo: write the table to `FILE` (default: the cache, where the perfect level finds it)")
	threads := fs.Int("threads", 0, "the threads solving (default: one per CPU)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	reach := fs.Bool("reachable", false, "Pogo: also count the positions reachable from the start (takes about as long again)")
	var df diamSolveFlags
	fs.StringVar(&df.pos, "pos", "", "Diam: the position to prove (default: the start)")
	fs.StringVar(&df.checkpoint, "checkpoint", "", "Diam: resume from `FILE` if it exists, and save the search there as it goes")
	fs.DurationVar(&df.every, "every", 10*time.Minute, "Diam: how often to save the checkpoint")
	fs.DurationVar(&df.limit, "duration", 0, "Diam: stop after this long (default: when settled, or on interrupt)")
	fs.Int64Var(&df.tableMiB, "table", 1024, "Diam: the transposition table's size in `MiB`")
	fs.IntVar(&df.verify, "verify", 0, "Diam: check a proof found with the rules alone, leaving to plain minimax the positions within `N`-1 plies of the end (0: no check)")
	alias(fs, "workers", "threads")
	alias(fs, "time", "duration")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"want one game spec, e.g. stax solve pogo, stax solve pogo(u=false) or stax solve diam"}
	}
	gg, err := games.Load(rest[0])
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[canonical(fs, f.Name)] = true })
	if dg, ok := gg.(*diam.Game); ok {
		for _, name := range []string{"out", "reachable"} {
			if set[name] {
				return &usageError{fmt.Sprintf("--%s applies to Pogo only", name)}
			}
		}
		df.threads, df.quiet, df.json = *threads, *quiet, *asJSON
		return solveDiam(e, dg, df)
	}
	for _, name := range []string{"pos", "checkpoint", "every", "duration", "table", "verify"} {
		if set[name] {
			return &usageError{fmt.Sprintf("--%s applies to Diam only", name)}
		}
	}
	g, err := pogoGame(gg)
	if err != nil {
		return err
	}
	path := *out
	if path == "" {
		dir, err := tablesDir()
		if err != nil {
			return err
		}
		path = ai.NewTables(ai.TablesConfig{Dir: dir}).Path(g.U())
	}
	bar := &progressBar{w: e.stderr, quiet: *quiet}
	start := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	t, err := solve.Solve(ctx, solve.Options{U: g.U(), Workers: *threads, Progress: bar.update})
	bar.done()
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := t.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "solved in %.1fs; table written to %s\n", elapsed.Seconds(), path)
	var r *solve.Reach
	if *reach {
		rr := t.Reachable(g.NewStart())
		r = &rr
	}
	if *asJSON {
		return writeJSON(e.stdout, pogoSolveOf(g, t, path, elapsed, r))
	}
	printStats(e.stdout, g, t)
	if r != nil {
		pct := func(n int64) float64 { return 100 * float64(n) / float64(r.Classes) }
		fmt.Fprintf(e.stdout, "reachable from the start: %d positions up to symmetry and colour swap: %.2f%% wins, %.2f%% losses, %.2f%% draws for the side to move\n",
			r.Classes, pct(r.Wins), pct(r.Losses), pct(r.Draws))
	}
	return nil
}

// pogoSolveOf is the JSON form of what printStats prints.
func pogoSolveOf(g *pogo.Game, t *solve.Table, path string, elapsed time.Duration, r *solve.Reach) pogoSolveJSON {
	st := t.Stats()
	s := g.NewStart()
	out := pogoSolveJSON{Spec: game.SpecOf(g).String(), Table: path, Elapsed: elapsed.Round(time.Millisecond).String(),
		Positions: st.Positions, Classes: int64(t.Positions()), Wins: st.Wins, Losses: st.Losses, Draws: st.Draws, Unreachable: st.Unreachable,
		LongestWin: st.LongestWin, LongestWinAt: st.LongestWinAt, Start: s.String(), Verdict: t.Verdict(s).String(), Moves: []pogoMoveJSON{}}
	for _, m := range t.Moves(s) {
		out.Moves = append(out.Moves, pogoMoveJSON{Move: s.FormatMove(m.Move), Verdict: m.Verdict.String()})
	}
	if r != nil {
		out.Reachable = &pogoReachJSON{Classes: r.Classes, Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}
	}
	return out
}

// pogoGame checks that a game that is not Diam is Pogo.
func pogoGame(gg game.Game) (*pogo.Game, error) {
	g, ok := gg.(*pogo.Game)
	if !ok {
		return nil, fmt.Errorf("only Pogo and two-player Diam are solved; %s is searched instead (see stax analyze)", gg.Info().Title)
	}
	return g, nil
}

// printStats prints what the table says about every arrangement and the
// start.
func printStats(w io.Writer, g *pogo.Game, t *solve.Table) {
	st := t.Stats()
	pct := func(n int64) string { return fmt.Sprintf("%12d  %6.2f%%", n, 100*float64(n)/float64(st.Positions)) }
	fmt.Fprintf(w, "pogo(u=%v): %d arrangements with White to move (%d up to symmetry)\n", g.U(), st.Positions, t.Positions())
	fmt.Fprintf(w, "  wins for the side to move   %s\n", pct(st.Wins))
	fmt.Fprintf(w, "  losses                      %s\n", pct(st.Losses))
	fmt.Fprintf(w, "  draws                       %s\n", pct(st.Draws))
	fmt.Fprintf(w, "  unreachable                 %s  (the side to move already tops every stack)\n", pct(st.Unreachable))
	fmt.Fprintf(w, "  longest win: %d plies, e.g. %s\n", st.LongestWin, st.LongestWinAt)
	s := g.NewStart()
	fmt.Fprintf(w, "start %s: %s for %s\n", s, t.Verdict(s), g.PlayerName(s.ToMove()))
	var parts []string
	for _, m := range t.Moves(s) {
		parts = append(parts, fmt.Sprintf("%s %s", s.FormatMove(m.Move), m.Verdict))
	}
	fmt.Fprintf(w, "first moves: %s\n", strings.Join(parts, ", "))
}

// progressBar draws a one-line progress bar of a solve on a terminal.
type progressBar struct {
	w     io.Writer
	quiet bool
	last  time.Time
	drawn bool
}

func (b *progressBar) update(p solve.Progress) {
	if b.quiet || (time.Since(b.last) < 100*time.Millisecond && p.Done != p.Total) {
		return
	}
	b.last = time.Now()
	frac := 0.0
	if p.Total > 0 {
		frac = float64(p.Done) / float64(p.Total)
	}
	const width = 30
	n := int(frac * width)
	label := "counting moves"
	if p.Phase == "retrograde" {
		label = fmt.Sprintf("decided, depth %-3d", p.Depth)
	}
	fmt.Fprintf(b.w, "\r[%s%s] %5.1f%% %s", strings.Repeat("#", n), strings.Repeat(".", width-n), 100*frac, label)
	b.drawn = true
}

func (b *progressBar) done() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}
