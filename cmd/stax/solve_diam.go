package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"stax/ai"
	"stax/game"
	"stax/games/diam"
	"stax/games/diam/prove"
)

// diamSolveFlags are the flags of stax solve that apply to Diam.
type diamSolveFlags struct {
	pos        string
	checkpoint string
	every      time.Duration
	limit      time.Duration
	tableMiB   int64
	threads    int
	quiet      bool
	verify     int
	json       bool
}

// solveDiam proves or disproves that the side to move wins, then that it
// loses, checkpointing on the way, and prints what it reached.
func solveDiam(e *env, g *diam.Game, f diamSolveFlags) error {
	if f.every <= 0 || f.limit < 0 || f.tableMiB <= 0 {
		return &usageError{"--every and --table must be positive and --duration not negative"}
	}
	st := g.NewStart()
	if f.pos != "" {
		var err error
		if st, err = g.Parse(f.pos); err != nil {
			return err
		}
	}
	if st.Terminal() {
		if f.json {
			return writeJSON(e.stdout, diamSolveJSON{Spec: game.SpecOf(g).String(), Position: st.String(), ToMove: st.ToMove(),
				Moves: []diamMoveJSON{}, Survey: []surveyJSON{}, Outcome: st.Outcome().String()})
		}
		fmt.Fprintf(e.stdout, "no moves: %s\n", st.Outcome().Describe(g))
		return nil
	}
	bar := &solveLine{w: e.stderr, quiet: f.quiet, tty: isTerminal(e.stderr)}
	s, err := prove.New(g, prove.Options{
		TableBytes: f.tableMiB << 20,
		Workers:    f.threads,
		Evaluate:   ai.Evaluator(g).Evaluate,
		Progress:   bar.update,
	})
	if err != nil {
		return err
	}
	if f.checkpoint != "" {
		if err := loadCheckpoint(e, s, f.checkpoint); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.limit)
		defer cancel()
	}
	fmt.Fprintf(e.stderr, "proving %s in %s with a %d MiB table\n", st, game.SpecOf(g), s.TableBytes()>>20)
	var win, loss prove.Answer
	for _, goal := range []prove.Goal{prove.Win, prove.Loss} {
		a, err := proveWithCheckpoints(ctx, e, s, st, goal, f)
		bar.done()
		if err != nil {
			return err
		}
		if goal == prove.Win {
			win = a
			if a.Proven || !a.Disproven {
				break
			}
		} else {
			loss = a
		}
	}
	var verified *solveVerified
	if f.verify > 0 && (win.Proven || loss.Proven) {
		goal := prove.Win
		if loss.Proven {
			goal = prove.Loss
		}
		vctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		start := time.Now()
		stats, err := s.Verify(vctx, st, goal, f.verify-1)
		if err != nil {
			return err
		}
		verified = &solveVerified{stats: stats, elapsed: time.Since(start)}
	}
	if f.json {
		return writeJSON(e.stdout, diamSolveOf(g, s, st, win, loss, verified))
	}
	printDiamSolve(e.stdout, g, s, st, win, loss)
	if verified != nil {
		fmt.Fprintf(e.stdout, "proof checked with the rules alone in %s: %d positions, as they stand (no symmetry), every move of the losing side followed; %d of them, within %d plies of the end, settled by plain minimax\n",
			verified.elapsed.Round(time.Millisecond), verified.stats.Positions, verified.stats.Minimax, f.verify-1)
	}
	return nil
}

// solveVerified is the check of a proof by --verify.
type solveVerified struct {
	stats   prove.VerifyStats
	elapsed time.Duration
}

