package store

import (
	"context"
	"time"
)

// ExplorerEntry is one move of a finished game, as the opening explorer
// counts it.
type ExplorerEntry struct {
	// Hash is the hash of the position the move was played from
	// (game.State.Hash, stable across runs).
	Hash uint64
	Move string
	// Result is the game's result for the player who made the move: 1 a
	// win, 0 a draw, -1 a loss.
	Result int
	// Rating is the mover's rating before a rated game, 0 when unknown.
	Rating float64
}

// ExplorerMove is what the indexed games played from one position: a move
// and, for the rated games or the casual ones, how often it was played,
// how those games ended for its player and the players' ratings.
type ExplorerMove struct {
	Move  string
	Rated bool
	// Games counts the games; Wins, Draws and Losses their results for
	// the player who made the move.
	Games, Wins, Draws, Losses int
	// RatingSum is the sum of the movers' ratings over the RatingGames
	// games where it is known.
	RatingSum   float64
	RatingGames int
}

// Explorer keeps the opening explorer's index: for each position (by
// game spec and hash) the moves the finished games played from it. Its
// methods are safe for concurrent use, also by several instances sharing
// the store.
type Explorer interface {
	// IndexGame adds a finished game's moves to the index, all or none:
	// the entries (at most one per position and move) are counted under
	// spec, with the rated games or the casual ones. A game indexed
	// already is ErrConflict, whichever instance indexed it. A game
	// without entries is only marked indexed.
	IndexGame(ctx context.Context, gameID, spec string, rated bool, at time.Time, entries []ExplorerEntry) error
	// ExplorerMoves returns the moves played from the position of spec
	// with hash, the rated games' and the casual games' apart, in no
	// particular order.
	ExplorerMoves(ctx context.Context, spec string, hash uint64) ([]ExplorerMove, error)
	// Unindexed returns up to limit finished games that IndexGame has not
	// indexed, earliest finished first, with their seats and moves; a
	// rated game only once its rating is written (Ratings.Rate marked
	// it), so that its players' ratings before it are known.
	Unindexed(ctx context.Context, limit int) ([]*Game, error)
}

// ExplorerWithDeadline returns x with a deadline of d on each call (see
// WithDeadline).
func ExplorerWithDeadline(x Explorer, d time.Duration) Explorer { return deadlinedExplorer{x, d} }

// deadlinedExplorer is the Explorer of ExplorerWithDeadline.
type deadlinedExplorer struct {
	x Explorer
	d time.Duration
}

func (x deadlinedExplorer) IndexGame(ctx context.Context, gameID, spec string, rated bool, at time.Time, entries []ExplorerEntry) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.x.IndexGame(ctx, gameID, spec, rated, at, entries)
}

func (x deadlinedExplorer) ExplorerMoves(ctx context.Context, spec string, hash uint64) ([]ExplorerMove, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.x.ExplorerMoves(ctx, spec, hash)
}

func (x deadlinedExplorer) Unindexed(ctx context.Context, limit int) ([]*Game, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.x.Unindexed(ctx, limit)
}
