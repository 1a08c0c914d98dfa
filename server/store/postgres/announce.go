package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// An announcer sends news, the events that no table keeps (chat lines,
// offers, connections: Store.Announce), many in one transaction.
//
// PostgreSQL serialises every transaction that notifies on one lock, held
// until its commit is flushed to disk (see moveWriter). News is not data
// to keep, and a listener that loses its connection asks again for what
// it holds, so the announcer's transactions do not wait for a flush: the
// lock is held only while the notifications are queued. One goroutine
// sends the batches, in the order the news came, so the news of one game
// keeps its order. A caller waits until its news is sent.
type announcer struct {
	pool *pgxpool.Pool

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

func newAnnouncer(pool *pgxpool.Pool) *announcer {
	ctx, stop := context.WithCancel(context.Background())
	a := &announcer{pool: pool, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
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
		err = pgx.BeginFunc(ctx, a.pool, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue("SET LOCAL synchronous_commit = off")
			for _, n := range batch {
				b.Queue("SELECT pg_notify($1, $2)", channel, n.payload)
			}
			return tx.SendBatch(ctx, b).Close()
		})
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

// close stops the sender; the notifications still pending get
// errStoreClosed.
func (a *announcer) close() {
	a.stop()
	<-a.done
}
