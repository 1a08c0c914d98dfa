package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/search"
	"stax/server"
	"stax/server/play"
	"stax/server/store"
)

// post sends a JSON POST from a client and returns the status, the
// Retry-After header and the body.
func post(t *testing.T, c *http.Client, url string, body any) (int, string, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), string(data)
}

var hotseat = play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}}

// TestCreateRate checks the token bucket on game creation: a burst is
// allowed, then 429 with Retry-After, per client address.
func TestCreateRate(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{CreateBurst: 3, CreateEvery: time.Hour})
	c := clientFrom("127.0.0.1")
	for i := range 3 {
		if code, _, body := post(t, c, ts.url+"/api/games", hotseat); code != http.StatusCreated {
			t.Fatalf("creation %d: %d %s", i+1, code, body)
		}
	}
	code, retry, body := post(t, c, ts.url+"/api/games", hotseat)
	if secs, _ := strconv.Atoi(retry); code != http.StatusTooManyRequests || secs < 3500 || secs > 3600 || !strings.Contains(body, "too many new games") {
		t.Errorf("creation 4: %d, Retry-After %q, %s; want 429 with Retry-After about an hour", code, retry, body)
	}
	if code, _, body := post(t, clientFrom("127.0.0.2"), ts.url+"/api/games", hotseat); code != http.StatusCreated {
		t.Errorf("creation from another address: %d %s; want 201", code, body)
	}
}

// TestJoinRate checks the token bucket on joins, wrong invites included.
func TestJoinRate(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{JoinBurst: 2, JoinEvery: time.Hour})
	id, _ := ts.twoPlayerGame("pogo") // one join
	c := clientFrom("127.0.0.1")
	if code, _, body := post(t, c, ts.url+"/api/games/"+id+"/join", play.JoinRequest{Invite: "00"}); code != http.StatusForbidden {
		t.Fatalf("second join: %d %s; want 403", code, body)
	}
	if code, retry, body := post(t, c, ts.url+"/api/games/"+id+"/join", play.JoinRequest{Invite: "00"}); code != http.StatusTooManyRequests || retry == "" {
		t.Errorf("third join: %d, Retry-After %q, %s; want 429 with Retry-After", code, retry, body)
	}
}

// TestOpenGamesCap checks the cap on one address's unfinished games: a
// game that ends frees its place.
func TestOpenGamesCap(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{MaxOpenGames: 2})
	var first play.CreateResponse
	ts.call("POST", "/api/games", hotseat, http.StatusCreated, &first)
	ts.create(hotseat)
	code, _, body := post(t, clientFrom("127.0.0.1"), ts.url+"/api/games", hotseat)
	if code != http.StatusTooManyRequests || !strings.Contains(body, "unfinished games") {
		t.Fatalf("third open game: %d %s; want 429 saying too many unfinished games", code, body)
	}
	w := ts.dial("creator", first.ID, first.Token)
	w.hello()
	w.send(map[string]any{"type": "resign"})
	w.waitState("resigned", func(s *stateOf) bool { return s.Status == "finished" })
	ts.create(hotseat)
}

