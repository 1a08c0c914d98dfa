// Package store declares how the site keeps its records: one interface per
// domain of the site ([Games], [Feed] and [Jobs] for live play, [Users] for
// accounts and sessions, [Ratings], [Seeks] for the lobby) and the records
// they read and write. [Store] is the part every server needs. Packages
// store/sqlite and store/postgres implement them all, and store/storetest
// is the conformance kit, one part per interface.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned for a game id the store does not hold.
var ErrNotFound = errors.New("no such game")

// ErrConflict is returned when a write clashes with what the store holds:
// a move at a ply that was already played, a seat that was already joined,
// a game id that exists.
var ErrConflict = errors.New("conflict")

// The values of Game.Status.
const (
	Playing  = "playing"
	Finished = "finished"
)

// Seat is one seat of a stored game.
type Seat struct {
	// Kind is "human" or "ai".
	Kind string
	// Level is an AI seat's level.
	Level string
	// Name is the name a human player gave, possibly empty.
	Name string
	// TokenHash is the hex SHA-256 of the seat's token, empty when the seat
	// has none yet.
	TokenHash string
	// InviteHash is the hex SHA-256 of the seat's invite, empty when it
	// had none.
	InviteHash string
	// Joined reports whether a player holds the seat (always true for AI
	// seats and for seats the creator kept).
	Joined bool
	// User is the id of the account that holds the seat, empty for a
	// guest or an AI.
	User string
	// Bot reports that the seat's account is a bot (filled in by reads).
	Bot bool
}

// Clock is a game's time control: Fischer (Initial, plus Increment after
// each move) or correspondence (Days per move).
type Clock struct {
	Initial   time.Duration
	Increment time.Duration
	Days      int
}

// ClockColumns returns the columns a store keeps for a time control, in
// milliseconds: an initial time of -1 when there is none.
func ClockColumns(c *Clock) (initial, increment int64, days int) {
	if c == nil {
		return -1, 0, 0
	}
	return c.Initial.Milliseconds(), c.Increment.Milliseconds(), c.Days
}

// ClockFromColumns is the inverse of ClockColumns: nil for an initial time
// below 0.
func ClockFromColumns(initial, increment int64, days int) *Clock {
	if initial < 0 {
		return nil
	}
	return &Clock{Initial: time.Duration(initial) * time.Millisecond, Increment: time.Duration(increment) * time.Millisecond, Days: days}
}

// End says how a game finished.
type End struct {
	// Outcome is the game's outcome in the text form of game.Outcome
	// (game.ParseOutcome reads it back exactly: every player's result, the
	// reason, the scores and the detail), and "*" while the game goes on
	// (a game created with an empty Outcome reads back "*").
	Outcome string
	// Resigned is the seat that resigned or forfeited, or -1.
	Resigned int
}

// Game is a stored game.
type Game struct {
	ID string
	// Spec is the canonical game spec, e.g. "pogo(u=false)".
	Spec string
	// Start is the starting position string, empty for the game's start.
	Start string
	Seats []Seat
	// Moves holds the moves in notation. Recent leaves it nil.
	Moves []string
	// MoveTimes holds when each move was played, alongside Moves (Recent
	// leaves it nil). Create takes it when it has one time per move, and
	// the creation time for each move otherwise.
	MoveTimes []time.Time
	// Rated reports whether the game counts for its players' ratings.
	Rated bool
	// Clock is the game's time control, nil for none.
	Clock *Clock
	// Ply is the number of moves played.
	Ply int
	// Status is Playing or Finished.
	Status string
	// End says how a finished game ended; its Resigned is -1 otherwise.
	End     End
	Created time.Time
	// Updated is when the game was created, joined or finished. (Moves
	// do not change it: a move writes only the move, so that commits stay
	// small; the live server knows the time of the last move.)
	Updated time.Time
}

