package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"stax/engine"
	"stax/games"
)

// checkSpecs are the variants engine-check takes an engine through by
// default: every game, and Diam with four players and in teams.
var checkSpecs = []string{"pogo", "pisola", "pisola(size=8)", "diam", "diam(players=4)", "diam(players=4,teams=true)"}

func runEngineCheck(e *env, args []string) error {
	fs := newFlags(e, "engine-check")
	specs := fs.String("games", strings.Join(checkSpecs, ";"), "the variants to check, separated by semicolons")
	movetime := fs.Int("movetime", 50, "the movetime of each go, in milliseconds")
	plies := fs.Int("plies", 60, "the most plies of each game played")
	verbose := fs.Bool("verbose", false, "print every line sent and received")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"want the engine's command, quoted if it has arguments, e.g. stax engine-check './mybot --fast'"}
	}
	if *movetime < 1 || *plies < 1 {
		return &usageError{"--movetime and --plies must be positive"}
	}
	argv, err := engine.SplitCommand(rest[0])
	if err != nil {
		return &usageError{err.Error()}
	}
	cfg := engine.CheckConfig{
		Command: argv, Registry: games.All(), Specs: strings.Split(*specs, ";"),
		MoveTime: time.Duration(*movetime) * time.Millisecond, MaxPlies: *plies,
	}
	if *verbose {
		cfg.Log = e.stdout
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := engine.Check(ctx, cfg)
	if err != nil {
		return err
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	for _, v := range rep.Violations {
		fmt.Fprintf(e.stdout, "violation: %s\n", v)
	}
	fmt.Fprintf(e.stdout, "%d games played, %d violations\n", rep.Games, len(rep.Violations))
	if len(rep.Violations) > 0 {
		return fmt.Errorf("%s broke the protocol %d times", rest[0], len(rep.Violations))
	}
	return nil
}
