package search

import (
	"context"
	"fmt"
	"strings"
	"time"

	"stax/game"
)

// Source says where a move's verdict comes from.
type Source uint8

const (
	// FromSearch is an estimate of the evaluation, searched to a depth.
	FromSearch Source = iota
	// FromSearchProof is a win, loss or draw the search proved.
	FromSearchProof
	// FromSolver is a win or loss proved by Diam's proof-number solver:
	// exact, though the plies are the length of the proof found, not
	// always the shortest.
	FromSolver
	// FromTable is Pogo's solved table: exact, with the shortest plies.
	FromTable
	// FromEnd is a move that ends the game.
	FromEnd
)

var sourceNames = [...]string{"estimate", "proven by search", "solver", "table", "end"}

// String names the source as the analysis's JSON and text show it.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("source(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler with String.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: the inverse of
// String.
func (s *Source) UnmarshalText(b []byte) error {
	for i, n := range sourceNames {
		if n == string(b) {
			*s = Source(i)
			return nil
		}
	}
	return fmt.Errorf("source %q: want one of %s", b, strings.Join(sourceNames[:], ", "))
}

// Exact reports whether a verdict of this source is certain.
func (s Source) Exact() bool { return s != FromSearch }

// MoveVerdict is a legal move with its value for the player making it.
type MoveVerdict struct {
	Move   game.Move
	Score  Score
	Source Source
	// Depth is the depth of the search behind an estimate.
	Depth int
}

// Analysis is the verdict of every legal move of a position for the
// player to move (in four-player Diam, the mover against the three
// others), best first.
type Analysis struct {
	Moves []MoveVerdict
	// Exact is true when every verdict is certain (Pogo from its table).
	Exact bool
	// Line is the best line from the position, when known: perfect play
	// from the table in Pogo, the best move alone elsewhere.
	Line []game.Move
}

// Best returns the best move's verdict.
func (a Analysis) Best() MoveVerdict { return a.Moves[0] }

// Find returns the verdict of m.
func (a Analysis) Find(m game.Move) (MoveVerdict, bool) {
	for _, v := range a.Moves {
		if v.Move == m {
			return v, true
		}
	}
	return MoveVerdict{}, false
}

// AnalyzeOptions bound an analysis.
type AnalyzeOptions struct {
	// Time is the search time for all the moves of the position together
	// (Pogo with its table needs none); zero with no Depth means one
	// second.
	Time time.Duration
	// Depth, when set, bounds the search's depth instead (with Time, if
	// also set): a fixed depth gives the same verdicts on every machine.
	Depth int
	// Prove gives half of Time, in two-player Diam, to the proof-number
	// solver, whose wins and losses are exact.
	Prove bool
}

// Mark is the judgement of a move in a review.
type Mark uint8

const (
	// Good is a move that loses nothing worth marking.
	Good Mark = iota
	// Inaccuracy is a small drop of the evaluation.
	Inaccuracy
	// Mistake turns a win into a draw or a draw into a loss, or drops the
	// evaluation clearly.
	Mistake
	// Blunder turns a win into a loss, walks into a proven loss, or drops
	// the evaluation by much.
	Blunder
)

var markNames = [...]string{"", "inaccuracy", "mistake", "blunder"}
var markSymbols = [...]string{"", "?!", "?", "??"}

// String names the mark ("" for a good move).
func (m Mark) String() string { return markNames[m] }

// Symbol returns the mark's sign in a move list: "?!", "?" or "??".
func (m Mark) Symbol() string { return markSymbols[m] }

// MarshalText implements encoding.TextMarshaler with String.
func (m Mark) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: the inverse of
// String ("" is a good move).
func (m *Mark) UnmarshalText(b []byte) error {
	for i, n := range markNames {
		if n == string(b) {
			*m = Mark(i)
			return nil
		}
	}
	return fmt.Errorf("mark %q: want inaccuracy, mistake, blunder or nothing", b)
}

// Thresholds are the drops of the evaluation, in its points, from which a
// move is an inaccuracy, a mistake or a blunder.
type Thresholds struct {
	Inaccuracy int `json:"inaccuracy"`
	Mistake    int `json:"mistake"`
	Blunder    int `json:"blunder"`
}

// class orders proven outcomes: a proven loss, anything not proven
// either way (a draw or an estimate), a proven win.
func class(s Score) int {
	switch s.Proven {
	case game.Win:
		return 2
	case game.Loss:
		return 0
	}
	return 1
}

