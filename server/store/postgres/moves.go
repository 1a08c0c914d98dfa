package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"stax/server/store"
)

// A moveWriter commits the moves of many games in one transaction, with
// their notifications.
//
// PostgreSQL serialises every transaction that notifies on one lock, held
// until its commit is flushed to disk. When each move was a transaction of
// its own that notified, the moves of every instance queued on that lock,
// and a backend holding it while it waited for a CPU held all of them back:
// at 1,000 moves/s on two shared cores nearly every busy backend was found
// waiting for it, and the relay's p99 was 270 ms (docs/performance.md). So
// a few goroutines per store write the moves waiting at that moment in one
// statement (one insert of them all, one notification each, one commit and
// one flush), and the next batch gathers while it commits. The lock is then
// wanted once a batch, not once a move, and a move's row and its
// notification still commit together.
//
// A game has one move at a time in the writer (the server holds the game's
// lock while it stores a move), so batches committing side by side never
// reorder a game's moves.
type moveWriter struct {
	pool *pgxpool.Pool

	mu      sync.Mutex
	pending []*pendingMove // in arrival order
	wake    chan struct{}  // signalled when pending grows

	stop context.CancelFunc
	done chan struct{} // closed when the writer has stopped
}

// A pendingMove is a move waiting to be written and, once written, the
// result.
type pendingMove struct {
	game, move string
	ply        int
	at         time.Time
	payload    string

	written chan struct{}
	stored  bool  // false: the ply was taken, or the game does not exist
	err     error // the batch failed: the move is not stored
}

// maxBatch bounds the moves of one transaction.
const maxBatch = 256

// moveWriters is how many batches may commit at once.
const moveWriters = 4

func newMoveWriter(pool *pgxpool.Pool) *moveWriter {
	ctx, stop := context.WithCancel(context.Background())
	w := &moveWriter{pool: pool, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	var wg sync.WaitGroup
	for range moveWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(ctx)
		}()
	}
	go func() {
		wg.Wait()
		close(w.done)
	}()
	return w
}

// write stores a move with the moves other games asked to store meanwhile
// and waits until they are committed. It reports whether the move was
// stored: false when the ply was taken or the game does not exist.
func (w *moveWriter) write(ctx context.Context, game string, ply int, move string, at time.Time) (bool, error) {
	m := &pendingMove{game: game, ply: ply, move: move, at: at, written: make(chan struct{}),
		payload: payload(store.Event{Kind: store.EventMove, Game: game, Ply: ply, Move: move})}
	w.mu.Lock()
	w.pending = append(w.pending, m)
	w.mu.Unlock()
	w.signal()
	select {
	case <-m.written:
		return m.stored, m.err
	case <-ctx.Done():
		// The batch may still commit it; the caller is told it did not
		// (and a later move at this ply finds it taken).
		return false, ctx.Err()
	case <-w.done:
		return false, errStoreClosed
	}
}

// run writes what is pending, batch after batch, until close. Several run
// at once: while one batch commits, the next gathers and the next writer
// takes it.
func (w *moveWriter) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		}
		for {
			w.mu.Lock()
			batch := w.pending[:min(len(w.pending), maxBatch)]
			w.pending = w.pending[len(batch):]
			more := len(w.pending) > 0
			if !more {
				w.pending = nil // let the backing array go
			}
			w.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			if more {
				w.signal() // another writer takes the rest
			}
			err := w.commit(ctx, batch)
			for _, m := range batch {
				m.err = err
				close(m.written)
			}
		}
	}
}

// signal wakes a writer.
func (w *moveWriter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// commit inserts the batch's moves, skipping those whose ply is taken or
// whose game does not exist, and notifies the others, in one transaction.
// Of two moves of one batch at the same ply of one game, the first is the
// one tried.
func (w *moveWriter) commit(ctx context.Context, batch []*pendingMove) error {
	type key struct {
		game string
		ply  int
	}
	seen := make(map[key]bool, len(batch))
	var games, moves, payloads []string
	var plies []int32
	var ats []time.Time
	var tried []*pendingMove
	for _, m := range batch {
		k := key{m.game, m.ply}
		if seen[k] {
			continue // taken by the first: not stored
		}
		seen[k] = true
		tried = append(tried, m)
		games, plies, moves, ats, payloads = append(games, m.game), append(plies, int32(m.ply)), append(moves, m.move), append(ats, m.at), append(payloads, m.payload)
	}
	// One statement, so one transaction and one round trip.
	rows, err := w.pool.Query(ctx, `WITH m AS (
				INSERT INTO moves (game_id, ply, move, at)
				SELECT g, p, mv, t FROM unnest($1::text[], $2::integer[], $3::text[], $4::timestamptz[]) AS u(g, p, mv, t)
				WHERE EXISTS (SELECT 1 FROM games WHERE games.id = u.g)
				ON CONFLICT DO NOTHING
				RETURNING game_id, ply)
			SELECT u.i - 1, pg_notify($5, u.note)
			FROM m JOIN unnest($1::text[], $2::integer[], $6::text[]) WITH ORDINALITY AS u(g, p, note, i)
				ON u.g = m.game_id AND u.p = m.ply`,
		games, plies, moves, ats, channel, payloads)
	if err != nil {
		return fmt.Errorf("postgres: store %d moves: %w", len(tried), err)
	}
	defer rows.Close()
	var stored []int
	for rows.Next() {
		var i int
		if err := rows.Scan(&i, nil); err != nil {
			return fmt.Errorf("postgres: store %d moves: %w", len(tried), err)
		}
		stored = append(stored, i)
	}
	if err := rows.Err(); err != nil {
		// Not committed: none is stored.
		return fmt.Errorf("postgres: store %d moves: %w", len(tried), err)
	}
	for _, i := range stored {
		tried[i].stored = true
	}
	return nil
}

// close stops the writer; the moves still pending get errStoreClosed.
func (w *moveWriter) close() {
	w.stop()
	<-w.done
}
