package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/server/store"
	"stax/server/store/sqlite"
)

// TestDBExplore indexes a database's finished games for the opening
// explorer, once: a second run finds nothing left.
func TestDBExplore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "stax.db")
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, id := range []string{"g1", "g2"} {
		g := &store.Game{ID: id, Spec: "pogo", Status: store.Playing, Created: now, Updated: now,
			Seats: []store.Seat{{Kind: "human", Name: "a", TokenHash: "a" + id, Joined: true}, {Kind: "human", Name: "b", TokenHash: "b" + id, Joined: true}},
			End:   store.End{Outcome: "*", Resigned: -1}}
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := st.AppendMove(ctx, id, 0, "1a1-a2", now, nil); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(ctx, id, 1, store.End{Outcome: "0-1 resignation", Resigned: 0}, now); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	for _, want := range []string{"indexed 2 finished games", "indexed 0 finished games"} {
		var out bytes.Buffer
		if err := run(&env{stdout: &out, stderr: io.Discard}, []string{"db", "explore", "--db", db}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) {
			t.Fatalf("stax db explore printed %q; want %q", out.String(), want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"db", "explore"}, "--db is required"},
		{[]string{"db", "explore", "--db", filepath.Join(t.TempDir(), "missing.db")}, "no such file"},
	} {
		if err := run(&env{stdout: io.Discard, stderr: io.Discard}, tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stax %s: %v; want an error saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
