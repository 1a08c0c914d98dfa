// Package postgres implements store.Store with PostgreSQL (jackc/pgx,
// pgxpool).
//
// Several servers may share one database: each game's moves are ordered by
// the primary key (game, ply), so of two writers of one ply exactly one
// wins. The embedded migrations are applied on open under an advisory lock,
// so servers starting together migrate once.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"stax/server/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the key of the advisory lock held while migrating.
const migrationLock = 0x73746178_6d696772 // "staxmigr"

// Options tune a Store.
type Options struct {
	// MaxConns bounds the pool's connections (default: the URL's
	// pool_max_conns, or 16). Each commit holds a connection until
	// PostgreSQL has flushed it, so the pool bounds the commits in flight,
	// which PostgreSQL flushes together. A Store holds two connections
	// besides: one listening to the change feed, one announcing to it.
	MaxConns int
}

// defaultMaxConns is the pool size when neither Options nor the URL set
// one: pgxpool's own default (4 on two cores) was measured to bound a
// server's commits (docs/performance.md).
const defaultMaxConns = 16

// IsURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Store is a PostgreSQL store.Store.
type Store struct {
	pool     *pgxpool.Pool
	url      string
	announce *announcer // the notifications of moves, and news
}

// Open connects to the database at url and migrates it.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	switch {
	case opt.MaxConns > 0:
		cfg.MaxConns = int32(opt.MaxConns)
	case !strings.Contains(url, "pool_max_conns"):
		cfg.MaxConns = defaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{pool: pool, url: url}
	if err := s.migrate(ctx, 0); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	s.announce = newAnnouncer(func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	})
	return s, nil
}

// migrate applies the embedded migrations not yet recorded in
// schema_migrations, each in its own transaction, while holding an advisory
// lock, so that servers starting together migrate once. upTo, when not 0,
// stops after that version (for the tests of a migration).
func (s *Store) migrate(ctx context.Context, upTo int) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLock)); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(migrationLock))
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	var have int
	if err := conn.QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&have); err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return fmt.Errorf("migration %s: name must start with a number", base)
		}
		if v <= have || upTo > 0 && v > upTo {
			continue
		}
		text, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(text)); err != nil {
				return fmt.Errorf("migration %s: %w", base, err)
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", v, base)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Migrations returns the versions of the migrations applied, oldest first.
func (s *Store) Migrations(ctx context.Context) ([]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

// isConflict reports whether err is a unique or foreign key violation.
func isConflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "23503")
}

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, g *store.Game) error {
	status := g.Status
	if status == "" {
		status = store.Playing
	}
	outcome := g.End.Outcome
	if outcome == "" {
		outcome = "*"
	}
	b := &pgx.Batch{}
	initial, increment, days := store.ClockColumns(g.Clock)
	b.Queue(`INSERT INTO games (id, spec, start, status, outcome, resigned, ply, created, updated,
		rated, clock_initial_ms, clock_increment_ms, clock_days)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		g.ID, g.Spec, g.Start, status, outcome, g.End.Resigned, len(g.Moves), g.Created, g.Updated,
		g.Rated, initial, increment, days)
	for i, st := range g.Seats {
		b.Queue(`INSERT INTO seats (game_id, seat, kind, level, name, token_hash, invite_hash, joined, user_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, g.ID, i, st.Kind, st.Level, st.Name, st.TokenHash, st.InviteHash, st.Joined, st.User)
	}
	for i, m := range g.Moves {
		at := g.Created
		if len(g.MoveTimes) == len(g.Moves) {
			at = g.MoveTimes[i]
		}
		b.Queue(`INSERT INTO moves (game_id, ply, move, at) VALUES ($1, $2, $3, $4)`, g.ID, i, m, at)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	if isConflict(err) {
		return fmt.Errorf("game %s: %w: the id exists", g.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	return nil
}

// AppendMove implements store.Store. The move's row (with the game's
// ending, when it ends the game) is committed first, then the move is
// announced to the instances watching (see announcer), and AppendMove
// returns once both are done. A move whose announcement fails after
// retries is stored all the same; the other instances read it when they
// next reread the game (a player connecting, a seat about to be flagged, a
// conflicting move, their feed reconnecting).
func (s *Store) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *store.End) error {
	// A move is stored only in a game still being played: the insert
	// holds the game's row with FOR SHARE, which Finish's FOR UPDATE
	// waits for (and the other way round), so that of a move and an
	// ending at the same ply exactly one is stored.
	const insert = `INSERT INTO moves (game_id, ply, move, at)
		SELECT $1, $2, $3, $4 FROM games WHERE id = $1 AND status = 'playing' FOR SHARE`
	var err error
	stored := true
	if end == nil {
		// A move writes only its row, as in the SQLite store; the game's
		// ply and update time are written when it ends.
		var tag pgconn.CommandTag
		tag, err = s.pool.Exec(ctx, insert, id, ply, move, at)
		stored = err != nil || tag.RowsAffected() == 1
	} else {
		err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			// The row first, for update: two endings at once wait for
			// each other instead of deadlocking.
			if _, err := tx.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, id); err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, insert, id, ply, move, at)
			if err != nil {
				return err
			}
			if stored = tag.RowsAffected() == 1; !stored {
				return nil
			}
			_, err = tx.Exec(ctx, `UPDATE games SET ply = $1, updated = $2, status = $3, outcome = $4, resigned = $5 WHERE id = $6`,
				ply+1, at, store.Finished, end.Outcome, end.Resigned, id)
			return err
		})
	}
	if isConflict(err) {
		return fmt.Errorf("game %s ply %d: %w: a move was already stored there, or the game does not exist", id, ply, store.ErrConflict)
	}
	if err == nil && !stored {
		return fmt.Errorf("game %s ply %d: %w: the game is over or does not exist", id, ply, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("game %s ply %d: %w", id, ply, err)
	}
	s.tell(ctx, store.Event{Kind: store.EventMove, Game: id, Ply: ply, Move: move})
	return nil
}

