package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/server/store"
	"stax/server/store/storetest"
)

func newGame(id string) *store.Game { return storetest.NewGame(id) }

// TestStore runs the store conformance kit on SQLite.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (store.Store, error) {
		path := filepath.Join(t.TempDir(), "s.db")
		return func() (store.Store, error) { return Open(path, Options{}) }
	})
}

// TestMigrateOutcome writes games as the stores kept them before the
// outcome column and checks that the migration keeps every ending.
func TestMigrateOutcome(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(db, 2); err != nil {
		t.Fatal(err)
	}
	insert := `INSERT INTO games (id, spec, status, result, reason, detail, created, updated) VALUES (?, 'pogo', ?, ?, ?, ?, 0, 0)`
	for i, le := range storetest.LegacyEndings {
		if _, err := db.Exec(insert, storetest.LegacyID(i), store.Finished, le.Result, le.Reason, le.Detail); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(insert, "legacy-playing", store.Playing, "*", "", ""); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckLegacyEndings(t, s)
}

// TestReadOnly checks that a read-only database still reads its games but
// fails Ping, which must prove that writes are accepted.
func TestReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Create(ctx, newGame("g1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping of a writable database: %v", err)
	}
	s.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Get(ctx, "g1"); err != nil {
		t.Errorf("Get from a read-only database: %v", err)
	}
	if err := ro.AppendMove(ctx, "g1", 0, "1a1-a2", time.Now(), nil); err == nil {
		t.Errorf("AppendMove to a read-only database succeeded")
	}
	if err := ro.Ping(ctx); err == nil {
		t.Errorf("Ping of a read-only database succeeded; want it to fail as writes do")
	}
}

// TestFileRemoved checks that a database file removed or replaced under
// the running store is noticed: Ping fails and writes are refused rather
// than acknowledged into a file nobody will open again.
func TestFileRemoved(t *testing.T) {
	for _, replace := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "s.db")
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := s.Create(ctx, newGame("g")); err != nil {
			t.Fatal(err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("ping: %v", err)
		}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(path + suffix)
		}
		if replace {
			if err := os.WriteFile(path, []byte("not a database"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Ping(ctx); err == nil {
			t.Errorf("replaced %v: ping succeeded on a removed database file", replace)
		}
		if err := s.AppendMove(ctx, "g", 0, "1a1-a2", time.Now(), nil); err == nil || !strings.Contains(err.Error(), "removed or replaced") {
			t.Errorf("replaced %v: a move into a removed database file: %v; want it refused", replace, err)
		}
		s.Close()
	}
}
