package server_test

import (
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/store/pgtest"
)

// TestGameNewsTwoInstances: live play's news of a game — a player's move in
// a correspondence game, a draw offered — reaches the other player's
// site-wide news connection on another instance; a move in a game with a
// Fischer clock brings no news (its players are at the board).
func TestGameNewsTwoInstances(t *testing.T) { testGameNews(t, newDB(t)) }

// TestGameNewsTwoInstancesPostgres is TestGameNewsTwoInstances over
// PostgreSQL.
func TestGameNewsTwoInstancesPostgres(t *testing.T) { testGameNews(t, pgtest.URL(t)) }

// dialNews opens the player's news connection on ts, once the server
// holds it: news sent before would not reach it.
func dialNews(t *testing.T, p *player, ts *testServer) *websocket.Conn {
	t.Helper()
	before := ts.srv.Stats().Lobby
	c := p.on(ts).dial("/ws/lobby?news=1")
	for deadline := time.Now().Add(5 * time.Second); ts.srv.Stats().Lobby <= before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s's news connection is not held", p.name)
		}
	}
	return c
}

// readNews reads the next news of a game or a challenge, skipping the
// news of games started, which the feed may bring late.
func readNews(t *testing.T, c *websocket.Conn) lobbyMsg {
	t.Helper()
	for {
		if m := readLobbyRaw(t, c); m.Type != "started" {
			return m
		}
	}
}

func testGameNews(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob, id, wa, wb := twoAccounts(t, ts1, map[string]any{"spec": "pogo", "rated": true, "days": 3})
	// Bob reads his news on the second instance, Ann hers on the first.
	bobNews := dialNews(t, bob, ts2)
	annNews := dialNews(t, ann, ts1)

	st := wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	m := readNews(t, bobNews)
	if m.Type != "turn" || m.Game != id || m.By != "ann" || m.Title != "Pogo" {
		t.Fatalf("bob was told %+v; want his turn in ann's game %s", m, id)
	}
	// Bob offers a draw as he moves: Ann hears of the move and the offer.
	st = wb.waitPly(1)
	wb.send(map[string]any{"type": "draw"})
	if m := readNews(t, annNews); m.Type != "draw" || m.Game != id || m.By != "bob" {
		t.Fatalf("ann was told %+v; want bob's draw offer", m)
	}
	// Offering again is no news.
	wb.send(map[string]any{"type": "draw"})
	wb.move(st.Legal()[0], 1)
	if m := readNews(t, annNews); m.Type != "turn" || m.By != "bob" {
		t.Fatalf("ann was told %+v; want her turn", m)
	}

	// A game with a Fischer clock: no news of its moves. Ann's challenge to
	// Bob is the next news he hears.
	cat, dan, _, wc, _ := pair(t, ts1, "cat", "dan", map[string]any{"spec": "pogo", "rated": true, "clock": map[string]any{"initial": 180, "increment": 2}})
	danNews := dialNews(t, dan, ts2)
	st = wc.waitPly(0)
	wc.move(st.Legal()[0], 0)
	cat.call("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "dan"}, 201, nil)
	if m := readNews(t, danNews); m.Type != "challenge" || m.By != "cat" {
		t.Fatalf("dan was told %+v; want cat's challenge and no news of her move", m)
	}
}