// TestExpiry checks that a game with no move for the expiry time is
// adjudicated as abandoned by the seat to move, whether it is in memory or
// was unloaded, and that unwatched games leave memory.
func TestExpiry(t *testing.T) {
	// The games' times run on a fake clock: only the sweeps' rhythm is
	// real.
	clock := newFakeClock()
	ts := startServer(t, newDB(t), server.Config{
		Now: clock.Now, Expiry: 2 * time.Second, KeepIdle: 100 * time.Millisecond,
		KeepFinished: 100 * time.Millisecond, SweepEvery: 50 * time.Millisecond,
	})
	watched := ts.create(hotseat)
	w := ts.dial("watcher", watched.ID, "")
	w.hello()
	w.waitPly(0)
	unwatched := ts.create(hotseat)
	moved := ts.create(hotseat)
	m := ts.dial("mover", moved.ID, moved.Token)
	m.hello()
	m.waitPly(0)
	clock.Advance(time.Second)
	m.move("1a1-a2", 0)
	m.waitPly(1)
	m.c.CloseNow()
	clock.Advance(500 * time.Millisecond)

	// The unwatched game leaves memory long before it expires.
	waitFor(t, "the unwatched game to leave memory", func() bool { games, _ := ts.srv.Live(); return games <= 2 })
	sg, err := ts.store.Get(context.Background(), unwatched.ID)
	if err != nil || sg.Status != store.Playing {
		t.Fatalf("unwatched game before expiry: %v, %v; want still playing", sg, err)
	}

	// Both untouched games expire, the watched one in memory, the other
	// from the store; the one moved in later does not, yet.
	clock.Advance(600 * time.Millisecond)
	st := w.waitState("expired", func(s *stateOf) bool { return s.Status == "finished" })
	if st.Outcome == nil || st.Outcome.Reason != "forfeit" || !strings.Contains(st.Outcome.Detail, "abandoned") || st.Outcome.Winners[0] != 1 {
		t.Errorf("expired game's outcome %+v; want White (to move) forfeiting as abandoned", st.Outcome)
	}
	waitFor(t, "the unwatched game to expire", func() bool {
		sg, err := ts.store.Get(context.Background(), unwatched.ID)
		return err == nil && sg.Status == store.Finished && strings.Contains(sg.End.Outcome, "abandoned")
	})
	if sg, _ := ts.store.Get(context.Background(), moved.ID); sg.Status != store.Playing {
		t.Errorf("the game moved in 1 s after creation expired with the others")
	}
	clock.Advance(time.Second)
	waitFor(t, "the game moved in to expire", func() bool {
		sg, err := ts.store.Get(context.Background(), moved.ID)
		return err == nil && sg.Status == store.Finished
	})
	w.c.CloseNow()
	waitFor(t, "the watcher to leave", func() bool { _, conns := ts.srv.Live(); return conns == 0 })
	clock.Advance(200 * time.Millisecond)
	waitFor(t, "every game to leave memory", func() bool { games, _ := ts.srv.Live(); return games == 0 })
	if n := ts.srv.Stats().Expired; n != 3 {
		t.Errorf("stats count %d expired games; want 3", n)
	}
	// An expired game is still there to read.
	var got stateOf
	ts.call("GET", "/api/games/"+unwatched.ID, nil, http.StatusOK, &got)
	if got.Status != "finished" {
		t.Errorf("expired game read back as %s", got.Status)
	}
}

// TestOnlyLiveGamesResumed checks that a restarted server holds no game in
// memory but queues the move of each game whose computer is to move, loads
// the games when asked, and expires at start the games abandoned while it
// was down.
func TestOnlyLiveGamesResumed(t *testing.T) {
	db := newDB(t)
	clock := newFakeClock()
	ts := startServer(t, db, server.Config{Now: clock.Now, NewPlayer: blockingPlayers})
	human := ts.create(hotseat)
	ai := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "easy"}, {Kind: "human"}}})
	ts.stop()

	ts = startServer(t, db, server.Config{Now: clock.Now, NewPlayer: blockingPlayers})
	if games, _ := ts.srv.Live(); games != 0 {
		t.Errorf("%d games in memory after a restart; want none", games)
	}
	if jobs, err := ts.store.Jobs(context.Background(), ai.ID); err != nil || len(jobs) != 1 || jobs[0].Ply != 0 {
		t.Errorf("computer moves queued after a restart: %+v, %v; want the first move", jobs, err)
	}
	var st stateOf
	ts.call("GET", "/api/games/"+human.ID, nil, http.StatusOK, &st)
	if st.Status != "playing" {
		t.Errorf("human game loaded on demand: %s", st.Status)
	}
	ts.stop()

	clock.Advance(time.Minute)
	ts = startServer(t, db, server.Config{Now: clock.Now, Expiry: 10 * time.Second, NewPlayer: blockingPlayers})
	for _, id := range []string{human.ID, ai.ID} {
		sg, err := ts.store.Get(context.Background(), id)
		if err != nil || sg.Status != store.Finished || !strings.Contains(sg.End.Outcome, "abandoned") {
			t.Errorf("game %s abandoned while the server was down: %+v, %v; want it expired at start", id, sg, err)
		}
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blockingPlayers makes computer players that think until stopped.
func blockingPlayers(g game.Game, level string) (search.Player, error) {
	return blocker{make(chan struct{})}, nil
}