// The kinds of Event.
const (
	// EventMove is a move committed at Event.Ply, Event.Move in notation.
	EventMove = "move"
	// EventJoin is a seat (Event.Ply) joined.
	EventJoin = "join"
	// EventFinish is a game ended by Finish (resignation, forfeit).
	EventFinish = "finish"
	// EventTakeBack is the move at Event.Ply taken back.
	EventTakeBack = "takeback"
	// EventJob is a computer move queued for the game at Event.Ply.
	EventJob = "job"
	// EventResync says that events may have been lost (the feed's
	// connection dropped): a watcher must reread the games it holds.
	EventResync = "resync"
)

// The kinds of Event that the server sends itself (Announce) about what
// no table keeps, so that every instance sharing the store hears it.
const (
	// EventRoom is news of a live game's room (Event.Game): a chat line,
	// the offers standing, the players' connections; Event.Move holds it
	// as the server encodes it.
	EventRoom = "room"
	// EventInstance is news of a server instance (Event.Game is its id):
	// Event.Move says whether it is alive or gone.
	EventInstance = "instance"
)

// MaxAnnounce is the largest Event.Move that Announce must carry, in
// bytes (PostgreSQL's NOTIFY takes payloads under 8,000 bytes, with the
// kind and game besides).
const MaxAnnounce = 7000

// CheckAnnounce returns an error for an event that Announce need not
// carry: a Move longer than MaxAnnounce, a Game with a space.
func CheckAnnounce(ev Event) error {
	switch {
	case len(ev.Move) > MaxAnnounce:
		return fmt.Errorf("announce %s: %d bytes of news; at most %d fit", ev.Kind, len(ev.Move), MaxAnnounce)
	case strings.ContainsAny(ev.Game+ev.Kind, " \t\n"):
		return fmt.Errorf("announce %s %q: want a kind and game without spaces", ev.Kind, ev.Game)
	}
	return nil
}

// Event is a change committed to a store, as Watch reports it.
type Event struct {
	Kind string
	Game string
	// Ply is the ply of a move or job, the seat of a join.
	Ply  int
	Move string
}

// Job is a computer move to make: the move of game Game at ply Ply. Jobs
// are shared by every process using the store: one claims a job for a
// lease, makes the move and marks the job done; a job whose lease expires
// before it is done (the process died) can be claimed again.
type Job struct {
	ID   int64
	Game string
	Ply  int
	// Owner is who holds the job's lease, empty when nobody has claimed it.
	Owner string
	// Attempts counts the claims of the job.
	Attempts int
	// Done reports that the job's move was made (or was no longer needed).
	Done bool
	// Due is when the job became ready to claim (ClaimJob fills it in).
	Due time.Time
	// Client is the address the game's player plays from, "" when
	// unknown: the computer moves are shared fairly between clients.
	Client string
}

