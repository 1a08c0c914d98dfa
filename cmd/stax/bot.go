package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"stax/bot"
	"stax/engine"
	"stax/games"
	"stax/server/bots"
)

// runBot plays on a server as a bot account, with an engine speaking the
// engine protocol.
func runBot(e *env, args []string) error {
	fs := newFlags(e, "bot")
	url := fs.String("url", "", "the server's address, e.g. https://stax.example.org")
	token := fs.String("token", "", "a personal API token of the bot's account, with the bot scope (better in $STAX_TOKEN or a --config file than on the command line)")
	engineCmd := fs.String("engine", "", "the engine: a command speaking the engine protocol (quotes allowed), started once for each game")
	moveTime := fs.Duration("time", time.Second, "the thinking time per move in games without a Fischer clock, sent with go movetime (0: the engine's own budget)")
	variants := fs.String("variants", "", "the games and variants accepted, separated by commas: a game's name for all its variants, a spec for one, e.g. pogo,pisola(size=8) (default: every game)")
	rated := fs.Bool("rated", true, "accept rated games")
	casual := fs.Bool("casual", true, "accept casual games")
	fischer := fs.Bool("fischer", true, "accept games with a Fischer clock, within --min-initial, --max-initial, --min-increment and --max-increment")
	correspondence := fs.Bool("correspondence", false, "accept correspondence games (days per move) and games without a clock")
	minInitial := fs.Duration("min-initial", 0, "the least initial time of a Fischer clock accepted")
	maxInitial := fs.Duration("max-initial", 0, "the most initial time of a Fischer clock accepted (0: no bound)")
	minIncrement := fs.Duration("min-increment", 0, "the least increment of a Fischer clock accepted")
	maxIncrement := fs.Duration("max-increment", 0, "the most increment of a Fischer clock accepted (0: no bound)")
	workers := fs.Int("workers", 1, "the most games played at once; challenges beyond are declined as later")
	from := fs.String("from", "", "accept challenges only from these accounts, separated by commas (default: from anyone)")
	level := fs.String("log-level", "info", "debug (every move), info, warn or error")
	configFile, printConfig := configFlags(fs)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q; the engine's command is given with --engine", rest[0])}
	}
	set, err := applySettings(e, "bot", fs, *configFile)
	if err != nil {
		return err
	}
	if *printConfig {
		set.print(e.stdout)
		return nil
	}
	switch {
	case *url == "":
		return &usageError{"missing --url, the server's address, e.g. --url https://stax.example.org"}
	case *token == "":
		return &usageError{"missing --token (or $STAX_TOKEN): a personal API token of the bot's account, made in its settings"}
	case *engineCmd == "":
		return &usageError{"missing --engine, the engine's command, e.g. --engine './mybot --fast'"}
	case *moveTime < 0 || *minInitial < 0 || *maxInitial < 0 || *minIncrement < 0 || *maxIncrement < 0:
		return &usageError{"--time, --min-initial, --max-initial, --min-increment and --max-increment cannot be negative"}
	case *maxInitial > 0 && *maxInitial < *minInitial || *maxIncrement > 0 && *maxIncrement < *minIncrement:
		return &usageError{"--max-initial and --max-increment must not be below --min-initial and --min-increment"}
	case *workers < 1 || *workers > bots.MaxGameStreams:
		return &usageError{fmt.Sprintf("--workers %d: want 1 to %d (the game streams a token may hold open)", *workers, bots.MaxGameStreams)}
	case !*rated && !*casual:
		return &usageError{"--rated=false and --casual=false together accept no game"}
	case !*fischer && !*correspondence:
		return &usageError{"--fischer=false without --correspondence accepts no game"}
	}
	argv, err := engine.SplitCommand(*engineCmd)
	if err != nil {
		return &usageError{"--engine: " + err.Error()}
	}
	policy := bot.Policy{
		Rated: *rated, Casual: *casual, Fischer: *fischer, Correspondence: *correspondence,
		MinInitial: *minInitial, MaxInitial: *maxInitial, MinIncrement: *minIncrement, MaxIncrement: *maxIncrement,
		Concurrent: *workers,
	}
	if *variants != "" {
		if policy.Variants, err = bot.ParseVariants(games.All(), *variants); err != nil {
			return &usageError{"--variants: " + err.Error()}
		}
	}
	for _, name := range strings.Split(*from, ",") {
		if name = strings.TrimSpace(name); name != "" {
			policy.From = append(policy.From, name)
		}
	}
	log, err := newLogger(e, *level)
	if err != nil {
		return err
	}
	b, err := bot.New(bot.Config{URL: *url, Token: *token, Engine: &bot.Process{Command: argv}, Policy: policy, MoveTime: *moveTime, Log: log})
	if err != nil {
		return &usageError{err.Error()}
	}
	// The engine is checked once before the bot connects, so that a
	// command that does not run is an error now rather than a game lost.
	c, err := engine.Start(argv, 10*time.Second)
	if err != nil {
		return fmt.Errorf("engine %s: %w", argv[0], err)
	}
	c.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(e.stdout, "stax bot playing on %s with %s; press Ctrl-C to stop\n", *url, *engineCmd)
	err = b.Run(ctx)
	log.Info("stopped")
	return err
}
