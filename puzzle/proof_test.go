package puzzle_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"stax/ai"
	"stax/ai/aitest"
	"stax/game"
	"stax/games"
	"stax/games/diam"
	"stax/games/diam/prove"
	"stax/games/pogo"
	"stax/games/pogo/solve"
	"stax/puzzle"
	"stax/search"
)

// The tests of this file prove every built-in puzzle again with what
// settles each game exactly, independently of the searches that made the
// puzzles (package ai/puzzlegen, which they do not import): Pogo's with the
// solved table, Diam's with plain minimax over the rules alone
// (prove.Minimax, what the Diam solver's verify path settles the
// positions near the end with; every Diam puzzle ends within 5 plies, so
// the whole proof is minimax). Pisola has no proof: its best-move puzzles
// are searched again, as the docs state them.

// builtin returns the built-in puzzles of the game named name.
func builtin(t *testing.T, name string) []puzzle.Puzzle {
	t.Helper()
	all, err := puzzle.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var out []puzzle.Puzzle
	for _, p := range all {
		sp, err := game.ParseSpec(p.Spec)
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		if sp.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// TestBuiltinCheck replays every built-in puzzle through the rules, and
// checks the counts docs/puzzles.md promises.
func TestBuiltinCheck(t *testing.T) {
	all, err := puzzle.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	reg := games.All()
	for _, p := range all {
		if err := puzzle.Check(reg, p); err != nil {
			t.Error(err)
		}
	}
	if n := len(builtin(t, "pogo")); n < 2000 {
		t.Errorf("%d Pogo puzzles; want at least 2,000", n)
	}
	if n := len(builtin(t, "diam")); n < 200 {
		t.Errorf("%d Diam puzzles; want at least 200", n)
	}
}

// TestPogoPuzzlesProven proves every built-in Pogo puzzle with the solved
// table.
func TestPogoPuzzlesProven(t *testing.T) {
	ps := builtin(t, "pogo")
	tables := aitest.Tables(t)
	for _, p := range ps {
		gg, err := games.Load(p.Spec)
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		g := gg.(*pogo.Game)
		tb, err := tables.Table(g.U())
		if err != nil {
			t.Fatalf("puzzle %s needs the table of %s: %v", p.ID, p.Spec, err)
		}
		if err := provePogo(tb, g, p); err != nil {
			t.Error(err)
		}
	}
}

// provePogo checks p with tb: for win-in-N, the side to move wins in
// 2N-1 plies, each of its moves in the solution is its only winning move,
// each reply holds out longest, and the line ends in the win; for
// save-the-draw, the position is a draw and the solution's move is the
// only one that does not lose; a trap loses.
func provePogo(tb *solve.Table, g *pogo.Game, p puzzle.Puzzle) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("puzzle %s (%s): %s", p.ID, p.Position, fmt.Sprintf(format, args...))
	}
	st, err := g.Parse(p.Position)
	if err != nil {
		return fail("%v", err)
	}
	solver := st.ToMove()
	v := tb.Verdict(st)
	n, win := p.Themes[0].Moves()
	switch {
	case win && !strings.HasPrefix(string(p.Themes[0]), "win-in-"):
		return fail("theme %s is not Pogo's", p.Themes[0])
	case win && (v != solve.Verdict{Result: game.Win, Plies: 2*n - 1} || len(p.Solution) != 2*n-1):
		return fail("theme %s, solution of %d plies; the table says %s", p.Themes[0], len(p.Solution), v)
	case !win && p.Themes[0] != puzzle.SaveTheDraw:
		return fail("unknown main theme %s", p.Themes[0])
	case !win && (v.Result != game.Draw || len(p.Solution) != 1):
		return fail("save-the-draw in %d plies; the table says %s", len(p.Solution), v)
	}
	if (p.Trap != "") != slices.Contains(p.Themes, puzzle.DontFallForIt) {
		return fail("a trap without the theme %s, or the theme without a trap", puzzle.DontFallForIt)
	}
	if p.Trap != "" {
		m, err := st.ParseMove(p.Trap)
		if err != nil {
			return fail("trap: %v", err)
		}
		c := st.Copy()
		c.Apply(m)
		if tv := tb.Verdict(c).Next(); tv.Result != game.Loss {
			return fail("the trap %s does not lose: %s", p.Trap, tv)
		}
	}
	for i, text := range p.Solution {
		m, err := st.ParseMove(text)
		if err != nil {
			return fail("move %d: %v", i+1, err)
		}
		moves := tb.Moves(st)
		var mine solve.Verdict
		for _, mv := range moves {
			if mv.Move == m {
				mine = mv.Verdict
			}
		}
		for _, mv := range moves {
			if mv.Move == m {
				continue
			}
			switch {
			case i%2 == 0 && win && mv.Verdict.Result == game.Win:
				return fail("move %d: %s wins too (%s)", i+1, st.FormatMove(mv.Move), mv.Verdict)
			case i%2 == 0 && !win && mv.Verdict.Result != game.Loss:
				return fail("move %d: %s does not lose either (%s)", i+1, st.FormatMove(mv.Move), mv.Verdict)
			case i%2 == 1 && mv.Verdict.Better(mine):
				return fail("move %d: %s (%s) holds out longer than %s (%s)", i+1, st.FormatMove(mv.Move), mv.Verdict, text, mine)
			}
		}
		if i%2 == 0 && (win && mine.Result != game.Win || !win && mine.Result != game.Draw) {
			return fail("move %d: %s is %s", i+1, text, mine)
		}
		st.Apply(m)
	}
	if win && (!st.Terminal() || st.Outcome().Value(solver) != 1) {
		return fail("the line does not end in the solver's win: %s", st)
	}
	return nil
}

