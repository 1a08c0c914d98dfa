package postgres

import (
	"context"
	"io/fs"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"stax/server/store"
	"stax/server/store/pgtest"
	"stax/server/store/storetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestStore runs the store conformance kit on PostgreSQL.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (store.Store, error) {
		url := pgtest.URL(t)
		return func() (store.Store, error) { return Open(context.Background(), url, Options{}) }
	})
}

// TestMigrateOnce starts several stores on a new database at once: each
// migration is applied once.
func TestMigrateOnce(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	const n = 3
	stores := make([]*Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = Open(ctx, url, Options{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("store %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	var want []int
	for _, name := range names {
		// Numbers may skip, where migrations of work in progress elsewhere
		// will go.
		num, _, _ := strings.Cut(path.Base(name), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("migration %s: name must start with a number", name)
		}
		want = append(want, v)
	}
	got, err := stores[0].Migrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("applied migrations %v; want %v, each once", got, want)
	}
}

func TestIsURL(t *testing.T) {
	for _, tc := range []struct {
		db   string
		want bool
	}{
		{"postgres://u@h/db", true},
		{"postgresql:///db?host=/tmp", true},
		{"stax.db", false},
		{"/var/lib/stax/postgres.db", false},
		{"file:postgres://x", false},
	} {
		if got := IsURL(tc.db); got != tc.want {
			t.Errorf("IsURL(%q) = %v; want %v", tc.db, got, tc.want)
		}
	}
}

// TestMigrateOutcome writes games as the stores kept them before the
// outcome column and checks that the migration keeps every ending.
func TestMigrateOutcome(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	old := &Store{pool: pool, url: url}
	if err := old.migrate(ctx, 2); err != nil {
		t.Fatal(err)
	}
	insert := `INSERT INTO games (id, spec, status, result, reason, detail, created, updated) VALUES ($1, 'pogo', $2, $3, $4, $5, now(), now())`
	for i, le := range storetest.LegacyEndings {
		if _, err := pool.Exec(ctx, insert, storetest.LegacyID(i), store.Finished, le.Result, le.Reason, le.Detail); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, insert, "legacy-playing", store.Playing, "*", "", ""); err != nil {
		t.Fatal(err)
	}
	pool.Close()
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckLegacyEndings(t, s)
}

// TestAnnounceReconnects cuts every connection of a store to the database:
// its next announcement still goes out (on a new connection) and reaches
// the watchers, once they have listened again.
func TestAnnounceReconnects(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	events := make(chan store.Event, 100)
	if err := s.Watch(ctx, func(ev store.Event) { events <- ev }); err != nil {
		t.Fatal(err)
	}
	wait := func(want store.Event) {
		t.Helper()
		for {
			select {
			case ev := <-events:
				if ev == want {
					return
				}
			case <-ctx.Done():
				t.Fatalf("waiting for %+v: %v", want, ctx.Err())
			}
		}
	}
	first := store.Event{Kind: store.EventMove, Game: "g1", Ply: 0, Move: "a1"}
	if err := s.announce.announce(ctx, payload(first)); err != nil {
		t.Fatal(err)
	}
	wait(first)

	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	wait(store.Event{Kind: store.EventResync})

	second := store.Event{Kind: store.EventMove, Game: "g1", Ply: 1, Move: "b2"}
	if err := s.announce.announce(ctx, payload(second)); err != nil {
		t.Fatalf("announcing after the connections were cut: %v; want it sent on a new connection", err)
	}
	wait(second)
}
