package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"stax/server/store"
)

func newGame(id string) *store.Game {
	now := time.UnixMilli(1_700_000_000_000).UTC()
	return &store.Game{
		ID: id, Spec: "pogo", Status: store.Playing, Created: now, Updated: now,
		Seats: []store.Seat{{Kind: "human", Name: "alice", TokenHash: "t0", Joined: true}, {Kind: "human", InviteHash: "i1"}},
		End:   store.End{Resigned: -1},
	}
}

// TestStore checks every method of the store, and that what it holds
// survives closing and opening the database again.
func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.UnixMilli(1_700_000_001_000).UTC()
	steps := []struct {
		name string
		err  error
		f    func() error
	}{
		{"create", nil, func() error { return s.Create(ctx, newGame("g1")) }},
		{"create again", store.ErrConflict, func() error { return s.Create(ctx, newGame("g1")) }},
		{"create another", nil, func() error { return s.Create(ctx, newGame("g2")) }},
		{"move 0", nil, func() error { return s.AppendMove(ctx, "g1", 0, "1a1-a2", at, nil) }},
		{"move 0 again", store.ErrConflict, func() error { return s.AppendMove(ctx, "g1", 0, "1b1-b2", at, nil) }},
		{"move of no game", store.ErrConflict, func() error { return s.AppendMove(ctx, "nope", 0, "1b1-b2", at, nil) }},
		{"join", nil, func() error { return s.Join(ctx, "g1", 1, "t1", "bob", at) }},
		{"join again", store.ErrConflict, func() error { return s.Join(ctx, "g1", 1, "t2", "eve", at) }},
		{"last move", nil, func() error {
			return s.AppendMove(ctx, "g1", 1, "1a3-b3", at, &store.End{Result: "0-1", Reason: "rules", Resigned: -1})
		}},
		{"finish finished", store.ErrConflict, func() error { return s.Finish(ctx, "g1", store.End{Result: "1-0"}, at) }},
		{"resign", nil, func() error {
			return s.Finish(ctx, "g2", store.End{Result: "1-0", Reason: "resignation", Detail: "Black resigned", Resigned: 1}, at)
		}},
	}
	for _, st := range steps {
		if err := st.f(); !errors.Is(err, st.err) || (st.err == nil) != (err == nil) {
			t.Fatalf("%s: %v; want %v", st.name, err, st.err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g, err := s.Get(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != store.Finished || g.End.Result != "0-1" || len(g.Moves) != 2 || g.Moves[1] != "1a3-b3" || g.Ply != 2 {
		t.Fatalf("g1 = %+v", g)
	}
	if g.Seats[1].Name != "bob" || g.Seats[1].TokenHash != "t1" || !g.Seats[1].Joined || g.Seats[1].InviteHash != "i1" {
		t.Fatalf("g1 seat 1 = %+v", g.Seats[1])
	}
	if !g.Updated.Equal(at) || !g.Created.Equal(newGame("").Created) {
		t.Fatalf("g1 times %v %v", g.Created, g.Updated)
	}
	g2, _ := s.Get(ctx, "g2")
	if g2.End.Resigned != 1 || g2.End.Detail != "Black resigned" {
		t.Fatalf("g2 end = %+v", g2.End)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get(nope) = %v; want ErrNotFound", err)
	}
	un, err := s.Unfinished(ctx)
	if err != nil || len(un) != 0 {
		t.Fatalf("Unfinished = %v, %v; want none", un, err)
	}
	rec, err := s.Recent(ctx, 10, store.Finished)
	if err != nil || len(rec) != 2 || len(rec[0].Seats) != 2 || rec[0].Moves != nil {
		t.Fatalf("Recent = %v, %v", rec, err)
	}
}

// TestGroupCommit writes from many goroutines at once: every write is
// committed and answered.
func TestGroupCommit(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const games, plies = 50, 20
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := 0; i < games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("g", i)
			if err := s.Create(ctx, newGame(id)); err != nil {
				errs <- err
				return
			}
			for p := 0; p < plies; p++ {
				if err := s.AppendMove(ctx, id, p, "m", time.Now(), nil); err != nil {
					errs <- err
					return
				}
			}
			// A conflicting write fails alone.
			if err := s.AppendMove(ctx, id, 0, "m", time.Now(), nil); !errors.Is(err, store.ErrConflict) {
				errs <- fmt.Errorf("conflict: %v", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	un, err := s.Unfinished(ctx)
	if err != nil || len(un) != games {
		t.Fatalf("Unfinished: %d games, %v", len(un), err)
	}
	for _, g := range un {
		if len(g.Moves) != plies {
			t.Fatalf("game %s has %d moves; want %d", g.ID, len(g.Moves), plies)
		}
	}
}
