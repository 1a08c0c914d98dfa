// Command stax plays, analyses and serves the stacking games Pogo, Pisola
// and Diam.
//
// Usage:
//
//	stax <command> [arguments]
//
// Run "stax help" for the list of commands, and "stax help <command>" for
// one of them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one stax subcommand.
type command struct {
	name    string
	usage   string // arguments, e.g. "<spec> <depth> [--pos S] [--divide]"
	summary string
	run     func(env *env, args []string) error
}

// env is what a command reads and writes, so tests can run commands
// without a process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// interrupt, when not nil, replaces the SIGINT notifications of stax
	// play at its prompt (for tests).
	interrupt chan os.Signal
}

// commands lists every subcommand, in the order "stax help" shows them.
func commands() []command {
	return []command{
		{"serve", "[--addr 127.0.0.1:8080] [--db stax.db|postgres://...] [--assets DIR] [--workers N] [--ai-delay D] [--sync normal|full] [--allowed-hosts H,...] [--trusted-proxies CIDR,...] [--stats] [--pprof]", "serve the web interface and the game API (docs/server.md)", runServe},
		{"worker", workerUsage, "make the computer moves of the servers sharing a PostgreSQL database", runWorker},
		{"play", playUsage, "play a game in the terminal against the computer or another person", runPlay},
		{"analyze", analyzeUsage, "give every legal move its verdict: exact for Pogo, estimated by search for the others", runAnalyze},
		{"solve", solveUsage, "solve Pogo completely (writing the table the perfect level uses), or try to prove who wins two-player Diam", runSolve},
		{"engine", "[--level L] [--seed N]", "speak the engine protocol on standard input and output (docs/protocol.md)", runEngine},
		{"engine-check", engineCheckUsage, "drive an engine through a scripted session of each game and report every protocol violation", runEngineCheck},
		{"match", "--game SPEC --engine NAME=CMD ... [--games N] [--concurrency C] [--movetime MS] [--depth D] [--nodes N] [--tc BASE+INC] [--openings K] [--seed N] [--out FILE] [--sprt E0,E1]", "play a match between engines and print a cross table with Elo", runMatch},
		{"loadtest", loadtestUsage, "play many concurrent games against a server over loopback and measure relay latency", runLoadtest},
		{"db", dbUsage, "copy every game from one database to another (SQLite or PostgreSQL) and check the copy", runDB},
		{"games", "", "list the games, their options and defaults", runGames},
		{"moves", "<spec> [--pos S]", "list the legal moves of a position", runMoves},
		{"perft", "<spec> <depth> [--pos S] [--divide]", "count the leaves of the move tree to each depth", runPerft},
	}
}

// usageError is an error in the command line; the command's usage is
// printed after it.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	if err := run(e, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "stax:", err)
		os.Exit(exitCode(err))
	}
}

// exitCode is 2 for a usage error and 1 for any other.
func exitCode(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func run(e *env, args []string) error {
	if len(args) == 0 {
		printHelp(e.stderr)
		return &usageError{"missing command"}
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				fmt.Fprintf(e.stdout, "usage: stax %s %s\n\n%s\n", c.name, c.usage, c.summary)
				return nil
			}
			return &usageError{fmt.Sprintf("unknown command %q; run stax help", args[1])}
		}
		printHelp(e.stdout)
		return nil
	}
	c := lookup(name)
	if c == nil {
		return &usageError{fmt.Sprintf("unknown command %q; want one of %s", name, strings.Join(commandNames(), ", "))}
	}
	err := c.run(e, args[1:])
	var ue *usageError
	if errors.As(err, &ue) {
		return &usageError{fmt.Sprintf("%s\nusage: stax %s %s", ue.msg, c.name, c.usage)}
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func lookup(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return &c
		}
	}
	return nil
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "stax plays, analyses and serves the stacking games Pogo, Pisola and Diam.")
	fmt.Fprintln(w, "\nUsage: stax <command> [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nA game is given as a spec: a name and options, e.g. pogo, pogo(u=false),")
	fmt.Fprintln(w, "pisola(size=8,roofs=true) or diam(players=4). Run \"stax games\" for the options.")
	fmt.Fprintln(w, "Run \"stax help <command>\" for a command's arguments.")
}

// newFlags returns a flag set for a command that returns errors instead
// of printing them and exiting; -h prints the command's flags.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fs.SetOutput(e.stdout)
		if c := lookup(name); c != nil {
			fmt.Fprintf(e.stdout, "usage: stax %s %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.summary)
		}
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseInterspersed parses flags that may appear anywhere among the
// positional arguments, returning the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
