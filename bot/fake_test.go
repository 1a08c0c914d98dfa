package bot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/bots"
	"stax/server/lobby"
	"stax/server/view"
)

// fakeServer serves the part of the bot API a bot uses, for one account
// named robot with the token "secret", with games played by the rules:
// the test moves for the opponent and watches what the bot does.
type fakeServer struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	changed  *sync.Cond
	silent   bool          // the event stream sends nothing at all, not even keep-alives
	events   []*fakeStream // the event streams open
	eventsN  int           // event streams opened in all
	games    map[string]*fakeGame
	answers  map[string]string // challenge → "accept" or the decline's reason
	nextGame int
	moves    []fakeMove // moves the bot sent, in order
	claims   []string   // games whose victory was claimed
	draws    []string   // the bot's answers to draw offers: "game yes" or "game no"
}

// fakeStream is one open stream: the lines to send, closed to end it.
type fakeStream struct {
	lines chan string
	done  bool
}

// fakeGame is a game of the fake server.
type fakeGame struct {
	id      string
	spec    string
	h       *game.History
	seats   []int   // the bot's
	times   []int64 // each seat's time in ms at the start of the turn; nil: no clock
	inc     int64
	streams []*fakeStream
	opened  int // streams opened in all
	over    bool
}

// fakeMove is a move the bot sent.
type fakeMove struct {
	game, move string
	ply        int
}

func newFakeServer(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, games: map[string]*fakeGame{}, answers: map[string]string{}}
	f.changed = sync.NewCond(&f.mu)
	m := http.NewServeMux()
	m.HandleFunc("GET /api/me", f.auth(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]string{"name": "robot"})
	}))
	m.HandleFunc("GET /api/stream/event", f.auth(f.serveEvents))
	m.HandleFunc("POST /api/challenges/{id}/accept", f.auth(f.accept))
	m.HandleFunc("POST /api/challenges/{id}/decline", f.auth(f.decline))
	m.HandleFunc("GET /api/bot/game/stream/{id}", f.auth(f.serveGame))
	m.HandleFunc("POST /api/bot/game/{id}/move/{move}", f.auth(f.move))
	m.HandleFunc("POST /api/bot/game/{id}/draw/{answer}", f.auth(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.draws = append(f.draws, r.PathValue("id")+" "+r.PathValue("answer"))
		f.changed.Broadcast()
		f.mu.Unlock()
		writeJSON(w, 200, bots.OK{OK: true})
	}))
	m.HandleFunc("POST /api/bot/game/{id}/claim-victory", f.auth(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.claims = append(f.claims, r.PathValue("id"))
		f.changed.Broadcast()
		f.mu.Unlock()
		writeJSON(w, 200, bots.OK{OK: true})
	}))
	f.srv = httptest.NewServer(m)
	t.Cleanup(func() {
		f.mu.Lock()
		for _, s := range f.events {
			f.end(s)
		}
		for _, g := range f.games {
			for _, s := range g.streams {
				f.end(s)
			}
		}
		f.mu.Unlock()
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// auth answers 401 to a request without the account's token.
func (f *fakeServer) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			writeJSON(w, 401, map[string]string{"error": "sign in or send a token", "code": "unauthorized"})
			return
		}
		h(w, r)
	}
}

// end closes a stream. f.mu must be held.
func (f *fakeServer) end(s *fakeStream) {
	if !s.done {
		s.done = true
		close(s.lines)
	}
}

// send sends a line to a stream, ending it when it cannot keep up. f.mu
// must be held.
func (f *fakeServer) send(s *fakeStream, v any) {
	if s.done {
		return
	}
	data, _ := json.Marshal(v)
	select {
	case s.lines <- string(data):
	default:
		f.end(s)
	}
}

