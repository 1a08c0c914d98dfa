// Package sqlite implements store.Store with SQLite (modernc.org/sqlite,
// no cgo).
//
// The database runs in WAL mode. Reads use a small pool of connections;
// every write goes through one writer goroutine that owns the only writing
// connection and commits the writes waiting for it together (group commit),
// so many games' moves share one commit while each caller still returns only
// after its own write is committed. A failing write is rolled back to its own
// savepoint and does not affect the others in its group.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"stax/server/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// maxBatch bounds the writes one commit takes.
const maxBatch = 512

// Options tune a Store.
type Options struct {
	// Sync is SQLite's synchronous setting: "normal" (the default: a commit
	// survives a killed process, and reaches the disk at the next
	// checkpoint) or "full" (every commit is flushed to the disk).
	Sync string
	// Readers is the number of reading connections (default 4).
	Readers int
	// ReadOnly opens an existing, migrated database for reading only:
	// every write fails, as on a read-only file system.
	ReadOnly bool
}

// Store is a SQLite store.Store.
type Store struct {
	r, w *sql.DB
	ops  chan *op
	// path and file are the database file and what it was when opened: a
	// file removed or replaced under the running server (its writes would
	// go to a file nobody will open again) is noticed, and the writes are
	// refused rather than acknowledged.
	path string
	file os.FileInfo
	// Statements prepared on the writer connection, for the writes that
	// every move makes.
	savepoint, release, rollbackTo, insertMove *sql.Stmt
	// mu guards shut: writers hold it for reading while they queue an op,
	// Close for writing while it stops the writer, so no op is queued after
	// the writer's last drain.
	mu     sync.RWMutex
	shut   bool
	done   chan struct{}
	closed chan struct{}

	// feed reports committed changes to the watchers of every Store of
	// this process on the same file.
	feed *feed
}

// op is one write waiting for the writer.
type op struct {
	fn  func(ctx context.Context, tx *sql.Tx) error
	ctx context.Context
	err chan error
	// single is set when fn runs one statement: SQLite undoes a failed
	// statement by itself, so the op needs no savepoint.
	single bool
	// ev, when not nil, is reported to the watchers once the op is
	// committed.
	ev *store.Event
}

// Open opens (creating it if needed) and migrates the database at path.
func Open(path string, opt Options) (*Store, error) {
	sync := strings.ToUpper(opt.Sync)
	if sync == "" {
		sync = "NORMAL"
	}
	if sync != "NORMAL" && sync != "FULL" {
		return nil, fmt.Errorf("sqlite: sync %q: want normal or full", opt.Sync)
	}
	if opt.Readers <= 0 {
		opt.Readers = 4
	}
	q := url.Values{}
	for _, p := range []string{"synchronous(" + sync + ")", "busy_timeout(10000)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	if opt.ReadOnly {
		q.Add("_pragma", "query_only(1)")
	}
	dsn := "file:" + path + "?" + q.Encode()
	// The writer checkpoints by itself (SQLite's automatic checkpoint after
	// a commit that leaves 1000 pages in the WAL): with small pages each
	// checkpoint is short. Checkpointing on another connection instead was
	// measured to stall the writer far longer (docs/performance.md).
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	if opt.ReadOnly {
		// Nothing to set up or migrate: the database must be ready.
	} else if err = setupRetrying(w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	} else if err := migrate(w, 0); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: migrate %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(opt.Readers)
	r.SetMaxIdleConns(opt.Readers)
	s := &Store{r: r, w: w, ops: make(chan *op, maxBatch), done: make(chan struct{}), closed: make(chan struct{}), feed: feedOf(path), path: path}
	if fi, err := os.Stat(path); err == nil {
		s.file = fi
	}
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&s.savepoint, "SAVEPOINT op"},
		{&s.release, "RELEASE op"},
		{&s.rollbackTo, "ROLLBACK TO op"},
		// A move is stored only in a game still being played.
		{&s.insertMove, "INSERT INTO moves (game_id, ply, move, at) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'playing')"},
	} {
		if *p.st, err = w.Prepare(p.sql); err != nil {
			r.Close()
			w.Close()
			return nil, fmt.Errorf("sqlite: prepare %q: %w", p.sql, err)
		}
	}
	go s.writer()
	return s, nil
}

