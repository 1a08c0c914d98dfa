package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"time"

	"stax/ai"
	"stax/engine/match"
	"stax/game"
	"stax/game/record"
	"stax/games"
	"stax/games/diam"
	"stax/games/pisola"
	"stax/games/pogo"
)

// runTune runs stax tune: one of package ai's tuners, its weights written
// as Go source.
func runTune(e *env, args []string) error {
	fs := newFlags(e, "tune")
	n := fs.Int("games", 0, "the games played to make the training set (default: 1000 for Pisola, 4000 for Diam, 3000 for Pogo)")
	seed := fs.Uint64("seed", 0, "seed the games and the fitting with `N`, to make the same weights again (default: a random seed, printed)")
	out := fs.String("out", "", "write the weights' Go source to `FILE` (default: standard output)")
	workers := fs.Int("workers", 0, "Pisola, Diam: the games played at once (default: one per CPU)")
	quiet := fs.Bool("quiet", false, "no progress")
	level := fs.String("level", "medium", "Pisola: the level that plays the games")
	openings := fs.Int("openings", 4, "Pisola: the random plies that open each game")
	records := fs.String("records", "", "Pisola: fit the games of `FILE` (game records, e.g. from stax match --out) instead of playing them")
	iters := fs.Int("iters", 3000, "Pisola, Diam: the gradient steps of the fit")
	nodes := fs.Int64("nodes", 3000, "Diam: the alpha-beta nodes a move of the games")
	data := fs.String("data", "", "Diam: read the labelled positions from `FILE` if it exists instead of playing, else write them there after playing")
	from := fs.String("from", "hand", "Diam: the weights the games are played with and the fit starts from: hand (the hand-set ones four-player Diam uses) or tuned (the current two-player ones)")
	net := fs.Bool("net", false, "Pogo: fit the network (eval_pogo_net_weights.go) on top of the linear model instead of the linear model (eval_pogo_weights.go)")
	epochs := fs.Int("epochs", 0, "Pogo: the passes over the training set (default: 20, or 30 with --net)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &usageError{"want one game spec, e.g. stax tune pisola, stax tune diam or stax tune pogo"}
	}
	switch {
	case *n < 0 || *workers < 0 || *openings < 0 || *iters < 1 || *nodes < 1 || *epochs < 0:
		return &usageError{"--games, --workers, --openings and --epochs cannot be negative, --iters and --nodes must be positive"}
	case *from != "hand" && *from != "tuned":
		return &usageError{fmt.Sprintf("--from %q: want hand or tuned", *from)}
	}
	gg, err := games.Load(rest[0])
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// The flags of another game's tuner are mistakes, not options.
	var own []string
	switch gg.(type) {
	case *pisola.Game:
		own = []string{"workers", "level", "openings", "records", "iters"}
	case *diam.Game:
		own = []string{"workers", "iters", "nodes", "data", "from"}
	case *pogo.Game:
		own = []string{"net", "epochs"}
	default:
		return &usageError{fmt.Sprintf("the tuned evaluations are Pogo's, Pisola's and two-player Diam's, not %s's", gg.Info().Title)}
	}
	for _, name := range []string{"workers", "level", "openings", "records", "iters", "nodes", "data", "from", "net", "epochs"} {
		if set[name] && !slices.Contains(own, name) {
			return &usageError{fmt.Sprintf("--%s does not apply to %s", name, gg.Info().Title)}
		}
	}
	if set["records"] && set["games"] {
		return &usageError{"--games and --records: give one, the games to play or the games to fit"}
	}
	if !set["seed"] {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return fmt.Errorf("drawing a seed: %w", err)
		}
		*seed = binary.LittleEndian.Uint64(b[:])
	}
	if *workers == 0 {
		*workers = runtime.GOMAXPROCS(0)
	}
	var log ai.TuneLog
	if !*quiet {
		start := time.Now()
		log = func(line string) {
			fmt.Fprintf(e.stderr, "%s (%v)\n", line, time.Since(start).Round(time.Second))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(e.stderr, "tuning %s, seed %d\n", game.SpecOf(gg), *seed)
	var tuned *ai.Tuned
	switch g := gg.(type) {
	case *pisola.Game:
		cfg := ai.PisolaTuning{Iters: *iters, Log: log}
		if *records != "" {
			text, err := os.ReadFile(*records)
			if err != nil {
				return err
			}
			if cfg.Records, err = record.ParseAll(string(text)); err != nil {
				return fmt.Errorf("%s: %w", *records, err)
			}
		} else if cfg.Records, err = pisolaSelfPlay(ctx, g, *level, defaultCount(*n, 1000), *openings, *workers, *seed, log); err != nil {
			return err
		}
		tuned, err = ai.TunePisola(ctx, g, cfg)
	case *diam.Game:
		if g.Players() != 2 {
			return &usageError{"the tuned Diam evaluation is two-player: want diam or diam(drop=any)"}
		}
		tuned, err = ai.TuneDiam(ctx, g, ai.DiamTuning{
			Games: defaultCount(*n, 4000), Nodes: *nodes, Seed: *seed, Workers: *workers,
			Data: *data, Iters: *iters, FromTuned: *from == "tuned", Log: log,
		})
	case *pogo.Game:
		tables := newTables(e.stderr)
		defer tables.Close()
		tb, terr := tables.Wait(ctx, g.U())
		if terr != nil {
			return fmt.Errorf("the solved table of %s: %w", game.SpecOf(g), terr)
		}
		cfg := ai.PogoTuning{Table: tb, Games: defaultCount(*n, 3000), Epochs: *epochs, Seed: *seed, Log: log}
		if *net {
			tuned, err = ai.TunePogoNet(ctx, g, cfg)
		} else {
			tuned, err = ai.TunePogo(ctx, g, cfg)
		}
	}
	if err != nil {
		return err
	}
	what := "ai/" + tuned.File
	if tuned.File == "" {
		what = "the declaration of " + tuned.Var + " in package ai"
	}
	if *out == "" {
		fmt.Fprintf(e.stderr, "the weights, %s:\n", what)
		_, err := e.stdout.Write(tuned.Source)
		return err
	}
	if err := writeFileAtomic(*out, func(f *os.File) error { _, err := f.Write(tuned.Source); return err }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s, %s\n", *out, what)
	return nil
}

// pisolaSelfPlay plays the games Pisola's weights are fitted to: level
// against itself from random openings, through the match runner.
func pisolaSelfPlay(ctx context.Context, g game.Game, level string, n, openings, workers int, seed uint64, log ai.TuneLog) ([]*record.Record, error) {
	if _, err := ai.New(g, level); err != nil {
		return nil, &usageError{"--level: " + err.Error()}
	}
	cfg := match.Config{
		Game:        g,
		Engines:     []match.Engine{{Name: "a", Level: level}, {Name: "b", Level: level}},
		Games:       n,
		Concurrency: workers,
		Openings:    openings,
		Seed:        seed,
		NewPlayer:   ai.NewSeeded,
	}
	if log != nil {
		cfg.Progress = func(st match.Status) {
			if st.Done%100 == 0 || st.Done == st.Total {
				log(fmt.Sprintf("%d of %d games", st.Done, st.Total))
			}
		}
	}
	rep, err := match.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var out []*record.Record
	for _, res := range rep.Games {
		out = append(out, res.Record)
	}
	return out, nil
}
