package store

import (
	"context"
	"time"
)

// The kinds of Event the lobby sends.
const (
	// EventSeek says that the lobby's seeks changed: a seek or challenge
	// (Event.Game) was posted, taken, cancelled or withdrawn.
	EventSeek = "seek"
	// EventNews is news for one account's lobby connections, on whichever
	// instance they are: Event.Game is the account id, Event.Move the
	// news as the server encodes it (Store.Announce sends it).
	EventNews = "news"
)

// Seek is an open seek or a challenge in the lobby.
type Seek struct {
	ID string
	// Owner is the account that posted it; To the account challenged,
	// empty for a seek open to everyone.
	Owner, To string
	// Body is the seek as the server describes it, kept as it is.
	Body    []byte
	Created time.Time
	// Expires is when the seek is withdrawn unless its owner is in the
	// lobby then (see Present).
	Expires time.Time
}

// Seeks keeps the lobby's seeks and challenges, shared by every instance
// using the store. Each write that changes the seeks reports an EventSeek
// to the watchers (Store.Watch) once committed.
type Seeks interface {
	// CreateSeek stores a seek; an id that exists is ErrConflict.
	CreateSeek(ctx context.Context, sk *Seek) error
	// Seeks returns every seek, oldest first.
	Seeks(ctx context.Context) ([]*Seek, error)
	// GetSeek returns one seek, or ErrNotFound.
	GetSeek(ctx context.Context, id string) (*Seek, error)
	// TakeSeek deletes a seek for the one who accepts, declines or
	// cancels it: of several takers, whichever instance they use, exactly
	// one succeeds; the others get ErrNotFound.
	TakeSeek(ctx context.Context, id string) error
	// DeleteSeeks deletes the seeks posted by an account and the
	// challenges to it.
	DeleteSeeks(ctx context.Context, userID string) error
	// Present records that instance holds a lobby connection of each of
	// users until then (it renews the record while it does).
	Present(ctx context.Context, instance string, users []string, until time.Time) error
	// Leave records that instance holds no lobby connection of user any
	// more; when no other instance holds one at now, the seeks the user
	// posted are withdrawn.
	Leave(ctx context.Context, instance, user string, now time.Time) error
	// ExpireSeeks withdraws the seeks expired at now whose owner no
	// instance holds in the lobby, and forgets the presence records
	// expired at now (an instance that stopped without saying so). It
	// returns how many seeks it withdrew.
	ExpireSeeks(ctx context.Context, now time.Time) (int, error)
}
