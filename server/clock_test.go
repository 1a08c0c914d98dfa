package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/server/account"
	sclock "stax/server/clock"
	"stax/server/ratings"
	"stax/server/store/sqlite"
	"stax/server/view"

	"github.com/coder/websocket"
)

// clockOf is the part of a State's clock the tests read.
type clockOf struct {
	Clock *sclock.State `json:"clock"`
	stateOf
}

func (p *player) clock(id string) clockOf {
	p.t.Helper()
	var st clockOf
	p.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
	return st
}

func wantRemaining(t *testing.T, st clockOf, want ...int64) {
	t.Helper()
	if st.Clock == nil || len(st.Clock.Remaining) != len(want) {
		t.Fatalf("clock %+v; want remaining %v", st.Clock, want)
	}
	for i := range want {
		if st.Clock.Remaining[i] != want[i] {
			t.Fatalf("remaining %v; want %v", st.Clock.Remaining, want)
		}
	}
}

// firstMoves plays each player's first move, the first legal one, as a
// plays seat 0 and b seat 1; it returns the state after them.
func firstMoves(a, b *wsClient) *stateOf {
	st := a.waitPly(0)
	a.move(st.Legal()[0], 0)
	st = b.waitPly(1)
	b.move(st.Legal()[0], 1)
	return a.waitPly(2)
}

// TestFischerClock plays a 1+1 game on a fake clock: each player's first
// move is free, then each move is charged its time less the lag
// compensation and earns the increment; the clock survives a restart; the
// flag falls exactly at the deadline, and the loser's clock shows 0; a
// move that arrives after it is refused.
func TestFischerClock(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts := startAccounts(t, db, clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 1}, "rated": true, "seat": 0})
	st := ann.clock(id)
	wantRemaining(t, st, 60000, 60000)
	if st.Clock.Running != 0 || !st.Clock.FirstMove || !st.Clock.Deadline.Equal(clock.Now().Add(sclock.FirstMoveWindow)) {
		t.Fatalf("clock before the first move %+v; want ann's first-move window", st.Clock)
	}
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	clock.Advance(10 * time.Second)
	wa.move(st.Legal()[0], 0)
	s1 := wb.waitPly(1)
	clock.Advance(20 * time.Second)
	wb.move(s1.Legal()[0], 1)
	s2 := wa.waitPly(2)
	wantRemaining(t, ann.clock(id), 60000, 60000) // first moves are free
	clock.Advance(10 * time.Second)
	wa.move(s2.Legal()[0], 2)
	s3 := wb.waitPly(3)
	wantRemaining(t, ann.clock(id), 51100, 60000) // 60 - (10 - 0.1) + 1
	clock.Advance(50 * time.Millisecond)          // within the lag compensation: free
	wb.move(s3.Legal()[0], 3)
	wa.waitPly(4)
	wantRemaining(t, ann.clock(id), 51100, 61000)

	// Restart mid-game: the clocks are rebuilt from the stored times.
	wa.c.CloseNow()
	wb.c.CloseNow()
	ts.stop()
	ts = startAccounts(t, db, clock)
	ann.ts, bob.ts = ts, ts
	st = ann.clock(id)
	wantRemaining(t, st, 51100, 61000)
	if st.Clock.Running != 0 {
		t.Fatalf("running %d; want ann's clock", st.Clock.Running)
	}

	// Ann thinks until her deadline: not yet flagged a millisecond
	// before it, flagged at it.
	clock.Advance(51100*time.Millisecond + sclock.LagCompensation - time.Millisecond)
	ts.srv.CheckClocks()
	if st := ann.clock(id); st.Status != "playing" {
		t.Fatalf("flagged before the deadline: %+v", st.Outcome)
	}
	clock.Advance(time.Millisecond)
	wa = ann.game(id)
	wa.hello()
	ts.srv.CheckClocks()
	st = ann.clock(id)
	if st.Status != "finished" || st.Outcome.Result != "0-1" || st.Outcome.Reason != "time" || !strings.Contains(st.Outcome.Detail, "ran out of time") || st.Clock.Running != -1 {
		t.Fatalf("after the flag: %+v %+v", st.Outcome, st.Clock)
	}
	wantRemaining(t, st, 0, 61000)
	wa.move(st.Legal0(), 4)
	wa.wantError("game_over", "over")
	// The rated game changed the ratings once.
	var p ratings.Profile
	bob.call("GET", "/api/users/bob", nil, http.StatusOK, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 || p.Ratings[0].Rating <= 1500 {
		t.Fatalf("bob's ratings %+v; want one won game", p.Ratings)
	}
}

