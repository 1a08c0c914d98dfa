package store

import (
	"context"
	"time"
)

// PuzzleRating is a Glicko-2 rating of the puzzles' domain: a puzzle's,
// or an account's at solving puzzles.
type PuzzleRating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
	// Attempts counts the rated attempts that made it.
	Attempts int
	// Updated is when the last of them was made.
	Updated time.Time
}

// PuzzleAttempt is one attempt of an account at a puzzle.
type PuzzleAttempt struct {
	UserID   string
	PuzzleID string
	At       time.Time
	// Solved is true when the account found the whole solution without
	// a hint.
	Solved bool
	// Rated is true when the attempt changed the account's and the
	// puzzle's ratings: only the first attempt of an account at a puzzle
	// does.
	Rated bool
	// PlayerBefore and PlayerAfter are the account's puzzle rating before
	// and after the attempt, PuzzleBefore and PuzzleAfter the puzzle's
	// (all four 0 when the attempt is not rated).
	PlayerBefore, PlayerAfter float64
	PuzzleBefore, PuzzleAfter float64
}

// Puzzles keeps the puzzles' ratings, the accounts' puzzle ratings and
// their attempts. The puzzles themselves are not stored: they are the
// program's (package puzzle), named by their IDs. Its methods are safe for
// concurrent use, also by several instances sharing the store.
type Puzzles interface {
	// PuzzleRatings returns the ratings of the puzzles that rated
	// attempts have changed, by puzzle ID; a puzzle never attempted is
	// absent and keeps its starting rating.
	PuzzleRatings(ctx context.Context) (map[string]PuzzleRating, error)
	// PuzzlePlayer returns an account's puzzle rating, or ErrNotFound
	// when it has made no rated attempt.
	PuzzlePlayer(ctx context.Context, userID string) (PuzzleRating, error)
	// AttemptedPuzzles returns the IDs of the puzzles an account has
	// attempted, rated or not, in no particular order.
	AttemptedPuzzles(ctx context.Context, userID string) ([]string, error)
	// RecordAttempt stores an attempt. A rated attempt stores the new
	// ratings of the account and the puzzle with it, all or none; it is
	// ErrConflict when the account has attempted the puzzle already, or
	// when either rating's Attempts is not one more than the stored one
	// (1 when none is stored): another attempt changed it meanwhile, so
	// read it again and recompute. An unrated attempt ignores player and
	// puzzle. Two attempts of an account at a puzzle at the same
	// millisecond are ErrConflict.
	RecordAttempt(ctx context.Context, a PuzzleAttempt, player, puzzle PuzzleRating) error
	// PuzzleAttempts returns up to limit of an account's attempts, latest
	// first.
	PuzzleAttempts(ctx context.Context, userID string, limit int) ([]PuzzleAttempt, error)
	// ListPuzzlePlayers returns up to limit of the accounts that have
	// attempted puzzles whose ids sort after the given id (byte order), in
	// id order, each with its puzzle rating and attempts: a walk over them
	// that copies a database.
	ListPuzzlePlayers(ctx context.Context, after string, limit int) ([]*PuzzlePlayer, error)
	// RestorePuzzlePlayer stores an account's puzzle rating and attempts
	// read from another store as they are, all or none: an account that
	// has attempted puzzles already, or that does not exist, is
	// ErrConflict.
	RestorePuzzlePlayer(ctx context.Context, p *PuzzlePlayer) error
	// RestorePuzzleRating stores a puzzle's rating read from another
	// store as it is; a puzzle rated already is ErrConflict.
	RestorePuzzleRating(ctx context.Context, puzzleID string, r PuzzleRating) error
}

// PuzzlePlayer is what a store keeps of an account's puzzles: its puzzle
// rating (Attempts 0 when it has made no rated attempt) and its attempts,
// oldest first.
type PuzzlePlayer struct {
	UserID   string
	Rating   PuzzleRating
	Attempts []PuzzleAttempt
}

// PuzzlesWithDeadline returns p with a deadline of d on each call (see
// WithDeadline).
func PuzzlesWithDeadline(p Puzzles, d time.Duration) Puzzles { return deadlinedPuzzles{p, d} }

// deadlinedPuzzles is the Puzzles of PuzzlesWithDeadline.
type deadlinedPuzzles struct {
	p Puzzles
	d time.Duration
}

func (x deadlinedPuzzles) PuzzleRatings(ctx context.Context) (map[string]PuzzleRating, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.PuzzleRatings(ctx)
}

func (x deadlinedPuzzles) PuzzlePlayer(ctx context.Context, userID string) (PuzzleRating, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.PuzzlePlayer(ctx, userID)
}

func (x deadlinedPuzzles) AttemptedPuzzles(ctx context.Context, userID string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.AttemptedPuzzles(ctx, userID)
}

func (x deadlinedPuzzles) RecordAttempt(ctx context.Context, a PuzzleAttempt, player, puzzle PuzzleRating) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.RecordAttempt(ctx, a, player, puzzle)
}

func (x deadlinedPuzzles) PuzzleAttempts(ctx context.Context, userID string, limit int) ([]PuzzleAttempt, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.PuzzleAttempts(ctx, userID, limit)
}

func (x deadlinedPuzzles) ListPuzzlePlayers(ctx context.Context, after string, limit int) ([]*PuzzlePlayer, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.ListPuzzlePlayers(ctx, after, limit)
}

func (x deadlinedPuzzles) RestorePuzzlePlayer(ctx context.Context, p *PuzzlePlayer) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.RestorePuzzlePlayer(ctx, p)
}

func (x deadlinedPuzzles) RestorePuzzleRating(ctx context.Context, puzzleID string, r PuzzleRating) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.p.RestorePuzzleRating(ctx, puzzleID, r)
}
