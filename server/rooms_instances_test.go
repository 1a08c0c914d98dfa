package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/ratings"
	"stax/server/store/pgtest"
)

// TestRoomsTwoInstances runs chat, offers and the players' connection
// marks over two servers sharing one SQLite database in one process.
func TestRoomsTwoInstances(t *testing.T) { testRoomsTwoInstances(t, newDB(t)) }

// TestRoomsTwoInstancesPostgres runs them over two servers sharing one
// PostgreSQL database, whose change feed is LISTEN/NOTIFY.
func TestRoomsTwoInstancesPostgres(t *testing.T) { testRoomsTwoInstances(t, pgtest.URL(t)) }

// waitConnected reads states until the seats show connected as want says.
func (w *wsClient) waitConnected(want ...bool) {
	w.t.Helper()
	w.waitState(fmt.Sprintf("seats connected %v", want), func(s *stateOf) bool {
		for i, c := range want {
			if s.Seats[i].Connected != c {
				return false
			}
		}
		return true
	})
}

// testRoomsTwoInstances plays a game between a player on each of two
// instances: each sees the other connect and leave, they chat both ways,
// spectators on either instance chat among themselves, a third instance
// loading the game later gets the chat so far, a draw offered on one
// instance and accepted on the other ends the game once, and a rematch
// offered on one and accepted on the other starts one game for both.
func testRoomsTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "rated": true, "days": 7, "seat": 0})
	bob = bob.on(ts2)

	// Ann on the first instance, then Bob on the second: each sees the
	// other connected.
	wa := ann.game(id)
	wa.hello()
	wa.waitConnected(true, false)
	wb := bob.game(id)
	wb.hello()
	wb.waitConnected(true, true)
	wa.waitConnected(true, true)

	// Bob leaves and comes back: Ann sees him go and return.
	wb.c.Close(websocket.StatusNormalClosure, "")
	wa.waitConnected(true, false)
	wb = bob.game(id)
	wb.hello()
	wa.waitConnected(true, true)

	// The players chat both ways.
	wa.send(map[string]any{"type": "chat", "text": "good luck"})
	if m := wb.next("chat"); m.Room != "players" || m.From != "ann" || m.Text != "good luck" {
		t.Fatalf("bob got %+v; want ann's line", m)
	}
	if m := wa.next("chat"); m.From != "ann" {
		t.Fatalf("ann got %+v; want her own line, once", m)
	}
	wb.send(map[string]any{"type": "chat", "text": "thanks, you too"})
	if m := wa.next("chat"); m.From != "bob" || m.Text != "thanks, you too" {
		t.Fatalf("ann got %+v; want bob's line", m)
	}
	wb.next("chat") // his own

	// Spectators on either instance chat in their own room.
	cat, dan := ts2.player("cat"), ts1.player("dan")
	cat.signup("tr0ub4dor&3")
	dan.signup("tr0ub4dor&3")
	wc, wd := cat.game(id), dan.game(id)
	wc.hello()
	wd.hello()
	wc.send(map[string]any{"type": "chat", "text": "nice opening"})
	if m := wd.next("chat"); m.Room != "spectators" || m.From != "cat" || m.Text != "nice opening" {
		t.Fatalf("dan got %+v; want cat's line", m)
	}
	wd.send(map[string]any{"type": "chat", "text": "indeed"})
	if m := wc.next("chat"); m.From != "cat" {
		t.Fatalf("cat got %+v; want her own line first", m)
	}
	if m := wc.next("chat"); m.From != "dan" || m.Text != "indeed" {
		t.Fatalf("cat got %+v; want dan's line", m)
	}
	// The players heard none of it: their next line is their own room's.
	wa.send(map[string]any{"type": "chat", "text": "shh"})
	if m := wb.next("chat"); m.Room != "players" || m.Text != "shh" {
		t.Fatalf("bob got %+v; want ann's shh", m)
	}

	// A third instance loading the game later gets the chat so far from
	// the others.
	ts3 := startAccounts(t, db, clock)
	eve := ts3.player("eve")
	eve.signup("tr0ub4dor&3")
	we := eve.game(id)
	for m := we.next("chatlog"); len(m.Lines) != 2; m = we.next("chatlog") {
		if len(m.Lines) != 0 {
			t.Fatalf("eve's chat log %+v; want the spectators' two lines", m.Lines)
		}
	}
	annOn3 := ann.on(ts3).game(id)
	for m := annOn3.next("chatlog"); len(m.Lines) != 3; m = annOn3.next("chatlog") {
		if len(m.Lines) != 0 {
			t.Fatalf("ann's chat log on a third instance %+v; want the players' three lines", m.Lines)
		}
	}
	annOn3.c.Close(websocket.StatusNormalClosure, "")

	// A draw offered on the first instance reaches the second, where Bob
	// accepts it: the game ends once, rated once.
	st := wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	wb.waitPly(1)
	wa.send(map[string]any{"type": "draw"})
	if m := wb.next("offers"); len(m.Offers["draw"]) != 1 || m.Offers["draw"][0] != 0 {
		t.Fatalf("bob was offered %+v; want a draw from seat 0", m.Offers)
	}
	wb.send(map[string]any{"type": "draw"})
	for _, w := range []*wsClient{wa, wb, wc, wd} {
		end := w.waitState("the draw", func(s *stateOf) bool { return s.Status == "finished" })
		if end.Outcome.Result != "1/2-1/2" || end.Outcome.Reason != "agreement" {
			t.Fatalf("%s sees %+v; want a draw by agreement", w.name, end.Outcome)
		}
	}
	for _, p := range []*player{ann, bob} {
		var prof ratings.Profile
		p.call("GET", "/api/users/"+p.name, nil, http.StatusOK, &prof)
		if len(prof.Ratings) != 1 || prof.Ratings[0].Games != 1 || len(prof.Ratings[0].History) != 1 {
			t.Fatalf("%s: %+v; want the game rated once", p.name, prof.Ratings)
		}
	}

	// A rematch offered on the second instance is accepted on the first:
	// both are told the one new game.
	wb.send(map[string]any{"type": "rematch"})
	if m := wa.next("offers"); len(m.Offers["rematch"]) != 1 || m.Offers["rematch"][0] != 1 {
		t.Fatalf("ann was offered %+v; want a rematch from seat 1", m.Offers)
	}
	wa.send(map[string]any{"type": "rematch"})
	ma, mb := wa.next("rematch"), wb.next("rematch")
	if ma.Game == "" || ma.Game != mb.Game || ma.Game == id {
		t.Fatalf("rematch messages %+v and %+v; want one new game", ma, mb)
	}
	var re stateOf
	bob.call("GET", "/api/games/"+ma.Game, nil, http.StatusOK, &re)
	if re.Seats[0].Name != "bob" || re.Seats[1].Name != "ann" || re.Status != "playing" {
		t.Fatalf("the rematch: %+v; want bob then ann, playing", re.Seats)
	}
	var mine struct{ Games []struct{ ID string } }
	ann.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 2 {
		t.Fatalf("ann's games %+v; want the game and one rematch", mine.Games)
	}

	// In the rematch, an instance that falls silent has its connections
	// forgotten within the peers' time to live; one that stops tells the
	// others at once.
	ra, rb := ann.game(ma.Game), bob.game(ma.Game)
	ra.hello()
	rb.hello()
	ra.waitConnected(true, true)
	clock.Advance(31 * time.Second)
	ts1.srv.CheckClocks() // the second instance has said nothing meanwhile
	ra.waitConnected(false, true)
	ts2.srv.CheckClocks() // it speaks again: the first asks it again
	ra.waitConnected(true, true)
	ts2.stop()
	ra.waitConnected(false, true)
}

