package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"stax/ai"
	"stax/engine/match"
	"stax/games"
)

// engineFlags collects repeated --engine flags.
type engineFlags []match.Engine

func (f *engineFlags) String() string { return "" }

func (f *engineFlags) Set(s string) error {
	e, err := match.ParseEngine(s)
	if err != nil {
		return err
	}
	*f = append(*f, e)
	return nil
}

func runMatch(e *env, args []string) error {
	fs := newFlags(e, "match")
	var engines engineFlags
	fs.Var(&engines, "engine", "an engine, `NAME=CMD`, where CMD is stax:LEVEL or a command speaking the engine protocol (repeat the flag for each engine)")
	n := fs.Int("games", 10, "the number of games")
	workers := fs.Int("workers", 1, "the number of games played at once")
	movetime := fs.Duration("time", 100*time.Millisecond, "the time per move, sent with go movetime (0: each engine's own budget)")
	depth := fs.Int("depth", 0, "the depth bound of every move, sent with go depth (0: none)")
	nodes := fs.Int64("nodes", 0, "the node bound of every move, sent with go nodes (0: none)")
	var timeout time.Duration
	fs.Var(lenientDuration{&timeout}, "timeout", "the time after which a move is lost (default --time + max(1s, --time), or 30s with --time 0; a bare number is milliseconds)")
	openings := fs.Int("openings", 2, "the number of random plies that start each opening; each opening is played with every seat rotation")
	seed := fs.Uint64("seed", 0, "the seed of the random openings and of the built-in players, for a reproducible match (0: random; the report shows the seed used)")
	out := fs.String("out", "", "append every game to this `FILE` in the record format")
	tc := fs.String("tc", "", "give every seat a clock of `BASE+INC`: BASE at the start plus INC a move, each a duration or bare seconds (e.g. 10s+100ms or 10+0.1); a seat whose clock runs out loses on time")
	sprt := fs.String("sprt", "", "stop a two-engine match when a sequential probability ratio test of `ELO0,ELO1[,ALPHA,BETA]` decides (ALPHA and BETA default to 0.05)")
	quiet := fs.Bool("quiet", false, "print no progress")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	spec := fs.String("game", "", deprecatedPrefix+"give the spec as the first argument")
	alias(fs, "concurrency", "workers")
	millisAlias(fs, "movetime", "time", movetime)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 1 || len(rest) == 1 && *spec != "":
		return &usageError{fmt.Sprintf("unexpected argument %q; want one game spec", rest[len(rest)-1])}
	case len(rest) == 1:
		*spec = rest[0]
	}
	switch {
	case *spec == "":
		return &usageError{"missing the game, e.g. stax match pogo --engine a=stax:easy --engine b=stax:hard"}
	case len(engines) == 0:
		return &usageError{"missing --engine, e.g. --engine hard=stax:hard --engine easy=stax:easy"}
	case *n < 1:
		return &usageError{"--games: want at least 1"}
	case *workers < 1:
		return &usageError{"--workers: want at least 1"}
	case *movetime < 0 || timeout < 0 || *openings < 0 || *depth < 0 || *nodes < 0:
		return &usageError{"--time, --depth, --nodes, --timeout and --openings cannot be negative"}
	}
	g, err := games.Load(*spec)
	if err != nil {
		return err
	}
	if *seed == 0 {
		*seed = rand.Uint64N(1<<53) + 1
	}
	tables := newTables(e.stderr)
	defer tables.Close()
	levels := ai.Config{Tables: tables}
	cfg := match.Config{
		Game: g, Engines: engines, Games: *n, Concurrency: *workers,
		MoveTime: *movetime, Timeout: timeout,
		Depth: *depth, Nodes: *nodes, Openings: *openings, Seed: *seed, NewPlayer: levels.NewSeeded,
	}
	if *tc != "" {
		clock, err := parseTimeControl(*tc)
		if err != nil {
			return &usageError{err.Error()}
		}
		cfg.Clock = clock
	}
	if *sprt != "" {
		t, err := parseSPRT(*sprt)
		if err != nil {
			return &usageError{err.Error()}
		}
		cfg.SPRT = t
	}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Size() > 0 {
			io.WriteString(f, "\n")
		}
		cfg.Records = f
	}
	if !*quiet {
		cfg.Progress = progressPrinter(e.stderr, ttyWriter(e.stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, en := range engines {
		if en.Level != "" {
			if err := prepareLevels(ctx, levels, g, en.Level); err != nil {
				return fmt.Errorf("engine %s: %w", en.Name, err)
			}
		}
	}
	rep, err := match.Run(ctx, cfg)
	if rep != nil {
		if cfg.Progress != nil && ttyWriter(e.stderr) {
			fmt.Fprintln(e.stderr)
		}
		if *asJSON {
			if jerr := writeJSON(e.stdout, matchOf(rep)); jerr != nil && err == nil {
				err = jerr
			}
		} else {
			rep.Write(e.stdout)
		}
	}
	return err
}

// parseTimeControl parses BASE+INC, each a duration or a bare number of
// seconds (the increment may be left out).
func parseTimeControl(s string) (*match.TimeControl, error) {
	base, inc, _ := strings.Cut(s, "+")
	b, err1 := parseSeconds(base)
	i, err2 := time.Duration(0), error(nil)
	if inc != "" {
		i, err2 = parseSeconds(inc)
	}
	if err1 != nil || err2 != nil || b <= 0 {
		return nil, fmt.Errorf("--tc %q: want BASE+INC, durations or bare seconds, e.g. 10s+100ms, 10+0.1 or 1m", s)
	}
	return &match.TimeControl{Base: b, Increment: i}, nil
}

// parseSPRT parses ELO0,ELO1[,ALPHA,BETA].
func parseSPRT(s string) (*match.SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return nil, fmt.Errorf("--sprt %q: want ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,20", s)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("--sprt %q: %q is not a number", s, p)
		}
		v[i] = x
	}
	t := &match.SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	if t.Elo1 <= t.Elo0 {
		return nil, fmt.Errorf("--sprt %q: want ELO0 < ELO1", s)
	}
	if len(parts) == 4 && (t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5) {
		return nil, fmt.Errorf("--sprt %q: want ALPHA and BETA between 0 and 0.5", s)
	}
	return t, nil
}