// setupRetrying runs setup, again for a while if another process setting
// up the same new database holds it (SQLite does not wait on its own for a
// journal mode change).
func setupRetrying(db *sql.DB) error {
	err := setup(db)
	for deadline := time.Now().Add(10 * time.Second); isBusy(err) && time.Now().Before(deadline); err = setup(db) {
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// setup gives a new database small pages, and puts the database in WAL
// mode (which the file remembers). A move writes about one page of the
// moves table, so small pages keep the WAL, and the checkpoints that copy
// it back, small.
func setup(db *sql.DB) error {
	var pages int
	if err := db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		return err
	}
	if pages == 0 {
		if _, err := db.Exec("PRAGMA page_size = 1024"); err != nil {
			return err
		}
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("journal mode %q; want wal", mode)
	}
	return nil
}

// migrate applies the embedded migrations newer than the database's
// user_version in one immediate transaction, which holds SQLite's write
// lock: a second process opening the database at the same time waits, then
// finds the migrations done. upTo, when not 0, stops after that version
// (for the tests of a migration).
func migrate(db *sql.DB, upTo int) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	tx, err := db.Begin() // BEGIN IMMEDIATE: the writer's connection has _txlock=immediate
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	last := have
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
		if _, err := tx.Exec(string(text)); err != nil {
			return fmt.Errorf("migration %s: %w", base, err)
		}
		last = v
	}
	if last == have {
		return nil
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", last)); err != nil {
		return err
	}
	return tx.Commit()
}

// writer runs the writes: it takes every op waiting (up to maxBatch), runs
// each inside its own savepoint of one transaction, commits, and answers
// each op.
func (s *Store) writer() {
	defer close(s.closed)
	batch := make([]*op, 0, maxBatch)
	for {
		select {
		case o := <-s.ops:
			batch = append(batch[:0], o)
		case <-s.done:
			// Finish whatever is still queued, then stop.
			for {
				select {
				case o := <-s.ops:
					s.commit([]*op{o})
				default:
					return
				}
			}
		}
	fill:
		for len(batch) < maxBatch {
			select {
			case o := <-s.ops:
				batch = append(batch, o)
			default:
				break fill
			}
		}
		s.commit(batch)
	}
}

// errFileGone says that the database file was removed or replaced.
var errFileGone = errors.New("the database file was removed or replaced while the server ran; writes are refused so that none is lost: restart the server")

// fileOK checks that the database file is still the one opened.
func (s *Store) fileOK() error {
	if s.file == nil {
		return nil // an in-memory or special database
	}
	fi, err := os.Stat(s.path)
	if err != nil || !os.SameFile(fi, s.file) {
		return fmt.Errorf("sqlite: %s: %w", s.path, errFileGone)
	}
	return nil
}

func (s *Store) commit(batch []*op) {
	ctx := context.Background()
	errs := make([]error, len(batch))
	tx, err := s.w.BeginTx(ctx, nil)
	if err == nil {
		if ferr := s.fileOK(); ferr != nil {
			tx.Rollback()
			err = ferr
		}
	}
	if err != nil {
		for _, o := range batch {
			o.err <- err
		}
		return
	}
	for i, o := range batch {
		if err := o.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if o.single {
			errs[i] = o.fn(ctx, tx)
			continue
		}
		if _, err := tx.StmtContext(ctx, s.savepoint).ExecContext(ctx); err != nil {
			errs[i] = err
			continue
		}
		if err := o.fn(ctx, tx); err != nil {
			errs[i] = err
			tx.StmtContext(ctx, s.rollbackTo).ExecContext(ctx)
		}
		tx.StmtContext(ctx, s.release).ExecContext(ctx)
	}
	if err := tx.Commit(); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	for i, o := range batch {
		if errs[i] == nil && o.ev != nil {
			s.feed.emit(*o.ev)
		}
		o.err <- errs[i]
	}
}

// write queues fn for the writer and waits until it is committed.
func (s *Store) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return s.queue(&op{fn: fn, ctx: ctx, err: make(chan error, 1)})
}

// writeEvent is write for an op that reports ev once committed.
func (s *Store) writeEvent(ctx context.Context, ev *store.Event, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return s.queue(&op{fn: fn, ctx: ctx, err: make(chan error, 1), ev: ev})
}

