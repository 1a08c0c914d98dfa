package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// channel is the NOTIFY channel of the change feed. A payload is the
// event's kind, game, ply and move, separated by spaces (moves hold none).
const channel = "stax_events"

func payload(ev store.Event) string {
	p := ev.Kind + " " + ev.Game + " " + strconv.Itoa(ev.Ply)
	if ev.Move != "" {
		p += " " + ev.Move
	}
	return p
}

func parsePayload(p string) (store.Event, error) {
	f := strings.SplitN(p, " ", 4)
	if len(f) < 3 {
		return store.Event{}, fmt.Errorf("notification %q: want kind, game and ply", p)
	}
	ply, err := strconv.Atoi(f[2])
	if err != nil {
		return store.Event{}, fmt.Errorf("notification %q: ply: %w", p, err)
	}
	ev := store.Event{Kind: f[0], Game: f[1], Ply: ply}
	if len(f) == 4 {
		ev.Move = f[3]
	}
	return ev, nil
}

// Watch implements store.Store with LISTEN on a connection of its own:
// every write that others must see is announced with a NOTIFY just after
// its commit (see announcer), in the order of the announcements of each
// instance. The writes of two instances may be announced in another order
// than their commits' (an ending before the move just before it), which
// the server meets by rereading the game.
// When the connection drops, Watch reconnects and reports an
// EventResync.
func (s *Store) Watch(ctx context.Context, fn func(store.Event)) error {
	conn, err := s.listen(ctx)
	if err != nil {
		return fmt.Errorf("postgres: watch: %w", err)
	}
	go func() {
		backoff := 100 * time.Millisecond
		for {
			for conn != nil {
				n, err := conn.WaitForNotification(ctx)
				if err != nil {
					conn.Close(context.Background())
					conn = nil
					break
				}
				backoff = 100 * time.Millisecond
				ev, err := parsePayload(n.Payload)
				if err != nil {
					continue // not ours
				}
				fn(ev)
			}
			if ctx.Err() != nil {
				return
			}
			t := time.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			backoff = min(2*backoff, 5*time.Second)
			if conn, err = s.listen(ctx); err == nil {
				fn(store.Event{Kind: store.EventResync})
			}
		}
	}()
	return nil
}

// Announce implements store.Store with a NOTIFY, sent by the announcer
// in the order they were asked for.
func (s *Store) Announce(ctx context.Context, ev store.Event) error {
	if err := store.CheckAnnounce(ev); err != nil {
		return err
	}
	if err := s.announce.announce(ctx, payload(ev)); err != nil {
		return fmt.Errorf("announce: %w", err)
	}
	return nil
}