// TestFirstMoveWindow checks that a rated game whose player never makes a
// first move is aborted at the end of the window, unrated, with no loss
// for anyone, and shown as aborted in the players' lists; a 2+0 game's
// first mover is not flagged after 2 s.
func TestFirstMoveWindow(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 120, "increment": 0}, "rated": true, "seat": 1})
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	st := wb.waitPly(0)
	clock.Advance(5 * time.Second)
	ts.srv.CheckClocks()
	wb.move(st.Legal()[0], 0) // bob, seat 0, moves within the window
	wa.waitPly(1)
	clock.Advance(sclock.FirstMoveWindow - time.Millisecond)
	ts.srv.CheckClocks()
	if st := ann.clock(id); st.Status != "playing" || !st.Clock.FirstMove {
		t.Fatalf("before ann's window ends: %s %+v", st.Status, st.Clock)
	}
	clock.Advance(time.Millisecond)
	ts.srv.CheckClocks()
	end := wa.waitState("the abort", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Reason != "aborted" || len(end.Outcome.Winners) != 0 || !strings.Contains(end.Outcome.Detail, "ann made no first move") || end.Rated {
		t.Fatalf("after ann's window: %+v rated %v; want aborted and unrated", end.Outcome, end.Rated)
	}
	for _, name := range []string{"ann", "bob"} {
		var p ratings.Profile
		ann.call("GET", "/api/users/"+name, nil, http.StatusOK, &p)
		if len(p.Ratings) != 0 {
			t.Fatalf("%s's ratings %+v; want none: the game did not count", name, p.Ratings)
		}
		if len(p.Games) != 1 || p.Games[0].Rated || p.Games[0].Outcome == nil || !strings.HasPrefix(p.Games[0].Outcome.Description, "aborted") {
			t.Fatalf("%s's games %+v; want the game shown aborted, not rated", name, p.Games)
		}
	}
}

// Legal0 is a move to send whatever the state: the first legal move or a
// well-formed one.
func (s clockOf) Legal0() string {
	if len(s.Legal()) > 0 {
		return s.Legal()[0]
	}
	return "1a1-a2"
}

// TestMoveAfterFlag sends a move after the deadline, before the server
// has looked at the clocks: the move is refused and the game lost on time.
func TestMoveAfterFlag(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 5, "increment": 0}, "seat": 0})
	wa, wb := ann.game(id), bob.game(id)
	st := firstMoves(wa, wb)
	clock.Advance(6 * time.Second)
	wa.move(st.Legal()[0], 2)
	wa.wantError("flagged", "time ran out")
	end := wa.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Ply != 2 || end.Outcome.Reason != "time" || end.Outcome.Result != "0-1" {
		t.Fatalf("after a move past the flag: ply %d outcome %+v", end.Ply, end.Outcome)
	}
}

func TestCorrespondenceClock(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pisola", "days": 2, "seat": 1})
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	st := wb.waitPly(0)
	clock.Advance(47 * time.Hour)
	wb.move(st.Legal()[0], 0)
	wa.waitPly(1)
	var mine struct{ Games []view.Summary }
	ann.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || !mine.Games[0].YourMove {
		t.Fatalf("ann's games %+v; want this one, her move", mine.Games)
	}
	if *mine.Games[0].ToMove != 1 {
		t.Fatalf("to move %d", *mine.Games[0].ToMove)
	}
	mine.Games = nil
	bob.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].YourMove {
		t.Fatalf("bob's games %+v; want this one, not his move", mine.Games)
	}
	// Each move has its own two days.
	clock.Advance(30 * time.Hour)
	st = wa.waitPly(1)
	wa.move(st.Legal()[0], 1)
	wb.waitPly(2)
	clock.Advance(48*time.Hour - time.Millisecond)
	ts.srv.CheckClocks()
	if st := ann.clock(id); st.Status != "playing" || st.Clock.Days != 2 {
		t.Fatalf("after 48 h: %s %+v", st.Status, st.Clock)
	}
	clock.Advance(time.Millisecond)
	ts.srv.CheckClocks()
	if st := ann.clock(id); st.Status != "finished" || st.Outcome.Result != "0-1" || st.Outcome.Reason != "time" {
		t.Fatalf("after 48 h: %s %+v; want bob (seat 0) lost on time", st.Status, st.Outcome)
	}
}

// TestFlagTwoInstances runs two servers on one database, both holding a
// game whose clock runs out: the flag falls once, and the game is rated
// once.
func TestFlagTwoInstances(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.annAndBob()
	// Both players use the first server for the seek.
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	// Bob plays on the second server, which reads his session and the
	// game from the database.
	bob = ts2.player("bob")
	bob.call("POST", "/api/login", account.Credentials{Name: "bob", Password: "battery staple"}, http.StatusOK, nil)
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	firstMoves(wa, wb)
	clock.Advance(61 * time.Second)
	var wg sync.WaitGroup
	for _, ts := range []*testServer{ts1, ts2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts.srv.CheckClocks()
		}()
	}
	wg.Wait()
	for _, w := range []*wsClient{wa, wb} {
		st := w.waitState("the flag", func(s *stateOf) bool { return s.Status == "finished" })
		if st.Outcome.Reason != "time" || st.Outcome.Result != "0-1" {
			t.Fatalf("%s sees %+v", w.name, st.Outcome)
		}
	}
	for _, name := range []string{"ann", "bob"} {
		var p ratings.Profile
		ann.call("GET", "/api/users/"+name, nil, http.StatusOK, &p)
		if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 || len(p.Ratings[0].History) != 1 {
			t.Fatalf("%s: %+v; want the game rated once", name, p.Ratings)
		}
	}
}

