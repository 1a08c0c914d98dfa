package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"stax/rating"
	"stax/server/chat"
	"stax/server/ratings"
)

// anyMsg is any websocket message of a game.
type anyMsg struct {
	Type    string           `json:"type"`
	Code    string           `json:"code"`
	Message string           `json:"message"`
	Room    string           `json:"room"`
	From    string           `json:"from"`
	Text    string           `json:"text"`
	Count   int              `json:"count"`
	Offers  map[string][]int `json:"offers"`
	Lines   []chat.Line      `json:"lines"`
	Game    string           `json:"game"`
	Token   string           `json:"token"`
	State   *stateOf         `json:"state"`
	Seats   []int            `json:"seats"`
}

// next reads messages until one of type typ.
func (w *wsClient) next(typ string) anyMsg {
	w.t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, data, err := w.c.Read(ctx)
		cancel()
		if err != nil {
			w.t.Fatalf("%s: waiting for %s: %v", w.name, typ, err)
		}
		var m anyMsg
		if err := json.Unmarshal(data, &m); err != nil {
			w.t.Fatal(err)
		}
		m.State = w.keep(m.Type, data, m.State)
		if m.Type == typ {
			return m
		}
		if m.Type == "error" && typ != "error" {
			w.t.Fatalf("%s: waiting for %s: error %s: %s", w.name, typ, m.Code, m.Message)
		}
	}
}

// twoAccounts signs up ann and bob and starts a game from a seek of ann's
// for seat 0 accepted by bob; it returns their connections, hello read.
func twoAccounts(t *testing.T, ts *testServer, seek map[string]any) (ann, bob *player, id string, wa, wb *wsClient) {
	t.Helper()
	return pair(t, ts, "ann", "bob", seek)
}

// pair is twoAccounts for players a and b.
func pair(t *testing.T, ts *testServer, a, b string, seek map[string]any) (pa, pb *player, id string, wa, wb *wsClient) {
	t.Helper()
	pa, pb = ts.player(a), ts.player(b)
	pa.signup("correct horse")
	pb.signup("battery staple")
	seek["seat"] = 0
	id = playersGame(t, pa, pb, seek)
	wa, wb = pa.game(id), pb.game(id)
	wa.hello()
	wb.hello()
	return
}

func TestChat(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	_, _, id, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pogo"})
	cat := ts.player("cat")
	cat.signup("correct horse")
	wc := cat.game(id)
	wc.hello()
	wg := ts.player("guest").game(id)
	wg.hello()
	for m := wa.next("watchers"); m.Count != 2; m = wa.next("watchers") {
	}
	if m := wg.next("chatlog"); m.Room != "spectators" || len(m.Lines) != 0 {
		t.Fatalf("guest's chat log %+v", m)
	}

	wa.send(map[string]any{"type": "chat", "text": "  <b>good luck</b>  "})
	if m := wb.next("chat"); m.Room != "players" || m.From != "ann" || m.Text != "<b>good luck</b>" {
		t.Fatalf("bob got %+v", m)
	}
	wc.send(map[string]any{"type": "chat", "text": "nice opening"})
	if m := wg.next("chat"); m.Room != "spectators" || m.From != "cat" || m.Text != "nice opening" {
		t.Fatalf("the guest spectator got %+v", m)
	}
	// The players did not see the spectators' chat, nor the spectators
	// the players': the next chat each gets is from its own room.
	wa.next("chat") // her own
	wb.send(map[string]any{"type": "chat", "text": "thanks"})
	if m := wa.next("chat"); m.From != "bob" {
		t.Fatalf("ann got %+v; want bob's message", m)
	}
	wc.send(map[string]any{"type": "chat", "text": "again"})
	for m := wc.next("chat"); m.Text != "again"; m = wc.next("chat") {
		if m.Room != "spectators" {
			t.Fatalf("cat got %+v from the players' room", m)
		}
	}

	wg.send(map[string]any{"type": "chat", "text": "hi"})
	if m := wg.next("error"); !strings.Contains(m.Message, "sign in") {
		t.Fatalf("a guest spectator chatting: %+v", m)
	}
	wa.send(map[string]any{"type": "chat", "text": strings.Repeat("é", 301)})
	if m := wa.next("error"); !strings.Contains(m.Message, "at most 300") {
		t.Fatalf("a long message: %+v", m)
	}
	wa.send(map[string]any{"type": "chat", "text": "two\nlines"})
	if m := wa.next("error"); !strings.Contains(m.Message, "one line") {
		t.Fatalf("a message of two lines: %+v", m)
	}
	// Ann has sent one message: four more pass, the next is refused.
	for range 4 {
		wa.send(map[string]any{"type": "chat", "text": "spam"})
		wa.next("chat")
	}
	wa.send(map[string]any{"type": "chat", "text": "spam"})
	if m := wa.next("error"); m.Code != "rate_limited" {
		t.Fatalf("the sixth message at once: %+v", m)
	}
	// A newcomer gets the room's chat so far.
	w2 := ts.player("bob2").game(id)
	if m := w2.next("chatlog"); len(m.Lines) != 2 || m.Lines[0].Text != "nice opening" {
		t.Fatalf("chat log of a new spectator: %+v", m.Lines)
	}
}