// serve writes a stream's lines until it ends or the client goes.
func serve(w http.ResponseWriter, r *http.Request, s *fakeStream) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	w.(http.Flusher).Flush()
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return
			}
			fmt.Fprintln(w, line)
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func (f *fakeServer) serveEvents(w http.ResponseWriter, r *http.Request) {
	s := &fakeStream{lines: make(chan string, 64)}
	f.mu.Lock()
	f.eventsN++
	if f.silent {
		f.changed.Broadcast()
		f.mu.Unlock()
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	f.events = append(f.events, s)
	// The stream begins with every unfinished game.
	for _, g := range f.games {
		if !g.over {
			f.send(s, bots.Event{Type: bots.EventGameStart, Game: g.event()})
		}
	}
	f.changed.Broadcast()
	f.mu.Unlock()
	serve(w, r, s)
}

// event sends an event to the open event streams.
func (f *fakeServer) event(ev bots.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.events {
		f.send(s, ev)
	}
}

// challenge sends a challenge from another account to the bot.
func (f *fakeServer) challenge(id, from, spec string, rated bool, clock *lobby.ClockSpec, days int) {
	f.event(bots.Event{Type: bots.EventChallenge, Challenge: &lobby.Seek{ID: id, Owner: from, To: "robot", Spec: spec, Rated: rated, Clock: clock, Days: days, Seat: -1}})
}

func (f *fakeServer) accept(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers[id] = "accept"
	f.changed.Broadcast()
	g := f.newGameLocked("pogo", []int{1}, []int64{60000, 60000}, 1000)
	writeJSON(w, 200, lobby.AcceptResponse{Game: g.id})
	for _, s := range f.events {
		f.send(s, bots.Event{Type: bots.EventGameStart, Game: g.event()})
	}
}

func (f *fakeServer) decline(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Reason string `json:"reason"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.answers[r.PathValue("id")] = body.Reason
	f.changed.Broadcast()
	f.mu.Unlock()
	writeJSON(w, 200, bots.OK{OK: true})
}

// newGame starts a game of spec in which the bot holds seats, with a
// Fischer clock of times (nil for none), and returns it.
func (f *fakeServer) newGame(spec string, seats []int, times []int64, inc int64) *fakeGame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.newGameLocked(spec, seats, times, inc)
}

func (f *fakeServer) newGameLocked(spec string, seats []int, times []int64, inc int64) *fakeGame {
	gm, err := games.Load(spec)
	if err != nil {
		f.t.Fatal(err)
	}
	f.nextGame++
	g := &fakeGame{id: fmt.Sprintf("g%d", f.nextGame), spec: spec, h: game.NewHistory(gm, nil), seats: seats, times: times, inc: inc}
	f.games[g.id] = g
	return g
}

// event describes the game for the event stream.
func (g *fakeGame) event() *bots.GameEvent {
	return &bots.GameEvent{ID: g.id, Spec: g.spec, Seat: g.seats[0], Players: []bots.Player{{Name: "ann", Kind: "human"}, {Name: "robot", Kind: "human", Bot: true}}, Status: "playing"}
}

// state is the game's state line.
func (g *fakeGame) state() bots.GameState {
	st := bots.GameState{Type: bots.LineGameState, Moves: strings.Join(g.h.Notation(), " "), Position: g.h.State().String(),
		Ply: g.h.Ply(), ToMove: g.h.State().ToMove(), Times: g.times, Status: "playing"}
	if g.times != nil {
		st.Increment = g.inc
	}
	if g.over || g.h.Over() {
		st.Status = "finished"
		st.Outcome = &view.Outcome{Description: g.h.Outcome().String()}
		return st
	}
	for _, s := range g.seats {
		if s != st.ToMove {
			continue
		}
		for _, m := range g.h.State().Legal(nil) {
			st.Legal = append(st.Legal, g.h.State().FormatMove(m))
		}
	}
	return st
}

func (f *fakeServer) serveGame(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	g := f.games[r.PathValue("id")]
	if g == nil {
		f.mu.Unlock()
		writeJSON(w, 404, map[string]string{"error": "no such game", "code": "not_found"})
		return
	}
	s := &fakeStream{lines: make(chan string, 64)}
	g.streams = append(g.streams, s)
	g.opened++
	f.send(s, bots.GameFull{Type: bots.LineGameFull, ID: g.id, Spec: g.spec, Title: g.spec, Seats: g.seats, State: g.state()})
	if g.over || g.h.Over() {
		f.end(s)
	}
	f.changed.Broadcast()
	f.mu.Unlock()
	serve(w, r, s)
}

// broadcast sends the game's state to its streams. f.mu must be held.
func (f *fakeServer) broadcast(g *fakeGame) {
	st := g.state()
	for _, s := range g.streams {
		f.send(s, st)
		if st.Status == "finished" {
			f.end(s)
		}
	}
	f.changed.Broadcast()
}

func (f *fakeServer) move(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.games[r.PathValue("id")]
	if g == nil {
		writeJSON(w, 404, map[string]string{"error": "no such game", "code": "not_found"})
		return
	}
	ply, err := strconv.Atoi(r.URL.Query().Get("ply"))
	if err != nil || ply != g.h.Ply() {
		writeJSON(w, 409, map[string]string{"error": "the game is not at that ply", "code": "stale"})
		return
	}
	mine := false
	for _, s := range g.seats {
		mine = mine || s == g.h.State().ToMove()
	}
	if !mine || g.over {
		writeJSON(w, 400, map[string]string{"error": "not your turn", "code": "not_your_turn"})
		return
	}
	mv := r.PathValue("move")
	if err := g.h.Play(mv); err != nil {
		writeJSON(w, 400, map[string]string{"error": err.Error(), "code": "illegal_move"})
		return
	}
	f.moves = append(f.moves, fakeMove{game: g.id, move: mv, ply: ply})
	writeJSON(w, 200, bots.OK{OK: true})
	f.broadcast(g)
}

// gameLine sends a line to the streams of game id.
func (f *fakeServer) gameLine(id string, v any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.games[id].streams {
		f.send(s, v)
	}
}

// finish ends game id, as a resignation would.
func (f *fakeServer) finish(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.games[id]
	g.over = true
	f.broadcast(g)
}

// opponentMove plays the first legal move for the seat to move in game id
// (the bot's, while it is not connected).
func (f *fakeServer) opponentMove(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.games[id]
	st := g.h.State()
	if err := g.h.PlayMove(st.Legal(nil)[0]); err != nil {
		f.t.Fatal(err)
	}
	f.broadcast(g)
}

// dropAll closes every open stream, as a network failure would.
func (f *fakeServer) dropAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.events {
		f.end(s)
	}
	f.events = nil
	for _, g := range f.games {
		for _, s := range g.streams {
			f.end(s)
		}
		g.streams = nil
	}
	f.srv.CloseClientConnections()
}

// poke wakes the waits of waitFor, for a change outside the server.
func (f *fakeServer) poke() {
	f.mu.Lock()
	f.changed.Broadcast()
	f.mu.Unlock()
}

// waitFor waits until cond, called with f.mu held, holds, failing the
// test after 30 s: a bound on the code under test waiting for an event,
// never a measure of its speed.
func (f *fakeServer) waitFor(what string, cond func() bool) {
	f.t.Helper()
	stuck := false
	timer := time.AfterFunc(30*time.Second, func() {
		f.mu.Lock()
		stuck = true
		f.changed.Broadcast()
		f.mu.Unlock()
	})
	defer timer.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for !cond() && !stuck {
		f.changed.Wait()
	}
	if !cond() {
		f.t.Fatalf("waiting for %s: still not so after 30s", what)
	}
}
