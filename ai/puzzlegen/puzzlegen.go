// Package puzzlegen makes puzzles (package puzzle) from the positions of
// self-played games and of games given by the caller: Pogo's from the
// solved table, two-player Diam's found by the Diam solver, Pisola's best
// moves by search.
//
// A Pogo puzzle's side to move wins by force (win-in-N, N of its moves) and
// every one of its moves in the solution is its only winning move, or it
// draws and every move but one loses (save-the-draw); the defender's
// replies are those that hold out longest. When the move a one-ply look at
// the evaluation prefers loses, the puzzle also has the theme
// dont-fall-for-it and names that move as its trap.
//
// A Diam puzzle's side to move makes a diam by force within N of its moves
// (diam-in-N), N being the least such number; each of its moves in the
// solution is the only one that forces the diam that soon, and the
// defender's replies put it off longest. The Diam solver finds the
// positions won by force; a bounded search of the generator's own finds
// the shortest win and checks its line. A Diam puzzle does not claim that
// no other move wins more slowly: in Diam a forced diam can nearly always
// also be forced by a slower move (the solver proved such a second win in
// 29 of 30 positions of a sample), so that claim would leave almost no
// puzzles; as in chess's mate-in-N puzzles, the fastest win is the answer.
//
// A Pisola puzzle (best-move) is a position just after a mistake of the
// opponent's in which one move is better than every other by a wide
// margin of a deep search; there is no proof that it wins.
//
// Generation is reproducible: the same options and seed give the same
// puzzles. The sets the site serves are proven again, independently of
// this package's searches, by the tests of package puzzle: Pogo's with the
// solved table, Diam's by plain minimax with the rules alone
// (prove.Minimax, the Diam solver's verify path); Pisola's are searched
// again.
package puzzlegen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"stax/ai"
	"stax/game"
	"stax/puzzle"
	"stax/search"
)

// Options say how many puzzles to make and how to find them.
type Options struct {
	// Targets is the number of puzzles wanted per main theme; generation
	// stops when every target is met, or after MaxGames games.
	Targets map[puzzle.Theme]int
	// MaxGames bounds the self-played games (0: 100,000).
	MaxGames int
	// Seed seeds the choice of players and their moves.
	Seed uint64
	// Levels are the computer levels that play the games, two drawn at
	// random for each game (the default is per game: weak and varied
	// players reach the positions where a win is there to be found, and
	// are quick).
	Levels []string
	// Games are positions to look at before any self-play, each a game's
	// positions in order (e.g. the site's stored games).
	Games [][]game.State
	// Progress, when set, is called after each game with the number of
	// games played and the puzzles found so far.
	Progress func(games, puzzles int)
}

// finder looks at one position and returns the puzzle it makes, if any.
type finder interface {
	// find is given the position before st in its game too (nil at the
	// start of a game).
	find(prev, st game.State) (puzzle.Puzzle, bool)
	// key returns a key equal for the positions that are the same
	// puzzle: images of each other under the board's symmetries and the
	// exchange of the players' colours.
	key(st game.State) string
}

// generate plays games of g and collects the puzzles f finds, one per
// position up to symmetry, until the targets are met.
func generate(ctx context.Context, g game.Game, f finder, opts Options) ([]puzzle.Puzzle, error) {
	if len(opts.Targets) == 0 {
		return nil, errors.New("puzzlegen: no targets: want a number of puzzles for at least one theme")
	}
	maxGames := opts.MaxGames
	if maxGames <= 0 {
		maxGames = 100_000
	}
	levels := opts.Levels
	rng := rand.New(rand.NewPCG(opts.Seed, 0x7a221e))
	c := &collector{f: f, targets: opts.Targets, have: map[puzzle.Theme]int{}, seen: map[string]bool{}}
	for _, states := range opts.Games {
		var prev game.State
		for _, st := range states {
			c.look(prev, st)
			prev = st
		}
	}
	for n := 1; n <= maxGames && !c.full(); n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var players [2]search.Player
		for i := range players {
			p, err := ai.NewSeeded(g, levels[rng.IntN(len(levels))], rng.Uint64())
			if err != nil {
				return nil, fmt.Errorf("puzzlegen: %w", err)
			}
			players[i] = p
		}
		if err := selfPlay(ctx, g, players, c.look); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(n, len(c.out))
		}
	}
	sort.Slice(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		if a.Themes[0] != b.Themes[0] {
			return themeLess(a.Themes[0], b.Themes[0])
		}
		return a.ID < b.ID
	})
	return c.out, nil
}