// diamSolveOf is the JSON form of what printDiamSolve prints.
func diamSolveOf(g *diam.Game, s *prove.Solver, st *diam.State, win, loss prove.Answer, v *solveVerified) diamSolveJSON {
	p := s.Progress()
	out := diamSolveJSON{Spec: game.SpecOf(g).String(), Position: st.String(), ToMove: st.ToMove(), Win: answerOf(win), Loss: answerOf(loss),
		Nodes: p.Nodes, Elapsed: p.Elapsed.Round(time.Millisecond).String(), Moves: []diamMoveJSON{}, Survey: []surveyJSON{}, Outcome: "*"}
	for _, m := range s.Moves(st) {
		out.Moves = append(out.Moves, diamMoveJSON{Move: st.FormatMove(m.Move), Wins: answerOf(m.Wins), Loses: answerOf(m.Loses)})
	}
	by := make([]surveyJSON, surveyDepth+1)
	for d := range by {
		by[d].Plies = d
	}
	for _, k := range s.Survey(st, surveyDepth) {
		t := &by[len(k.Line)]
		t.Classes++
		switch {
		case k.Win.Proven:
			t.Won++
		case k.Loss.Proven:
			t.Lost++
		case k.Win.Disproven:
			t.NoWin++
		}
	}
	out.Survey = by
	if v != nil {
		out.Verified = &v.stats.Positions
	}
	return out
}

// answerOf is the JSON form of a solver's answer.
func answerOf(a prove.Answer) answerJSON {
	out := answerJSON{Proven: a.Proven, Disproven: a.Disproven}
	switch {
	case a.Proven:
		out.Plies = a.Plies
	case !a.Disproven:
		out.PN, out.DN = a.PN, a.DN
	}
	return out
}

// proveWithCheckpoints runs the solver on one goal until it is settled or
// ctx is done, writing the checkpoint every f.every and at the end.
func proveWithCheckpoints(ctx context.Context, e *env, s *prove.Solver, st *diam.State, goal prove.Goal, f diamSolveFlags) (prove.Answer, error) {
	for {
		part, cancel := context.WithTimeout(ctx, f.every)
		a, err := s.Prove(part, st, goal)
		cancel()
		if err != nil {
			return a, err
		}
		if f.checkpoint != "" {
			if err := saveCheckpoint(s, f.checkpoint); err != nil {
				return a, err
			}
		}
		if a.Settled() || ctx.Err() != nil {
			return a, nil
		}
	}
}

// loadCheckpoint resumes from path if it exists.
func loadCheckpoint(e *env, s *prove.Solver, path string) error {
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(e.stderr, "no checkpoint at %s yet: starting afresh\n", path)
		return nil
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	if err := s.ReadCheckpoint(fh); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p := s.Progress()
	fmt.Fprintf(e.stderr, "resumed from %s: %d positions searched in %s, %d table entries\n",
		path, p.Nodes, p.Elapsed.Round(time.Second), p.Entries)
	return nil
}