// TestDowntimeNotCharged stops the server mid-game for 7 s, gracefully and
// by a crash: the player to move is charged none of a stop's time and at
// most relay.BeatGrace of a crash's, and the clocks survive both.
func TestDowntimeNotCharged(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts := startAccounts(t, db, clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 0}, "rated": true, "seat": 0})
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	firstMoves(wa, wb)
	clock.Advance(5 * time.Second) // ann thinks 5 s, then the server stops
	wa.c.CloseNow()
	wb.c.CloseNow()
	ts.stop()
	clock.Advance(7 * time.Second)
	ts = startAccounts(t, db, clock)
	ann.ts, bob.ts = ts, ts
	ts.srv.CheckClocks()
	st := ann.clock(id)
	if st.Status != "playing" {
		t.Fatalf("after a 7 s stop: %s %+v", st.Status, st.Outcome)
	}
	// Her deadline moved by the 7 s: 60 s + the allowance after her turn
	// began, plus the downtime.
	if want := clock.Now().Add(-12*time.Second + 60*time.Second + sclock.LagCompensation + 7*time.Second); !st.Clock.Deadline.Equal(want) {
		t.Fatalf("deadline after a stop %v; want %v", st.Clock.Deadline, want)
	}

	// A crash: the instance's last beat, a second before it died, says
	// it was alive; it says nothing more.
	clock.Advance(3 * time.Second)
	crashed := clock.Now()
	ts.stop()
	st2, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st2.ForgetBeats(context.Background(), crashed.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st2.Beat(context.Background(), "crashed", crashed.Add(-time.Second), false); err != nil {
		t.Fatal(err)
	}
	st2.Close()
	clock.Advance(7 * time.Second)
	ts = startAccounts(t, db, clock)
	ann.ts = ts
	st = ann.clock(id)
	// Of the 22 s of her turn, 7 s were served (5, then 2 before the
	// last beat) and 15 s were not (the stop's 7, the crash's 8).
	if want := clock.Now().Add(-22*time.Second + 60*time.Second + sclock.LagCompensation + 15*time.Second); st.Status != "playing" || !st.Clock.Deadline.Equal(want) {
		t.Fatalf("after a crash: %s, deadline %v; want %v", st.Status, st.Clock.Deadline, want)
	}
	// The move she makes now is charged 7 s.
	wa = ann.game(id)
	wa.hello()
	s2 := wa.waitPly(2)
	wa.move(s2.Legal()[0], 2)
	wa.waitPly(3)
	wantRemaining(t, ann.clock(id), (60*time.Second - 7*time.Second + sclock.LagCompensation).Milliseconds(), 60000)
}

// TestClaimWhenOpponentLeaves: in a live game, a player whose opponent has
// left may claim the win (or a draw) once the opponent has been gone for
// the claim time, and not before; one who comes back in time keeps the
// game going.
func TestClaimWhenOpponentLeaves(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 180, "increment": 2}, "rated": true, "seat": 0})
	wa, wb := ann.game(id), bob.game(id)
	wa.hello()
	wb.hello()
	st := firstMoves(wa, wb)
	if st.ClaimAfter != 30000 {
		t.Fatalf("claimAfter %d ms in a 3+2 game; want 30 s", st.ClaimAfter)
	}
	wa.send(map[string]any{"type": "claim", "offer": "win"})
	wa.wantError("bad_message", "still here")

	// Bob leaves, and comes back before the claim time.
	wb.c.Close(websocket.StatusNormalClosure, "")
	left := wa.waitState("bob gone", func(s *stateOf) bool { return s.Seats[1].Left != nil })
	if !left.Seats[1].Left.Equal(clock.Now()) {
		t.Fatalf("bob left at %v; want %v", left.Seats[1].Left, clock.Now())
	}
	clock.Advance(20 * time.Second)
	wa.send(map[string]any{"type": "claim", "offer": "win"})
	wa.wantError("bad_message", "claimed in 10 s")
	wb = bob.game(id)
	wb.hello()
	wa.waitState("bob back", func(s *stateOf) bool { return s.Seats[1].Left == nil })
	clock.Advance(20 * time.Second)
	wa.send(map[string]any{"type": "claim", "offer": "win"})
	wa.wantError("bad_message", "still here")

	// He leaves for good: 30 s later ann claims the win, and it counts.
	wb.c.Close(websocket.StatusNormalClosure, "")
	wa.waitState("bob gone again", func(s *stateOf) bool { return s.Seats[1].Left != nil })
	clock.Advance(30 * time.Second)
	wa.send(map[string]any{"type": "claim", "offer": "win"})
	end := wa.waitState("the claim", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Result != "1-0" || end.Outcome.Reason != "forfeit" || !strings.Contains(end.Outcome.Detail, "bob left the game") || !end.Rated {
		t.Fatalf("after the claim: %+v rated %v; want ann's rated win, bob having left", end.Outcome, end.Rated)
	}
	var p ratings.Profile
	ann.call("GET", "/api/users/ann", nil, http.StatusOK, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Rating <= 1500 {
		t.Fatalf("ann's ratings %+v; want the won game", p.Ratings)
	}
}
