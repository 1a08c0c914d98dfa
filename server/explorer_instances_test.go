package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"stax/server"
	"stax/server/explorer"
	"stax/server/store/pgtest"
)

// TestExplorerTwoInstances plays games on two servers sharing one SQLite
// database and reads the explorer on either.
func TestExplorerTwoInstances(t *testing.T) { testExplorerTwoInstances(t, newDB(t)) }

// TestExplorerTwoInstancesPostgres plays games on two servers sharing one
// PostgreSQL database.
func TestExplorerTwoInstancesPostgres(t *testing.T) { testExplorerTwoInstances(t, pgtest.URL(t)) }

// testExplorerTwoInstances checks the explorer behind the site's guard: a
// game played to its end on one instance and another on the other are
// indexed within a sweep, each once though both instances sweep, and
// their moves and results are read on either instance.
func testExplorerTwoInstances(t *testing.T, db string) {
	cfg := server.Config{SweepEvery: 50 * time.Millisecond}
	ts1 := startServer(t, db, cfg)
	ts2 := startServer(t, db, cfg)
	// On each instance White plays 1a1-a2, Black answers and then
	// resigns (first game) or White resigns (second).
	for i, ts := range []*testServer{ts1, ts2} {
		id, tokens := ts.twoPlayerGame("pogo")
		white, black := ts.dial("white", id, tokens[0]), ts.dial("black", id, tokens[1])
		white.hello()
		black.hello()
		white.waitPly(0)
		white.move("1a1-a2", 0)
		black.waitPly(1)
		black.move([]string{"1c3-c2", "1a3-a2"}[i], 1)
		white.waitPly(2)
		[]*wsClient{black, white}[i].send(map[string]any{"type": "resign"})
		white.waitState("the resignation", func(s *stateOf) bool { return s.Status == "finished" })
	}
	var start explorer.Answer
	deadline := time.Now().Add(10 * time.Second)
	for {
		ts2.call("GET", "/api/explorer?spec=pogo", nil, http.StatusOK, &start)
		if start.Games >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if start.Games != 2 || len(start.Moves) != 1 || start.Moves[0].Move != "1a1-a2" || start.Moves[0].Casual != (explorer.Stats{Games: 2, Wins: 1, Losses: 1}) {
		t.Fatalf("the start on the second instance: %+v; want 1a1-a2 in 2 casual games, won once and lost once", start)
	}
	var after explorer.Answer
	ts1.call("GET", "/api/explorer?spec=pogo&moves=1a1-a2", nil, http.StatusOK, &after)
	got := map[string]explorer.Stats{}
	for _, m := range after.Moves {
		got[m.Move] = m.Casual
	}
	if want := map[string]explorer.Stats{"1c3-c2": {Games: 1, Losses: 1}, "1a3-a2": {Games: 1, Wins: 1}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after 1a1-a2 on the first instance: %v; want %v", got, want)
	}
	// More sweeps count nothing twice.
	time.Sleep(200 * time.Millisecond)
	ts1.call("GET", "/api/explorer?spec=pogo", nil, http.StatusOK, &start)
	if start.Games != 2 {
		t.Fatalf("after more sweeps: %d games; want 2", start.Games)
	}
}
