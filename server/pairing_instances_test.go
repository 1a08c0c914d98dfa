package server_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"stax/server/lobby"
	"stax/server/store/pgtest"
)

// TestQuickPairingTwoInstances runs quick pairing over two servers sharing
// one SQLite database in one process.
func TestQuickPairingTwoInstances(t *testing.T) { testQuickPairingTwoInstances(t, newDB(t)) }

// TestQuickPairingTwoInstancesPostgres runs quick pairing over two servers
// sharing one PostgreSQL database.
func TestQuickPairingTwoInstancesPostgres(t *testing.T) {
	testQuickPairingTwoInstances(t, pgtest.URL(t))
}

// testQuickPairingTwoInstances checks that a player waiting in a pool on
// one instance is paired with a player asking on the other, hears of the
// game in the lobby there, and finds it among their games with the
// preset's clock; and that two players asking at once on the two
// instances get one game, not two waits.
func testQuickPairingTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob, cat, dan := ts1.player("ann"), ts2.player("bob"), ts1.player("cat"), ts2.player("dan")
	for _, p := range []*player{ann, bob, cat, dan} {
		p.signup("correct horse " + p.name)
	}
	annLobby := ann.dial("/ws/lobby")
	readLobby(t, annLobby)

	var wait lobby.PairResponse
	ann.call("POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "3+2"}, http.StatusAccepted, &wait)
	if !wait.Waiting || wait.Pool != "pogo 3+2" {
		t.Fatalf("ann's answer %+v; want her wait in pogo 3+2", wait)
	}
	// Bob, in another pool, is not paired with her.
	bob.call("POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "5+3"}, http.StatusAccepted, &wait)
	var paired lobby.PairResponse
	bob.call("POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "3+2"}, http.StatusCreated, &paired)
	started := waitLobby(t, annLobby, "started", func(m lobbyMsg) bool { return m.Type == "started" })
	if started.Game != paired.Game || started.By != "bob" {
		t.Fatalf("ann was told %+v; want game %s with bob", started, paired.Game)
	}
	var st struct {
		Rated bool
		Clock *struct {
			Remaining []int64
		}
		Seats []struct{ Name string }
	}
	ann.on(ts2).call("GET", "/api/games/"+paired.Game, nil, http.StatusOK, &st)
	if !st.Rated || st.Clock == nil || len(st.Clock.Remaining) != 2 || st.Clock.Remaining[0] != 180000 {
		t.Fatalf("the game: rated %v, clock %+v; want a rated 3+2 game", st.Rated, st.Clock)
	}
	ann.fails("POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "3+2", Renew: true}, http.StatusNotFound, "no longer waiting")
	// Bob's wait in 5+3 ended when he asked for 3+2.
	bob.fails("POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "5+3", Renew: true}, http.StatusNotFound, "no longer waiting")

	// Cat and Dan ask at once, on the two instances: one game.
	codes := make([]int, 2)
	bodies := make([][]byte, 2)
	var wg sync.WaitGroup
	for i, p := range []*player{cat, dan} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], bodies[i] = p.do("POST", "/api/pairing", lobby.PairRequest{Spec: "pisola", Preset: "1d"})
		}()
	}
	wg.Wait()
	if !(codes[0] == http.StatusCreated && codes[1] == http.StatusAccepted || codes[0] == http.StatusAccepted && codes[1] == http.StatusCreated) {
		t.Fatalf("cat and dan asking at once: %d %s, %d %s; want one paired with the other, who waited", codes[0], bodies[0], codes[1], bodies[1])
	}
	for i, b := range bodies {
		var r lobby.PairResponse
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if codes[i] == http.StatusCreated && r.Game == "" {
			t.Fatalf("the paired answer %s has no game", b)
		}
	}
}

// TestNewsTwoInstances runs the site-wide news connection over two servers
// sharing one SQLite database.
func TestNewsTwoInstances(t *testing.T) { testNewsTwoInstances(t, newDB(t)) }

// TestNewsTwoInstancesPostgres runs it over PostgreSQL.
func TestNewsTwoInstancesPostgres(t *testing.T) { testNewsTwoInstances(t, pgtest.URL(t)) }

// testNewsTwoInstances checks the connection every page of a signed-in
// player holds (GET /ws/lobby?news=1): a challenge made on the other
// instance and the game started by quick pairing reach it, the seeks do
// not, and it keeps no seek in the lobby; a guest cannot open one.
func testNewsTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.player("ann"), ts2.player("bob")
	ann.signup("correct horse ann")
	bob.signup("correct horse bob")
	news := dialNews(t, ann, ts1)

	var sk lobby.Seek
	bob.call("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "ann"}, http.StatusCreated, &sk)
	if m := readLobby(t, news); m.Type != "challenge" || m.Seek != sk.ID || m.By != "bob" {
		t.Fatalf("ann's news: %+v; want bob's challenge %s, and no list of seeks", m, sk.ID)
	}
	ann.call("POST", "/api/pairing", lobby.PairRequest{Spec: "diam", Preset: "10+0"}, http.StatusAccepted, nil)
	var paired lobby.PairResponse
	bob.call("POST", "/api/pairing", lobby.PairRequest{Spec: "diam", Preset: "10+0"}, http.StatusCreated, &paired)
	if m := readLobby(t, news); m.Type != "started" || m.Game != paired.Game {
		t.Fatalf("ann's news: %+v; want the game %s started", m, paired.Game)
	}

	// The news connection keeps no seek: ann's goes after its grace.
	ann.call("POST", "/api/seeks", map[string]any{"spec": "pisola"}, http.StatusCreated, &sk)
	clock.Advance(2 * time.Minute)
	ts1.srv.CheckClocks()
	var list struct{ Seeks []lobby.Seek }
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		bob.call("GET", "/api/seeks", nil, http.StatusOK, &list)
		if len(list.Seeks) == 0 { // bob's challenge went too: he is not in the lobby
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("seeks %+v; want ann's withdrawn", list.Seeks)
		}
	}
	code, _ := (&player{t: t, ts: ts1, name: "guest", hc: &http.Client{}}).do("GET", "/ws/lobby?news=1", nil)
	if code != http.StatusUnauthorized && code != http.StatusBadRequest {
		t.Fatalf("a guest's news connection: %d; want it refused", code)
	}
}