// themeLess orders themes: forced wins by length, then the others by name.
func themeLess(a, b puzzle.Theme) bool {
	na, oka := a.Moves()
	nb, okb := b.Moves()
	switch {
	case oka && okb && na != nb:
		return na < nb
	case oka != okb:
		return oka
	}
	return a < b
}

// collector keeps the puzzles found, at most the target of each theme.
type collector struct {
	f       finder
	targets map[puzzle.Theme]int
	have    map[puzzle.Theme]int
	seen    map[string]bool
	out     []puzzle.Puzzle
}

func (c *collector) full() bool {
	for t, n := range c.targets {
		if c.have[t] < n {
			return false
		}
	}
	return true
}

func (c *collector) look(prev, st game.State) {
	if st.Terminal() {
		return
	}
	k := c.f.key(st)
	if c.seen[k] {
		return
	}
	p, ok := c.f.find(prev, st)
	if !ok {
		return
	}
	c.seen[k] = true
	main := p.Themes[0]
	if c.have[main] >= c.targets[main] {
		return
	}
	c.have[main]++
	c.out = append(c.out, p)
}

// selfPlay plays one game of g between players from its start, calling
// visit with the position before the last move (nil at first) and each
// position before its move is asked for.
func selfPlay(ctx context.Context, g game.Game, players [2]search.Player, visit func(prev, st game.State)) error {
	h := game.NewHistory(g, g.Start())
	var prev game.State
	for !h.Over() {
		visit(prev, h.State())
		prev = h.State().Clone()
		res, err := search.Ask(ctx, players[h.State().ToMove()], search.PositionOf(h), search.Limits{}, nil)
		if err != nil {
			return fmt.Errorf("puzzlegen: self-play: %w", err)
		}
		if err := h.PlayMove(res.Move); err != nil {
			return fmt.Errorf("puzzlegen: self-play: %w", err)
		}
	}
	return nil
}

// natural returns the move a one-ply look with ev prefers in st: an
// immediate win if there is one, else the move after which ev scores the
// position best for the mover, the first in st's order among equals.
func natural(st game.State, ev search.Evaluator) game.Move {
	me := st.ToMove()
	best, bestScore := game.NoMove, 0
	for _, m := range st.Legal(nil) {
		c := st.Clone()
		c.Apply(m)
		var score int
		if c.Terminal() {
			score = c.Outcome().Value(me) * search.WinScore
		} else {
			score = ev.Evaluate(c, me)
		}
		if best == game.NoMove || score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// formatLine writes the moves of a line from st in the game's notation.
func formatLine(st game.State, line []game.Move) []string {
	c := st.Clone()
	out := make([]string, len(line))
	for i, m := range line {
		out[i] = c.FormatMove(m)
		c.Apply(m)
	}
	return out
}

// newPuzzle returns the puzzle of g from st with its ID.
func newPuzzle(g game.Game, st game.State, line []game.Move, rating int, trap game.Move, themes ...puzzle.Theme) puzzle.Puzzle {
	p := puzzle.Puzzle{Spec: game.SpecOf(g).String(), Position: st.String(), Solution: formatLine(st, line),
		Themes: themes, Rating: rating}
	if trap != game.NoMove {
		p.Trap = st.FormatMove(trap)
	}
	p.ID = puzzle.NewID(p.Spec, p.Position, p.Solution)
	return p
}