// TestGuestRematchTwoInstances: guests playing through an invitation on
// two instances each get their seat of the rematch, with a new token from
// the instance that holds their connection.
func TestGuestRematchTwoInstances(t *testing.T) {
	db := newDB(t)
	ts1 := startAccounts(t, db, newFakeClock())
	ts2 := startAccounts(t, db, newFakeClock())
	id, tokens := ts1.twoPlayerGame("pogo")
	wa, wb := ts1.dial("alice", id, tokens[0]), ts2.dial("bob", id, tokens[1])
	wa.hello()
	wb.hello()
	wa.send(map[string]any{"type": "resign"})
	wb.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	wa.send(map[string]any{"type": "rematch"})
	wb.next("offers")
	wb.send(map[string]any{"type": "rematch"})
	ma, mb := wa.next("rematch"), wb.next("rematch")
	if ma.Game != mb.Game || ma.Token == "" || mb.Token == "" || ma.Token == mb.Token {
		t.Fatalf("rematch messages %+v and %+v; want one game and a token each", ma, mb)
	}
	for _, c := range []struct {
		ts    *testServer
		name  string
		token string
		seat  int
	}{{ts1, "alice", ma.Token, 1}, {ts2, "bob", mb.Token, 0}, {ts2, "alice", ma.Token, 1}} {
		w := c.ts.dial(c.name, ma.Game, c.token)
		if seats := w.hello(); len(seats) != 1 || seats[0] != c.seat {
			t.Fatalf("%s holds %v in the rematch; want seat %d", c.name, seats, c.seat)
		}
	}
}

// TestCrossingOffersTwoInstances: both players offer a takeback at the
// same moment, each on their own instance, so that each instance may see
// the agreement complete: one move is taken back, not two.
func TestCrossingOffersTwoInstances(t *testing.T) { testCrossingOffers(t, newDB(t)) }

// TestCrossingOffersTwoInstancesPostgres: the same on PostgreSQL, whose
// notifications take long enough for the two offers to cross.
func TestCrossingOffersTwoInstancesPostgres(t *testing.T) { testCrossingOffers(t, pgtest.URL(t)) }

func testCrossingOffers(t *testing.T, db string) {
	ts1 := startAccounts(t, db, newFakeClock())
	ts2 := startAccounts(t, db, newFakeClock())
	for round := range 5 {
		id, tokens := ts1.twoPlayerGame("pogo")
		wa, wb := ts1.dial("alice", id, tokens[0]), ts2.dial("bob", id, tokens[1])
		wa.hello()
		wb.hello()
		st := wa.waitPly(0)
		wa.move(st.Legal()[0], 0)
		st = wb.waitPly(1)
		wb.move(st.Legal()[0], 1)
		wa.waitPly(2)
		wb.waitPly(2)
		wa.send(map[string]any{"type": "takeback"})
		wb.send(map[string]any{"type": "takeback"})
		for _, w := range []*wsClient{wa, wb} {
			w.waitState("the takeback", func(s *stateOf) bool { return s.Ply < 2 })
		}
		// Any second takeback would have been committed by now: read the
		// game on both instances once the feed is quiet.
		time.Sleep(100 * time.Millisecond)
		for _, ts := range []*testServer{ts1, ts2} {
			var got stateOf
			ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &got)
			if got.Ply != 1 {
				t.Fatalf("round %d: the game is at ply %d on %s; want 1 (one move taken back)", round, got.Ply, ts.url)
			}
		}
	}
}
