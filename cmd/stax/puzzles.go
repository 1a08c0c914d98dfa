package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"stax/ai/puzzlegen"
	"stax/game"
	"stax/game/record"
	"stax/games"
	"stax/games/diam"
	"stax/games/pisola"
	"stax/games/pogo"
	"stax/puzzle"
)

// runPuzzles runs stax puzzles: only its generate subcommand for now.
func runPuzzles(e *env, args []string) error {
	fs := newFlags(e, "puzzles")
	count := fs.Int("count", 0, "make `N` puzzles (default: 2000 for Pogo, 150 for a Diam variant, 50 for Pisola)")
	seed := fs.Uint64("seed", 0, "seed the self-played games with `N`, to make the same puzzles again (default: a random seed, printed)")
	maxGames := fs.Int("max-games", 100_000, "stop after `N` self-played games even if short of puzzles")
	out := fs.String("out", "", "write the puzzles to `FILE` (default: standard output)")
	quiet := fs.Bool("quiet", false, "no progress")
	records := fs.String("records", "", "also look at the positions of the games of this variant in `FILE`, game records (docs/records.md), before self-play")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || rest[0] != "generate" {
		return &usageError{"want a subcommand: generate"}
	}
	if len(rest) != 2 {
		return &usageError{"want one game spec, e.g. pogo, diam, diam(drop=any) or pisola"}
	}
	if *count < 0 || *maxGames <= 0 {
		return &usageError{"--count must not be negative and --max-games must be positive"}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["seed"] {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return fmt.Errorf("drawing a seed: %w", err)
		}
		*seed = binary.LittleEndian.Uint64(b[:])
	}
	gg, err := games.Load(rest[1])
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	opts := puzzlegen.Options{Seed: *seed, MaxGames: *maxGames}
	if *records != "" {
		if opts.Games, err = recordStates(*records, gg); err != nil {
			return err
		}
	}
	if !*quiet {
		opts.Progress = func(games, found int) {
			if games%100 == 0 {
				fmt.Fprintf(e.stderr, "%d games, %d puzzles, %s\n", games, found, time.Since(start).Round(time.Second))
			}
		}
	}
	var ps []puzzle.Puzzle
	switch g := gg.(type) {
	case *pogo.Game:
		opts.Targets = puzzlegen.PogoTargets(defaultCount(*count, 2000))
		tables := newTables(e.stderr)
		defer tables.Close()
		tb, err := tables.Wait(ctx, g.U())
		if err != nil {
			return fmt.Errorf("the solved table of %s: %w", game.SpecOf(g), err)
		}
		ps, err = puzzlegen.Pogo(ctx, g, tb, opts)
		if err != nil {
			return err
		}
	case *diam.Game:
		if g.Players() != 2 {
			return &usageError{"Diam puzzles are two-player: want diam or diam(drop=any)"}
		}
		opts.Targets = puzzlegen.DiamTargets(defaultCount(*count, 150))
		ps, err = puzzlegen.Diam(ctx, g, opts)
		if err != nil {
			return err
		}
	case *pisola.Game:
		opts.Targets = puzzlegen.PisolaTargets(defaultCount(*count, 50))
		ps, err = puzzlegen.Pisola(ctx, g, opts)
		if err != nil {
			return err
		}
	default:
		return &usageError{fmt.Sprintf("puzzles are made for Pogo, Pisola and two-player Diam, not %s", gg.Info().Title)}
	}
	// The command line that makes the same file again.
	again := fmt.Sprintf("stax puzzles generate %s --seed %d", game.SpecOf(gg), *seed)
	if set["count"] {
		again += fmt.Sprintf(" --count %d", *count)
	}
	if *records != "" {
		again += " --records " + filepath.ToSlash(*records)
	}
	if set["max-games"] {
		again += fmt.Sprintf(" --max-games %d", *maxGames)
	}
	if *out != "" {
		again += " --out " + filepath.ToSlash(*out)
	}
	notes := []string{"made by: " + again}
	notes = append(notes, "themes: "+themeCounts(ps))
	fmt.Fprintf(e.stderr, "%d puzzles in %s (%s); seed %d\n", len(ps), time.Since(start).Round(time.Second), themeCounts(ps), *seed)
	if *out == "" {
		return puzzle.Write(e.stdout, ps, notes...)
	}
	return writeFileAtomic(*out, func(f *os.File) error { return puzzle.Write(f, ps, notes...) })
}

// recordStates reads the game records of path and returns the positions
// of those of variant g, each game's in order.
func recordStates(path string, g game.Game) ([][]game.State, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := record.ParseAll(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	want := game.SpecOf(g).String()
	var out [][]game.State
	for i, r := range recs {
		h, err := r.Replay(games.All())
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", path, i+1, err)
		}
		if game.SpecOf(h.Game()).String() != want {
			continue
		}
		st := h.Start()
		states := []game.State{st.Clone()}
		for _, m := range h.Moves() {
			st.Apply(m)
			states = append(states, st.Clone())
		}
		out = append(out, states)
	}
	return out, nil
}

// defaultCount returns n, or def when n is 0.
func defaultCount(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// themeCounts writes the number of puzzles per theme, e.g.
// "win-in-1 300, win-in-2 500, dont-fall-for-it 120".
func themeCounts(ps []puzzle.Puzzle) string {
	counts := map[puzzle.Theme]int{}
	var order []puzzle.Theme
	for _, p := range ps {
		for _, t := range p.Themes {
			if counts[t] == 0 {
				order = append(order, t)
			}
			counts[t]++
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		ni, oki := order[i].Moves()
		nj, okj := order[j].Moves()
		if oki != okj {
			return oki
		}
		if oki {
			return ni < nj
		}
		return order[i] < order[j]
	})
	var parts []string
	for _, t := range order {
		parts = append(parts, fmt.Sprintf("%s %d", t, counts[t]))
	}
	return strings.Join(parts, ", ")
}

// writeFileAtomic writes path through a temporary file renamed over it, so
// that an interrupted run leaves the old file whole.
func writeFileAtomic(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