// queue hands an op to the writer and waits for its answer.
func (s *Store) queue(o *op) error {
	ctx := o.ctx
	s.mu.RLock()
	if s.shut {
		s.mu.RUnlock()
		return errors.New("sqlite: store closed")
	}
	select {
	case s.ops <- o:
		s.mu.RUnlock()
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	// Once queued, the op is always answered (the writer drains the queue
	// when closing), and it must be awaited: returning early would hide
	// whether it committed.
	return <-o.err
}

// isBusy reports whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// isConstraint reports whether err is a SQLite constraint violation.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// nullMS is ms for a column where NULL stands for the zero time.
func nullMS(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ms(t)
}

// fromNullMS reads a column that nullMS wrote.
func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, g *store.Game) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		status := g.Status
		if status == "" {
			status = store.Playing
		}
		outcome := g.End.Outcome
		if outcome == "" {
			outcome = "*"
		}
		initial, increment, days := store.ClockColumns(g.Clock)
		_, err := tx.ExecContext(ctx, `INSERT INTO games (id, spec, start, status, outcome, resigned, ply, created, updated,
			rated, clock_initial_ms, clock_increment_ms, clock_days)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, g.Spec, g.Start, status, outcome, g.End.Resigned, len(g.Moves), ms(g.Created), ms(g.Updated),
			boolInt(g.Rated), initial, increment, days)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("game %s: %w: the id exists", g.ID, store.ErrConflict)
			}
			return fmt.Errorf("create game %s: %w", g.ID, err)
		}
		for i, st := range g.Seats {
			_, err := tx.ExecContext(ctx, `INSERT INTO seats (game_id, seat, kind, level, name, token_hash, invite_hash, joined, user_id)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				g.ID, i, st.Kind, st.Level, st.Name, st.TokenHash, st.InviteHash, boolInt(st.Joined), st.User)
			if err != nil {
				return fmt.Errorf("create game %s seat %d: %w", g.ID, i, err)
			}
		}
		for i, m := range g.Moves {
			at := g.Created
			if len(g.MoveTimes) == len(g.Moves) {
				at = g.MoveTimes[i]
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, move, at) VALUES (?, ?, ?, ?)`, g.ID, i, m, ms(at)); err != nil {
				return fmt.Errorf("create game %s move %d: %w", g.ID, i, err)
			}
		}
		return nil
	})
}

// AppendMove implements store.Store.
func (s *Store) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *store.End) error {
	o := &op{ctx: ctx, err: make(chan error, 1), single: end == nil, ev: &store.Event{Kind: store.EventMove, Game: id, Ply: ply, Move: move}}
	o.fn = func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.StmtContext(ctx, s.insertMove).ExecContext(ctx, id, ply, move, ms(at), id)
		if err != nil {
			if isConstraint(err) {
				return fmt.Errorf("game %s ply %d: %w: a move was already stored there, or the game does not exist", id, ply, store.ErrConflict)
			}
			return fmt.Errorf("game %s ply %d: %w", id, ply, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("game %s ply %d: %w: the game is over or does not exist", id, ply, store.ErrConflict)
		}
		if end == nil {
			// A move touches only the moves table: one page in the usual
			// case, which keeps commits and checkpoints small. The
			// game's ply and update time are written when it ends.
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET ply = ?, updated = ?, status = ?, outcome = ?, resigned = ? WHERE id = ?`,
			ply+1, ms(at), store.Finished, end.Outcome, end.Resigned, id)
		if err != nil {
			return fmt.Errorf("game %s ply %d: %w", id, ply, err)
		}
		return nil
	}
	return s.queue(o)
}

// Join implements store.Store.
func (s *Store) Join(ctx context.Context, id string, seat int, tokenHash, name, user string, at time.Time) error {
	return s.writeEvent(ctx, &store.Event{Kind: store.EventJoin, Game: id, Ply: seat}, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE seats SET token_hash = ?, name = ?, user_id = ?, joined = 1
			WHERE game_id = ? AND seat = ? AND joined = 0`, tokenHash, name, user, id, seat)
		if err != nil {
			return fmt.Errorf("game %s join seat %d: %w", id, seat, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("game %s seat %d: %w: the seat has been taken", id, seat, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET updated = ? WHERE id = ?`, ms(at), id)
		return err
	})
}

