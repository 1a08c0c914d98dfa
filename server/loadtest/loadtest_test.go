package loadtest_test

import (
	"context"
	"net"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/ai"
	"stax/games"
	"stax/server"
	"stax/server/loadtest"
	"stax/server/store/sqlite"
)

// startServer starts an in-process server on the SQLite database at path,
// with the limits on one address lifted, until the test ends.
func startServer(t *testing.T, path string) (*sqlite.Store, string) {
	t.Helper()
	st, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(server.Config{Store: st, Games: games.All(), NewPlayer: ai.New, Levels: ai.Levels, DebugStats: true,
		CreateEvery: time.Millisecond, CreateBurst: 10000, JoinEvery: time.Millisecond, JoinBurst: 10000, MaxOpenGames: 10000})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	// Cleanups run last first: the HTTP server, then the server, then
	// the store.
	t.Cleanup(func() { srv.Close() })
	t.Cleanup(hs.Close)
	return st, hs.URL
}

// TestLoad plays 50 concurrent games against an in-process server for two
// seconds: a small version of stax loadtest.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test takes a few seconds")
	}
	st, url := startServer(t, filepath.Join(t.TempDir(), "load.db"))
	for _, clients := range []int{1, 2} {
		rep, err := loadtest.Run(context.Background(), loadtest.Config{
			URL:      url,
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

// TestLoadInstances plays games over two server instances sharing one
// database (two stores of one SQLite file in this process, whose change
// feed they share): every other game's players are on different instances,
// and the report compares the relay within and across instances.
func TestLoadInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test takes a few seconds")
	}
	path := filepath.Join(t.TempDir(), "load.db")
	var urls []string
	for range 2 {
		_, url := startServer(t, path)
		urls = append(urls, url)
	}
	rep, err := loadtest.Run(context.Background(), loadtest.Config{
		URL:      strings.Join(urls, ","),
		Games:    20,
		Duration: 2 * time.Second,
		Think:    50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("two instances:\n%s", rep)
	if rep.Errors != 0 || rep.Same.Samples < 20 || rep.Cross.Samples < 20 {
		t.Errorf("%d errors (first: %s), %d moves within an instance and %d across; want none, and at least 20 of each", rep.Errors, rep.FirstError, rep.Same.Samples, rep.Cross.Samples)
	}
	// Each server's own account covers the measurement alone: the moves
	// it counted then are the moves measured, give or take one in flight
	// per game at either end.
	if len(rep.Measured) != 2 {
		t.Fatalf("the servers' accounts of the measurement: %v; want one for each of the 2 servers", rep.Measured)
	}
	var moves int64
	for _, m := range rep.Measured {
		moves += m.Moves
		if m.MoveP99 <= 0 || m.CommitP99 <= 0 || m.MoveP99 < m.CommitP99 {
			t.Errorf("%s; want a relay p99 at least the commit's, both above 0", m)
		}
	}
	if d := moves - rep.Moves; d < -20 || d > 20 {
		t.Errorf("the servers counted %d moves during the measurement, the load test %d; want the same give or take 20", moves, rep.Moves)
	}
}

// TestLoopbackOnly checks that only loopback servers are load tested.
func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://192.168.1.1:8080", "http://example.com", "ftp://127.0.0.1", "http://127.0.0.1:8080,http://192.168.1.1:8080"} {
		if _, err := loadtest.Run(context.Background(), loadtest.Config{URL: u, Games: 1}); err == nil {
			t.Errorf("Run(%s) did not refuse", u)
		}
	}
}

// TestServerNotRunning checks that a load test of a server that is not
// there fails at once, saying so, instead of retrying its set-up for ever.
func TestServerNotRunning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = loadtest.Run(ctx, loadtest.Config{URL: "http://" + addr, Games: 100, Duration: time.Second})
	if err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("Run against a closed port: %v; want an error saying the server does not answer", err)
	}
	if ctx.Err() != nil {
		t.Fatal("Run waited for its context to end")
	}
}

// TestAbuse runs a small abuse scenario against an in-process server with
// lowered caps: the caps and limits hold and /healthz answers throughout.
func TestAbuse(t *testing.T) {
	if testing.Short() {
		t.Skip("the abuse scenario takes a few seconds")
	}
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "abuse.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, Games: games.All(), NewPlayer: ai.New, Levels: ai.Levels, DebugStats: true,
		MaxConns: 40, ReadTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	go hs.Serve(srv.Listener(ln))
	defer hs.Close()
	rep, err := loadtest.Abuse(context.Background(), loadtest.AbuseConfig{
		URL: "http://" + ln.Addr().String(), Idle: 60, Slow: 5, Burst: 30, Computer: 10, Spec: "pogo", Level: "easy", Limit: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if rep.IdleRefused < 20 || rep.HealthFailed != 0 {
		t.Errorf("%d idle websockets refused, %d /healthz failed; want at least 20 refused at a cap of 40 and none failed", rep.IdleRefused, rep.HealthFailed)
	}
	if rep.SlowCut != 5 || rep.SlowHeldMax > 5 {
		t.Errorf("%d slow bodies cut, held at most %.1fs; want all 5 cut after about 1s", rep.SlowCut, rep.SlowHeldMax)
	}
	if rep.BurstCreated != server.DefaultCreateBurst || rep.BurstRefused != 30-server.DefaultCreateBurst {
		t.Errorf("burst: %d created, %d refused; want %d and %d", rep.BurstCreated, rep.BurstRefused, server.DefaultCreateBurst, 30-server.DefaultCreateBurst)
	}
	if rep.ComputerGames != 10 || rep.ComputerMoved != 10 || rep.ComputerAnswered != 10 {
		t.Errorf("computer games: %d created, %d moved, %d answered; want 10 each", rep.ComputerGames, rep.ComputerMoved, rep.ComputerAnswered)
	}
}