// Join implements store.Store.
func (s *Store) Join(ctx context.Context, id string, seat int, tokenHash, name, user string, at time.Time) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE seats SET token_hash = $1, name = $2, user_id = $3, joined = true
			WHERE game_id = $4 AND seat = $5 AND NOT joined`, tokenHash, name, user, id, seat)
		if err != nil {
			return fmt.Errorf("game %s join seat %d: %w", id, seat, err)
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("game %s seat %d: %w: the seat has been taken", id, seat, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET updated = $1 WHERE id = $2`, at, id); err != nil {
			return fmt.Errorf("game %s join seat %d: %w", id, seat, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.tell(ctx, store.Event{Kind: store.EventJoin, Game: id, Ply: seat})
	return nil
}

// Finish implements store.Store.
func (s *Store) Finish(ctx context.Context, id string, ply int, end store.End, at time.Time) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The game's row for update waits for the moves being inserted
		// (they hold it FOR SHARE); the count that follows, a statement
		// of its own, sees them once committed.
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("game %s: %w: it does not exist", id, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("game %s finish: %w", id, err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM moves WHERE game_id = $1`, id).Scan(&n); err != nil {
			return fmt.Errorf("game %s finish: %w", id, err)
		}
		if status == store.Finished || n != ply {
			return fmt.Errorf("game %s at ply %d: %w: it is finished or has moved on (%s, %d moves)", id, ply, store.ErrConflict, status, n)
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET updated = $1, status = $2, outcome = $3, resigned = $4, ply = $5 WHERE id = $6`,
			at, store.Finished, end.Outcome, end.Resigned, ply, id); err != nil {
			return fmt.Errorf("game %s finish: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.tell(ctx, store.Event{Kind: store.EventFinish, Game: id})
	return nil
}

// tell announces ev, a change just committed, to the instances watching,
// and returns once it is sent (see announcer). A change whose announcement
// fails after retries is stored all the same: the instances read it when
// they next reread what it changed, as they do after their feed
// reconnects.
func (s *Store) tell(ctx context.Context, ev store.Event) {
	_ = s.announce.announce(ctx, payload(ev))
}

// gameCols are the columns scanGame reads; the ply is counted from the
// moves, since a move does not update its game's row.
const gameCols = `id, spec, start, status, outcome, resigned,
	(SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id), created, updated,
	rated, clock_initial_ms, clock_increment_ms, clock_days`

func scanGame(row pgx.Row) (*store.Game, error) {
	var g store.Game
	var initial, increment int64
	var days int
	err := row.Scan(&g.ID, &g.Spec, &g.Start, &g.Status, &g.End.Outcome, &g.End.Resigned, &g.Ply, &g.Created, &g.Updated,
		&g.Rated, &initial, &increment, &days)
	if err != nil {
		return nil, err
	}
	g.Created, g.Updated = g.Created.UTC(), g.Updated.UTC()
	g.Clock = store.ClockFromColumns(initial, increment, days)
	return &g, nil
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, id string) (*store.Game, error) {
	g, err := scanGame(s.pool.QueryRow(ctx, `SELECT `+gameCols+` FROM games WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("game %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	if err := s.fill(ctx, []*store.Game{g}, true); err != nil {
		return nil, err
	}
	return g, nil
}

// fill loads the seats (and moves) of games, two queries for all of them.
func (s *Store) fill(ctx context.Context, gs []*store.Game, moves bool) error {
	if len(gs) == 0 {
		return nil
	}
	ids := make([]string, len(gs))
	byID := make(map[string]*store.Game, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
		byID[g.ID] = g
	}
	// A seat's account says whether it is a bot.
	rows, err := s.pool.Query(ctx, `SELECT s.game_id, s.kind, s.level, s.name, s.token_hash, s.invite_hash, s.joined, s.user_id, COALESCE(u.bot, false)
		FROM seats s LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = ANY($1) ORDER BY s.game_id, s.seat`, ids)
	if err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	var id string
	var st store.Seat
	_, err = pgx.ForEachRow(rows, []any{&id, &st.Kind, &st.Level, &st.Name, &st.TokenHash, &st.InviteHash, &st.Joined, &st.User, &st.Bot}, func() error {
		g := byID[id]
		g.Seats = append(g.Seats, st)
		return nil
	})
	if err != nil {
		return fmt.Errorf("seats: %w", err)
	}
	if !moves {
		return nil
	}
	for _, g := range gs {
		g.Moves = make([]string, 0, g.Ply)
		g.MoveTimes = make([]time.Time, 0, g.Ply)
	}
	rows, err = s.pool.Query(ctx, `SELECT game_id, ply, move, at FROM moves WHERE game_id = ANY($1) ORDER BY game_id, ply`, ids)
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	var ply int
	var m string
	var at time.Time
	_, err = pgx.ForEachRow(rows, []any{&id, &ply, &m, &at}, func() error {
		g := byID[id]
		if ply != len(g.Moves) {
			return fmt.Errorf("game %s: ply %d missing", id, len(g.Moves))
		}
		g.Moves = append(g.Moves, m)
		g.MoveTimes = append(g.MoveTimes, at.UTC())
		return nil
	})
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	for _, g := range gs {
		g.Ply = len(g.Moves)
	}
	return nil
}

func (s *Store) list(ctx context.Context, query string, args ...any) ([]*store.Game, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	gs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*store.Game, error) { return scanGame(r) })
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	return gs, nil
}

// Unfinished implements store.Store.
func (s *Store) Unfinished(ctx context.Context) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = $1 ORDER BY created, id`, store.Playing)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}

// Idle implements store.Store.
func (s *Store) Idle(ctx context.Context, before time.Time, limit int) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT g.id FROM games g WHERE g.status = $1 AND g.updated < $2
		AND COALESCE((SELECT m.at FROM moves m WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1), g.updated) < $2
		ORDER BY g.updated, g.id LIMIT $3`, store.Playing, before, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// Recent implements store.Store.
func (s *Store) Recent(ctx context.Context, limit int, status string) ([]*store.Game, error) {
	var gs []*store.Game
	var err error
	if status == "" {
		gs, err = s.list(ctx, `SELECT `+gameCols+` FROM games ORDER BY updated DESC, id LIMIT $1`, limit)
	} else {
		gs, err = s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = $1 ORDER BY updated DESC, id LIMIT $2`, status, limit)
	}
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}

// List implements store.Store. Ids sort byte by byte (the column's
// collation is "C"), as in SQLite, whatever the database's collation.
func (s *Store) List(ctx context.Context, after string, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	// Assigning a transaction id is a write: it fails in a read-only
	// transaction, on a standby and when the server refuses writes.
	_, err := s.pool.Exec(ctx, "SELECT pg_current_xact_id()")
	return err
}

// Close implements store.Store: it waits for the connections in use to be
// returned, then closes them.
func (s *Store) Close() error {
	s.announce.close()
	s.pool.Close()
	return nil
}
