package server_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/lobby"
	"stax/server/store/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// on returns the player with the same cookies (so the same session) on
// another server instance.
func (p *player) on(ts *testServer) *player {
	return &player{t: p.t, ts: ts, name: p.name, hc: p.hc}
}

// TestLobbyTwoInstances runs the lobby over two servers sharing one SQLite
// database in one process.
func TestLobbyTwoInstances(t *testing.T) { testLobbyTwoInstances(t, newDB(t)) }

// TestLobbyTwoInstancesPostgres runs the lobby over two servers sharing one
// PostgreSQL database, whose change feed is LISTEN/NOTIFY.
func TestLobbyTwoInstancesPostgres(t *testing.T) { testLobbyTwoInstances(t, pgtest.URL(t)) }

// testLobbyTwoInstances checks that a seek posted on one instance is seen
// and accepted on the other, once, whoever races for it; that news of
// seeks and challenges reaches a player on the other instance; and that a
// seek stays while its owner is in the lobby on any instance.
func testLobbyTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob, cat := ts1.player("ann"), ts2.player("bob"), ts1.player("cat")
	ann.signup("correct horse")
	bob.signup("battery staple")
	cat.signup("tr0ub4dor&3")

	annLobby := ann.dial("/ws/lobby")
	readLobby(t, annLobby)
	bobLobby := bob.dial("/ws/lobby")
	readLobby(t, bobLobby)

	// Ann's seek on the first instance reaches Bob's lobby on the second.
	var sk lobby.Seek
	ann.call("POST", "/api/seeks", map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 1}, "rated": true, "seat": 0}, http.StatusCreated, &sk)
	waitLobby(t, bobLobby, "ann's seek", func(m lobbyMsg) bool { return len(m.Seeks) == 1 && m.Seeks[0].ID == sk.ID })
	var list struct{ Seeks []lobby.Seek }
	bob.call("GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != sk.ID || list.Seeks[0].Owner != "ann" {
		t.Fatalf("GET /api/seeks on the second instance: %+v; want ann's seek", list.Seeks)
	}

	// Bob (second instance) and Cat (first) accept at once: one game.
	type result struct {
		code int
		body []byte
	}
	takers := []*player{bob, cat}
	results := make([]result, len(takers))
	var wg sync.WaitGroup
	for i, p := range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].code, results[i].body = p.do("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{})
		}()
	}
	wg.Wait()
	winner := -1
	for i, r := range results {
		switch r.code {
		case http.StatusCreated:
			if winner >= 0 {
				t.Fatalf("both accepted the seek: %s and %s", results[0].body, results[1].body)
			}
			winner = i
		case http.StatusNotFound:
		default:
			t.Fatalf("%s accepting: %d %s", takers[i].name, r.code, r.body)
		}
	}
	if winner < 0 {
		t.Fatalf("nobody got the seek: %+v", results)
	}
	started := waitLobby(t, annLobby, "started", func(m lobbyMsg) bool { return m.Type == "started" })
	if started.By != takers[winner].name || started.Seek != sk.ID {
		t.Fatalf("ann was told %+v; want the game started by %s", started, takers[winner].name)
	}
	var mine struct{ Games []struct{ ID string } }
	ann.on(ts2).call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != started.Game {
		t.Fatalf("ann's games: %+v; want the one game %s", mine.Games, started.Game)
	}
	waitLobby(t, bobLobby, "the seek gone", func(m lobbyMsg) bool { return m.Type == "seeks" && len(m.Seeks) == 0 })

	// A challenge from the first instance reaches Bob on the second, who
	// declines it there; Ann hears of it on the first.
	ann.call("POST", "/api/challenges", map[string]any{"spec": "pisola", "to": "bob"}, http.StatusCreated, &sk)
	if m := waitLobby(t, bobLobby, "challenge", func(m lobbyMsg) bool { return m.Type == "challenge" }); m.Seek != sk.ID || m.By != "ann" {
		t.Fatalf("bob was told %+v; want ann's challenge %s", m, sk.ID)
	}
	cat.on(ts2).fails("POST", "/api/challenges/"+sk.ID+"/accept", struct{}{}, http.StatusForbidden, "for bob")
	bob.call("POST", "/api/challenges/"+sk.ID+"/decline", struct{}{}, http.StatusOK, nil)
	if m := waitLobby(t, annLobby, "declined", func(m lobbyMsg) bool { return m.Type == "declined" }); m.Seek != sk.ID || m.By != "bob" {
		t.Fatalf("ann was told %+v; want bob's refusal", m)
	}

	// Ann is in the lobby on both instances: leaving one keeps her seek;
	// leaving the other withdraws it.
	annLobby2 := ann.on(ts2).dial("/ws/lobby")
	readLobby(t, annLobby2)
	ann.call("POST", "/api/seeks", map[string]any{"spec": "diam"}, http.StatusCreated, &sk)
	waitLobby(t, bobLobby, "the diam seek", func(m lobbyMsg) bool { return len(m.Seeks) == 1 && m.Seeks[0].ID == sk.ID })
	annLobby.Close(websocket.StatusNormalClosure, "")
	// The first instance lets a websocket go once it has left the lobby.
	for deadline := time.Now().Add(5 * time.Second); ts1.srv.Stats().Lobby != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first instance still holds %d lobby websockets", ts1.srv.Stats().Lobby)
		}
	}
	// Past the seek's grace, only the second instance's presence record,
	// renewed as time goes, keeps it.
	for range 4 {
		clock.Advance(30 * time.Second)
		ts2.srv.CheckClocks()
		ts1.srv.CheckClocks()
	}
	bob.call("GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 {
		t.Fatalf("after ann left the first instance: %+v; want her seek, held by the second", list.Seeks)
	}
	annLobby2.Close(websocket.StatusNormalClosure, "")
	waitLobby(t, bobLobby, "the seek withdrawn", func(m lobbyMsg) bool { return m.Type == "seeks" && len(m.Seeks) == 0 })
	bob.fails("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusNotFound, "withdrawn")

	// The first instance stops while Ann is in its lobby: her page
	// reconnects to the second, and her seek is still there.
	annLobby = ann.dial("/ws/lobby")
	readLobby(t, annLobby)
	ann.call("POST", "/api/seeks", map[string]any{"spec": "pogo"}, http.StatusCreated, &sk)
	waitLobby(t, bobLobby, "the seek before the stop", func(m lobbyMsg) bool { return len(m.Seeks) == 1 && m.Seeks[0].ID == sk.ID })
	ts1.stop()
	annLobby2 = ann.on(ts2).dial("/ws/lobby")
	if m := readLobby(t, annLobby2); len(m.Seeks) != 1 || m.Seeks[0].ID != sk.ID {
		t.Fatalf("ann's lobby on the second instance after the first stopped: %+v; want her seek", m.Seeks)
	}
	// When she leaves, the stopped instance's record still holds her seek,
	// until it lapses within a minute.
	annLobby2.Close(websocket.StatusNormalClosure, "")
	for deadline := time.Now().Add(5 * time.Second); ts2.srv.Stats().Lobby != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the second instance still holds %d lobby websockets; want bob's", ts2.srv.Stats().Lobby)
		}
	}
	ts2.srv.CheckClocks()
	bob.call("GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 {
		t.Fatalf("right after ann left: %+v; want her seek, held by the stopped instance's record", list.Seeks)
	}
	clock.Advance(time.Minute)
	ts2.srv.CheckClocks()
	waitLobby(t, bobLobby, "the seek withdrawn", func(m lobbyMsg) bool { return m.Type == "seeks" && len(m.Seeks) == 0 })
}