// noOffers reads w's offers messages until one says no offer stands.
func noOffers(w *wsClient, when string) {
	w.t.Helper()
	for range 5 {
		if m := w.next("offers"); len(m.Offers) == 0 {
			return
		}
	}
	w.t.Fatalf("%s: %s still sees offers; want none", when, w.name)
}

// TestDrawByAgreement checks draw offers: declined by the other player,
// withdrawn by their maker, outliving their maker's own move, accepted,
// rated and kept over a restart.
func TestDrawByAgreement(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts := startAccounts(t, db, clock)
	ann, _, id, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pogo", "rated": true, "days": 7})
	ts.player("guest").game(id).send(map[string]any{"type": "draw"})
	wa.send(map[string]any{"type": "draw"})
	if m := wb.next("offers"); len(m.Offers["draw"]) != 1 || m.Offers["draw"][0] != 0 {
		t.Fatalf("bob was offered %+v; want a draw from seat 0", m.Offers)
	}
	// Bob declines it; ann offers again and withdraws it herself.
	wb.send(map[string]any{"type": "decline", "offer": "draw"})
	noOffers(wa, "after bob declined")
	wb.send(map[string]any{"type": "decline", "offer": "draw"})
	wb.wantError("bad_message", "no draw offer to you to decline")
	wa.send(map[string]any{"type": "draw"})
	wb.next("offers")
	wa.send(map[string]any{"type": "withdraw", "offer": "draw"})
	noOffers(wb, "after ann withdrew")
	// An offer made on one's own turn outlives one's move: bob accepts it
	// on his.
	wa.send(map[string]any{"type": "draw"})
	wb.next("offers")
	st := wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	wb.waitPly(1)
	wb.send(map[string]any{"type": "draw"})
	end := wa.waitState("the draw", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Result != "1/2-1/2" || end.Outcome.Reason != "agreement" {
		t.Fatalf("outcome %+v; want a draw by agreement", end.Outcome)
	}
	want, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0.5}}, rating.DefaultTau)
	var p ratings.Profile
	ann.call("GET", "/api/users/ann", nil, http.StatusOK, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Rating != want.Rating || p.Ratings[0].Deviation != want.Deviation {
		t.Fatalf("ann's ratings %+v; want %v", p.Ratings, want)
	}
	// The agreed draw survives a restart.
	ts.stop()
	ts = startAccounts(t, db, clock)
	ann.ts = ts
	var st2 stateOf
	ann.call("GET", "/api/games/"+id, nil, http.StatusOK, &st2)
	if st2.Status != "finished" || st2.Outcome.Reason != "agreement" || st2.Ply != 1 {
		t.Fatalf("after a restart: %s ply %d %+v", st2.Status, st2.Ply, st2.Outcome)
	}
}