// Judge marks a move of verdict played where best was available: a move
// that turns a proven win into a draw or an unproven estimate, or a draw
// into a proven loss, is a mistake, and one that turns a win into a loss,
// or walks into a proven loss from an unproven position, is a blunder;
// between estimates the drop of the evaluation is measured against th.
// Among proven verdicts of the same kind (a slower win) nothing is marked.
func Judge(best, played Score, th Thresholds) Mark {
	cb, cp := class(best), class(played)
	switch {
	case cp < cb && cb == 2 && cp == 0:
		return Blunder
	case cp < cb && cp == 0 && !best.IsProven():
		return Blunder
	case cp < cb:
		return Mistake
	case cp > cb || best.IsProven() || played.IsProven():
		return Good
	}
	drop := best.Value - played.Value
	switch {
	case drop >= th.Blunder:
		return Blunder
	case drop >= th.Mistake:
		return Mistake
	case drop >= th.Inaccuracy:
		return Inaccuracy
	}
	return Good
}

// ReviewedMove is one move of a reviewed game.
type ReviewedMove struct {
	// Ply counts from 0, Player is the seat that moved.
	Ply, Player int
	Move        game.Move
	// Played is the move's verdict for its player, Best the best one.
	Played, Best MoveVerdict
	// Better lists the moves of a better verdict than the one played,
	// best first: every one for an exact verdict, up to three otherwise.
	Better []MoveVerdict
	Mark   Mark
}

// Review is the analysis of every move of a game.
type Review struct {
	Moves []ReviewedMove
	// Exact is true when every verdict came from Pogo's table.
	Exact      bool
	Thresholds Thresholds
}

// ReviewOptions bound a review.
type ReviewOptions struct {
	// Time is the search time per position (for all its moves); zero
	// means 300 ms unless Depth is set. Pogo with its table needs none.
	Time time.Duration
	// Depth, when set, bounds the search's depth per position instead.
	Depth int
}

// betterShown bounds the better moves listed for an estimate.
const betterShown = 3

// Counts returns how many moves of player p carry each mark.
func (r Review) Counts(p int) [4]int {
	var n [4]int
	for _, m := range r.Moves {
		if m.Player == p {
			n[m.Mark]++
		}
	}
	return n
}

// Short writes the verdict's score, an estimate with its sign: "win 7",
// "draw", "+35".
func (v MoveVerdict) Short() string {
	if v.Source == FromSearch {
		return fmt.Sprintf("%+d", v.Score.Value)
	}
	return v.Score.String()
}

// Describe writes the verdict with the depth of an estimate, e.g.
// "win 7", "draw", "+35 (depth 6)".
func (v MoveVerdict) Describe() string {
	if v.Source == FromSearch {
		return fmt.Sprintf("%s (depth %d)", v.Short(), v.Depth)
	}
	return v.Short()
}

// BetterText lists the better moves of rm in s's notation with their
// verdicts, e.g. "1b3-b2 (draw), 2c3-a3 (draw)".
func (rm ReviewedMove) BetterText(s game.State) string {
	var parts []string
	for _, v := range rm.Better {
		parts = append(parts, fmt.Sprintf("%s (%s)", s.FormatMove(v.Move), v.Short()))
	}
	return strings.Join(parts, ", ")
}

// ReviewGame analyses every move of the game h holds, from its start,
// with analyze: for each position before a move, every legal move's
// verdict, and the move played marked against the best by Judge with th.
// Repetitions count as in the game. progress, when not nil, is called
// after each move reviewed.
func ReviewGame(ctx context.Context, h *game.History, analyze func(context.Context, Position) (Analysis, error), th Thresholds, opt ReviewOptions, progress func(done, total int)) (Review, error) {
	g := h.Game()
	if opt.Time <= 0 && opt.Depth <= 0 {
		opt.Time = 300 * time.Millisecond
	}
	r := Review{Exact: true, Thresholds: th}
	replay := game.NewHistory(g, h.Start())
	moves := h.Moves()
	for ply, m := range moves {
		pos := PositionOf(replay)
		a, err := analyze(ctx, pos)
		if err != nil {
			return r, fmt.Errorf("move %d (%s): %w", ply+1, pos.State.FormatMove(m), err)
		}
		played, ok := a.Find(m)
		if !ok {
			return r, fmt.Errorf("move %d (%s) is not legal in %s", ply+1, pos.State.FormatMove(m), pos.State)
		}
		rm := ReviewedMove{Ply: ply, Player: pos.State.ToMove(), Move: m, Played: played, Best: a.Best()}
		rm.Mark = Judge(rm.Best.Score, played.Score, r.Thresholds)
		for _, v := range a.Moves {
			better := class(v.Score) > class(played.Score)
			if !a.Exact {
				better = v.Score.Int() > played.Score.Int() && Judge(v.Score, played.Score, r.Thresholds) != Good
			}
			if better && (a.Exact || len(rm.Better) < betterShown) {
				rm.Better = append(rm.Better, v)
			}
		}
		r.Exact = r.Exact && a.Exact
		r.Moves = append(r.Moves, rm)
		if err := replay.PlayMove(m); err != nil {
			return r, fmt.Errorf("move %d: %w", ply+1, err)
		}
		if progress != nil {
			progress(ply+1, len(moves))
		}
	}
	return r, nil
}
