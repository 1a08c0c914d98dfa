package ai

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/games/pogo/solve"
)

// cachedTables returns the directory where stax keeps its tables on this
// machine (as the stax command finds it), for the tests that use a table
// when one has been built.
func cachedTables(t *testing.T) string {
	if d := os.Getenv("STAX_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory: %v", err)
	}
	return filepath.Join(d, "stax")
}

// cachedPogoTable returns the Tables of the user's cache directory, closed
// when the test ends, and the solved table of default Pogo in it; it skips
// the test when the table has not been built.
func cachedPogoTable(t *testing.T) (*Tables, *solve.Table) {
	t.Helper()
	tables := NewTables(TablesConfig{Dir: cachedTables(t)})
	t.Cleanup(func() { tables.Close() })
	tb, err := tables.Table(true)
	if err != nil {
		t.Skipf("no cached table (run stax solve pogo): %v", err)
	}
	return tables, tb
}

// events collects the news of a Tables.
type events struct {
	mu   sync.Mutex // guards list
	list []TableEvent
}

func (e *events) add(ev TableEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

func (e *events) kinds() []TableEventKind {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []TableEventKind
	for _, ev := range e.list {
		out = append(out, ev.Kind)
	}
	return out
}

// TestTablesWithoutBuild checks that Tables that may not build report a
// missing or unusable file as missing, and never start a build.
func TestTablesWithoutBuild(t *testing.T) {
	dir := t.TempDir()
	var news events
	ts := NewTables(TablesConfig{Dir: dir, Notify: news.add})
	defer ts.Close()
	if got, want := ts.Path(false), filepath.Join(dir, "pogo-u-false.tbl"); got != want {
		t.Errorf("Path(false) = %q; want %q", got, want)
	}
	if _, err := ts.Table(false); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "stax solve") {
		t.Errorf("Table with an empty directory = %v; want ErrNotExist and a hint", err)
	}
	if err := os.WriteFile(ts.Path(false), []byte("STAXPOGO junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Table(false); !errors.Is(err, os.ErrNotExist) || !errors.Is(err, solve.ErrCorrupt) {
		t.Errorf("Table with a corrupt file = %v; want ErrCorrupt and ErrNotExist", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := ts.Wait(ctx, false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Wait without a file = %v; want ErrNotExist at once", err)
	}
	if ts.Ready(false) || ts.Ready(true) {
		t.Error("Ready without tables")
	}
	if k := news.kinds(); len(k) != 0 {
		t.Errorf("news %v; want none", k)
	}
	none := NewTables(TablesConfig{Build: false})
	if _, err := none.Table(true); !errors.Is(err, os.ErrNotExist) || none.Path(true) != "" {
		t.Errorf("Tables without a directory: Table = %v, Path %q", err, none.Path(true))
	}
}

// TestTablesBuildInBackground checks that a missing table is built once in
// the background however many ask for it at once, that waiting for it
// honours the caller's context, and that Close cancels the build.
func TestTablesBuildInBackground(t *testing.T) {
	dir := t.TempDir()
	var news events
	ts := NewTables(TablesConfig{Dir: dir, Build: true, Workers: 1, Notify: news.add})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := ts.Table(true); !errors.Is(err, ErrTableNotReady) {
				t.Errorf("Table while building = %v; want ErrTableNotReady", err)
			}
		}()
	}
	wg.Wait()
	if ts.Ready(true) {
		t.Error("Ready while building")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ts.Wait(ctx, true); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait with a short deadline = %v; want DeadlineExceeded", err)
	}
	// Close cancels the build rather than waiting for it to finish (the
	// news below say how it ended); the index tables a build starts with
	// are not cancellable, which takes a while under the race detector.
	start := time.Now()
	ts.Close()
	if el := time.Since(start); el > time.Minute {
		t.Errorf("Close took %v to cancel the build", el)
	}
	k := news.kinds()
	if len(k) < 2 || k[0] != TableBuilding || k[len(k)-1] != TableFailed {
		t.Errorf("news %v; want building ... failed", k)
	}
	if n := slices.Index(k[1:], TableBuilding); n >= 0 {
		t.Errorf("news %v; want one build for eight callers", k)
	}
	if last := news.list[len(news.list)-1]; !errors.Is(last.Err, context.Canceled) || !strings.Contains(last.String(), "pogo(u=true)") {
		t.Errorf("last news %q (%v); want a cancelled build of pogo(u=true)", last, last.Err)
	}
	if _, err := os.Stat(ts.Path(true)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled build left a file: %v", err)
	}
	if _, err := ts.Table(true); err == nil || errors.Is(err, ErrTableNotReady) {
		t.Errorf("Table after Close = %v; want an error, and no new build", err)
	}
}

// TestTablesBuildFull builds a table through Tables and reads it back
// through new Tables. It takes about a minute of CPU, so it runs only when
// STAX_SOLVE_FULL is set.
func TestTablesBuildFull(t *testing.T) {
	if os.Getenv("STAX_SOLVE_FULL") == "" {
		t.Skip("set STAX_SOLVE_FULL=1 to solve the whole game")
	}
	dir := t.TempDir()
	var news events
	ts := NewTables(TablesConfig{Dir: dir, Build: true, Notify: news.add})
	defer ts.Close()
	tb, err := ts.Wait(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if k := news.kinds(); k[0] != TableBuilding || k[len(k)-1] != TableBuilt || news.list[len(k)-1].Err != nil {
		t.Errorf("news %v", news.list)
	}
	again := NewTables(TablesConfig{Dir: dir})
	back, err := again.Table(false)
	if err != nil || back.Positions() != tb.Positions() || !again.Ready(false) {
		t.Errorf("reading the built table back: %v", err)
	}
}

// TestReadyStartsBuild checks that asking whether the perfect level is
// ready starts building its table in the background when the tables may.
func TestReadyStartsBuild(t *testing.T) {
	var news events
	ts := NewTables(TablesConfig{Dir: t.TempDir(), Build: true, Workers: 1, Notify: news.add})
	cfg := Config{Tables: ts}
	g := load(t, "pogo(u=false)")
	if cfg.Ready(g, "perfect") {
		t.Fatal("Ready(perfect) without a table")
	}
	if _, err := ts.Table(false); !errors.Is(err, ErrTableNotReady) {
		t.Errorf("Table after Ready = %v; want a build under way", err)
	}
	ts.Close()
	if k := news.kinds(); len(k) == 0 || k[0] != TableBuilding {
		t.Errorf("news %v; want a build", k)
	}
}
