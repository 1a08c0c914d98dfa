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
	"time"
)

// command describes one stax subcommand. "stax help <command>", "stax
// <command> -h" and the command reference of the README are all made from
// its description: the fields below, the long text help/<name>.txt (plain
// text with Markdown's `code` spans and indented examples) and the flag
// set the command defines (see flagSet).
type command struct {
	name string
	// usage lists the command's forms, each the arguments after
	// "stax <name>", e.g. "<spec> <depth> [flags]".
	usage []string
	// short is the one-line summary of "stax help".
	short string
	// run runs the command. It must define its flags with newFlags and
	// parse them with parseInterspersed before doing anything else, so
	// that flagSet can learn them by running it with -h.
	run func(e *env, args []string) error
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
	// flags is the flag set of the command run, once it has defined its
	// flags and met -h or a bad flag.
	flags *flag.FlagSet
	// getenv, when not nil, replaces os.Getenv for the STAX_* settings
	// (for tests).
	getenv func(string) string
}

// commands lists every subcommand, in the order "stax help" shows them.
func commands() []command {
	return []command{
		{"serve", []string{"[flags]"}, "serve the web interface and the game API (docs/server.md)", runServe},
		{"worker", []string{"--db postgres://... [flags]"}, "make the computer moves of the servers sharing a PostgreSQL database", runWorker},
		{"play", []string{"<spec> [flags]", "--load FILE [flags]"}, "play a game in the terminal against the computer or another person", runPlay},
		{"analyze", []string{"<spec> [flags]", "--load FILE [flags]"}, "give every legal move its verdict: exact for Pogo, estimated by search for the others", runAnalyze},
		{"solve", []string{"pogo[(u=false)] [flags]", "diam[(drop=any)] [flags]"}, "solve Pogo completely (writing the table the perfect level uses), or try to prove who wins two-player Diam", runSolve},
		{"tune", []string{"pisola [flags]", "diam [flags]", "pogo [--net] [flags]"}, "fit an evaluation's weights to self-play games (Pisola, Diam) or to Pogo's solved table, and write them as Go source for package ai", runTune},
		{"puzzles", []string{"generate <spec> [flags]"}, "make puzzles: Pogo's and Diam's proven by the solved table and the Diam solver, Pisola's best moves by search (docs/puzzles.md)", runPuzzles},
		{"engine", []string{"[flags]"}, "speak the engine protocol on standard input and output (docs/protocol.md)", runEngine},
		{"engine-check", []string{"<command> [<spec>...] [flags]"}, "drive an engine through a scripted session of each game and report every protocol violation", runEngineCheck},
		{"match", []string{"<spec> --engine NAME=CMD... [flags]"}, "play a match between engines and print a cross table with Elo", runMatch},
		{"bot", []string{"--url URL --token T --engine CMD [flags]"}, "play on a server as a bot account with an engine speaking the engine protocol (docs/bots.md)", runBot},
		{"loadtest", []string{"[<spec>] [flags]"}, "play many concurrent games against a server over loopback and measure relay latency", runLoadtest},
		{"admin", []string{"reset-password NAME [--url URL]", "disable|enable|mute|unmute NAME", "reports [--all]", "close-report ID [--note TEXT]", "remove-chat ID", "tokens NAME", "create-token NAME --scopes S,... [--description TEXT]", "revoke-token NAME ID"}, "act as the site's operator: password reset links, disabling and muting accounts, players' reports, API tokens", runAdmin},
		{"db", []string{"copy --from DB --to DB", "explore --db DB"}, "copy every game from one database to another (SQLite or PostgreSQL) and check the copy; index a database's games for the opening explorer", runDB},
		{"games", []string{"[flags]"}, "list the games, their options and defaults", runGames},
		{"moves", []string{"<spec> [flags]"}, "list the legal moves of a position", runMoves},
		{"perft", []string{"<spec> <depth> [flags]"}, "count the leaves of the move tree to each depth", runPerft},
	}
}

// usageError is an error in the command line: stax prints it on one line
// and exits with status 2.
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
		switch {
		case len(args) > 2:
			return &usageError{"help: want at most one command, e.g. stax help play"}
		case len(args) == 2:
			c := lookup(args[1])
			if c == nil {
				return &usageError{fmt.Sprintf("help: unknown command %q; want one of %s", args[1], strings.Join(commandNames(), ", "))}
			}
			return printCommandHelp(e.stdout, c)
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
	switch {
	case errors.As(err, &ue):
		return &usageError{fmt.Sprintf("%s: %s (see stax help %s)", c.name, ue.msg, c.name)}
	case errors.Is(err, flag.ErrHelp):
		return printCommandHelp(e.stdout, c)
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

// newFlags returns the flag set of a command. Parsing it returns errors
// instead of printing them and exiting, and -h returns flag.ErrHelp, on
// which run prints the command's help; e keeps the set for flagSet.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { e.flags = fs }
	return fs
}

// parseInterspersed parses flags that may appear anywhere among the
// positional arguments, returning the positional ones. A bad flag is a
// usageError of one line.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{flagError(fs, err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError rewrites an error of the flag package in the words of stax's
// documentation, e.g. "unknown flag --bogus" for "flag provided but not
// defined: -bogus".
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + name
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		if want := exampleValue(fs.Lookup(name)); want != "a value" {
			return fmt.Sprintf("--%s needs a value: %s", name, want)
		}
		return fmt.Sprintf("--%s needs a value", name)
	}
	var value, name string
	if _, err := fmt.Sscanf(msg, "invalid value %q for flag -%s", &value, &name); err == nil {
		name = strings.TrimSuffix(name, ":")
		if f := fs.Lookup(name); f != nil {
			if _, inner, ok := strings.Cut(msg, name+": "); ok && inner != "parse error" {
				return fmt.Sprintf("--%s %q: %s", name, value, inner)
			}
			return fmt.Sprintf("--%s %q: want %s", name, value, exampleValue(f))
		}
	}
	if _, err := fmt.Sscanf(msg, "invalid boolean value %q for -%s", &value, &name); err == nil {
		name = strings.TrimSuffix(name, ":")
		return fmt.Sprintf("--%s=%s: want --%s, --%s=true or --%s=false", name, value, name, name, name)
	}
	return strings.ReplaceAll(msg, " -", " --")
}

// exampleValue describes the values a flag takes, from its type.
func exampleValue(f *flag.Flag) string {
	if f == nil {
		return "a value"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "a value"
	}
	switch g.Get().(type) {
	case time.Duration:
		return "a duration such as 300ms, 10s or 1m30s"
	case int, int64, uint, uint64:
		return "an integer"
	case float64:
		return "a number"
	}
	return "a value"
}
