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

// checkSpecs are the variants engine-check takes an engine through when
// none is given: every game, and Diam with four players and in teams.
var checkSpecs = []string{"pogo", "pisola", "pisola(size=8)", "diam", "diam(players=4)", "diam(players=4,teams=true)"}

func runEngineCheck(e *env, args []string) error {
	fs := newFlags(e, "engine-check")
	movetime := fs.Duration("time", 50*time.Millisecond, "the time of each go movetime")
	plies := fs.Int("max-plies", 60, "the most plies of each game played")
	verbose := fs.Bool("verbose", false, "print every line sent and received")
	var oldSpecs string
	fs.StringVar(&oldSpecs, "games", "", deprecatedPrefix+"give the specs, separated by semicolons, as the arguments after the command")
	millisAlias(fs, "movetime", "time", movetime)
	alias(fs, "plies", "max-plies")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) < 1 {
		return &usageError{"want the engine's command, quoted if it has arguments, e.g. stax engine-check './mybot --fast'"}
	}
	specs := rest[1:]
	if oldSpecs != "" {
		if len(specs) > 0 {
			return &usageError{"give the specs after the command or with --games, not both"}
		}
		specs = strings.Split(oldSpecs, ";")
	}
	if len(specs) == 0 {
		specs = checkSpecs
	}
	if *movetime <= 0 || *plies < 1 {
		return &usageError{"--time and --max-plies must be positive"}
	}
	argv, err := engine.SplitCommand(rest[0])
	if err != nil {
		return &usageError{err.Error()}
	}
	cfg := engine.CheckConfig{
		Command: argv, Registry: games.All(), Specs: specs,
		MoveTime: *movetime, MaxPlies: *plies,
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