// saveCheckpoint writes the checkpoint to a temporary file and renames it
// over path, so that a crash leaves the previous one intact.
func saveCheckpoint(s *prove.Solver, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := s.WriteCheckpoint(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the checkpoint: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the checkpoint: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// printDiamSolve prints the answers for the position and its moves.
func printDiamSolve(w io.Writer, g *diam.Game, s *prove.Solver, st *diam.State, win, loss prove.Answer) {
	p := s.Progress()
	fmt.Fprintf(w, "%s %s: %s\n", game.SpecOf(g), st, valueWords(win, loss, g.PlayerName(st.ToMove())))
	fmt.Fprintf(w, "searched %d positions in %s (%.0f/s); %d proofs and %d disproofs stored; table %d of %d entries\n",
		p.Nodes, p.Elapsed.Round(time.Second), float64(p.Nodes)/max(p.Elapsed.Seconds(), 1e-9),
		p.Proven, p.Disproven, p.Entries, s.TableBytes()/16)
	moves := s.Moves(st)
	sort.SliceStable(moves, func(i, j int) bool { return moveRank(moves[i]) < moveRank(moves[j]) })
	fmt.Fprintln(w, "moves:")
	for _, m := range moves {
		fmt.Fprintf(w, "  %-6s %s\n", st.FormatMove(m.Move), moveWords(m))
	}
	printSurvey(w, st, s.Survey(st, surveyDepth))
}

// surveyDepth is how many plies below the position the summary surveys.
const surveyDepth = 6

// printSurvey counts, by depth, the positions (one per symmetry class)
// whose value is proven, and lists the shallowest proven lines.
func printSurvey(w io.Writer, st *diam.State, known []prove.Known) {
	type tally struct{ classes, wins, losses, noWin int }
	var by [surveyDepth + 1]tally
	var lines []string
	for _, k := range known {
		t := &by[len(k.Line)]
		t.classes++
		switch {
		case k.Win.Proven:
			t.wins++
		case k.Loss.Proven:
			t.losses++
		case k.Win.Disproven:
			t.noWin++
		}
		if (k.Win.Proven || k.Loss.Proven) && len(lines) < 12 {
			c := st.Copy()
			var text []string
			for _, m := range k.Line {
				text = append(text, c.FormatMove(m))
				c.Apply(m)
			}
			verdict := "the side to move wins"
			if k.Loss.Proven {
				verdict = "the side to move loses"
			}
			lines = append(lines, fmt.Sprintf("  %s: %s (%s)", strings.Join(text, " "), verdict, c))
		}
	}
	fmt.Fprintln(w, "positions below, one per symmetry class: proven wins and losses for the side to move, and disproven wins")
	for d, t := range by {
		fmt.Fprintf(w, "  after %d plies: %d classes, %d won, %d lost, %d without a forced win\n", d, t.classes, t.wins, t.losses, t.noWin)
	}
	if len(lines) > 0 {
		fmt.Fprintln(w, "the shallowest proven lines:")
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
}

// valueWords describes what is known of a position from its two answers.
func valueWords(win, loss prove.Answer, player string) string {
	switch {
	case win.Proven:
		return fmt.Sprintf("%s to move wins (proven, in at most %s by the proof found)", player, plies(win.Plies))
	case loss.Proven:
		return fmt.Sprintf("%s to move loses (proven, within %s by the proof found)", player, plies(loss.Plies))
	case win.Disproven && loss.Disproven:
		return "neither side can force a win (both disproven; disproofs count repetition as a failure and are not certificates): a draw"
	case win.Disproven:
		return fmt.Sprintf("%s to move cannot force a win (disproven, not a certificate); whether it loses is open (pn %d, dn %d)", player, loss.PN, loss.DN)
	}
	return fmt.Sprintf("open: a win for %s has proof number %d and disproof number %d", player, win.PN, win.DN)
}

// moveWords describes what is known of a move.
func moveWords(m prove.MoveAnswer) string {
	switch {
	case m.Wins.Proven:
		return fmt.Sprintf("wins (proven, at most %s)", plies(m.Wins.Plies))
	case m.Loses.Proven:
		return fmt.Sprintf("loses (proven, within %s)", plies(m.Loses.Plies))
	}
	var parts []string
	for _, x := range []struct {
		what string
		a    prove.Answer
	}{{"win", m.Wins}, {"loss", m.Loses}} {
		switch {
		case x.a.Disproven:
			parts = append(parts, "no forced "+x.what)
		case x.a.PN != 0:
			parts = append(parts, fmt.Sprintf("%s: pn %d dn %d", x.what, x.a.PN, x.a.DN))
		}
	}
	return "open (" + strings.Join(parts, "; ") + ")"
}

// moveRank orders moves: proven wins (quickest first), open moves, proven
// losses (slowest first).
func moveRank(m prove.MoveAnswer) int {
	switch {
	case m.Wins.Proven:
		return m.Wins.Plies
	case m.Loses.Proven:
		return 1<<30 - m.Loses.Plies
	}
	return 1 << 20
}

// solveLine draws the solver's progress on one line of a terminal, or a
// line every minute into a file.
type solveLine struct {
	w     io.Writer
	quiet bool
	tty   bool
	last  time.Time
	drawn bool
}

func (b *solveLine) update(p prove.Progress) {
	if b.quiet || (!b.tty && time.Since(b.last) < time.Minute) {
		return
	}
	b.last = time.Now()
	rate := float64(p.Nodes) / max(p.Elapsed.Seconds(), 1e-9)
	line := fmt.Sprintf("%s  nodes %d (%.0f/s)  proven %d  disproven %d  table %d  line %d  root pn %s dn %s",
		p.Elapsed.Round(time.Second), p.Nodes, rate, p.Proven, p.Disproven, p.Entries, p.Depth, pnWords(p.RootPN), pnWords(p.RootDN))
	if b.tty {
		fmt.Fprintf(b.w, "\r%s\x1b[K", line)
		b.drawn = true
		return
	}
	fmt.Fprintln(b.w, line)
}

func (b *solveLine) done() {
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

func pnWords(n uint32) string {
	if n >= 1<<31-1 {
		return "inf"
	}
	return fmt.Sprint(n)
}

// plies writes a number of plies.
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}
