package loadtest_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"stax/ai"
	"stax/games"
	"stax/server"
	"stax/server/loadtest"
	"stax/server/store/sqlite"
)

// TestLoad plays 50 concurrent games against an in-process server for two
// seconds: a small version of stax loadtest.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test takes a few seconds")
	}
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "load.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, Games: games.All(), NewPlayer: ai.New, Levels: ai.Levels, DebugStats: true,
		CreateEvery: time.Millisecond, CreateBurst: 10000, JoinEvery: time.Millisecond, JoinBurst: 10000, MaxOpenGames: 10000})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, clients := range []int{1, 2} {
		rep, err := loadtest.Run(context.Background(), loadtest.Config{
			URL:      hs.URL,
			Games:    50,
			Clients:  clients,
			Duration: 2 * time.Second,
			Think:    50 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
		un, _ := st.Unfinished(context.Background())
		t.Logf("%d client(s) per game:\n%s\n%d games left unfinished", clients, rep, len(un))
		// A game being replaced when the test ends may be left behind;
		// every other is resigned.
		if len(un) > 2 {
			t.Errorf("%d games left unfinished; want every game resigned at the end", len(un))
		}
		if rep.Errors != 0 || rep.Moves < 100 || rep.Conns != 50*clients {
			t.Errorf("%d errors (first: %s), %d moves, %d websockets; want none, at least 100, %d", rep.Errors, rep.FirstError, rep.Moves, rep.Conns, 50*clients)
		}
	}
}

// TestLoopbackOnly checks that only loopback servers are load tested.
func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://192.168.1.1:8080", "http://example.com", "ftp://127.0.0.1"} {
		if _, err := loadtest.Run(context.Background(), loadtest.Config{URL: u, Games: 1}); err == nil {
			t.Errorf("Run(%s) did not refuse", u)
		}
	}
}
