package ai

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"stax/games/pogo/solve"
)

// ErrTableNotReady is wrapped by the errors of Tables.Table while the table
// asked for is being built.
var ErrTableNotReady = errors.New("the table is being built")

// TablesConfig is the policy of a Tables: where the table files are, whether
// a missing table is built, and who hears about it.
type TablesConfig struct {
	// Dir is the directory of the table files. Empty: no files; a table
	// exists only once built (or added) in this process.
	Dir string
	// Build makes a table that is neither in memory nor in Dir be built in
	// the background (about a minute of every CPU and 130 MB, once) and
	// saved in Dir. Without it such a table is missing.
	Build bool
	// Workers bounds the goroutines of a build (0: one per CPU).
	Workers int
	// Notify receives the news of builds and of unusable files; nil
	// drops them. It is called from the goroutine of a build, or of the
	// call that found the file unusable.
	Notify func(TableEvent)
}

// TableEventKind says what a TableEvent reports.
type TableEventKind uint8

// The kinds of table news.
const (
	// TableBuilding: a build has started (Err says why the file could not
	// be used, when there was one).
	TableBuilding TableEventKind = iota
	// TableProgress: a build has come a tenth of the way further.
	TableProgress
	// TableBuilt: a build has finished (Err says why the table could not be
	// saved, when it could not).
	TableBuilt
	// TableFailed: a build has failed or was cancelled (Err says why).
	TableFailed
)

var tableEventNames = [...]string{"building", "progress", "built", "failed"}

func (k TableEventKind) String() string {
	if int(k) < len(tableEventNames) {
		return tableEventNames[k]
	}
	return fmt.Sprintf("TableEventKind(%d)", k)
}

// TableEvent is a piece of news about one variant's table.
type TableEvent struct {
	Kind TableEventKind
	// U is the variant: with the U-shaped move or not.
	U bool
	// Path is the table's file ("" without a directory).
	Path string
	// Done is the fraction of the build done, from 0 to 1.
	Done float64
	// Elapsed is the time since the build started.
	Elapsed time.Duration
	// Err is the error the event reports, if any.
	Err error
}

// Variant returns the spec of the table's game, e.g. "pogo(u=true)".
func (e TableEvent) Variant() string { return fmt.Sprintf("pogo(u=%v)", e.U) }

// String writes the event as a sentence for a person.
func (e TableEvent) String() string {
	v := e.Variant()
	switch e.Kind {
	case TableBuilding:
		msg := fmt.Sprintf("solving %s for the perfect level: this takes about a minute, once", v)
		if e.Path != "" {
			msg += "; the table is saved to " + e.Path
		}
		if e.Err != nil {
			msg = fmt.Sprintf("%v; %s", e.Err, msg)
		}
		return msg
	case TableProgress:
		return fmt.Sprintf("solving %s: %.0f%% done after %v", v, 100*e.Done, e.Elapsed.Round(time.Second))
	case TableBuilt:
		msg := fmt.Sprintf("%s solved in %v", v, e.Elapsed.Round(100*time.Millisecond))
		switch {
		case e.Err != nil:
			msg += fmt.Sprintf("; the table could not be saved: %v", e.Err)
		case e.Path != "":
			msg += "; table saved to " + e.Path
		}
		return msg
	}
	return fmt.Sprintf("solving %s failed: %v", v, e.Err)
}

// Tables is where the perfect level finds Pogo's solved tables: held in
// memory once loaded, read from a directory of table files, and, when its
// configuration allows, built in the background and saved there. Each
// variant is built at most once at a time, whatever the number of callers.
// Its methods are safe for concurrent use.
type Tables struct {
	cfg    TablesConfig
	ctx    context.Context // cancelled by Close: ends the builds
	cancel context.CancelFunc
	wg     sync.WaitGroup // the builds running

	mu sync.Mutex // guards v
	v  [2]tableSlot
}

// tableSlot is the state of one variant's table.
type tableSlot struct {
	t     *solve.Table
	build chan struct{} // non-nil while a build runs; closed when it ends
	err   error         // why the last build failed
}

// NewTables returns the tables of cfg. Close it to end its builds.
func NewTables(cfg TablesConfig) *Tables {
	ctx, cancel := context.WithCancel(context.Background())
	return &Tables{cfg: cfg, ctx: ctx, cancel: cancel}
}

func slotOf(u bool) int {
	if u {
		return 1
	}
	return 0
}

// Path returns the file of a variant's table in the directory, or "" when
// there is no directory.
func (ts *Tables) Path(u bool) string {
	if ts.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(ts.cfg.Dir, fmt.Sprintf("pogo-u-%v.tbl", u))
}

// Table returns a variant's table if it is ready: in memory, or read from
// its file now. Otherwise it starts building it in the background when
// the configuration allows, and returns an error wrapping
// ErrTableNotReady; when building is not allowed the error wraps
// os.ErrNotExist.
func (ts *Tables) Table(u bool) (*solve.Table, error) {
	t, _, err := ts.lookup(u, true)
	return t, err
}

