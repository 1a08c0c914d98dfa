package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"stax/server/store"
)

// feedBuffer bounds the events waiting for one watcher; past it the
// watcher gets an EventResync instead of the events it missed.
const feedBuffer = 4096

// feed reports committed changes to the watchers of this process (a SQLite
// database is used by one process), whichever Store made them.
type feed struct {
	mu       sync.Mutex
	watchers map[*watcher]struct{}
}

type watcher struct {
	ch   chan store.Event
	lost bool // guarded by feed.mu: events were dropped
}

var (
	feedsMu sync.Mutex
	feeds   = map[string]*feed{}
)

// feedOf returns the feed of the database file at path.
func feedOf(path string) *feed {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	feedsMu.Lock()
	defer feedsMu.Unlock()
	f := feeds[path]
	if f == nil {
		f = &feed{watchers: map[*watcher]struct{}{}}
		feeds[path] = f
	}
	return f
}

// emit reports ev to every watcher without blocking.
func (f *feed) emit(ev store.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.watchers {
		select {
		case w.ch <- ev:
		default:
			w.lost = true
		}
	}
}

// Watch implements store.Store.
func (s *Store) Watch(ctx context.Context, fn func(store.Event)) error {
	w := &watcher{ch: make(chan store.Event, feedBuffer)}
	f := s.feed
	f.mu.Lock()
	f.watchers[w] = struct{}{}
	f.mu.Unlock()
	go func() {
		defer func() {
			f.mu.Lock()
			delete(f.watchers, w)
			f.mu.Unlock()
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-w.ch:
				fn(ev)
			}
			f.mu.Lock()
			lost := w.lost && len(w.ch) == 0
			if lost {
				w.lost = false
			}
			f.mu.Unlock()
			if lost {
				fn(store.Event{Kind: store.EventResync})
			}
		}
	}()
	return nil
}

// Announce implements store.Store: a SQLite database is used by one
// process, whose feed carries the event.
func (s *Store) Announce(ctx context.Context, ev store.Event) error {
	if err := store.CheckAnnounce(ev); err != nil {
		return err
	}
	s.feed.emit(ev)
	return nil
}

// AddJob implements store.Store.
func (s *Store) AddJob(ctx context.Context, id string, ply int, client string, delay time.Duration) error {
	return s.writeEvent(ctx, &store.Event{Kind: store.EventJob, Game: id, Ply: ply}, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO jobs (game_id, ply, not_before, client) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id, ply) DO UPDATE SET owner = '', attempts = 0, not_before = excluded.not_before, leased_until = 0, done_at = 0,
				client = excluded.client
			WHERE jobs.done_at != 0`,
			id, ply, ms(time.Now().Add(delay)), client)
		if isConstraint(err) {
			return fmt.Errorf("game %s job %d: %w: no such game", id, ply, store.ErrConflict)
		}
		return err
	})
}

// ClaimJob implements store.Store. The writer runs the claim, one at a
// time, so two claims never get the same job.
func (s *Store) ClaimJob(ctx context.Context, owner string, lease time.Duration, perClient int) (*store.Job, time.Duration, error) {
	var job *store.Job
	now := time.Now()
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		j := store.Job{Owner: owner}
		var due int64
		// Due is the time the job was queued for, or the lease that
		// expired, read before the update (SQLite's RETURNING sees the
		// new row).
		// The jobs in flight of each client are counted at now: a
		// client with perClient of them waits, and the clients with the
		// fewest come first; among those, the client served longest ago
		// (its latest lease), so that the clients take turns.
		const inFlight = `(SELECT COUNT(*) FROM jobs f WHERE f.client = j.client AND f.client != ''
			AND f.done_at = 0 AND f.owner != '' AND f.leased_until > ?)`
		const lastServed = `(SELECT COALESCE(MAX(f.leased_until), 0) FROM jobs f WHERE f.client = j.client AND f.client != '')`
		err := tx.QueryRowContext(ctx, `UPDATE jobs SET owner = ?, attempts = attempts + 1, leased_until = ?
			WHERE id = (SELECT id FROM jobs j WHERE done_at = 0
				AND ((owner = '' AND not_before <= ?) OR (owner != '' AND leased_until <= ?))
				AND `+inFlight+` < ?
				ORDER BY `+inFlight+`, `+lastServed+`, not_before, id LIMIT 1)
			RETURNING id, game_id, ply, attempts, not_before, client`, owner, ms(now.Add(lease)), ms(now), ms(now), ms(now), perClient, ms(now)).Scan(&j.ID, &j.Game, &j.Ply, &j.Attempts, &due, &j.Client)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		j.Due = fromMS(due)
		job = &j
		return nil
	})
	if err != nil || job != nil {
		return job, 0, err
	}
	var next sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT MIN(CASE WHEN owner = '' THEN not_before ELSE leased_until END) FROM jobs WHERE done_at = 0`).Scan(&next); err != nil {
		return nil, 0, err
	}
	if !next.Valid {
		return nil, 0, nil
	}
	// A job ready but held by its client's jobs in flight waits for one
	// of them (or for the feed's news of a job).
	if wait := time.Until(fromMS(next.Int64)); wait > 0 {
		return nil, max(wait, time.Millisecond), nil
	}
	return nil, heldWait, nil
}

// DoneJob implements store.Store.
func (s *Store) DoneJob(ctx context.Context, id int64, owner string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE jobs SET done_at = ? WHERE id = ? AND owner = ? AND done_at = 0`, ms(time.Now()), id, owner)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("job %d: %w: %s no longer holds it", id, store.ErrConflict, owner)
		}
		return nil
	})
}

// ReleaseJob implements store.Store.
func (s *Store) ReleaseJob(ctx context.Context, id int64, owner string) error {
	ev := &store.Event{Kind: store.EventJob}
	return s.writeEvent(ctx, ev, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE jobs SET owner = '', leased_until = 0, not_before = ? WHERE id = ? AND owner = ? AND done_at = 0
			RETURNING game_id, ply`, ms(time.Now()), id, owner).Scan(&ev.Game, &ev.Ply)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("job %d: %w: %s no longer holds it", id, store.ErrConflict, owner)
		}
		return err
	})
}

// Jobs implements store.Store.
func (s *Store) Jobs(ctx context.Context, id string) ([]store.Job, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, game_id, ply, owner, attempts, done_at != 0, not_before, client FROM jobs WHERE game_id = ? ORDER BY ply`, id)
	if err != nil {
		return nil, fmt.Errorf("game %s jobs: %w", id, err)
	}
	defer rows.Close()
	var out []store.Job
	for rows.Next() {
		var j store.Job
		var due int64
		if err := rows.Scan(&j.ID, &j.Game, &j.Ply, &j.Owner, &j.Attempts, &j.Done, &due, &j.Client); err != nil {
			return nil, fmt.Errorf("game %s jobs: %w", id, err)
		}
		j.Due = fromMS(due)
		out = append(out, j)
	}
	return out, rows.Err()
}

// heldWait is how long ClaimJob tells a worker to wait when the ready jobs
// are held by their clients' jobs in flight.
const heldWait = 50 * time.Millisecond