// Finish implements store.Store.
func (s *Store) Finish(ctx context.Context, id string, ply int, end store.End, at time.Time) error {
	return s.writeEvent(ctx, &store.Event{Kind: store.EventFinish, Game: id}, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET updated = ?, status = ?, outcome = ?, resigned = ?, ply = ?
			WHERE id = ? AND status != ? AND (SELECT COUNT(*) FROM moves WHERE game_id = games.id) = ?`,
			ms(at), store.Finished, end.Outcome, end.Resigned, ply, id, store.Finished, ply)
		if err != nil {
			return fmt.Errorf("game %s finish: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("game %s at ply %d: %w: it is finished, has moved on, or does not exist", id, ply, store.ErrConflict)
		}
		return nil
	})
}

// gameCols are the columns scanGame reads; the ply is counted from the
// moves, since a move does not update its game's row.
const gameCols = `id, spec, start, status, outcome, resigned,
	(SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id), created, updated,
	rated, clock_initial_ms, clock_increment_ms, clock_days`

func scanGame(sc interface{ Scan(...any) error }) (*store.Game, error) {
	var g store.Game
	var created, updated, initial, increment int64
	var rated, days int
	err := sc.Scan(&g.ID, &g.Spec, &g.Start, &g.Status, &g.End.Outcome, &g.End.Resigned, &g.Ply, &created, &updated,
		&rated, &initial, &increment, &days)
	if err != nil {
		return nil, err
	}
	g.Created, g.Updated = fromMS(created), fromMS(updated)
	g.Rated = rated != 0
	g.Clock = store.ClockFromColumns(initial, increment, days)
	return &g, nil
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, id string) (*store.Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
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

// fill loads the seats (and moves) of games.
func (s *Store) fill(ctx context.Context, gs []*store.Game, moves bool) error {
	for _, g := range gs {
		// A seat's account says whether it is a bot.
		rows, err := s.r.QueryContext(ctx, `SELECT s.kind, s.level, s.name, s.token_hash, s.invite_hash, s.joined, s.user_id, COALESCE(u.bot, 0)
			FROM seats s LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = ? ORDER BY s.seat`, g.ID)
		if err != nil {
			return fmt.Errorf("game %s seats: %w", g.ID, err)
		}
		for rows.Next() {
			var st store.Seat
			var joined int
			if err := rows.Scan(&st.Kind, &st.Level, &st.Name, &st.TokenHash, &st.InviteHash, &joined, &st.User, &st.Bot); err != nil {
				rows.Close()
				return fmt.Errorf("game %s seats: %w", g.ID, err)
			}
			st.Joined = joined != 0
			g.Seats = append(g.Seats, st)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("game %s seats: %w", g.ID, err)
		}
		if !moves {
			continue
		}
		rows, err = s.r.QueryContext(ctx, `SELECT ply, move, at FROM moves WHERE game_id = ? ORDER BY ply`, g.ID)
		if err != nil {
			return fmt.Errorf("game %s moves: %w", g.ID, err)
		}
		g.Moves = make([]string, 0, g.Ply)
		g.MoveTimes = make([]time.Time, 0, g.Ply)
		for rows.Next() {
			var ply int
			var m string
			var at int64
			if err := rows.Scan(&ply, &m, &at); err != nil {
				rows.Close()
				return fmt.Errorf("game %s moves: %w", g.ID, err)
			}
			if ply != len(g.Moves) {
				rows.Close()
				return fmt.Errorf("game %s moves: ply %d missing", g.ID, len(g.Moves))
			}
			g.Moves = append(g.Moves, m)
			g.MoveTimes = append(g.MoveTimes, fromMS(at))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("game %s moves: %w", g.ID, err)
		}
		g.Ply = len(g.Moves)
	}
	return nil
}

func (s *Store) list(ctx context.Context, query string, args ...any) ([]*store.Game, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	defer rows.Close()
	var gs []*store.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, fmt.Errorf("list games: %w", err)
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// Unfinished implements store.Store.
func (s *Store) Unfinished(ctx context.Context) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = ? ORDER BY created`, store.Playing)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}

// Idle implements store.Store.
func (s *Store) Idle(ctx context.Context, before time.Time, limit int) ([]string, error) {
	return queryIDs(ctx, s.r, `SELECT g.id FROM games g WHERE g.status = ? AND g.updated < ?
		AND COALESCE((SELECT m.at FROM moves m WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1), 0) < ?
		ORDER BY g.updated, g.id LIMIT ?`, store.Playing, ms(before), ms(before), limit)
}

// queryIDs runs a query of game ids.
func queryIDs(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Recent implements store.Store.
func (s *Store) Recent(ctx context.Context, limit int, status string) ([]*store.Game, error) {
	var gs []*store.Game
	var err error
	if status == "" {
		gs, err = s.list(ctx, `SELECT `+gameCols+` FROM games ORDER BY updated DESC, id LIMIT ?`, limit)
	} else {
		gs, err = s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = ? ORDER BY updated DESC, id LIMIT ?`, status, limit)
	}
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, after string, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.fileOK(); err != nil {
		return err
	}
	// A read of the schema (page 1): a file that is not a database any
	// more, or whose first pages are damaged, fails it.
	var n int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master").Scan(&n); err != nil {
		return err
	}
	// A write that changes nothing, committed like any other: the schema
	// version written over itself (page 1 goes through the WAL).
	return s.queue(&op{ctx: ctx, err: make(chan error, 1), single: true, fn: func(ctx context.Context, tx *sql.Tx) error {
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	}})
}

// Close implements store.Store: it waits for queued writes, then closes
// the database.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.shut {
		s.mu.Unlock()
		return nil
	}
	s.shut = true
	s.mu.Unlock()
	close(s.done)
	<-s.closed
	for _, st := range []*sql.Stmt{s.savepoint, s.release, s.rollbackTo, s.insertMove} {
		st.Close()
	}
	err1 := s.r.Close()
	err2 := s.w.Close()
	return errors.Join(err1, err2)
}
