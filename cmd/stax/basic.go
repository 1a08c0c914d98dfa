package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"stax/game"
	"stax/games"
)

// loadPosition loads a variant and a position of it: the start, or the
// position string pos.
func loadPosition(spec, pos string) (game.Game, game.State, error) {
	g, err := games.Load(spec)
	if err != nil {
		return nil, nil, err
	}
	if pos == "" || pos == "start" || pos == "startpos" {
		return g, g.Start(), nil
	}
	s, err := g.ParseState(pos)
	if err != nil {
		return nil, nil, err
	}
	return g, s, nil
}

func runGames(e *env, args []string) error {
	fs := newFlags(e, "games")
	asJSON := fs.Bool("json", false, "print the games as JSON")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q", rest[0])}
	}
	if *asJSON {
		return writeJSON(e.stdout, gamesJSON())
	}
	for _, info := range games.All() {
		fmt.Fprintf(e.stdout, "%s — %s\n  %s\n", info.Name, info.Title, info.Summary)
		g, err := info.Variant(nil)
		if err == nil {
			fmt.Fprintf(e.stdout, "  start: %s\n", g.Start())
		}
		if len(info.Options) > 0 {
			fmt.Fprintln(e.stdout, "  options:")
		}
		for _, o := range info.Options {
			fmt.Fprintf(e.stdout, "    %-9s default %-6s %s (%s)\n", o.Key, o.Default, o.Doc, o.Expected())
		}
	}
	return nil
}

func runMoves(e *env, args []string) error {
	fs := newFlags(e, "moves")
	pos := fs.String("pos", "", "the position string (default: the start)")
	asJSON := fs.Bool("json", false, "print the moves as JSON")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"want one game spec, e.g. stax moves pogo"}
	}
	g, s, err := loadPosition(rest[0], *pos)
	if err != nil {
		return err
	}
	moves := s.Legal(nil)
	if *asJSON {
		out := movesJSON{Spec: game.SpecOf(g).String(), Position: s.String(), ToMove: s.ToMove(), Moves: []string{}, Outcome: s.Outcome().String()}
		if !s.Terminal() {
			for _, m := range moves {
				out.Moves = append(out.Moves, s.FormatMove(m))
			}
		}
		return writeJSON(e.stdout, out)
	}
	if s.Terminal() {
		fmt.Fprintf(e.stdout, "no moves: %s\n", s.Outcome().Describe(s.Game()))
		return nil
	}
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = s.FormatMove(m)
	}
	fmt.Fprintln(e.stdout, strings.Join(out, " "))
	fmt.Fprintf(e.stderr, "%d moves for %s\n", len(moves), s.Game().PlayerName(s.ToMove()))
	return nil
}

func runPerft(e *env, args []string) error {
	fs := newFlags(e, "perft")
	pos := fs.String("pos", "", "the position string (default: the start)")
	divide := fs.Bool("divide", false, "also print the count below each root move at the last depth")
	asJSON := fs.Bool("json", false, "print the counts as JSON")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 2 {
		return &usageError{"want a game spec and a depth, e.g. stax perft pogo 6"}
	}
	depth, err := strconv.Atoi(rest[1])
	if err != nil || depth < 1 || depth > 30 {
		return &usageError{fmt.Sprintf("depth %q: want an integer from 1 to 30", rest[1])}
	}
	g, s, err := loadPosition(rest[0], *pos)
	if err != nil {
		return err
	}
	if *asJSON {
		out := perftJSON{Spec: game.SpecOf(g).String(), Position: s.String(), Depths: []perftDepth{}}
		for d := 1; d <= depth; d++ {
			out.Depths = append(out.Depths, perftDepth{Depth: d, Leaves: game.Perft(s, d)})
		}
		if *divide {
			for _, d := range game.Divide(s, depth) {
				out.Divide = append(out.Divide, perftMove{Move: d.Move, Leaves: d.Nodes})
			}
		}
		return writeJSON(e.stdout, out)
	}
	for d := 1; d <= depth; d++ {
		start := time.Now()
		n := game.Perft(s, d)
		el := time.Since(start)
		fmt.Fprintf(e.stdout, "perft %d %d\n", d, n)
		if el > 100*time.Millisecond {
			fmt.Fprintf(e.stderr, "  %.2fs, %.1f M leaves/s\n", el.Seconds(), float64(n)/el.Seconds()/1e6)
		}
	}
	if *divide {
		var total uint64
		for _, d := range game.Divide(s, depth) {
			fmt.Fprintf(e.stdout, "%s %d\n", d.Move, d.Nodes)
			total += d.Nodes
		}
		fmt.Fprintf(e.stdout, "moves %d total %d\n", len(s.Legal(nil)), total)
	}
	return nil
}
