package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"stax/ai"
	"stax/engine"
	"stax/games"
)

// engineConfig is the configuration of the built-in engine: every game,
// the ai levels of levels and the random and greedy baselines.
func engineConfig(levels ai.Config, level string) engine.Config {
	return engine.Config{
		Name:       "stax",
		Author:     "the stax developers",
		Registry:   games.All(),
		NewPlayer:  levels.New,
		NewSeeded:  levels.NewSeeded,
		Levels:     levels.Levels,
		Extra:      []string{"random", "greedy"},
		Level:      level,
		MaxThreads: runtime.NumCPU(),
		Prepare:    levels.Prepare,
	}
}

func runEngine(e *env, args []string) error {
	fs := newFlags(e, "engine")
	level := fs.String("level", "medium", "the level played until setoption name level changes it")
	seed := fs.Uint64("seed", 0, "seed the players' randomness, for reproducible sessions, as setoption name seed does (0: random)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return &usageError{"stax engine takes no arguments; it reads protocol commands from standard input"}
	}
	tables := newTables(e.stderr)
	defer tables.Close()
	levels := engine.NewServer(engineConfig(ai.Config{Tables: tables}, *level)).Levels()
	i := slices.IndexFunc(levels, func(l string) bool { return strings.EqualFold(l, *level) })
	if i < 0 {
		return &usageError{fmt.Sprintf("level %q: want one of %s", *level, strings.Join(levels, ", "))}
	}
	srv := engine.NewServer(engineConfig(ai.Config{Tables: tables}, levels[i]))
	srv.SetSeed(*seed)
	return srv.Run(context.Background(), e.stdin, e.stdout)
}
