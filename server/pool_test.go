package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"stax/game"
	"stax/search"
	"stax/server"
	"stax/server/httpx"
	"stax/server/play"
)

// slowRandom plays random moves after a pause.
type slowRandom struct {
	pause time.Duration
	r     search.Player
}

func (p slowRandom) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	time.Sleep(p.pause)
	return p.r.Play(ctx, pos, lim, report)
}

// TestWorkersKeepPlayers checks that the computer players belong to the
// workers, not to the games: one worker serves many games of a level with
// one player, and keeps at most two.
func TestWorkersKeepPlayers(t *testing.T) {
	var made atomic.Int64
	ts := startServer(t, newDB(t), server.Config{Workers: 1, NewPlayer: func(g game.Game, level string) (search.Player, error) {
		made.Add(1)
		return search.NewRandom(uint64(made.Load())), nil
	}})
	var ids []string
	for i := range 12 {
		level := []string{"easy", "easy", "easy", "hard"}[i%4]
		cr := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: level}, {Kind: "human"}}})
		ids = append(ids, cr.ID)
	}
	for _, id := range ids {
		waitFor(t, "the computer's first move", func() bool {
			var st stateOf
			ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
			return st.Ply == 1
		})
	}
	// One worker, two levels of one variant: two players, however many
	// games (alternating levels would make more, but a worker keeps two).
	if n := made.Load(); n != 2 {
		t.Errorf("%d players made for 12 games of two levels on one worker; want 2", n)
	}
	if st := ts.srv.Stats(); st.Players != 2 {
		t.Errorf("stats count %d players made; want 2", st.Players)
	}
	// A third level on the same worker drops the least recently used.
	cr := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "medium"}, {Kind: "human"}}})
	w := ts.dial("p", cr.ID, cr.Token)
	w.hello()
	w.waitPly(1)
	if n := made.Load(); n != 3 {
		t.Errorf("%d players made after a third level; want 3", n)
	}
}

// TestFairQueue checks that a game whose computers play each other without
// pause cannot starve the others: with one worker, every game waiting is
// served once before the busy game's next move.
func TestFairQueue(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Workers: 1, DebugStats: true, NewPlayer: func(g game.Game, level string) (search.Player, error) {
		return slowRandom{pause: 20 * time.Millisecond, r: search.NewRandom(5)}, nil
	}})
	busy := ts.create(play.CreateRequest{Spec: "pogo(rep=0)", Seats: []play.SeatRequest{{Kind: "ai", Level: "easy"}, {Kind: "ai", Level: "easy"}}})
	waitFor(t, "the busy game under way", func() bool {
		var st stateOf
		ts.call("GET", "/api/games/"+busy.ID, nil, http.StatusOK, &st)
		return st.Ply >= 1
	})
	var others []string
	for range 5 {
		others = append(others, ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "easy"}, {Kind: "human"}}}).ID)
	}
	var busyBefore stateOf
	ts.call("GET", "/api/games/"+busy.ID, nil, http.StatusOK, &busyBefore)
	for _, id := range others {
		waitFor(t, "a waiting game's move", func() bool {
			var st stateOf
			ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
			return st.Ply == 1
		})
	}
	var busyAfter stateOf
	ts.call("GET", "/api/games/"+busy.ID, nil, http.StatusOK, &busyAfter)
	// Five games queued behind at most one busy move each: the busy game
	// moved at most twice meanwhile (once before they queued, once after).
	if d := busyAfter.Ply - busyBefore.Ply; d > 3 {
		t.Errorf("the busy game played %d moves while 5 waiting games got one each; want the queue to take turns", d)
	}
	if st := ts.srv.Stats(); st.AIWaitMax == 0 {
		t.Errorf("stats: wait at most %dus; want a wait", st.AIWaitMax)
	}
}

// gatedRandom plays random moves, one each time the gate lets one through.
type gatedRandom struct {
	gate chan struct{}
	r    search.Player
}

func (p gatedRandom) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	select {
	case <-p.gate:
	case <-ctx.Done():
		return search.Result{}, ctx.Err()
	}
	return p.r.Play(ctx, pos, lim, report)
}

// TestFairComputerMoves: one address with five games against a computer
// does not hold another's: the other address's computer move is made
// after at most two of the crowd's (the one under way and one more), not
// after all five. The computer moves one move at a time, when the test
// lets it, so that the order does not depend on the machine's speed.
func TestFairComputerMoves(t *testing.T) {
	proxies, _ := httpx.ParseTrustedProxies("127.0.0.1,::1")
	gate := make(chan struct{})
	ts := startServer(t, newDB(t), server.Config{Workers: 1, TrustedProxies: proxies, NewPlayer: func(g game.Game, level string) (search.Player, error) {
		return gatedRandom{gate: gate, r: search.NewRandom(5)}, nil
	}})
	create := func(from string) string {
		b, _ := json.Marshal(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "strongest"}, {Kind: "human"}}})
		req, _ := http.NewRequest("POST", ts.url+"/api/games", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", from)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var cr play.CreateResponse
		json.NewDecoder(res.Body).Decode(&cr)
		return cr.ID
	}
	var crowd []string
	for range 5 {
		crowd = append(crowd, create("203.0.113.1"))
	}
	other := create("203.0.113.2")
	ply := func(id string) int {
		var st stateOf
		ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
		return st.Ply
	}
	crowdPlies := func() int {
		n := 0
		for _, id := range crowd {
			n += ply(id)
		}
		return n
	}
	for before := 0; ply(other) == 0; {
		if before > 2 {
			t.Fatalf("the other address's move waits after %d of the crowd's; want it after at most two", before)
		}
		gate <- struct{}{} // one computer move
		waitFor(t, "the computer move let through", func() bool { return crowdPlies()+ply(other) == before+1 })
		before = crowdPlies()
	}
}