// listen opens a connection that listens to the feed's channel.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// AddJob implements store.Store.
func (s *Store) AddJob(ctx context.Context, id string, ply int, client string, delay time.Duration) error {
	tag, err := s.pool.Exec(ctx, `INSERT INTO jobs (game_id, ply, not_before, client) VALUES ($1, $2, now() + $3 * interval '1 millisecond', $4)
		ON CONFLICT (game_id, ply) DO UPDATE SET owner = '', attempts = 0, not_before = excluded.not_before,
			leased_until = NULL, done_at = NULL, client = excluded.client
		WHERE jobs.done_at IS NOT NULL`,
		id, ply, delay.Milliseconds(), client)
	if isConflict(err) {
		return fmt.Errorf("game %s job %d: %w: no such game", id, ply, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("game %s job %d: %w", id, ply, err)
	}
	if tag.RowsAffected() == 1 {
		s.tell(ctx, store.Event{Kind: store.EventJob, Game: id, Ply: ply})
	}
	return nil
}

// ClaimJob implements store.Store with SELECT ... FOR UPDATE SKIP LOCKED,
// so that workers claiming at once each get a different job without
// waiting for each other. Times are the database's clock, which every
// process shares.
func (s *Store) ClaimJob(ctx context.Context, owner string, lease time.Duration, perClient int) (*store.Job, time.Duration, error) {
	j := store.Job{Owner: owner}
	// The jobs in flight of each client are counted at now: a client with
	// perClient of them waits, and the clients with the fewest come first;
	// among those, the client served longest ago (its latest lease), so
	// that the clients take turns.
	const inFlight = `(SELECT COUNT(*) FROM jobs f WHERE f.client = j.client AND f.client <> ''
		AND f.done_at IS NULL AND f.owner <> '' AND f.leased_until > now())`
	const lastServed = `(SELECT COALESCE(MAX(f.leased_until), '-infinity') FROM jobs f WHERE f.client = j.client AND f.client <> '')`
	err := s.pool.QueryRow(ctx, `UPDATE jobs SET owner = $1, attempts = attempts + 1,
			leased_until = now() + $2 * interval '1 millisecond'
		WHERE id = (SELECT id FROM jobs j WHERE done_at IS NULL
			AND ((owner = '' AND not_before <= now()) OR (owner <> '' AND leased_until <= now()))
			AND `+inFlight+` < $3
			ORDER BY `+inFlight+`, `+lastServed+`, not_before, id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING id, game_id, ply, attempts, not_before, client`, owner, lease.Milliseconds(), perClient).Scan(&j.ID, &j.Game, &j.Ply, &j.Attempts, &j.Due, &j.Client)
	if err == nil {
		j.Due = j.Due.UTC()
		return &j, 0, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, fmt.Errorf("claim job: %w", err)
	}
	var wait *float64
	err = s.pool.QueryRow(ctx, `SELECT EXTRACT(EPOCH FROM MIN(CASE WHEN owner = '' THEN not_before ELSE leased_until END) - now())
		FROM jobs WHERE done_at IS NULL`).Scan(&wait)
	if err != nil {
		return nil, 0, fmt.Errorf("claim job: %w", err)
	}
	if wait == nil {
		return nil, 0, nil
	}
	// A job ready but held by its client's jobs in flight waits for one
	// of them (or for the feed's news of a job).
	if w := time.Duration(*wait * float64(time.Second)); w > 0 {
		return nil, max(w, time.Millisecond), nil
	}
	return nil, heldWait, nil
}

// DoneJob implements store.Store.
func (s *Store) DoneJob(ctx context.Context, id int64, owner string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE jobs SET done_at = now() WHERE id = $1 AND owner = $2 AND done_at IS NULL`, id, owner)
	if err != nil {
		return fmt.Errorf("job %d: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("job %d: %w: %s no longer holds it", id, store.ErrConflict, owner)
	}
	return nil
}

// ReleaseJob implements store.Store.
func (s *Store) ReleaseJob(ctx context.Context, id int64, owner string) error {
	var game string
	var ply int
	err := s.pool.QueryRow(ctx, `UPDATE jobs SET owner = '', leased_until = NULL, not_before = now()
		WHERE id = $1 AND owner = $2 AND done_at IS NULL RETURNING game_id, ply`, id, owner).Scan(&game, &ply)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("job %d: %w: %s no longer holds it", id, store.ErrConflict, owner)
	}
	if err != nil {
		return fmt.Errorf("job %d: %w", id, err)
	}
	s.tell(ctx, store.Event{Kind: store.EventJob, Game: game, Ply: ply})
	return nil
}

// Jobs implements store.Store.
func (s *Store) Jobs(ctx context.Context, id string) ([]store.Job, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, game_id, ply, owner, attempts, done_at IS NOT NULL, not_before, client FROM jobs WHERE game_id = $1 ORDER BY ply`, id)
	if err != nil {
		return nil, fmt.Errorf("game %s jobs: %w", id, err)
	}
	jobs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[store.Job])
	if err != nil {
		return nil, fmt.Errorf("game %s jobs: %w", id, err)
	}
	for i := range jobs {
		jobs[i].Due = jobs[i].Due.UTC()
	}
	return jobs, nil
}

// heldWait is how long ClaimJob tells a worker to wait when the ready jobs
// are held by their clients' jobs in flight.
const heldWait = 50 * time.Millisecond
