package store

import (
	"context"
	"time"
)

// Waiting is a player waiting in a pool of quick pairing.
type Waiting struct {
	// Pool names the pool: one game and one time control, such as
	// "pogo 3+2".
	Pool string
	// User is the waiting account.
	User string
	// Rating is the player's rating in the game's pool, by which players
	// of similar strength are paired.
	Rating float64
	// Body is the waiting player as the server describes them (name,
	// rating), kept as it is.
	Body []byte
	// Created is when the player started waiting; Expires when they stop
	// unless they renew their wait.
	Created, Expires time.Time
}

// PairRequest asks Pairing.Pair to pair a player or let them wait.
type PairRequest struct {
	// Waiting is the player: Pool, User, Rating, Body, Created and
	// Expires. When the player already waits in the pool, their entry's
	// Created stands (and is set in Waiting before Match is called).
	Waiting *Waiting
	// Renew only renews a wait: when the player does not wait in the
	// pool (they were paired, left or expired), Pair changes nothing and
	// returns ErrNotFound.
	Renew bool
	// Now is the time; entries expired at Now are not paired.
	Now time.Time
	// Match reports whether the player may be paired with another one
	// who waits.
	Match func(self, other *Waiting) bool
}

// Pairing keeps the pools of quick pairing, shared by every instance
// using the store.
type Pairing interface {
	// Pair pairs a player with the one who has waited longest in the same
	// pool, other than themselves and not expired, that Match accepts:
	// that player leaves the pool and is returned, and so does the player
	// who asked (when they were waiting). When Match accepts nobody, the
	// player waits: their entry is added, or renewed with the new Expires,
	// Rating and Body, and Pair returns nil. The calls of several
	// instances at once are serialised per pool: a waiting player is
	// returned by at most one of them, and two players who ask at once
	// are paired with each other rather than both left waiting.
	Pair(ctx context.Context, req PairRequest) (*Waiting, error)
	// Unwait takes an account out of a pool, or out of every pool when
	// pool is ""; it returns ErrNotFound when the account waited in none.
	Unwait(ctx context.Context, user, pool string) error
	// ExpireWaiting forgets the entries expired at now and returns how
	// many.
	ExpireWaiting(ctx context.Context, now time.Time) (int, error)
}
