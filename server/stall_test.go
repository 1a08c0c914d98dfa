package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"stax/server"
	"stax/server/account"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// stallStore is a store whose moves into one game, and whose pings, hang
// until their context ends, as behind a row lock or a frozen database.
type stallStore struct {
	*sqlite.Store
	game    atomic.Value // the id of the game whose moves hang
	pings   atomic.Bool  // pings hang
	hanging atomic.Int32 // moves hanging now
}

func (s *stallStore) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *store.End) error {
	if g, _ := s.game.Load().(string); g == id {
		s.hanging.Add(1)
		defer s.hanging.Add(-1)
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Store.AppendMove(ctx, id, ply, move, at, end)
}

func (s *stallStore) Ping(ctx context.Context) error {
	if s.pings.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Store.Ping(ctx)
}

// TestStalledStore checks that a stalled database holds nobody: a move
// stuck in one game fails at the store's deadline, another game's flag
// falls on time meanwhile, and /healthz answers within its own deadline.
func TestStalledStore(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a 3 s store deadline; runs without -short")
	}
	clock := newFakeClock()
	st, err := sqlite.Open(newDB(t), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stall := &stallStore{Store: st}
	stall.game.Store("")
	ts := startOn(t, stall, server.Config{Now: clock.Now, PasswordParams: cheapPasswords, StoreDeadline: 3 * time.Second})
	ann, bob := ts.annAndBob()
	slow := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	timed := playersGame(t, ann, bob, map[string]any{"spec": "pisola", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	wa, wb := ann.game(timed), bob.game(timed)
	wa.hello()
	wb.hello()
	firstMoves(wa, wb)

	// Ann's move in the first game hangs in the store...
	stall.game.Store(slow)
	ws := ann.game(slow)
	ws.hello()
	st0 := ws.waitPly(0)
	start := time.Now()
	ws.move(st0.Legal()[0], 0)
	waitFor(t, "the move in the store", func() bool { return stall.hanging.Load() == 1 })
	// ...while the second game's clock runs out: it is flagged while
	// the move still hangs, not after it.
	clock.Advance(61 * time.Second)
	ts.srv.CheckClocks()
	end := wa.waitState("the flag", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Reason != "time" || stall.hanging.Load() != 1 {
		t.Fatalf("the other game's flag: %+v, %d moves hanging; want a loss on time while the stuck move hangs", end.Outcome, stall.hanging.Load())
	}
	// The stuck move fails at the store's deadline (not before), with a
	// clear error.
	ws.wantError("server", "could not save")
	if d := time.Since(start); d < 3*time.Second {
		t.Fatalf("the stuck move failed after %v; want the 3 s deadline", d)
	}

	// A frozen database: /healthz says so at its deadline (a client's
	// limit far beyond it only catches a check that never ends).
	stall.pings.Store(true)
	start = time.Now()
	res, err := (&http.Client{Timeout: server.HealthDeadline + 30*time.Second}).Get(ts.url + "/healthz")
	if err != nil {
		t.Fatalf("/healthz on a frozen database: %v; want 503 after %v", err, server.HealthDeadline)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || time.Since(start) < server.HealthDeadline {
		t.Fatalf("/healthz on a frozen database: %d after %v; want 503 after %v", res.StatusCode, time.Since(start), server.HealthDeadline)
	}
}

// TestMoveAgainstFlagTwoInstances races a move and a flag at the same ply
// on two instances: ann's move reaches the first instance in time but its
// commit is slow; meanwhile her time runs out and the second instance
// flags her. The database takes one of the two: the stored game never
// holds both her move and her loss on time, and she is told which.
func TestMoveAgainstFlagTwoInstances(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	slow := &slowMoves{Store: st, hold: make(chan struct{}), started: make(chan struct{})}
	ts1 := startOn(t, slow, server.Config{Now: clock.Now, PasswordParams: cheapPasswords})
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	// Bob plays on the second instance, which holds the game too.
	bob = ts2.player("bob")
	bob.call("POST", "/api/login", account.Credentials{Name: "bob", Password: "battery staple"}, http.StatusOK, nil)
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	s2 := firstMoves(wa, wb)
	wb.waitPly(2)                   // the second instance holds the game at ply 2
	clock.Advance(60 * time.Second) // within her 60 s and the allowance
	slow.slow.Store(true)
	wa.move(s2.Legal()[0], 2)
	<-slow.started // the move is in the store, not committed
	clock.Advance(time.Second)
	ts2.srv.CheckClocks()
	close(slow.hold)
	wa.wantError("game_over", "ended before the move arrived")
	g, err := ts2.store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != store.Finished || len(g.Moves) != 2 || !strings.Contains(g.End.Outcome, "time") {
		t.Fatalf("stored game: %s, %d moves, %q; want the flag alone, without the move", g.Status, len(g.Moves), g.End.Outcome)
	}
}

// slowMoves is a store whose next move, once slow is set, waits for hold
// before it is written (a commit that takes its time).
type slowMoves struct {
	*sqlite.Store
	slow    atomic.Bool
	started chan struct{}
	hold    chan struct{}
	once    sync.Once
}

func (s *slowMoves) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *store.End) error {
	if s.slow.Load() {
		s.once.Do(func() { close(s.started) })
		<-s.hold
	}
	return s.Store.AppendMove(ctx, id, ply, move, at, end)
}
