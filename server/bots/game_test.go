package bots_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server/bots"
	"stax/server/chat"
	"stax/server/httpx"
	"stax/server/play"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// The headers that name a request's account and its token (the tests'
// stand-in for the accounts domain).
const (
	userHeader  = "X-User"
	tokenHeader = "X-Token"
)

// sessions signs a request in as the account userHeader names, with the
// token tokenHeader names, unless that token was revoked.
type sessions struct {
	mu      sync.Mutex
	users   map[string]*store.User
	revoked map[string]bool
}

func (s *sessions) Session(r *http.Request) (*store.User, *store.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, tok := s.users[r.Header.Get(userHeader)], r.Header.Get(tokenHeader)
	if u == nil || s.revoked[tok] {
		return nil, nil, errors.New("you are not signed in")
	}
	return u, &store.Session{UserID: u.ID, TokenHash: httpx.HashSecret(tok)}, nil
}

func (s *sessions) SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool) {
	u, ss, err := s.Session(r)
	if err != nil {
		httpx.Error(w, http.StatusUnauthorized, err.Error())
		return nil, nil, false
	}
	return u, ss, true
}

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fakeRatings rates ann 1612 and the others a provisional 1500, in every
// pool.
type fakeRatings struct{}

func (fakeRatings) Rating(ctx context.Context, userID, pool string) (store.Rating, error) {
	if userID == "id-ann" {
		return store.Rating{UserID: userID, Pool: pool, Rating: 1612, Deviation: 60}, nil
	}
	return store.Rating{UserID: userID, Pool: pool, Rating: 1500, Deviation: 350}, nil
}

// site is the bot API over live play on a SQLite store, with the accounts
// ann, bob and cat.
type site struct {
	t        *testing.T
	url      string
	live     *play.Live
	bots     *bots.Bots
	sessions *sessions
	clock    *fakeClock
}