func TestAbort(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, _, _, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pogo", "rated": true, "days": 7})
	st := wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	st = wb.waitPly(1)
	wb.send(map[string]any{"type": "abort"})
	end := wa.waitState("the abort", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Reason != "aborted" || !strings.Contains(end.Outcome.Detail, "bob") || len(end.Outcome.Winners) != 0 {
		t.Fatalf("outcome %+v; want aborted by bob, no winner", end.Outcome)
	}
	var p ratings.Profile
	ann.call("GET", "/api/users/ann", nil, http.StatusOK, &p)
	if len(p.Ratings) != 0 {
		t.Fatalf("an aborted game was rated: %+v", p.Ratings)
	}

	_, _, _, wa, wb = pair(t, ts, "cat", "dan", map[string]any{"spec": "pogo"})
	st = wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	st = wb.waitPly(1)
	wb.move(st.Legal()[0], 1)
	wa.waitPly(2)
	wa.send(map[string]any{"type": "abort"})
	if m := wa.next("error"); !strings.Contains(m.Message, "before its second move") {
		t.Fatalf("abort after two moves: %+v", m)
	}
}

func TestTakeback(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	_, _, id, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pogo"})
	st := wa.waitPly(0)
	wa.send(map[string]any{"type": "takeback"})
	if m := wa.next("error"); !strings.Contains(m.Message, "no move") {
		t.Fatalf("takeback at the start: %+v", m)
	}
	wa.move(st.Legal()[0], 0)
	wa.waitPly(1)
	wb.waitPly(1)
	wa.send(map[string]any{"type": "takeback"})
	if m := wb.next("offers"); len(m.Offers["takeback"]) != 1 {
		t.Fatalf("bob was offered %+v", m.Offers)
	}
	wb.send(map[string]any{"type": "takeback"})
	back := wa.waitState("the takeback", func(s *stateOf) bool { return s.Ply == 0 })
	if len(back.Moves) != 0 || back.ToMove != 0 {
		t.Fatalf("after the takeback: %+v", back)
	}
	// The takeback is stored: the move can be played again.
	wa.move(st.Legal()[1], 0)
	wa.waitState("the new move", func(s *stateOf) bool { return s.Ply == 1 && s.Moves[0] == st.Legal()[1] })
	wb.waitState("the new move", func(s *stateOf) bool { return s.Ply == 1 && s.Moves[0] == st.Legal()[1] })
	var got stateOf
	ts.player("x").call("GET", "/api/games/"+id, nil, http.StatusOK, &got)
	if got.Ply != 1 {
		t.Fatalf("ply %d", got.Ply)
	}

	// No takebacks in rated games.
	_, _, _, wc, _ := pair(t, ts, "cat", "dan", map[string]any{"spec": "pogo", "rated": true, "days": 7})
	st = wc.waitPly(0)
	wc.move(st.Legal()[0], 0)
	wc.waitPly(1)
	wc.send(map[string]any{"type": "takeback"})
	if m := wc.next("error"); !strings.Contains(m.Message, "rated") {
		t.Fatalf("takeback in a rated game: %+v", m)
	}
}

func TestRematch(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, _, id, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pisola(size=8)", "rated": true, "clock": map[string]any{"initial": 120, "increment": 2}})
	wa.send(map[string]any{"type": "rematch"})
	if m := wa.next("error"); !strings.Contains(m.Message, "once the game is over") {
		t.Fatalf("rematch during the game: %+v", m)
	}
	wa.send(map[string]any{"type": "resign"})
	wb.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	wa.send(map[string]any{"type": "rematch"})
	if m := wb.next("offers"); len(m.Offers["rematch"]) != 1 || m.Offers["rematch"][0] != 0 {
		t.Fatalf("bob was offered %+v", m.Offers)
	}
	wb.send(map[string]any{"type": "rematch"})
	ma, mb := wa.next("rematch"), wb.next("rematch")
	if ma.Game == "" || ma.Game != mb.Game || ma.Game == id || ma.Token != "" {
		t.Fatalf("rematch messages %+v %+v", ma, mb)
	}
	var st clockOf
	ann.call("GET", "/api/games/"+ma.Game, nil, http.StatusOK, &st)
	if st.Seats[0].Name != "bob" || st.Seats[1].Name != "ann" || st.Clock == nil || st.Clock.Initial != 120 || st.Clock.Increment != 2 {
		t.Fatalf("rematch: seats %+v clock %+v; want bob and ann, 120+2", st.Seats, st.Clock)
	}
	var full struct {
		Rated bool   `json:"rated"`
		Spec  string `json:"spec"`
	}
	ann.call("GET", "/api/games/"+ma.Game, nil, http.StatusOK, &full)
	if !full.Rated || full.Spec != "pisola(size=8)" {
		t.Fatalf("rematch: %+v", full)
	}
}

// TestGuestRematch: guests playing through an invitation get a rematch
// with new tokens.
func TestGuestRematch(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	id, tokens := ts.twoPlayerGame("pogo")
	wa, wb := ts.dial("alice", id, tokens[0]), ts.dial("bob", id, tokens[1])
	wa.hello()
	wb.hello()
	wa.send(map[string]any{"type": "resign"})
	wb.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	wa.send(map[string]any{"type": "rematch"})
	wb.send(map[string]any{"type": "rematch"})
	ma, mb := wa.next("rematch"), wb.next("rematch")
	if ma.Token == "" || mb.Token == "" || ma.Token == mb.Token {
		t.Fatalf("rematch tokens %q %q", ma.Token, mb.Token)
	}
	w := ts.dial("alice", ma.Game, ma.Token)
	if seats := w.hello(); len(seats) != 1 || seats[0] != 1 {
		t.Fatalf("alice holds %v in the rematch; want seat 1", seats)
	}
}