// Ready reports whether a variant's table is in memory, or in a usable
// file, without starting a build.
func (ts *Tables) Ready(u bool) bool {
	t, _, _ := ts.lookup(u, false)
	return t != nil
}

// Prepare makes a variant's table ready: it reads the file, or starts a
// build in the background when the configuration allows. It does not
// wait for the build.
func (ts *Tables) Prepare(u bool) { ts.Table(u) }

// Wait returns a variant's table, waiting for its build when one is needed
// and allowed, until ctx is done. Giving up the wait does not stop the
// build.
func (ts *Tables) Wait(ctx context.Context, u bool) (*solve.Table, error) {
	for {
		t, build, err := ts.lookup(u, true)
		if build == nil {
			return t, err
		}
		select {
		case <-build:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Add records t as the table of its variant, as a finished build would
// (without saving it).
func (ts *Tables) Add(t *solve.Table) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.v[slotOf(t.U())].t = t
}

// Close cancels the builds in progress and waits for them to end.
func (ts *Tables) Close() {
	ts.cancel()
	ts.wg.Wait()
}

// lookup returns the table of a variant if it is in memory or in its
// file. Otherwise, if start is set and building is allowed, it makes sure
// a build runs and returns its channel, closed when it ends.
func (ts *Tables) lookup(u bool, start bool) (*solve.Table, <-chan struct{}, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	sl := &ts.v[slotOf(u)]
	if sl.t != nil {
		return sl.t, nil, nil
	}
	if sl.build != nil {
		return nil, sl.build, fmt.Errorf("pogo(u=%v): %w", u, ErrTableNotReady)
	}
	if sl.err != nil {
		return nil, nil, fmt.Errorf("solving pogo(u=%v): %w", u, sl.err)
	}
	t, ferr := ts.read(u)
	if t != nil {
		sl.t = t
		return t, nil, nil
	}
	if !start || !ts.cfg.Build {
		return nil, nil, fmt.Errorf("no solved table of pogo(u=%v) (stax solve builds it): %w", u, ferr)
	}
	if ts.ctx.Err() != nil {
		return nil, nil, fmt.Errorf("pogo(u=%v): the tables are closed: %w", u, os.ErrNotExist)
	}
	if errors.Is(ferr, os.ErrNotExist) && !errors.Is(ferr, solve.ErrCorrupt) {
		ferr = nil // a missing file is no news
	}
	sl.build = make(chan struct{})
	ts.wg.Add(1)
	go ts.run(u, sl.build, ferr)
	return nil, sl.build, fmt.Errorf("pogo(u=%v): %w", u, ErrTableNotReady)
}

// read reads a variant's table from its file. A file that holds another
// table or is corrupt is reported as wrapping both solve.ErrCorrupt and
// os.ErrNotExist.
func (ts *Tables) read(u bool) (*solve.Table, error) {
	path := ts.Path(u)
	if path == "" {
		return nil, os.ErrNotExist
	}
	t, err := solve.ReadFile(path)
	switch {
	case err == nil && (t.U() != u || t.Pieces() != solve.Pieces):
		return nil, fmt.Errorf("%s holds another variant's table: %w (%w)", path, solve.ErrCorrupt, os.ErrNotExist)
	case errors.Is(err, solve.ErrCorrupt):
		return nil, fmt.Errorf("%w (%w)", err, os.ErrNotExist)
	}
	return t, err
}

// run builds a variant's table, saves it and records it, then closes
// done. fileErr says why the file could not be used, if it was there.
func (ts *Tables) run(u bool, done chan struct{}, fileErr error) {
	defer ts.wg.Done()
	path := ts.Path(u)
	start := time.Now()
	ts.notify(TableEvent{Kind: TableBuilding, U: u, Path: path, Err: fileErr})
	tenths := 0
	progress := func(p solve.Progress) {
		if p.Phase != "retrograde" || p.Total == 0 {
			return
		}
		// The counting phase takes about a tenth of the time: the
		// decided positions measure the rest.
		frac := 0.1 + 0.9*float64(p.Done)/float64(p.Total)
		if n := int(10 * frac); n > tenths {
			tenths = n
			ts.notify(TableEvent{Kind: TableProgress, U: u, Path: path, Done: frac, Elapsed: time.Since(start)})
		}
	}
	t, err := solve.Solve(ts.ctx, solve.Options{U: u, Workers: ts.cfg.Workers, Progress: progress})
	if err == nil && path != "" {
		ts.notify(TableEvent{Kind: TableBuilt, U: u, Path: path, Elapsed: time.Since(start), Err: t.Save(path)})
	} else if err == nil {
		ts.notify(TableEvent{Kind: TableBuilt, U: u, Elapsed: time.Since(start)})
	} else {
		ts.notify(TableEvent{Kind: TableFailed, U: u, Path: path, Elapsed: time.Since(start), Err: err})
	}
	ts.mu.Lock()
	sl := &ts.v[slotOf(u)]
	sl.t, sl.err, sl.build = t, err, nil
	ts.mu.Unlock()
	close(done)
}

func (ts *Tables) notify(e TableEvent) {
	if ts.cfg.Notify != nil {
		ts.cfg.Notify(e)
	}
}