// newSite serves the bot API; its streams send an empty line every
// keepAlive.
func newSite(t *testing.T, keepAlive time.Duration) *site {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "bots.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ss := &sessions{users: map[string]*store.User{}, revoked: map[string]bool{}}
	for _, name := range []string{"ann", "bob", "cat"} {
		u := &store.User{ID: "id-" + name, Name: name, PasswordHash: "x", Created: time.Now().UTC().Truncate(time.Millisecond)}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		ss.users[name] = u
	}
	clock := &fakeClock{t: time.Now().UTC().Truncate(time.Second)}
	sockets := httpx.NewSockets(httpx.SocketLimits{MaxConns: 100, MaxConnsPerIP: 100}, nil, nil)
	live, err := play.New(play.Config{Store: st, Games: games.All(), Sessions: ss, Sockets: sockets, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := st.Watch(ctx, live.Feed()); err != nil {
		t.Fatal(err)
	}
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	b := bots.New(bots.Config{Sessions: ss, Games: live, Ratings: fakeRatings{}, Sockets: sockets, KeepAlive: keepAlive, Now: clock.Now})
	m := http.NewServeMux()
	b.Routes(m)
	hs := httptest.NewServer(m)
	t.Cleanup(func() {
		b.Close()
		hs.Close()
		sockets.Close()
		live.Close()
		cancel()
	})
	return &site{t: t, url: hs.URL, live: live, bots: b, sessions: ss, clock: clock}
}

// game starts a game of spec between ann (seat 0) and bob (seat 1).
func (s *site) game(spec string, clock *store.Clock) string {
	s.t.Helper()
	id, err := s.live.StartGame(context.Background(), spec, "", []*store.User{s.sessions.users["ann"], s.sessions.users["bob"]}, false, clock)
	if err != nil {
		s.t.Fatal(err)
	}
	return id
}

// request sends a request as user with token tok ("" for neither).
func (s *site) request(user, tok, method, path, body string) (*http.Response, error) {
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.Header.Set(userHeader, user)
		req.Header.Set(tokenHeader, tok)
	}
	return http.DefaultClient.Do(req)
}

// apiError is the body of the API's errors.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// post sends an action as user (with the token "T-"+user) and returns the
// status and the error, if any.
func (s *site) post(user, path, body string) (int, apiError) {
	s.t.Helper()
	res, err := s.request(user, "T-"+user, "POST", path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var e apiError
	if res.StatusCode != http.StatusOK {
		if err := json.Unmarshal(data, &e); err != nil {
			s.t.Fatalf("POST %s: %d %s: the error is not JSON: %v", path, res.StatusCode, data, err)
		}
	} else if strings.TrimSpace(string(data)) != `{"ok":true}` {
		s.t.Fatalf("POST %s: 200 %s; want {\"ok\":true}", path, data)
	}
	return res.StatusCode, e
}

// ok posts an action that must succeed.
func (s *site) ok(user, path, body string) {
	s.t.Helper()
	if code, e := s.post(user, path, body); code != http.StatusOK {
		s.t.Fatalf("%s: POST %s = %d %+v; want 200", user, path, code, e)
	}
}

// streamOf is an open game stream: its lines, read as they come.
type streamOf struct {
	t     *testing.T
	res   *http.Response
	lines chan []byte // closed at the end of the stream
}

// stream opens the game stream of id as user with token tok.
func (s *site) stream(user, tok, id string) *streamOf {
	s.t.Helper()
	res, err := s.request(user, tok, "GET", "/api/bot/game/stream/"+id, "")
	if err != nil {
		s.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		s.t.Fatalf("%s: stream of %s: %d %s; want 200", user, id, res.StatusCode, data)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		s.t.Errorf("the stream's Content-Type is %q; want application/x-ndjson", ct)
	}
	st := &streamOf{t: s.t, res: res, lines: make(chan []byte, 1024)}
	go func() {
		defer close(st.lines)
		rd := bufio.NewReader(res.Body)
		for {
			line, err := rd.ReadBytes('\n')
			if err != nil {
				return
			}
			st.lines <- line
		}
	}()
	s.t.Cleanup(st.close)
	return st
}

func (st *streamOf) close() { st.res.Body.Close() }

// line is a line of a stream, decoded as far as its type.
type line struct {
	raw  []byte
	Type string `json:"type"`
}

// next returns the stream's next line, keep-alives included; ok is false
// at the end of the stream.
func (st *streamOf) next() (l line, ok bool) {
	st.t.Helper()
	select {
	case raw, open := <-st.lines:
		if !open {
			return line{}, false
		}
		l.raw = raw
		if len(strings.TrimSpace(string(raw))) > 0 {
			if err := json.Unmarshal(raw, &l); err != nil {
				st.t.Fatalf("the stream's line %q is not JSON: %v", raw, err)
			}
		}
		return l, true
	case <-time.After(10 * time.Second):
		st.t.Fatal("the stream said nothing for 10 s")
	}
	return line{}, false
}

// want returns the next line that is not a keep-alive, which must be of
// type typ, decoded into a value of type T.
func want[T any](st *streamOf, typ string) T {
	st.t.Helper()
	for {
		l, ok := st.next()
		if !ok {
			st.t.Fatalf("the stream ended; want a %s line", typ)
		}
		if l.Type == "" {
			continue // a keep-alive
		}
		if l.Type != typ {
			st.t.Fatalf("the stream sent %s; want a %s line", l.raw, typ)
		}
		var v T
		dec := json.NewDecoder(strings.NewReader(string(l.raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			st.t.Fatalf("the %s line %s: %v", typ, l.raw, err)
		}
		return v
	}
}

// ends checks that the stream ends, with nothing but keep-alives first.
func (st *streamOf) ends() {
	st.t.Helper()
	for {
		l, ok := st.next()
		if !ok {
			return
		}
		if l.Type != "" {
			st.t.Fatalf("the stream sent %s; want its end", l.raw)
		}
	}
}

// TestGameStream follows a game through ann's stream: the game first, a
// state after each move with the legal moves only on ann's turn, the
// chat, a draw offered and declined, and the final state after which the
// stream ends.
func TestGameStream(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", &store.Clock{Initial: 5 * time.Minute, Increment: 2 * time.Second})
	ann := s.stream("ann", "T-ann", id)
	full := want[bots.GameFull](ann, bots.LineGameFull)
	if full.ID != id || full.Spec != "pogo" || len(full.Seats) != 1 || full.Seats[0] != 0 || full.Clock == nil || full.Clock.Initial != 300 || full.Clock.Increment != 2 {
		t.Fatalf("gameFull %+v; want game %s, ann's seat 0, a 5+2 clock", full, id)
	}
	if p := full.Players; len(p) != 2 || p[0].Name != "ann" || p[1].Name != "bob" || p[1].Kind != "human" || p[0].Rating == nil || *p[0].Rating != 1612 || p[0].Provisional || !p[1].Provisional {
		t.Fatalf("players %+v; want ann (rated 1612) then bob (provisional)", full.Players)
	}
	st := full.State
	if st.Ply != 0 || st.ToMove != 0 || st.Status != "playing" || len(st.Legal) == 0 || len(st.Times) != 2 || st.Times[0] != 300000 || st.Increment != 2000 {
		t.Fatalf("the first state %+v; want ply 0, ann to move with her legal moves, 300000 ms each, increment 2000", st)
	}
	if gone := want[bots.OpponentGone](ann, bots.LineOpponentGone); !gone.Gone || gone.ClaimWinInSeconds != 50 {
		t.Fatalf("%+v; want bob gone, claimable in 50 s (a sixth of 5 minutes)", gone)
	}
	bob := s.stream("bob", "T-bob", id)
	if st := want[bots.GameFull](bob, bots.LineGameFull).State; len(st.Legal) != 0 {
		t.Fatalf("bob's first state has legal moves %v; want none off his turn", st.Legal)
	}
	if gone := want[bots.OpponentGone](ann, bots.LineOpponentGone); gone.Gone {
		t.Fatalf("%+v once bob came; want gone false", gone)
	}

	mv := st.Legal[0]
	s.ok("ann", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=0", id, mv), "")
	st = want[bots.GameState](ann, bots.LineGameState)
	if st.Ply != 1 || st.Moves != mv || st.ToMove != 1 || len(st.Legal) != 0 {
		t.Fatalf("after ann's move: %+v; want ply 1, moves %q, bob to move, no legal moves for ann", st, mv)
	}
	st = want[bots.GameState](bob, bots.LineGameState)
	if st.Ply != 1 || len(st.Legal) == 0 {
		t.Fatalf("bob's state after ann's move: %+v; want ply 1 with his legal moves", st)
	}
	reply := st.Legal[0]
	s.ok("bob", fmt.Sprintf("/api/bot/game/%s/move/%s", id, reply), "")
	if st = want[bots.GameState](ann, bots.LineGameState); st.Ply != 2 || st.Moves != mv+" "+reply || len(st.Legal) == 0 {
		t.Fatalf("after bob's move: %+v; want ply 2, both moves, ann's legal moves", st)
	}
	// A stream opened mid-turn is told the time left now: ann's clock has
	// run 30 s since her turn began.
	s.clock.Advance(30 * time.Second)
	late := s.stream("ann", "T-ann", id)
	if got := want[bots.GameFull](late, bots.LineGameFull).State.Times; len(got) != 2 || got[0] != st.Times[0]-30000 || got[1] != st.Times[1] {
		t.Fatalf("times %v on a stream opened 30 s into ann's turn; want %d and %d", got, st.Times[0]-30000, st.Times[1])
	}

	s.ok("bob", "/api/bot/game/"+id+"/chat", `{"text": "good luck"}`)
	if c := want[bots.ChatLine](ann, bots.LineChatLine); c.Username != "bob" || c.Text != "good luck" {
		t.Fatalf("chat line %+v; want bob's good luck", c)
	}
	s.ok("bob", "/api/bot/game/"+id+"/draw/yes", "")
	if st = want[bots.GameState](ann, bots.LineGameState); st.DrawOffer == nil || *st.DrawOffer != 1 {
		t.Fatalf("after bob's offer: %+v; want a draw offered by seat 1", st)
	}
	s.ok("ann", "/api/bot/game/"+id+"/draw/no", "")
	if st = want[bots.GameState](ann, bots.LineGameState); st.DrawOffer != nil {
		t.Fatalf("after ann declines: %+v; want no offer", st)
	}
	s.ok("ann", "/api/bot/game/"+id+"/draw/yes", "")
	if st = want[bots.GameState](ann, bots.LineGameState); st.DrawOffer == nil || *st.DrawOffer != 0 {
		t.Fatalf("after ann's offer: %+v; want a draw offered by seat 0", st)
	}

	s.ok("ann", "/api/bot/game/"+id+"/resign", "")
	st = want[bots.GameState](ann, bots.LineGameState)
	if st.Status != "finished" || st.Outcome == nil || st.Outcome.Reason != "resignation" || len(st.Outcome.Winners) != 1 || st.Outcome.Winners[0] != 1 || st.DrawOffer != nil || st.Legal != nil {
		t.Fatalf("after ann resigns: %+v %+v; want finished, bob winning by resignation", st, st.Outcome)
	}
	ann.ends()
	// Bob's stream, which he did not read meanwhile, ends with the same
	// final state.
	for {
		l, ok := bob.next()
		if !ok {
			t.Fatal("bob's stream ended before the final state")
		}
		var st bots.GameState
		if json.Unmarshal(l.raw, &st); l.Type == bots.LineGameState && st.Status == "finished" {
			break
		}
	}
	bob.ends()

	// A finished game's stream is its full state, the chat so far, and
	// its end.
	again := s.stream("ann", "T-ann", id)
	if st := want[bots.GameFull](again, bots.LineGameFull).State; st.Status != "finished" {
		t.Fatalf("the finished game's state: %+v", st)
	}
	if c := want[bots.ChatLine](again, bots.LineChatLine); c.Text != "good luck" {
		t.Fatalf("the finished game's chat: %+v; want bob's good luck", c)
	}
	again.ends()
}

// TestGameStreamKeepAlive: a quiet stream sends an empty line every
// KeepAlive.
func TestGameStreamKeepAlive(t *testing.T) {
	s := newSite(t, 20*time.Millisecond)
	id := s.game("pogo", nil)
	ann := s.stream("ann", "T-ann", id)
	want[bots.GameFull](ann, bots.LineGameFull)
	for i := 0; i < 3; i++ {
		if l, ok := ann.next(); !ok || string(l.raw) != "\n" {
			t.Fatalf("line %q (open %v) of a quiet stream; want an empty line", l.raw, ok)
		}
	}
}

// TestActions checks the refusals of the actions: each with its status,
// its code and a message that says what was expected.
func TestActions(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", nil)
	over := s.game("pogo", nil)
	s.ok("ann", "/api/bot/game/"+over+"/abort", "")
	for _, tc := range []struct {
		name, user, path, body string
		status                 int
		code, says             string
	}{
		{"not signed in", "", "/api/bot/game/" + id + "/resign", "", http.StatusUnauthorized, "", "not signed in"},
		{"unknown game", "ann", "/api/bot/game/aaaaaaaaaaaaaaaa/resign", "", http.StatusNotFound, bots.CodeNoGame, `no game "aaaaaaaaaaaaaaaa"`},
		{"not her game", "cat", "/api/bot/game/" + id + "/move/1a1-a2", "", http.StatusForbidden, play.CodeNotYourSeat, "cat holds no seat"},
		{"not his turn", "bob", "/api/bot/game/" + id + "/move/1c3-c2", "", http.StatusConflict, play.CodeNotYourTurn, "turn"},
		{"not notation", "ann", "/api/bot/game/" + id + "/move/9z9-z9", "", http.StatusBadRequest, play.CodeIllegalMove, "want <count><from>-<to>"},
		{"illegal", "ann", "/api/bot/game/" + id + "/move/1a1-c3", "", http.StatusBadRequest, play.CodeIllegalMove, "reach only b1, a2"},
		{"a huge move", "ann", "/api/bot/game/" + id + "/move/" + strings.Repeat("1a1-a2", 2000), "", http.StatusBadRequest, play.CodeIllegalMove, "a move of 12000 bytes"},
		{"stale ply", "ann", "/api/bot/game/" + id + "/move/1a1-a2?ply=3", "", http.StatusConflict, play.CodeStale, "sent for ply 3 but the game is at ply 0"},
		{"bad ply", "ann", "/api/bot/game/" + id + "/move/1a1-a2?ply=last", "", http.StatusBadRequest, play.CodeBadMessage, "a number from 0"},
		{"bad draw answer", "ann", "/api/bot/game/" + id + "/draw/maybe", "", http.StatusBadRequest, play.CodeBadMessage, "draw/yes"},
		{"no draw to decline", "ann", "/api/bot/game/" + id + "/draw/no", "", http.StatusBadRequest, play.CodeBadMessage, "no draw offer to you to decline"},
		{"empty chat", "ann", "/api/bot/game/" + id + "/chat", `{"text": " "}`, http.StatusBadRequest, play.CodeBadMessage, "needs text"},
		{"chat not JSON", "ann", "/api/bot/game/" + id + "/chat", `good game`, http.StatusBadRequest, play.CodeBadMessage, "bad JSON"},
		{"chat unknown field", "ann", "/api/bot/game/" + id + "/chat", `{"message": "hi"}`, http.StatusBadRequest, play.CodeBadMessage, "unknown field"},
		{"claim with no clock", "ann", "/api/bot/game/" + id + "/claim-victory", "", http.StatusBadRequest, play.CodeBadMessage, "only a live game"},
		{"move once over", "ann", "/api/bot/game/" + over + "/move/1a1-a2", "", http.StatusConflict, play.CodeGameOver, "the game is over"},
		{"resign once over", "bob", "/api/bot/game/" + over + "/resign", "", http.StatusConflict, play.CodeGameOver, "the game is over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.request(tc.user, "T-"+tc.user, "POST", tc.path, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var e apiError
			json.NewDecoder(res.Body).Decode(&e)
			if res.StatusCode != tc.status || e.Code != tc.code || !strings.Contains(e.Error, tc.says) {
				t.Errorf("POST %s as %q = %d %+v; want %d, code %q, saying %q", tc.path, tc.user, res.StatusCode, e, tc.status, tc.code, tc.says)
			}
		})
	}
	// The move refused as stale is played once with the right ply, and
	// refused when sent again.
	s.ok("ann", "/api/bot/game/"+id+"/move/1a1-a2?ply=0", "")
	if code, e := s.post("ann", "/api/bot/game/"+id+"/move/1a1-a2?ply=0", ""); code != http.StatusConflict || e.Code != play.CodeStale {
		t.Errorf("the move sent again: %d %+v; want 409 %s", code, e, play.CodeStale)
	}
	// Streams are refused alike.
	for _, tc := range []struct {
		user, id string
		status   int
		code     string
	}{
		{"cat", id, http.StatusForbidden, play.CodeNotYourSeat},
		{"ann", "aaaaaaaaaaaaaaaa", http.StatusNotFound, bots.CodeNoGame},
		{"", id, http.StatusUnauthorized, ""},
	} {
		res, err := s.request(tc.user, "T-"+tc.user, "GET", "/api/bot/game/stream/"+tc.id, "")
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if res.StatusCode != tc.status || e.Code != tc.code {
			t.Errorf("stream of %s as %q: %d %+v; want %d %q", tc.id, tc.user, res.StatusCode, e, tc.status, tc.code)
		}
	}
}

// TestChatTooFast: past the chat's burst, a line is refused with 429
// rate_limited and Retry-After, which says when to say the next.
func TestChatTooFast(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", nil)
	for range chat.Burst {
		s.ok("ann", "/api/bot/game/"+id+"/chat", `{"text": "hello"}`)
	}
	res, err := s.request("ann", "T-ann", "POST", "/api/bot/game/"+id+"/chat", `{"text": "hello?"}`)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var e apiError
	json.NewDecoder(res.Body).Decode(&e)
	if res.StatusCode != http.StatusTooManyRequests || e.Code != play.CodeRateLimited {
		t.Fatalf("a line past the burst: %d %+v; want 429 %s", res.StatusCode, e, play.CodeRateLimited)
	}
	if got, want := res.Header.Get("Retry-After"), strconv.Itoa(int(chat.Every.Seconds())); got != want {
		t.Errorf("Retry-After %q; want %q", got, want)
	}
}

// TestGameStreamsBounded: a token holds at most MaxGameStreams game
// streams; another token of the account has its own, and a stream closed
// makes room for another.
func TestGameStreamsBounded(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", nil)
	var open []*streamOf
	for range bots.MaxGameStreams {
		st := s.stream("ann", "T-1", id)
		want[bots.GameFull](st, bots.LineGameFull)
		open = append(open, st)
	}
	res, err := s.request("ann", "T-1", "GET", "/api/bot/game/stream/"+id, "")
	if err != nil {
		t.Fatal(err)
	}
	var e apiError
	json.NewDecoder(res.Body).Decode(&e)
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || e.Code != bots.CodeTooManyStreams || res.Header.Get("Retry-After") == "" {
		t.Fatalf("stream %d of a token: %d %+v; want 429 %s with Retry-After", bots.MaxGameStreams+1, res.StatusCode, e, bots.CodeTooManyStreams)
	}
	want[bots.GameFull](s.stream("ann", "T-2", id), bots.LineGameFull)
	open[0].close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := s.request("ann", "T-1", "GET", "/api/bot/game/stream/"+id, "")
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode == http.StatusOK {
			res.Body.Close()
			break
		}
		res.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("a stream closed, and another is still refused: %d", res.StatusCode)
		}
		time.Sleep(10 * time.Millisecond) // the server notices the closed stream
	}
}

// TestGameStreamRevoked: revoking the token that opened a stream ends
// it; the account's other streams go on.
func TestGameStreamRevoked(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", nil)
	one, two := s.stream("ann", "T-1", id), s.stream("ann", "T-2", id)
	want[bots.GameFull](one, bots.LineGameFull)
	want[bots.GameFull](two, bots.LineGameFull)
	s.sessions.mu.Lock()
	s.sessions.revoked["T-1"] = true
	s.sessions.mu.Unlock()
	s.bots.Revoke(store.Revocation{User: "id-ann", Session: httpx.HashSecret("T-1"), Only: true})
	one.ends()
	s.ok("bob", "/api/bot/game/"+id+"/chat", `{"text": "still there?"}`)
	if c := want[bots.ChatLine](two, bots.LineChatLine); c.Text != "still there?" {
		t.Fatalf("the other stream got %+v", c)
	}
}

// TestClaimVictory: a player whose opponent left a live game is told so,
// with the time until they may claim it, and wins it by claiming it then.
func TestClaimVictory(t *testing.T) {
	s := newSite(t, time.Hour)
	id := s.game("pogo", &store.Clock{Initial: time.Minute})
	bob := s.stream("bob", "T-bob", id)
	want[bots.GameFull](bob, bots.LineGameFull)
	ann := s.stream("ann", "T-ann", id)
	want[bots.GameFull](ann, bots.LineGameFull)
	s.ok("ann", "/api/bot/game/"+id+"/move/1a1-a2", "")
	want[bots.GameState](ann, bots.LineGameState)
	bob.close()
	if gone := want[bots.OpponentGone](ann, bots.LineOpponentGone); !gone.Gone || gone.ClaimWinInSeconds != 15 {
		t.Fatalf("%+v; want bob gone, claimable in 15 s", gone)
	}
	if code, e := s.post("ann", "/api/bot/game/"+id+"/claim-victory", ""); code != http.StatusBadRequest || !strings.Contains(e.Error, "can be claimed in 15 s") {
		t.Fatalf("claim at once: %d %+v; want 400 saying it can be claimed in 15 s", code, e)
	}
	s.clock.Advance(15 * time.Second)
	s.ok("ann", "/api/bot/game/"+id+"/claim-victory", "")
	st := want[bots.GameState](ann, bots.LineGameState)
	if st.Status != "finished" || st.Outcome.Reason != "forfeit" || st.Outcome.Winners[0] != 0 {
		t.Fatalf("after the claim: %+v %+v; want ann winning by forfeit", st, st.Outcome)
	}
	ann.ends()
}
