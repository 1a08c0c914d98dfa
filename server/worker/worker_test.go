package worker_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/store"
	"stax/server/store/sqlite"
	"stax/server/worker"
)

// newStore opens a SQLite store with one Pogo game whose seat 1 is a
// computer's and seat 0 a person's, and a Fischer clock.
func newStore(t *testing.T, moves []string) (*sqlite.Store, *store.Game) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Now().UTC().Truncate(time.Millisecond)
	g := &store.Game{ID: "abcdefghijklmnop", Spec: "pogo", Status: store.Playing, Created: now, Updated: now,
		Seats: []store.Seat{{Kind: "human", Joined: true}, {Kind: "ai", Level: "random", Joined: true}},
		Clock: &store.Clock{Initial: time.Minute, Increment: time.Second}, End: store.End{Resigned: -1}, Moves: moves}
	if err := st.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return st, g
}

// run runs one worker until the game's job at ply is done, or fails after
// a while.
func run(t *testing.T, st store.Store, newPlayer func(game.Game, string) (search.Player, error), id string, ply int) *store.Game {
	t.Helper()
	if err := st.AddJob(context.Background(), id, ply, "", 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := worker.New(worker.Config{Store: st, Games: games.All(), NewPlayer: newPlayer, AITimeout: 5 * time.Second})
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx, 1) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		jobs, err := st.Jobs(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			if j.Ply == ply && j.Done {
				g, err := st.Get(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
		}
	}
	t.Fatal("the computer move's job was not done within 10 s")
	return nil
}

// TestComputerMove checks that a worker makes the move of the computer's
// seat from the stored game (with its clock), commits it, and does nothing
// for a job that the game has moved past.
func TestComputerMove(t *testing.T) {
	st, g := newStore(t, []string{"1a1-a2"})
	random := func(game.Game, string) (search.Player, error) { return search.NewRandom(1), nil }
	got := run(t, st, random, g.ID, 1)
	if len(got.Moves) != 2 || got.Status != store.Playing {
		t.Fatalf("moves %v, status %s; want the computer's answer and the game going on", got.Moves, got.Status)
	}
	// A job for a ply already played is done without a move.
	got = run(t, st, random, g.ID, 1)
	if len(got.Moves) != 2 {
		t.Fatalf("moves %v after a stale job; want no new move", got.Moves)
	}
}

// TestForfeit checks that a computer player that cannot start forfeits its
// seat, rather than stalling the game.
func TestForfeit(t *testing.T) {
	st, g := newStore(t, []string{"1a1-a2"})
	broken := func(game.Game, string) (search.Player, error) { return nil, errors.New("no such engine") }
	got := run(t, st, broken, g.ID, 1)
	if got.Status != store.Finished || got.End.Resigned != 1 {
		t.Fatalf("status %s end %+v; want seat 1 forfeited", got.Status, got.End)
	}
	o, err := game.ParseOutcome(got.End.Outcome)
	if err != nil || o.Reason != game.ByForfeit {
		t.Fatalf("outcome %q (%v); want a forfeit", got.End.Outcome, err)
	}
}
