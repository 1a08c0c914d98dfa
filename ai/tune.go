package ai

import (
	"context"
	"fmt"
)

// The tuners fit the weights of the evaluations to games (Pisola's and
// two-player Diam's: Texel tuning on self-play games) or to Pogo's solved
// table (Pogo's linear model and its network), and return them as the Go
// source committed in this package. Each takes minutes to hours at full
// size; stax tune runs them, and docs/strength.md has the commands that
// made the committed weights.

// Tuned is the result of a tuner: the weights as Go source.
type Tuned struct {
	// Source is gofmt'ed Go: a whole file of package ai when File is
	// set, else the declaration of the weights' variable, to replace
	// the one in Var's file.
	Source []byte
	// File is the file of package ai that Source replaces whole, e.g.
	// eval_pogo_weights.go, or "".
	File string
	// Var is the variable whose declaration Source is, when File is "".
	Var string
}

// TuneLog receives the progress of a tuning, one line a call.
type TuneLog func(line string)

func (l TuneLog) printf(format string, args ...any) {
	if l != nil {
		l(fmt.Sprintf(format, args...))
	}
}

// tuneErr returns the context's error, for the tuners' loops.
func tuneErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("tuning stopped: %w", context.Cause(ctx))
	}
	return nil
}
