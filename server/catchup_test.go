package server_test

import (
	"context"
	"testing"
	"time"

	"stax/server"
	"stax/server/account"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// deafStore is a store whose change feed loses every move: the server on
// it holds games that other servers sharing the database move on, as when
// the instance that stored a move died before announcing it.
type deafStore struct{ *sqlite.Store }

func (d deafStore) Watch(ctx context.Context, fn func(store.Event)) error {
	return d.Store.Watch(ctx, func(ev store.Event) {
		if ev.Kind != store.EventMove {
			fn(ev)
		}
	})
}

// TestMissedMove plays a move on one server while another server holding
// the game misses its announcement: a player connecting to the second one
// is served the game with the move, and the players already there get it.
func TestMissedMove(t *testing.T) {
	db := newDB(t)
	a := startServer(t, db, server.Config{})
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := startOn(t, deafStore{st}, server.Config{})
	id, tokens := a.twoPlayerGame("pogo")
	white := a.dial("white", id, tokens[0])
	white.hello()
	black := b.dial("black", id, tokens[1])
	black.hello()
	black.waitPly(0)
	white.waitPly(0)
	white.move("1a1-a2", 0)
	white.waitPly(1)

	// The second server missed the move; white, coming back on it, is
	// served the game as stored, and black, already there, is told.
	again := b.dial("white again", id, tokens[0])
	again.hello()
	if st := again.waitPly(1); st.Ply != 1 {
		t.Fatalf("white on the second server sees ply %d; want 1", st.Ply)
	}
	black.waitPly(1)
	black.move("1a3-a2", 1)
	white.waitPly(2)
}

// TestMissedMoveNoFlag keeps a server that missed a move from flagging
// the player who made it: the flag falls only on the game as stored.
func TestMissedMoveNoFlag(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts1 := startAccounts(t, db, clock)
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := startOn(t, deafStore{st}, server.Config{Now: clock.Now, PasswordParams: cheapPasswords})
	ann, bob := ts1.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	// The first moves, free, on the first server.
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	st2 := firstMoves(wa, wb)
	wb.c.CloseNow()
	bob = ts2.player("bob")
	bob.call("POST", "/api/login", account.Credentials{Name: "bob", Password: "battery staple"}, 200, nil)
	wb = bob.game(id)
	wb.hello()
	wb.waitPly(2)
	clock.Advance(50 * time.Second)
	wa.move(st2.Legal()[0], 2)
	wa.waitPly(3)
	// Ann moved with 10 s left; 11 s later the second server, which
	// missed her move, must not flag her: it is bob's turn, with 49 s.
	clock.Advance(11 * time.Second)
	ts2.srv.CheckClocks()
	ts1.srv.CheckClocks()
	if st := wb.waitPly(3); st.Status != "playing" {
		t.Fatalf("after ann's move and 11 s: %s %+v; want bob to move, nobody flagged", st.Status, st.Outcome)
	}
	clock.Advance(50 * time.Second)
	ts2.srv.CheckClocks()
	st2 = wb.waitState("bob's flag", func(s *stateOf) bool { return s.Status == "finished" })
	if st2.Outcome.Reason != "time" || st2.Outcome.Result != "1-0" {
		t.Fatalf("bob out of time: %+v; want 1-0 on time", st2.Outcome)
	}
}
