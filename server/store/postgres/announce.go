package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// An announcer sends the notifications of every write that the other
// instances must see (moves, joins, endings, takebacks, seeks, queued
// computer moves), once the write is committed, and news, the events no
// table keeps (Store.Announce: chat lines, offers, connections), many in
// one transaction.
//
// PostgreSQL serialises every transaction that notifies on one lock, held
// until its commit is flushed to disk. When each move notified inside its
// own transaction, the moves of every instance queued on that lock, and a
// backend holding it while it waited for a CPU held all of them back: at
// 1,000 moves/s on two shared cores nearly every busy backend was found
// waiting for it (docs/performance-history.md). Writing many moves in one
// statement that notified did not help: the lock was still held across
// each flush. The joins and endings that still notified in their own
// transactions made the same queue whenever many came at once (games
// starting or ending together): 20 to 47 backends were found waiting on
// the lock, and the moves' notifications behind them. So a write is
// committed, and flushed, on its own, in parallel with the others
// (PostgreSQL flushes concurrent commits together), and its notification
// then goes out with the others waiting at that moment, in one
// transaction that does not wait for a flush: a notification is not data
// to keep, and a listener that loses its connection rereads what it holds
// anyway. The lock is then held only while the notifications are queued.
//
// One goroutine sends the batches, in the order the notifications came, so
// the notifications of one game keep their order, on a connection of its
// own: every write waits for its announcement, so the announcer must not
// wait for a connection of the pool behind those writes (in a burst of
// joins and endings it did, for tens to hundreds of milliseconds, with
// all sixteen connections taken). A caller waits until its
// notification is sent, so a move acknowledged to its player has been
// announced to the other instances. An instance that dies between a move's
// commit and its announcement leaves the others behind until they reread
// the game, which they do before serving a player or flagging a seat.
type announcer struct {
	connect func(context.Context) (*pgx.Conn, error)
	conn    *pgx.Conn // used by run's goroutine only; nil until needed

	mu      sync.Mutex
	pending []*announcement // in arrival order
	wake    chan struct{}   // signalled when pending grows

	stop context.CancelFunc
	done chan struct{} // closed when the sender has stopped
}

// An announcement is a notification's payload and the result of sending
// it.
type announcement struct {
	payload string
	sent    chan struct{}
	err     error
}

// maxAnnouncements bounds the notifications of one transaction.
const maxAnnouncements = 256

// announceAttempts is how many times a batch is tried before it is given
// up; announceRetry is the pause before the second attempt, doubled after
// each failure.
const (
	announceAttempts = 4
	announceRetry    = 50 * time.Millisecond
)

// errStoreClosed answers the notifications pending when the store closes.
var errStoreClosed = errors.New("postgres: the store is closed")

// newAnnouncer starts an announcer that sends on connections made by
// connect.
func newAnnouncer(connect func(context.Context) (*pgx.Conn, error)) *announcer {
	ctx, stop := context.WithCancel(context.Background())
	a := &announcer{connect: connect, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go a.run(ctx)
	return a
}

// announce sends payload on the feed's channel, with the notifications
// other callers asked for meanwhile, and waits until they are sent.
func (a *announcer) announce(ctx context.Context, payload string) error {
	n := &announcement{payload: payload, sent: make(chan struct{})}
	a.mu.Lock()
	a.pending = append(a.pending, n)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
	select {
	case <-n.sent:
		return n.err
	case <-ctx.Done():
		return ctx.Err()
	case <-a.done:
		return errStoreClosed
	}
}

// run sends what is pending, batch after batch, until close.
func (a *announcer) run(ctx context.Context) {
	defer close(a.done)
	defer a.hangUp()
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.wake:
		}
		for {
			a.mu.Lock()
			batch := a.pending[:min(len(a.pending), maxAnnouncements)]
			a.pending = a.pending[len(batch):]
			if len(a.pending) == 0 {
				a.pending = nil // let the backing array go
			}
			a.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			err := a.send(ctx, batch)
			for _, n := range batch {
				n.err = err
				close(n.sent)
			}
		}
	}
}

// send notifies the batch's payloads in one transaction that does not wait
// for its commit to be flushed, retrying a failed attempt.
func (a *announcer) send(ctx context.Context, batch []*announcement) error {
	wait := announceRetry
	var err error
	for attempt := 1; ; attempt++ {
		if a.conn == nil {
			a.conn, err = a.connect(ctx)
		}
		if a.conn != nil {
			err = pgx.BeginFunc(ctx, a.conn, func(tx pgx.Tx) error {
				b := &pgx.Batch{}
				b.Queue("SET LOCAL synchronous_commit = off")
				for _, n := range batch {
					b.Queue("SELECT pg_notify($1, $2)", channel, n.payload)
				}
				return tx.SendBatch(ctx, b).Close()
			})
			if err != nil {
				// The next attempt starts on a new connection.
				a.hangUp()
			}
		}
		if err == nil || attempt == announceAttempts || ctx.Err() != nil {
			break
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
		wait *= 2
	}
	if err != nil {
		return fmt.Errorf("postgres: announce %d changes: %w", len(batch), err)
	}
	return nil
}

// hangUp closes the sender's connection, if it has one.
func (a *announcer) hangUp() {
	if a.conn != nil {
		a.conn.Close(context.Background())
		a.conn = nil
	}
}

// close stops the sender; the notifications still pending get
// errStoreClosed.
func (a *announcer) close() {
	a.stop()
	<-a.done
}
