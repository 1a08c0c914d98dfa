package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/game"
	"stax/game/record"
	"stax/games"
	"stax/search"
	"stax/server"
	"stax/server/catalog"
	"stax/server/play"
	"stax/server/store"
	"stax/server/store/postgres"
	"stax/server/store/sqlite"
	"stax/server/update"
	"stax/server/view"
)

// testServer is a server on a SQLite database in a test's temporary
// directory, behind an httptest.Server.
type testServer struct {
	t     *testing.T
	srv   *server.Server
	http  *httptest.Server
	store store.Store
	url   string
}

func startServer(t *testing.T, db string, cfg server.Config) *testServer {
	t.Helper()
	if cfg.Levels == nil {
		cfg.Levels = func(game.Game) []string { return []string{"beginner", "easy", "medium", "hard", "strongest"} }
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = func(g game.Game, level string) (search.Player, error) {
			return search.NewRandom(7), nil
		}
	}
	return startBare(t, db, cfg)
}

// startBare is startServer without the random AI it gives a
// configuration that has none.
func startBare(t *testing.T, db string, cfg server.Config) *testServer {
	t.Helper()
	var st store.Store
	var err error
	if postgres.IsURL(db) {
		st, err = postgres.Open(context.Background(), db, postgres.Options{})
	} else {
		st, err = sqlite.Open(db, sqlite.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return startOn(t, st, cfg)
}

// startOn starts a server on the given store, which it closes when it
// stops.
func startOn(t *testing.T, st store.Store, cfg server.Config) *testServer {
	t.Helper()
	cfg.Store = st
	cfg.Games = games.All()
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	ts := &testServer{t: t, srv: srv, http: hs, store: st, url: hs.URL}
	t.Cleanup(ts.stop)
	return ts
}

// restart closes the given clients' connections, stops the server and
// starts another on the same database.
func (ts *testServer) restart(db string, clients ...*wsClient) *testServer {
	ts.t.Helper()
	for _, c := range clients {
		c.c.Close(websocket.StatusNormalClosure, "")
	}
	ts.stop()
	return startServer(ts.t, db, server.Config{})
}

// stop shuts the server down as stax serve does; it may be called twice.
func (ts *testServer) stop() {
	if ts.srv == nil {
		return
	}
	ts.http.Close()
	ts.srv.Close()
	ts.store.Close()
	ts.srv = nil
}

func newDB(t *testing.T) string { return filepath.Join(t.TempDir(), "stax.db") }

// call sends a JSON request and decodes the answer into out, checking the
// status code.
func (ts *testServer) call(method, path string, body any, want int, out any) {
	ts.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, ts.url+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		ts.t.Fatalf("%s %s = %d %s; want %d", method, path, res.StatusCode, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			ts.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

func (ts *testServer) create(req play.CreateRequest) play.CreateResponse {
	ts.t.Helper()
	var resp play.CreateResponse
	ts.call("POST", "/api/games", req, http.StatusCreated, &resp)
	return resp
}

// stateOf is the part of a State the tests read.
type stateOf struct {
	ID         string        `json:"id"`
	Position   string        `json:"position"`
	Positions  []string      `json:"positions"`
	Moves      []string      `json:"moves"`
	LastMove   string        `json:"lastMove"`
	Ply        int           `json:"ply"`
	ToMove     int           `json:"toMove"`
	View       *view.View    `json:"view"`
	Status     string        `json:"status"`
	Outcome    *view.Outcome `json:"outcome"`
	Seats      []play.Seat   `json:"seats"`
	Rated      bool          `json:"rated"`
	ClaimAfter int64         `json:"claimAfter"`
}

// Legal returns the legal moves, spelled out from the view.
func (s *stateOf) Legal() []string {
	if s.View == nil {
		return nil
	}
	return s.View.Legal()
}

type msg struct {
	Type    string   `json:"type"`
	Seats   []int    `json:"seats"`
	State   *stateOf `json:"state"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Move    string   `json:"move"`
}

// wsClient is a websocket client of a game.
type wsClient struct {
	t    *testing.T
	name string
	c    *websocket.Conn
	last *stateOf        // the last state received, updates applied
	raw  json.RawMessage // last as received

	full, updates int // the full states and updates received
}

func (ts *testServer) dial(name, id, token string) *wsClient {
	ts.t.Helper()
	u := strings.Replace(ts.url, "http", "ws", 1) + "/ws/games/" + id
	if token != "" {
		u += "?token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		ts.t.Fatalf("%s: dial: %v", name, err)
	}
	c.SetReadLimit(1 << 22)
	w := &wsClient{t: ts.t, name: name, c: c}
	ts.t.Cleanup(func() { c.CloseNow() })
	return w
}

func (w *wsClient) read() msg {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatalf("%s: read: %v", w.name, err)
	}
	var m msg
	if err := json.Unmarshal(data, &m); err != nil {
		w.t.Fatalf("%s: %v in %s", w.name, err, data)
	}
	switch {
	case m.Type == "state":
		if m.State.Moves == nil || m.State.Positions == nil {
			w.t.Fatalf("%s: a full state without moves or positions: %s", w.name, data)
		}
		w.full++
	case m.Type == "update":
		if m.State.Moves != nil || m.State.Positions != nil {
			w.t.Fatalf("%s: an update carries the whole history: %.200s", w.name, data)
		}
		w.updates++
	}
	m.State = w.keep(m.Type, data, m.State)
	return m
}

// keep returns the state a client holds after a message of type typ
// (data) whose state decoded as st: an update changes the one held, as
// update.Apply does.
func (w *wsClient) keep(typ string, data []byte, st *stateOf) *stateOf {
	w.t.Helper()
	if typ != "state" && typ != "update" {
		if st != nil {
			w.last = st
		}
		return st
	}
	var raw struct{ State json.RawMessage }
	json.Unmarshal(data, &raw)
	if typ == "state" {
		w.raw = raw.State
	} else {
		if w.raw == nil {
			w.t.Fatalf("%s: an update before any full state", w.name)
		}
		var err error
		if w.raw, err = update.Apply(w.raw, raw.State); err != nil {
			w.t.Fatalf("%s: %v: %s", w.name, err, data)
		}
	}
	var kept stateOf
	if err := json.Unmarshal(w.raw, &kept); err != nil {
		w.t.Fatal(err)
	}
	w.last = &kept
	return &kept
}

// hello reads the hello and the first state.
func (w *wsClient) hello() []int {
	w.t.Helper()
	m := w.read()
	if m.Type != "hello" {
		w.t.Fatalf("%s: first message %+v; want hello", w.name, m)
	}
	for {
		if s := w.read(); s.Type == "state" {
			return m.Seats
		}
	}
}

// waitState reads states until one satisfies ok.
func (w *wsClient) waitState(what string, ok func(*stateOf) bool) *stateOf {
	w.t.Helper()
	if w.last != nil && ok(w.last) {
		return w.last
	}
	for {
		m := w.read()
		if m.Type == "error" {
			w.t.Fatalf("%s: waiting for %s: error %s: %s", w.name, what, m.Code, m.Message)
		}
		if m.State != nil && ok(m.State) {
			return m.State
		}
	}
}

func (w *wsClient) waitPly(n int) *stateOf {
	w.t.Helper()
	return w.waitState(fmt.Sprintf("ply %d", n), func(s *stateOf) bool { return s.Ply >= n })
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b, _ := json.Marshal(v)
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.t.Fatalf("%s: write: %v", w.name, err)
	}
}

func (w *wsClient) move(mv string, ply int) {
	w.t.Helper()
	w.send(map[string]any{"type": "move", "move": mv, "ply": ply})
}

// wantError reads messages until an error and checks its code.
func (w *wsClient) wantError(code, contains string) {
	w.t.Helper()
	for {
		m := w.read()
		if m.Type != "error" {
			continue
		}
		if m.Code != code || !strings.Contains(m.Message, contains) {
			w.t.Fatalf("%s: error %s %q; want %s containing %q", w.name, m.Code, m.Message, code, contains)
		}
		return
	}
}

// twoPlayerGame creates a game of spec with every seat human: the creator
// keeps seat 0 and every other seat is joined through its invite.
func (ts *testServer) twoPlayerGame(spec string) (id string, tokens []string) {
	ts.t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		ts.t.Fatal(err)
	}
	seats := []play.SeatRequest{{Kind: "human"}}
	for i := 1; i < g.Players(); i++ {
		seats = append(seats, play.SeatRequest{Kind: "human", Invite: true})
	}
	resp := ts.create(play.CreateRequest{Spec: spec, Name: "alice", Seats: seats})
	tokens = []string{resp.Token}
	for i, inv := range resp.Invites {
		if !strings.Contains(inv.Link, "#invite="+inv.Invite) {
			ts.t.Errorf("invite link %q does not carry the invite", inv.Link)
		}
		var j play.JoinResponse
		ts.call("POST", "/api/games/"+resp.ID+"/join", play.JoinRequest{Invite: inv.Invite, Name: fmt.Sprintf("p%d", i+1)}, http.StatusOK, &j)
		if j.Seat != inv.Seat || j.Token == "" {
			ts.t.Fatalf("join = %+v; want seat %d and a token", j, inv.Seat)
		}
		tokens = append(tokens, j.Token)
	}
	return resp.ID, tokens
}

// TestWholeGames plays a whole game of each game through the websocket API:
// every seat a player with its own connection, and a spectator.
func TestWholeGames(t *testing.T) {
	specs := []string{"pogo", "pisola", "diam", "diam(players=4,teams=true)"}
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, newDB(t), server.Config{})
			id, tokens := ts.twoPlayerGame(spec)
			var players []*wsClient
			for i, tok := range tokens {
				p := ts.dial(fmt.Sprintf("seat %d", i), id, tok)
				if seats := p.hello(); len(seats) != 1 || seats[0] != i {
					t.Fatalf("seat %d: hello seats %v", i, seats)
				}
				players = append(players, p)
			}
			spect := ts.dial("spectator", id, "")
			if seats := spect.hello(); len(seats) != 0 {
				t.Fatalf("spectator: hello seats %v", seats)
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(spec))))
			st := players[0].waitPly(0)
			for st.Status == "playing" {
				if st.Ply >= 600 {
					players[st.ToMove].send(map[string]any{"type": "resign"})
					st = spect.waitState("the resignation", func(s *stateOf) bool { return s.Status == "finished" })
					break
				}
				mover := players[st.ToMove]
				st = mover.waitPly(st.Ply)
				mv := st.Legal()[rng.IntN(len(st.Legal()))]
				mover.move(mv, st.Ply)
				next := st.Ply + 1
				for i, p := range players {
					got := p.waitPly(next)
					if got.LastMove != mv || got.Ply != next {
						t.Fatalf("seat %d after %s: ply %d last %q", i, mv, got.Ply, got.LastMove)
					}
				}
				st = spect.waitPly(next)
			}
			if st.Outcome == nil || st.Outcome.Result == "" || len(st.Legal()) != 0 {
				t.Fatalf("finished state: outcome %+v legal %v", st.Outcome, st.Legal())
			}
			if len(st.Positions) != st.Ply+1 || len(st.Moves) != st.Ply || st.Positions[st.Ply] != st.Position {
				t.Fatalf("positions %d moves %d ply %d", len(st.Positions), len(st.Moves), st.Ply)
			}
			// The record replays to the same position.
			res, err := http.Get(ts.url + "/api/games/" + id + "/record")
			if err != nil {
				t.Fatal(err)
			}
			text, _ := io.ReadAll(res.Body)
			res.Body.Close()
			rec, err := record.Parse(string(text))
			if err != nil {
				t.Fatalf("record: %v\n%s", err, text)
			}
			h, err := rec.Replay(games.All())
			if err != nil {
				t.Fatalf("replay: %v\n%s", err, text)
			}
			if h.State().String() != st.Position || rec.Get("Result") != st.Outcome.Result {
				t.Fatalf("replay ends at %s result %s; want %s %s", h.State(), rec.Get("Result"), st.Position, st.Outcome.Result)
			}
			if rec.Get("Seat1") != "human:alice" {
				t.Errorf("Seat1 = %q; want human:alice", rec.Get("Seat1"))
			}
			t.Logf("%s: %d plies, %s", spec, st.Ply, st.Outcome.Description)
		})
	}
}

// TestRejections checks that bad moves and messages are refused with a
// clear message and change nothing.
func TestRejections(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	id, tokens := ts.twoPlayerGame("pogo")
	white := ts.dial("white", id, tokens[0])
	white.hello()
	black := ts.dial("black", id, tokens[1])
	black.hello()
	intruder := ts.dial("intruder", id, "00112233445566778899aabbccddeeff")
	if m := intruder.read(); m.Type != "hello" || len(m.Seats) != 0 {
		t.Fatalf("intruder hello %+v", m)
	}
	intruder.wantError(play.CodeBadToken, "spectator")
	spect := ts.dial("spectator", id, "")
	spect.hello()

	tests := []struct {
		name    string
		who     *wsClient
		msg     any
		code    string
		message string
	}{
		{"illegal", white, map[string]any{"type": "move", "move": "1a1-c3"}, play.CodeIllegalMove, "illegal move"},
		{"garbage move", white, map[string]any{"type": "move", "move": "hello"}, play.CodeIllegalMove, "want <count><from>-<to>"},
		{"out of turn", black, map[string]any{"type": "move", "move": "1a3-a2"}, play.CodeNotYourTurn, "White's turn"},
		{"wrong token", intruder, map[string]any{"type": "move", "move": "1a1-a2"}, play.CodeNotYourSeat, "no seat"},
		{"spectator", spect, map[string]any{"type": "move", "move": "1a1-a2"}, play.CodeNotYourSeat, "spectators cannot move"},
		{"spectator resigns", spect, map[string]any{"type": "resign"}, play.CodeNotYourSeat, "cannot resign"},
		{"stale", white, map[string]any{"type": "move", "move": "1a1-a2", "ply": 3}, play.CodeStale, "ply 3"},
		{"unknown type", white, map[string]any{"type": "dance"}, play.CodeBadMessage, "unknown message type"},
		{"no move", white, map[string]any{"type": "move"}, play.CodeBadMessage, "needs a move"},
		{"not json", white, "{", play.CodeBadMessage, "bad JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s, ok := tt.msg.(string); ok {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				tt.who.c.Write(ctx, websocket.MessageText, []byte(s))
				cancel()
			} else {
				tt.who.send(tt.msg)
			}
			tt.who.wantError(tt.code, tt.message)
		})
	}
	var st stateOf
	ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
	if st.Ply != 0 {
		t.Fatalf("after rejected moves the game is at ply %d", st.Ply)
	}

	// A good move, then the same move again with the old ply: stale.
	white.move("1a1-a2", 0)
	white.waitPly(1)
	white.move("1a1-a2", 0)
	white.wantError(play.CodeStale, "not played")

	// Black resigns; then no one can move.
	black.send(map[string]any{"type": "resign"})
	end := spect.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	if end.Outcome.Result != "1-0" || end.Outcome.Reason != "resignation" {
		t.Fatalf("outcome %+v; want 1-0 by resignation", end.Outcome)
	}
	black.move("1a3-a2", 1)
	black.wantError(play.CodeGameOver, "over")

	// HTTP errors.
	ts.call("GET", "/api/games/aaaaaaaaaaaaaaaa", nil, http.StatusNotFound, nil)
	ts.call("POST", "/api/games", map[string]any{"spec": "chess", "seats": []any{}}, http.StatusBadRequest, nil)
	ts.call("POST", "/api/games", map[string]any{"spec": "pogo", "seats": []any{map[string]any{"kind": "human"}}}, http.StatusBadRequest, nil)
	ts.call("POST", "/api/games", map[string]any{"spec": "pogo", "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "robot"}}}, http.StatusBadRequest, nil)
	ts.call("POST", "/api/games/"+id+"/join", map[string]any{"invite": "00"}, http.StatusForbidden, nil)
	ts.call("GET", "/api/variant?spec=diam(players=3)", nil, http.StatusBadRequest, nil)
	// A start position that is already over, and one that is not a position.
	ts.call("POST", "/api/games", map[string]any{"spec": "pogo", "position": "-,-,-/-,-,-/ww,ww,ww b", "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, http.StatusBadRequest, nil)
	ts.call("POST", "/api/games", map[string]any{"spec": "pogo", "position": "x", "seats": []any{map[string]any{"kind": "human"}, map[string]any{"kind": "human"}}}, http.StatusBadRequest, nil)
	// A game from a position: it starts there.
	from := ts.create(play.CreateRequest{Spec: "pogo", Position: "bb,bb,-/-,-,bb/ww,ww,ww w", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
	if from.State.Start != "bb,bb,-/-,-,bb/ww,ww,ww w" || from.State.Position != from.State.Start {
		t.Errorf("game from a position starts at %s", from.State.Start)
	}
}

// TestJoinTwice checks that an invite works once.
func TestJoinTwice(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	resp := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human", Invite: true}}})
	inv := resp.Invites[0].Invite
	ts.call("POST", "/api/games/"+resp.ID+"/join", play.JoinRequest{Invite: inv}, http.StatusOK, nil)
	var e struct{ Error string }
	ts.call("POST", "/api/games/"+resp.ID+"/join", play.JoinRequest{Invite: inv}, http.StatusConflict, &e)
	if !strings.Contains(e.Error, "already been taken") {
		t.Fatalf("second join: %q", e.Error)
	}
}

// TestReconnect drops a player's connection mid-game: on reconnecting it
// gets the full state and plays on.
func TestReconnect(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	id, tokens := ts.twoPlayerGame("pogo")
	white := ts.dial("white", id, tokens[0])
	white.hello()
	black := ts.dial("black", id, tokens[1])
	black.hello()
	white.move("1a1-a2", 0)
	black.waitPly(1)
	black.c.Close(websocket.StatusNormalClosure, "")
	st := white.waitState("black gone", func(s *stateOf) bool { return !s.Seats[1].Connected })
	white.move(st.Legal()[0], 1) // it is black's turn: refused
	white.wantError(play.CodeNotYourTurn, "Black's turn")

	black = ts.dial("black again", id, tokens[1])
	black.hello()
	if black.last.Ply != 1 || len(black.last.Moves) != 1 || black.last.Moves[0] != "1a1-a2" {
		t.Fatalf("after reconnecting: ply %d moves %v", black.last.Ply, black.last.Moves)
	}
	white.waitState("black back", func(s *stateOf) bool { return s.Seats[1].Connected })
	black.move(black.last.Legal()[0], 1)
	white.waitPly(2)
}

// blocker is an AI that thinks until its context ends.
type blocker struct{ started chan struct{} }

func (b blocker) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	close(b.started)
	<-ctx.Done()
	return search.Result{}, ctx.Err()
}

// TestRestart stops a server in the middle of two games and starts another
// on the same database: both games resume, the AI game with its AI to move.
func TestRestart(t *testing.T) {
	db := newDB(t)
	started := make(chan struct{})
	ts := startServer(t, db, server.Config{
		NewPlayer: func(g game.Game, level string) (search.Player, error) { return blocker{started}, nil },
	})
	id, tokens := ts.twoPlayerGame("diam")
	p1 := ts.dial("p1", id, tokens[0])
	p1.hello()
	p2 := ts.dial("p2", id, tokens[1])
	p2.hello()
	for ply := 0; ply < 5; ply++ {
		p := []*wsClient{p1, p2}[ply%2]
		st := p.waitPly(ply)
		p.move(st.Legal()[ply%len(st.Legal())], ply)
	}
	before := p1.waitPly(5)

	aiGame := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "easy"}}})
	w := ts.dial("white", aiGame.ID, aiGame.Token)
	w.hello()
	w.move("1b1-b2", 0)
	w.waitPly(1)
	<-started // the AI is thinking when the server stops

	// The clients answer the server's close handshake, as browsers do.
	closed := make(chan error, 1)
	go func() {
		for {
			if _, _, err := p1.c.Read(context.Background()); err != nil {
				closed <- err
				return
			}
		}
	}()
	for _, c := range []*wsClient{p2, w} {
		go func() {
			for {
				if _, _, err := c.c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
	}
	ts.stop()
	if err := <-closed; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("on shutdown the connection closed with %v; want status 1001", err)
	}

	ts2 := startServer(t, db, server.Config{})
	p1 = ts2.dial("p1 again", id, tokens[0])
	p1.hello()
	if p1.last.Position != before.Position || p1.last.Ply != 5 || p1.last.Status != "playing" {
		t.Fatalf("after restart: %s ply %d %s; want %s ply 5", p1.last.Position, p1.last.Ply, p1.last.Status, before.Position)
	}
	p2 = ts2.dial("p2 again", id, tokens[1])
	p2.hello()
	p2.move(p2.last.Legal()[0], 5)
	p1.waitPly(6)

	// The AI game resumes with the AI to move, and the AI moves.
	w = ts2.dial("white again", aiGame.ID, aiGame.Token)
	w.hello()
	st := w.waitPly(2)
	if st.ToMove != 0 || st.Status != "playing" {
		t.Fatalf("after the AI's move: to move %d status %s", st.ToMove, st.Status)
	}
}

// TestAIPool checks that a busy AI pool does not hold up human games, and
// that an AI game plays on when a worker is free.
func TestAIPool(t *testing.T) {
	started := make(chan struct{})
	var n int
	ts := startServer(t, newDB(t), server.Config{
		Workers: 1,
		NewPlayer: func(g game.Game, level string) (search.Player, error) {
			n++
			if n == 1 {
				return blocker{started}, nil // holds the only worker
			}
			return search.NewRandom(3), nil
		},
	})
	ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "hard"}, {Kind: "human"}}})
	<-started
	waiting := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "easy"}, {Kind: "human"}}})
	id, tokens := ts.twoPlayerGame("pogo")
	white := ts.dial("white", id, tokens[0])
	white.hello()
	black := ts.dial("black", id, tokens[1])
	black.hello()
	for ply := 0; ply < 6; ply++ {
		p := []*wsClient{white, black}[ply%2]
		st := p.waitPly(ply)
		p.move(st.Legal()[0], ply)
	}
	white.waitPly(6)
	var st stateOf
	ts.call("GET", "/api/games/"+waiting.ID, nil, http.StatusOK, &st)
	if st.Ply != 0 {
		t.Fatalf("the waiting AI game moved with no free worker: ply %d", st.Ply)
	}
}

// TestAIGame plays a human against the AI until the end.
func TestAIGame(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{NewPlayer: nil})
	resp := ts.create(play.CreateRequest{Spec: "pogo", Name: "bob", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "random"}}})
	w := ts.dial("white", resp.ID, resp.Token)
	w.hello()
	st := w.last
	for st.Status == "playing" && st.Ply < 300 {
		w.move(st.Legal()[0], st.Ply)
		st = w.waitState("the AI's answer", func(s *stateOf) bool { return s.Status == "finished" || (s.Ply%2 == 0 && s.Ply > st.Ply) })
	}
	if st.Ply < 2 {
		t.Fatalf("the AI never answered: %+v", st)
	}
	var recent struct{ Games []view.Summary }
	ts.call("GET", "/api/recent?limit=5", nil, http.StatusOK, &recent)
	if len(recent.Games) != 1 || recent.Games[0].ID != resp.ID || recent.Games[0].Seats[1].Level != "random" {
		t.Fatalf("recent = %+v", recent.Games)
	}
}

// TestStatic checks the UI routes: files, page routes and the API's 404s.
func TestStatic(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	for _, tt := range []struct {
		path string
		code int
		body string
	}{
		{"/", 200, "stax"},
		{"/healthz", 200, "ok"},
		{"/api/nothing", 404, "no API endpoint"},
		{"/api/games", 200, `"name":"pogo"`},
		{"/api/variant?spec=diam(players=4)", 200, `"players":4`},
		{"/api/recent?limit=0", 400, "limit"},
	} {
		res, err := http.Get(ts.url + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.code || !strings.Contains(string(b), tt.body) {
			t.Errorf("GET %s = %d %.200s; want %d containing %q", tt.path, res.StatusCode, b, tt.code, tt.body)
		}
	}
}

// TestNoComputerPlayers checks a server configured without computer
// players: it lists no levels and refuses AI seats with a clear error.
func TestNoComputerPlayers(t *testing.T) {
	ts := startBare(t, newDB(t), server.Config{})
	var list struct{ Games []catalog.GameInfo }
	ts.call("GET", "/api/games", nil, http.StatusOK, &list)
	for _, gi := range list.Games {
		if gi.Levels == nil || len(gi.Levels) != 0 {
			t.Errorf("%s lists levels %#v; want an empty list", gi.Name, gi.Levels)
		}
	}
	var bad struct{ Error string }
	ts.call("POST", "/api/games", play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "easy"}}}, http.StatusBadRequest, &bad)
	if !strings.Contains(bad.Error, "no computer players") {
		t.Errorf("creating an AI seat: %q; want it to say the server has no computer players", bad.Error)
	}
}

// illegalAI is an AI that answers a move of another game.
type illegalAI struct{}

func (illegalAI) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	return search.Result{Move: 1<<31 + 7}, nil
}

// TestAIForfeit checks that an AI that plays an illegal move forfeits the
// game, and says so.
func TestAIForfeit(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{
		NewPlayer: func(g game.Game, level string) (search.Player, error) { return illegalAI{}, nil },
	})
	resp := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "ai", Level: "easy"}, {Kind: "human"}}})
	b := ts.dial("black", resp.ID, resp.Token)
	b.hello()
	st := b.waitState("the forfeit", func(s *stateOf) bool { return s.Status == "finished" })
	o := st.Outcome
	if o == nil || o.Reason != "forfeit" || !slices.Equal(o.Winners, []int{1}) || !strings.Contains(o.Detail, "illegal move") {
		t.Errorf("outcome %+v; want Black's win by White's forfeit for an illegal move", o)
	}
}

// nearEnd plays random games of g until one ends by the rules with
// scores, and returns the position before its last move and that move.
func nearEnd(t *testing.T, g game.Game, seed uint64) (game.State, string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	for try := 0; try < 100; try++ {
		h := game.NewHistory(g, nil)
		for !h.Over() {
			legal := h.State().Legal(nil)
			h.PlayMove(legal[rng.IntN(len(legal))])
		}
		if o := h.Outcome(); o.Reason == game.ByRules && o.HasScores {
			last := h.Notation()[h.Ply()-1]
			h.Undo()
			return h.State().Clone(), last
		}
	}
	t.Fatalf("no game of %s ended by the rules with scores in 100 random games", game.SpecOf(g))
	return nil, ""
}

// TestScoreAfterRestart finishes a Pisola game, restarts the server and
// checks that the game and the recent list give its exact outcome, score
// included.
func TestScoreAfterRestart(t *testing.T) {
	db := newDB(t)
	ts := startServer(t, db, server.Config{})
	g, _ := games.Load("pisola")
	start, last := nearEnd(t, g, 3)
	resp := ts.create(play.CreateRequest{Spec: "pisola", Position: start.String(), Name: "alice",
		Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
	c := ts.dial("both", resp.ID, resp.Token)
	c.hello()
	c.move(last, 0)
	before := c.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" }).Outcome
	if before == nil || len(before.Scores) != 2 {
		t.Fatalf("outcome %+v; want one with the squares of both players", before)
	}
	ts = ts.restart(db, c)
	var st stateOf
	ts.call("GET", "/api/games/"+resp.ID, nil, http.StatusOK, &st)
	var recent struct{ Games []view.Summary }
	ts.call("GET", "/api/recent?status=finished", nil, http.StatusOK, &recent)
	if len(recent.Games) != 1 {
		t.Fatalf("recent finished games: %+v; want the one game", recent.Games)
	}
	for what, o := range map[string]*view.Outcome{"the game": st.Outcome, "the recent list": recent.Games[0].Outcome} {
		if o == nil || !reflect.DeepEqual(*o, *before) {
			t.Errorf("after the restart, %s gives the outcome %+v; want %+v", what, o, before)
		}
	}
}

// TestResignationAfterRestart checks that a resignation in a four-player
// game, which the moves do not show, is restored exactly after a restart.
func TestResignationAfterRestart(t *testing.T) {
	db := newDB(t)
	ts := startServer(t, db, server.Config{})
	seats := []play.SeatRequest{{Kind: "human"}, {Kind: "human"}, {Kind: "human"}, {Kind: "human"}}
	resp := ts.create(play.CreateRequest{Spec: "diam(players=4)", Name: "alice", Seats: seats})
	c := ts.dial("all", resp.ID, resp.Token)
	c.hello()
	c.move(c.last.Legal()[0], 0)
	c.waitPly(1)
	c.send(map[string]any{"type": "resign"})
	before := c.waitState("the resignation", func(s *stateOf) bool { return s.Status == "finished" }).Outcome
	if before == nil || before.Reason != "resignation" || len(before.Winners) != 3 {
		t.Fatalf("outcome %+v; want the three others to win by resignation", before)
	}
	ts = ts.restart(db, c)
	var st stateOf
	ts.call("GET", "/api/games/"+resp.ID, nil, http.StatusOK, &st)
	if st.Status != "finished" || st.Outcome == nil || !reflect.DeepEqual(*st.Outcome, *before) {
		t.Errorf("after the restart: %s, outcome %+v; want finished, %+v", st.Status, st.Outcome, before)
	}
}

// TestLevelBeingPrepared checks that a level that is not ready yet (the
// perfect level while Pogo is being solved) is listed as being prepared,
// and that a game with it is refused with 503 and Retry-After until it is
// ready.
func TestLevelBeingPrepared(t *testing.T) {
	var ready atomic.Bool
	ts := startServer(t, newDB(t), server.Config{
		Levels: func(g game.Game) []string { return []string{"easy", "perfect"} },
		LevelReady: func(g game.Game, level string) bool {
			return level != "perfect" || ready.Load()
		},
	})
	var v catalog.Variant
	ts.call("GET", "/api/variant?spec=pogo", nil, http.StatusOK, &v)
	if !slices.Equal(v.Levels, []string{"easy", "perfect"}) || !slices.Equal(v.Preparing, []string{"perfect"}) {
		t.Errorf("variant while preparing: levels %q, preparing %q; want perfect being prepared", v.Levels, v.Preparing)
	}
	seats := []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "perfect"}}
	body, _ := json.Marshal(play.CreateRequest{Spec: "pogo", Seats: seats})
	res, err := http.Post(ts.url+"/api/games", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(string(msg), "perfect level is still being prepared") {
		t.Errorf("creating a game with perfect while preparing: %d %q (Retry-After %q); want 503 with Retry-After", res.StatusCode, msg, res.Header.Get("Retry-After"))
	}
	ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "easy"}}})
	ready.Store(true)
	v = catalog.Variant{}
	ts.call("GET", "/api/variant?spec=pogo", nil, http.StatusOK, &v)
	if len(v.Preparing) != 0 {
		t.Errorf("variant once ready: preparing %q", v.Preparing)
	}
	ts.create(play.CreateRequest{Spec: "pogo", Seats: seats})
}

// TestLevelElo checks that the variant lists the measured rating of each
// level that has one, for the game picker.
func TestLevelElo(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{
		Levels: func(g game.Game) []string { return []string{"easy", "hard"} },
		LevelElo: func(g game.Game, level string) (int, bool) {
			elo := map[string]int{"random": 0, "easy": 900}[level]
			return elo, level != "hard"
		},
	})
	var v catalog.Variant
	ts.call("GET", "/api/variant?spec=pogo", nil, http.StatusOK, &v)
	if len(v.Elo) != 2 || v.Elo["easy"] != 900 || v.Elo["random"] != 0 {
		t.Errorf("variant's Elo %v; want easy 900 and random 0, hard unmeasured", v.Elo)
	}
}
