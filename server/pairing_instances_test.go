package server_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

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