// Games keeps the games: their seats, moves and endings, the part of a
// store that live play needs. Its methods are safe for concurrent use. A
// method that writes returns only once the write is committed.
type Games interface {
	// Create stores a new game with its seats (and moves, if any).
	Create(ctx context.Context, g *Game) error
	// Get returns a game with its seats and moves, or ErrNotFound.
	Get(ctx context.Context, id string) (*Game, error)
	// AppendMove stores the move played at ply (0-based: the number of
	// moves before it); end, when not nil, finishes the game in the same
	// transaction. A move already stored at that ply, or a move to a game
	// that is finished (by any process), is ErrConflict.
	AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *End) error
	// Join gives an open seat to a player: it sets the seat's token hash,
	// name and account (user, empty for a guest) and marks it joined (the
	// invite hash stays, so that a second use of the invite can be told
	// apart from a wrong one). A seat already joined is ErrConflict.
	Join(ctx context.Context, id string, seat int, tokenHash, name, user string, at time.Time) error
	// TakeBack deletes the last move of an unfinished game, the one at
	// ply, with the players' agreement. A game that is finished or whose
	// last move is not at ply is ErrConflict.
	TakeBack(ctx context.Context, id string, ply int) error
	// Finish ends a game at ply (the number of its moves) for a reason
	// the moves do not show (resignation, loss on time, agreement,
	// abort, forfeit). A game that is finished, or whose moves are not
	// ply in number (a move was stored meanwhile, by any process), is
	// ErrConflict: of a move and an ending at the same ply, exactly one
	// is stored.
	Finish(ctx context.Context, id string, ply int, end End, at time.Time) error
	// Unfinished returns every game still being played, with seats and
	// moves.
	Unfinished(ctx context.Context) ([]*Game, error)
	// Idle returns the ids of up to limit unfinished games with no move
	// and no change since before (neither created, joined nor moved in
	// since), least recently changed first: the games to expire.
	Idle(ctx context.Context, before time.Time, limit int) ([]string, error)
	// Recent returns up to limit games, most recently updated first, with
	// seats but without moves; status filters them when not empty.
	Recent(ctx context.Context, limit int, status string) ([]*Game, error)
	// List returns up to limit games whose ids sort after the given id
	// (byte order), in id order, with seats, moves and move times: a
	// walk over every game, a page at a time.
	List(ctx context.Context, after string, limit int) ([]*Game, error)
}

// Feed carries every committed change, and the news the servers announce,
// to every process sharing the store.
type Feed interface {
	// Watch calls fn for every change committed to the store from now on,
	// by this process or by any other sharing the database, until ctx is
	// done. It returns once the feed is listening. fn runs on one
	// goroutine, in commit order; when events may have been lost it gets
	// an EventResync.
	Watch(ctx context.Context, fn func(Event)) error
	// Announce sends an event to every watcher of the store, whichever
	// process they are in, without writing anything else; ev.Move is at
	// most MaxAnnounce bytes and ev.Game holds no space.
	Announce(ctx context.Context, ev Event) error
}

// Jobs queues the computer moves, shared by every process that computes
// them.
type Jobs interface {
	// AddJob queues the computer move of game id at ply for client (the
	// address the game's player plays from, "" when unknown), to be made
	// no sooner than after delay. Queuing a job that is queued or claimed
	// does nothing; queuing one that is done queues it again (the move
	// was taken back).
	AddJob(ctx context.Context, id string, ply int, client string, delay time.Duration) error
	// ClaimJob gives owner a job that is ready (queued and past its
	// delay, or whose lease expired) for lease, or nil when none is; then
	// wait is how long until the next one will be (0 for none known). The
	// clients take turns: of the ready jobs, those of the client with the
	// fewest jobs in flight (claimed, leases running) come first, oldest
	// first among them, and a client with perClient jobs in flight waits
	// (clients "" are not counted). Of several processes claiming at
	// once, each gets a different job.
	ClaimJob(ctx context.Context, owner string, lease time.Duration, perClient int) (job *Job, wait time.Duration, err error)
	// DoneJob marks a job done. It is ErrConflict when owner no longer
	// holds the job's lease.
	DoneJob(ctx context.Context, id int64, owner string) error
	// ReleaseJob gives a job back, ready to be claimed at once (its
	// worker is stopping). It is ErrConflict when owner no longer holds
	// the job's lease.
	ReleaseJob(ctx context.Context, id int64, owner string) error
	// Jobs returns the jobs of a game, in ply order.
	Jobs(ctx context.Context, id string) ([]Job, error)
}

// Store is what every server needs: the games, their feed, the computer
// moves' jobs, and when the site was served (Uptime). The site's other domains keep their records in the
// stores that implement their interfaces too (Users, Ratings, Seeks), and
// a store without them serves games alone.
type Store interface {
	Games
	Feed
	Jobs
	Uptime
	// Ping checks that the store answers and accepts writes: it commits
	// a write that changes nothing, so that a read-only or full database
	// fails it.
	Ping(ctx context.Context) error
	// Close releases the store; pending writes are finished first.
	Close() error
}