// TestDiamPuzzlesProven proves every built-in Diam puzzle by minimax with
// the rules alone, and has the solver's verify path check its win.
func TestDiamPuzzlesProven(t *testing.T) {
	for _, p := range builtin(t, "diam") {
		gg, err := games.Load(p.Spec)
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		g := gg.(*diam.Game)
		if err := proveDiam(g, p); err != nil {
			t.Error(err)
			continue
		}
		// The solver's verify path, as stax solve diam --verify 1 runs
		// it, checks the win as well: the solver's table only chooses
		// the winner's moves, every move of the loser is followed with
		// the rules. Each puzzle gets a fresh solver: a table filled by
		// other questions can hold disproofs that are wrong here (a
		// repetition seen on another line, as package solve warns), and
		// one such disproof was met.
		s, err := prove.New(g, prove.Options{TableBytes: 1 << 20, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := g.Parse(p.Position)
		if a, err := s.Prove(context.Background(), st, prove.Win); err != nil || !a.Proven {
			t.Errorf("puzzle %s: the solver does not prove the win: %+v, %v", p.ID, a, err)
			continue
		}
		if _, err := s.Verify(context.Background(), st, prove.Win, 0); err != nil {
			t.Errorf("puzzle %s: %v", p.ID, err)
		}
	}
}

// proveDiam checks a diam-in-N puzzle p by minimax: the side to move
// makes a diam within 2N-1 plies against every defence and not within
// 2N-3; each of its moves in the solution is the only one that forces the
// diam within the plies left; each reply puts it off longest; and the line
// ends in the solver's diam.
func proveDiam(g *diam.Game, p puzzle.Puzzle) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("puzzle %s %s (%s): %s", p.ID, p.Spec, p.Position, fmt.Sprintf(format, args...))
	}
	st, err := g.Parse(p.Position)
	if err != nil {
		return fail("%v", err)
	}
	n, ok := p.Themes[0].Moves()
	if !ok || p.Themes[0] != puzzle.DiamIn(n) || len(p.Solution) != 2*n-1 {
		return fail("main theme %s with a solution of %d plies; want diam-in-N and 2N-1 plies", p.Themes[0], len(p.Solution))
	}
	if p.Trap != "" {
		return fail("a trap in a Diam puzzle")
	}
	solver := st.ToMove()
	plies := 2*n - 1
	if prove.Minimax(st, plies) != 1 {
		return fail("minimax finds no forced diam within %d plies", plies)
	}
	if plies > 1 && prove.Minimax(st, plies-2) == 1 {
		return fail("minimax finds a forced diam within %d plies already", plies-2)
	}
	// wins reports whether the solver's move m, with left plies to go
	// including it, forces the diam within them.
	wins := func(m game.Move, left int) bool {
		st.Apply(m)
		defer st.Undo()
		if c, _, _, over := st.Diam(); over {
			return g.Owner(c) == solver
		}
		return left > 1 && prove.Minimax(st, left-1) == -1
	}
	for i, text := range p.Solution {
		left := plies - i
		m, err := st.ParseMove(text)
		if err != nil {
			return fail("move %d: %v", i+1, err)
		}
		if i%2 == 0 {
			for _, x := range st.Legal(nil) {
				if w := wins(x, left); w != (x == m) {
					return fail("move %d: %s forces the diam within %d plies: %v", i+1, st.FormatMove(x), left, w)
				}
			}
			st.Apply(m)
			continue
		}
		st.Apply(m)
		if _, _, _, over := st.Diam(); over {
			return fail("move %d: %s ends the game", i+1, text)
		}
		if left > 3 && prove.Minimax(st, left-3) == 1 {
			return fail("move %d: after %s the diam comes sooner than the line's", i+1, text)
		}
	}
	if c, _, _, over := st.Diam(); !over || g.Owner(c) != solver {
		return fail("the line does not end in the solver's diam: %s", st)
	}
	return nil
}

// pisolaDepth and pisolaMargin are what docs/puzzles.md states of every
// Pisola puzzle: its move is better than every other by at least
// pisolaMargin points in a search of every move to pisolaDepth plies.
const (
	pisolaDepth  = 7
	pisolaMargin = 200
)