// isTerminal reports whether w is a terminal.
func ttyWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressPrinter returns a Progress callback: a bar redrawn in place on a
// terminal, else a line every tenth of the match or every ten seconds.
func progressPrinter(w io.Writer, tty bool) func(match.Status) {
	var lastLine time.Time
	lastTenth := 0
	return func(st match.Status) {
		var lead strings.Builder
		for i, name := range st.Table.Names {
			if i == 3 {
				lead.WriteString(" ...")
				break
			}
			fmt.Fprintf(&lead, " %s %.1f%%", name, 100*st.Table.Total(i).Mean())
		}
		fault := ""
		if st.Last != nil && st.Last.Fault != "" {
			fault = "  last fault: " + st.Last.Fault
		}
		eta := ""
		if st.Done > 0 && st.Done < st.Total {
			left := time.Duration(float64(st.Elapsed) / float64(st.Done) * float64(st.Total-st.Done))
			eta = " ETA " + left.Round(time.Second).String()
		}
		if tty {
			const width = 30
			fill := width * st.Done / st.Total
			if len(fault) > 60 {
				fault = fault[:60] + "..."
			}
			fmt.Fprintf(w, "\r\x1b[K[%s%s] %d/%d%s %s%s", strings.Repeat("#", fill), strings.Repeat(".", width-fill), st.Done, st.Total, lead.String(), eta, fault)
			return
		}
		tenth := 10 * st.Done / st.Total
		if tenth > lastTenth || time.Since(lastLine) > 10*time.Second || st.Last != nil && st.Last.Fault != "" || st.Done == st.Total {
			lastTenth, lastLine = tenth, time.Now()
			fmt.Fprintf(w, "%d/%d games%s%s%s\n", st.Done, st.Total, lead.String(), eta, fault)
		}
	}
}
