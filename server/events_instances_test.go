package server_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/bots"
	"stax/server/lobby"
	"stax/server/store/pgtest"
)

// eventLines is an account's event stream, read line by line.
type eventLines struct {
	t     *testing.T
	res   *http.Response
	lines chan string // closed when the stream ends
}

// events opens the event stream of the player's account with a token on
// the player's server, once that server holds it: news sent before would
// not reach it.
func (p *player) events(token string) *eventLines {
	p.t.Helper()
	before := p.ts.srv.EventStreams()
	req, _ := http.NewRequest("GET", p.ts.url+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		p.t.Fatalf("%s: GET /api/stream/event = %d; want 200", p.name, res.StatusCode)
	}
	es := &eventLines{t: p.t, res: res, lines: make(chan string, 100)}
	go func() {
		defer close(es.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			es.lines <- sc.Text()
		}
	}()
	p.t.Cleanup(func() { res.Body.Close() })
	for deadline := time.Now().Add(5 * time.Second); p.ts.srv.EventStreams() <= before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s's event stream is not held", p.name)
		}
	}
	return es
}

// next returns the stream's next event, skipping keep-alives.
func (es *eventLines) next(what string) bots.Event {
	es.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-es.lines:
			if !ok {
				es.t.Fatalf("the event stream ended; want %s", what)
			}
			if l == "" {
				continue
			}
			var ev bots.Event
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				es.t.Fatalf("line %q: %v", l, err)
			}
			return ev
		case <-timeout:
			es.t.Fatalf("no event within 10 s; want %s", what)
		}
	}
}

// TestEventsTwoInstances runs an account's event stream over two servers
// sharing one SQLite database in one process.
func TestEventsTwoInstances(t *testing.T) { testEventsTwoInstances(t, newDB(t)) }

// TestEventsTwoInstancesPostgres runs it over two servers sharing one
// PostgreSQL database, whose change feed is LISTEN/NOTIFY.
func TestEventsTwoInstancesPostgres(t *testing.T) { testEventsTwoInstances(t, pgtest.URL(t)) }

// testEventsTwoInstances checks that an event stream open with a read
// token on the first instance hears of what happens on the second: a
// challenge made there, declined there, another accepted there and the
// game's start, then the game's finish; that, opened again, it starts with
// the game going on; and that revoking the token on the second instance
// closes its streams on both.
func testEventsTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.player("ann"), ts2.player("bob")
	ann.signup("correct horse")
	bob.signup("battery staple")
	token := ann.newToken("events", "read")
	events := ann.events(token)

	var sk lobby.Seek
	bob.call("POST", "/api/challenges", map[string]any{"spec": "pisola", "to": "ann"}, http.StatusCreated, &sk)
	if ev := events.next("bob's challenge"); ev.Type != bots.EventChallenge || ev.Challenge == nil || ev.Challenge.ID != sk.ID || ev.Challenge.Owner != "bob" {
		t.Fatalf("after bob's challenge on the second instance: %+v; want it", ev)
	}
	ann.on(ts2).call("POST", "/api/challenges/"+sk.ID+"/decline", struct{}{}, http.StatusOK, nil)
	// Declined by ann herself: no line for her but the next challenge.
	bob.call("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "ann", "rated": true, "days": 3, "seat": 1}, http.StatusCreated, &sk)
	if ev := events.next("bob's second challenge"); ev.Type != bots.EventChallenge || ev.Challenge.ID != sk.ID || !ev.Challenge.Rated {
		t.Fatalf("after bob's second challenge: %+v; want it", ev)
	}
	var acc lobby.AcceptResponse
	ann.on(ts2).call("POST", "/api/challenges/"+sk.ID+"/accept", struct{}{}, http.StatusCreated, &acc)
	ev := events.next("the game's start")
	if ev.Type != bots.EventGameStart || ev.Game == nil || ev.Game.ID != acc.Game {
		t.Fatalf("after ann accepted on the second instance: %+v; want the game %s started", ev, acc.Game)
	}
	if g := ev.Game; g.Seat != 0 || !g.IsMyTurn || !g.Rated || g.Status != "playing" || len(g.Players) != 2 || g.Players[0].Name != "ann" || g.Players[1].Name != "bob" {
		t.Fatalf("the game started: %+v; want ann in seat 0 to move against bob, rated", g)
	}

	// The stream, opened again on the second instance, starts with the
	// game. (Time passes first, as it does between requests: on a clock
	// that stood still, the challenge accepted would look made since the
	// stream opened, and its news, when late, would be told.)
	clock.Advance(time.Second)
	again := ann.on(ts2).events(token)
	if ev := again.next("the game going on"); ev.Type != bots.EventGameStart || ev.Game.ID != acc.Game {
		t.Fatalf("the stream opened again starts with %+v; want the game %s", ev, acc.Game)
	}

	// Bob resigns on the second instance: ann hears of the finish on both.
	wb := bob.game(acc.Game)
	wb.waitPly(0)
	wb.send(map[string]any{"type": "resign"})
	for _, es := range []*eventLines{events, again} {
		ev := es.next("the game's finish")
		if ev.Type != bots.EventGameFinish || ev.Game.ID != acc.Game || ev.Game.Status != "finished" || ev.Game.Outcome == nil || ev.Game.IsMyTurn {
			t.Fatalf("after bob resigned: %+v %+v; want the game finished with its outcome", ev, ev.Game)
		}
	}

	// The token revoked on the second instance: both streams end.
	var list struct{ Tokens []account.TokenView }
	ann.on(ts2).call("GET", "/api/tokens", nil, http.StatusOK, &list)
	if len(list.Tokens) != 1 {
		t.Fatalf("ann's tokens: %+v; want the one", list.Tokens)
	}
	ann.on(ts2).call("DELETE", "/api/tokens/"+list.Tokens[0].ID, nil, http.StatusOK, nil)
	for _, es := range []*eventLines{events, again} {
		es.waitEnd()
	}
}

// waitEnd waits for the stream to end, keep-alives aside.
func (es *eventLines) waitEnd() {
	es.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-es.lines:
			if !ok {
				return
			}
			if l != "" {
				es.t.Fatalf("line %q; want the stream ended", l)
			}
		case <-timeout:
			es.t.Fatal("the stream is still open 10 s after its token was revoked")
		}
	}
}