// TestPisolaPuzzlesSearched searches every built-in Pisola puzzle again
// (five of them with -short) and checks the stated margin.
func TestPisolaPuzzlesSearched(t *testing.T) {
	ps := builtin(t, "pisola")
	if len(ps) == 0 {
		t.Fatal("no Pisola puzzles")
	}
	if testing.Short() {
		ps = ps[:min(5, len(ps))]
	}
	for _, p := range ps {
		gg, err := games.Load(p.Spec)
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		st, err := gg.ParseState(p.Position)
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		if p.Themes[0] != puzzle.BestMove || len(p.Solution) != 1 || p.Trap != "" {
			t.Errorf("puzzle %s: %s; want one best move", p.ID, p)
			continue
		}
		a, err := ai.Config{}.Analyze(context.Background(), search.Position{State: st}, search.AnalyzeOptions{Depth: pisolaDepth})
		if err != nil {
			t.Fatalf("puzzle %s: %v", p.ID, err)
		}
		best, second := a.Moves[0], a.Moves[1]
		if got := st.FormatMove(best.Move); got != p.Solution[0] || best.Score.Int()-second.Score.Int() < pisolaMargin {
			t.Errorf("puzzle %s (%s): the search to depth %d prefers %s (%s) to %s (%s); want %s by %d points",
				p.ID, p.Position, pisolaDepth, got, best.Score, st.FormatMove(second.Move), second.Score, p.Solution[0], pisolaMargin)
		}
	}
}

// TestProversCatch checks that the provers reject wrong puzzles: a
// solution move swapped for another, a defender's reply that gives up
// sooner (Pogo), a theme of the wrong length, a trap that does not lose.
func TestProversCatch(t *testing.T) {
	mutate := func(p puzzle.Puzzle, f func(*puzzle.Puzzle)) puzzle.Puzzle {
		p.Solution = slices.Clone(p.Solution)
		p.Themes = slices.Clone(p.Themes)
		f(&p)
		return p
	}
	t.Run("pogo", func(t *testing.T) {
		tables := aitest.Tables(t)
		tb, err := tables.Table(true)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := pogo.New(nil)
		var p puzzle.Puzzle
		for _, q := range builtin(t, "pogo") {
			if q.Themes[0] == puzzle.WinIn(3) && q.Spec == "pogo" {
				p = q
				break
			}
		}
		if p.ID == "" {
			t.Fatal("no win-in-3 Pogo puzzle")
		}
		if err := provePogo(tb, g, p); err != nil {
			t.Fatal(err)
		}
		st, _ := g.Parse(p.Position)
		var other string
		for _, m := range st.Legal(nil) {
			if s := st.FormatMove(m); s != p.Solution[0] {
				other = s
				break
			}
		}
		// sooner is a reply that gives up sooner than the solution's.
		var sooner string
		c := st.Copy()
		m, _ := c.ParseMove(p.Solution[0])
		c.Apply(m)
		for _, r := range tb.Moves(c) {
			if r.Verdict.Result == game.Loss && r.Verdict.Plies < 4 {
				sooner = c.FormatMove(r.Move)
			}
		}
		if sooner == "" {
			t.Fatalf("puzzle %s: no reply that loses sooner", p.ID)
		}
		for _, bad := range []puzzle.Puzzle{
			mutate(p, func(q *puzzle.Puzzle) { q.Solution[0] = other }),
			mutate(p, func(q *puzzle.Puzzle) { q.Solution[1] = sooner }),
			mutate(p, func(q *puzzle.Puzzle) { q.Themes[0] = puzzle.WinIn(2) }),
			mutate(p, func(q *puzzle.Puzzle) { q.Trap = other }),
		} {
			if err := provePogo(tb, g, bad); err == nil {
				t.Errorf("provePogo accepts %s", bad)
			}
		}
	})
	t.Run("diam", func(t *testing.T) {
		var p puzzle.Puzzle
		for _, q := range builtin(t, "diam") {
			if q.Themes[0] == puzzle.DiamIn(2) {
				p = q
				break
			}
		}
		if p.ID == "" {
			t.Fatal("no diam-in-2 puzzle")
		}
		gg, err := games.Load(p.Spec)
		if err != nil {
			t.Fatal(err)
		}
		g := gg.(*diam.Game)
		if err := proveDiam(g, p); err != nil {
			t.Fatal(err)
		}
		st, _ := g.Parse(p.Position)
		var other string
		for _, m := range st.Legal(nil) {
			if s := st.FormatMove(m); s != p.Solution[0] {
				other = s
				break
			}
		}
		for _, bad := range []puzzle.Puzzle{
			mutate(p, func(q *puzzle.Puzzle) { q.Solution[0] = other }),
			mutate(p, func(q *puzzle.Puzzle) { q.Themes[0] = puzzle.DiamIn(3) }),
			mutate(p, func(q *puzzle.Puzzle) { q.Trap = other }),
		} {
			if err := proveDiam(g, bad); err == nil {
				t.Errorf("proveDiam accepts %s", bad)
			}
		}
	})
}
