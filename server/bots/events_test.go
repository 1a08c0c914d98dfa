package bots_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/bots"
	"stax/server/httpx"
	"stax/server/lobby"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// fakeSessions signs a request in by its bearer token, as the accounts
// domain does: each token is an account's, and a revoked one signs
// nothing in.
type fakeSessions struct {
	mu     sync.Mutex
	tokens map[string]*store.User // by secret
}

func (f *fakeSessions) Session(r *http.Request) (*store.User, *store.Session, error) {
	secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	u := f.tokens[secret]
	f.mu.Unlock()
	if !ok || u == nil {
		return nil, nil, errors.New("you are not signed in")
	}
	hash := httpx.HashSecret(secret)
	return u, &store.Session{UserID: u.ID, TokenHash: hash, Token: &store.Token{ID: hash[:8], UserID: u.ID, Hash: hash}}, nil
}

func (f *fakeSessions) SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool) {
	u, ss, err := f.Session(r)
	if err != nil {
		httpx.Error(w, http.StatusUnauthorized, err.Error())
		return nil, nil, false
	}
	return u, ss, true
}

// revoke forgets a token.
func (f *fakeSessions) revoke(secret string) {
	f.mu.Lock()
	delete(f.tokens, secret)
	f.mu.Unlock()
}

// fakeStarter starts nothing: the tests create their games in the store.
type fakeStarter struct{}

func (fakeStarter) StartGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (string, error) {
	return httpx.NewID(), nil
}

// noRatings rates nobody.
type noRatings struct{}

func (noRatings) Rating(ctx context.Context, userID, pool string) (store.Rating, error) {
	return store.Rating{}, nil
}

// eventSite is the bot API and the lobby on a SQLite store, the store's feed
// bringing the news to both as the server composing them does.
type eventSite struct {
	t        *testing.T
	url      string
	st       *sqlite.Store
	bots     *bots.Bots
	lobby    *lobby.Lobby
	sessions *fakeSessions
	clock    *fakeClock
	users    map[string]*store.User // by name
}

// newEventSite starts the bot API with the accounts ann, bob and the bot
// robot, each signed in by the token "<name>-token", streams keeping
// alive every keepAlive.
func newEventSite(t *testing.T, keepAlive time.Duration) *eventSite {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "bots.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &eventSite{t: t, st: st, sessions: &fakeSessions{tokens: map[string]*store.User{}},
		clock: &fakeClock{t: time.Now().UTC().Truncate(time.Millisecond)}, users: map[string]*store.User{}}
	for _, u := range []*store.User{{Name: "ann"}, {Name: "bob"}, {Name: "robot", Bot: true}} {
		u.ID, u.PasswordHash, u.Created = "id-"+u.Name, "x", s.clock.Now()
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		s.users[u.Name] = u
		s.sessions.tokens[u.Name+"-token"] = u
	}
	if err := st.SetBot(context.Background(), s.users["robot"].ID); err != nil {
		t.Fatal(err)
	}
	sockets := httpx.NewSockets(httpx.SocketLimits{MaxConns: 100, MaxConnsPerIP: 100}, nil, nil)
	s.lobby = lobby.New(lobby.Config{Seeks: st, Users: st, Feed: st, Games: games.All(), Sessions: s.sessions,
		Starter: fakeStarter{}, Ratings: noRatings{}, Sockets: sockets, Now: s.clock.Now})
	s.bots = bots.New(bots.Config{Sessions: s.sessions, Tokens: st, Sockets: sockets, Lobby: s.lobby, Stored: st,
		Registry: games.All(), KeepAlive: keepAlive, Now: s.clock.Now})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := st.Watch(ctx, func(ev store.Event) {
		switch ev.Kind {
		case store.EventNews:
			s.lobby.Deliver(ev.Game, ev.Move)
			s.bots.Deliver(ev.Game, ev.Move)
		case store.EventRevoke:
			s.bots.Revoke(store.RevocationOf(ev))
		}
	}); err != nil {
		t.Fatal(err)
	}
	m := http.NewServeMux()
	s.lobby.Routes(m)
	s.bots.Routes(m)
	hs := httptest.NewServer(m)
	t.Cleanup(hs.Close)
	// The streams end before the HTTP server waits for its requests.
	t.Cleanup(s.bots.Close)
	s.url = hs.URL
	return s
}

// do sends a request with a token ("" for none) and returns the status
// and the body.
func (s *eventSite) do(token, method, path string, body any) (int, []byte) {
	s.t.Helper()
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, s.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	bufio.NewReader(res.Body).WriteTo(&b)
	return res.StatusCode, []byte(b.String())
}

// call sends a request, checks the status and decodes the answer.
func (s *eventSite) call(token, method, path string, body any, want int, out any) {
	s.t.Helper()
	code, data := s.do(token, method, path, body)
	if code != want {
		s.t.Fatalf("%s %s: %d %s; want %d", method, path, code, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			s.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// game stores a game of pogo between the accounts named, seat by seat,
// and returns its id.
func (s *eventSite) game(rated bool, names ...string) string {
	s.t.Helper()
	now := s.clock.Now()
	sg := &store.Game{ID: httpx.NewID(), Spec: "pogo", Status: store.Playing, Created: now, Updated: now, Rated: rated, Clock: &store.Clock{Days: 3}}
	sg.End.Resigned = -1
	for _, n := range names {
		sg.Seats = append(sg.Seats, store.Seat{Kind: "human", Name: n, User: s.users[n].ID, Joined: true})
	}
	if err := s.st.Create(context.Background(), sg); err != nil {
		s.t.Fatal(err)
	}
	return sg.ID
}

// resign ends a game with seat p resigning.
func (s *eventSite) resign(id string, p int) {
	s.t.Helper()
	g, _ := games.All().Load("pogo")
	h := game.NewHistory(g, nil)
	h.Resign(p, game.ByResignation, "resigned")
	if err := s.st.Finish(context.Background(), id, 0, store.End{Outcome: h.Outcome().String(), Resigned: p}, s.clock.Now()); err != nil {
		s.t.Fatal(err)
	}
}

// eventStream is an open event stream, read line by line.
type eventStream struct {
	t     *testing.T
	res   *http.Response
	lines chan string // closed when the stream ends
	err   error       // why the stream ended, nil for its proper end: read once lines is closed
}

// open opens the event stream of a token, failing unless it is admitted.
func (s *eventSite) open(token string) *eventStream {
	s.t.Helper()
	es, code := s.tryOpen(token)
	if es == nil {
		s.t.Fatalf("opening the event stream of %s: status %d; want 200", token, code)
	}
	return es
}

// tryOpen opens the event stream of a token, returning nil and the status
// when it is refused.
func (s *eventSite) tryOpen(token string) (*eventStream, int) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.url+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, res.StatusCode
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		s.t.Fatalf("the event stream's Content-Type is %q; want application/x-ndjson", ct)
	}
	es := &eventStream{t: s.t, res: res, lines: make(chan string, 1000)}
	go func() {
		defer close(es.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			es.lines <- sc.Text()
		}
		es.err = sc.Err()
	}()
	s.t.Cleanup(es.close)
	return es, res.StatusCode
}

func (es *eventStream) close() { es.res.Body.Close() }

// next returns the next event, skipping keep-alives.
func (es *eventStream) next() bots.Event {
	es.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-es.lines:
			if !ok {
				es.t.Fatal("the event stream ended; want another event")
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
			es.t.Fatal("no event within 10 s")
		}
	}
}

// ended reports whether the stream ends within d (keep-alives aside).
func (es *eventStream) ended(d time.Duration) bool {
	timeout := time.After(d)
	for {
		select {
		case l, ok := <-es.lines:
			if !ok {
				return true
			}
			if l != "" {
				es.t.Errorf("a line %q; want the stream ended", l)
			}
		case <-timeout:
			return false
		}
	}
}

// TestEventStream checks an account's event stream: it starts with a
// gameStart line for each unfinished game and a challenge line for each
// open challenge to or from the account; then it brings, live, a
// challenge made to it and one it makes, their cancellation and refusal,
// and its games' start and finish with whose move it is and the outcome.
func TestEventStream(t *testing.T) {
	s := newEventSite(t, time.Hour)
	playing := s.game(true, "ann", "robot")
	finished := s.game(false, "robot", "bob")
	s.resign(finished, 1)
	annBob := s.game(false, "ann", "bob") // not the bot's
	var challenge lobby.Seek
	s.call("ann-token", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Days: 3, To: "robot"}, http.StatusCreated, &challenge)

	es := s.open("robot-token")
	ev := es.next()
	if ev.Type != bots.EventGameStart || ev.Game == nil || ev.Game.ID != playing {
		t.Fatalf("the first line %+v; want the unfinished game %s", ev, playing)
	}
	g := ev.Game
	if g.Seat != 1 || g.IsMyTurn || !g.Rated || g.Status != "playing" || g.Spec != "pogo" || len(g.Players) != 2 ||
		g.Players[0].Name != "ann" || g.Players[1].Name != "robot" || g.Players[0].Kind != "human" {
		t.Fatalf("the unfinished game %+v; want the bot in seat 1, ann to move", g)
	}
	if ev := es.next(); ev.Type != bots.EventChallenge || ev.Challenge == nil || ev.Challenge.ID != challenge.ID || ev.Challenge.Owner != "ann" || ev.Challenge.To != "robot" {
		t.Fatalf("the second line %+v; want ann's challenge", ev)
	}
	// The news of ann's challenge that comes after the stream opened (the
	// feed is late) is not told again.
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsChallenge, Seek: challenge.ID, By: "ann", Challenge: &challenge})))
	// Nor is the end of a game that ended before the stream opened, whose
	// news comes late.
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsGameFinish, Game: finished})))
	// Nor a challenge that is no longer open when its news comes, nor its
	// withdrawal.
	gone := lobby.Seek{ID: "gone", Owner: "bob", To: "robot", Spec: "pogo"}
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsChallenge, Seek: gone.ID, By: "bob", Challenge: &gone})))
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsCanceled, Seek: gone.ID, By: "bob", Challenge: &gone})))
	// But a challenge made since the stream opened is told, and its
	// withdrawal, though it was withdrawn before its news came.
	quick := lobby.Seek{ID: "quick", Owner: "bob", To: "robot", Spec: "pogo", Created: time.Now()}
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsChallenge, Seek: quick.ID, By: "bob", Challenge: &quick})))
	s.bots.Deliver(s.users["robot"].ID, string(httpx.Marshal(lobby.Message{Type: lobby.NewsCanceled, Seek: quick.ID, By: "bob", Challenge: &quick})))
	if ev := es.next(); ev.Type != bots.EventChallenge || ev.Challenge.ID != quick.ID {
		t.Fatalf("after a challenge made and withdrawn at once: %+v; want it told", ev)
	}
	if ev := es.next(); ev.Type != bots.EventChallengeCanceled || ev.Challenge.ID != quick.ID {
		t.Fatalf("after a challenge made and withdrawn at once: %+v; want its withdrawal told", ev)
	}

	// Live: bob challenges the bot, then cancels; the bot challenges bob,
	// who declines.
	var fromBob, toBob lobby.Seek
	s.call("bob-token", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "robot"}, http.StatusCreated, &fromBob)
	if ev := es.next(); ev.Type != bots.EventChallenge || ev.Challenge.ID != fromBob.ID || ev.Challenge.Owner != "bob" {
		t.Fatalf("after bob's challenge: %+v; want it", ev)
	}
	s.call("bob-token", "DELETE", "/api/challenges/"+fromBob.ID, nil, http.StatusOK, nil)
	if ev := es.next(); ev.Type != bots.EventChallengeCanceled || ev.Challenge.ID != fromBob.ID {
		t.Fatalf("after bob cancelled: %+v; want challengeCanceled", ev)
	}
	s.call("robot-token", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "bob"}, http.StatusCreated, &toBob)
	if ev := es.next(); ev.Type != bots.EventChallenge || ev.Challenge.ID != toBob.ID || ev.Challenge.Owner != "robot" || !ev.Challenge.Bot {
		t.Fatalf("after the bot's challenge: %+v; want it, marked bot", ev)
	}
	// A reason that is not one is refused, and the challenge stays.
	s.call("bob-token", "POST", "/api/challenges/"+toBob.ID+"/decline", lobby.DeclineRequest{Reason: "ugly"}, http.StatusBadRequest, nil)
	s.call("bob-token", "POST", "/api/challenges/"+toBob.ID+"/decline", lobby.DeclineRequest{Reason: lobby.DeclineNoBot}, http.StatusOK, nil)
	if ev := es.next(); ev.Type != bots.EventChallengeDeclined || ev.Challenge.ID != toBob.ID || ev.DeclineReason != lobby.DeclineNoBot {
		t.Fatalf("after bob declined: %+v; want challengeDeclined, for the reason noBot", ev)
	}
	// Without a body, the reason is generic.
	var again lobby.Seek
	s.call("robot-token", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "bob"}, http.StatusCreated, &again)
	if ev := es.next(); ev.Type != bots.EventChallenge || ev.Challenge.ID != again.ID {
		t.Fatalf("after the bot's second challenge: %+v; want it", ev)
	}
	s.call("bob-token", "POST", "/api/challenges/"+again.ID+"/decline", nil, http.StatusOK, nil)
	if ev := es.next(); ev.Type != bots.EventChallengeDeclined || ev.Challenge.ID != again.ID || ev.DeclineReason != lobby.DeclineGeneric {
		t.Fatalf("after bob declined again: %+v; want challengeDeclined, for the reason generic", ev)
	}

	// A game starts (live play says so through the lobby's news) with the
	// bot to move, then ends.
	started := s.game(false, "robot", "bob")
	s.lobby.Notify(context.Background(), s.users["robot"].ID, lobby.NewsGameStart, started, "", "Pogo")
	ev = es.next()
	if ev.Type != bots.EventGameStart || ev.Game.ID != started || !ev.Game.IsMyTurn || ev.Game.Seat != 0 || ev.Game.Status != "playing" {
		t.Fatalf("after the game started: %+v %+v; want gameStart, the bot to move", ev, ev.Game)
	}
	if p := ev.Game.Players; !p[0].Bot || p[1].Bot || p[0].Name != "robot" {
		t.Fatalf("the players %+v; want the bot marked so, bob not", p)
	}
	s.resign(started, 1)
	s.lobby.Notify(context.Background(), s.users["robot"].ID, lobby.NewsGameFinish, started, "", "Pogo")
	ev = es.next()
	if ev.Type != bots.EventGameFinish || ev.Game.ID != started || ev.Game.Status != "finished" || ev.Game.Outcome == nil || ev.Game.IsMyTurn {
		t.Fatalf("after the game ended: %+v %+v; want gameFinish with its outcome", ev, ev.Game)
	}
	// News for the pages alone (a turn) is no line.
	s.lobby.Notify(context.Background(), s.users["robot"].ID, "turn", playing, "ann", "Pogo")
	s.call("ann-token", "DELETE", "/api/challenges/"+challenge.ID, nil, http.StatusOK, nil)
	if ev := es.next(); ev.Type != bots.EventChallengeCanceled || ev.Challenge.ID != challenge.ID {
		t.Fatalf("after ann cancelled: %+v; want challengeCanceled and nothing of the turn before", ev)
	}
	// Ann's own stream starts with her two games, her move in each.
	ann := s.open("ann-token")
	got := map[string]bool{}
	for range 2 {
		ev := ann.next()
		if ev.Type != bots.EventGameStart || !ev.Game.IsMyTurn || ev.Game.Seat != 0 {
			t.Fatalf("ann's line %+v %+v; want one of her games, her move", ev, ev.Game)
		}
		got[ev.Game.ID] = true
	}
	if !got[playing] || !got[annBob] {
		t.Fatalf("ann's stream started with %v; want %s and %s", got, playing, annBob)
	}
}

// TestEventStreamLimits checks the bounds of the event streams: two per
// token (the third is refused with 429 until one closes), a stream that
// is silent sends keep-alives, a token that is revoked ends its streams
// (properly: not cut off) and only them, and a guest has none.
func TestEventStreamLimits(t *testing.T) {
	s := newEventSite(t, 20*time.Millisecond)
	s.sessions.tokens["robot-other"] = s.users["robot"]
	code, body := s.do("", "GET", "/api/stream/event", nil)
	if code != http.StatusUnauthorized {
		t.Fatalf("a guest's event stream: %d %s; want 401", code, body)
	}
	first := s.open("robot-token")
	second := s.open("robot-token")
	if es, code := s.tryOpen("robot-token"); es != nil || code != http.StatusTooManyRequests {
		t.Fatalf("a third stream of one token: %d; want 429", code)
	}
	other := s.open("robot-other")

	// Silent streams send empty lines.
	for i := 0; i < 3; i++ {
		select {
		case l := <-first.lines:
			if l != "" {
				t.Fatalf("line %q; want a keep-alive", l)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no keep-alive within 5 s")
		}
	}

	// Closing a stream frees its place.
	second.close()
	deadline := time.Now().Add(5 * time.Second)
	for s.bots.EventStreams() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d event streams held; want 2 once one closed", s.bots.EventStreams())
		}
		time.Sleep(5 * time.Millisecond)
	}
	third := s.open("robot-token")

	// Revoking the token closes its streams, on every instance (the feed
	// brings the revocation), and not the other token's.
	s.sessions.revoke("robot-token")
	hash := httpx.HashSecret("robot-token")
	if err := s.st.Announce(context.Background(), store.RevokeEvent(store.Revocation{User: s.users["robot"].ID, Session: hash, Only: true})); err != nil {
		t.Fatal(err)
	}
	for _, es := range []*eventStream{first, third} {
		if !es.ended(5 * time.Second) {
			t.Fatal("a stream of the revoked token is still open")
		}
		// The stream ends as an answer does, not cut off: a client
		// tells it from a broken connection.
		if es.err != nil {
			t.Errorf("the revoked token's stream was cut off: %v; want its end", es.err)
		}
	}
	if other.ended(100 * time.Millisecond) {
		t.Fatal("the other token's stream closed with the revoked one")
	}
	if es, code := s.tryOpen("robot-token"); es != nil || code != http.StatusUnauthorized {
		t.Fatalf("the revoked token's stream: %d; want 401", code)
	}
}

// TestBotsOnline checks GET /api/bots: a bot is online while its event
// stream is open, as the stream records it seen every minute, and offline
// two minutes after it closed.
func TestBotsOnline(t *testing.T) {
	s := newEventSite(t, 10*time.Millisecond)
	list := func() bots.BotInfo {
		var out bots.BotList
		s.call("", "GET", "/api/bots", nil, http.StatusOK, &out)
		if len(out.Bots) != 1 || out.Bots[0].Name != "robot" {
			t.Fatalf("bots %+v; want robot alone", out.Bots)
		}
		return out.Bots[0]
	}
	waitOnline := func(want bool, what string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); list().Online != want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the bot's online is %v; want %v", what, !want, want)
			}
		}
	}
	if b := list(); b.Online || b.Seen != nil || b.Games != 0 || len(b.Ratings) != 0 {
		t.Fatalf("a bot never connected: %+v; want offline, never seen, no games", b)
	}
	es := s.open("robot-token")
	waitOnline(true, "with its stream open")
	// Its stream goes on recording it: it stays online as time passes.
	for range 4 {
		s.clock.Advance(90 * time.Second)
		waitOnline(true, "with its stream open for a while")
	}
	es.close()
	for deadline := time.Now().Add(5 * time.Second); s.bots.EventStreams() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the closed stream is still held")
		}
	}
	s.clock.Advance(bots.OnlineWithin + time.Second)
	waitOnline(false, "two minutes after its stream closed")
}

// TestSlowReaderClosed checks that a stream whose reader does not keep up
// is closed once StreamQueue lines wait for it, rather than held in
// memory without bound, while a stream that is read goes on.
func TestSlowReaderClosed(t *testing.T) {
	s := newEventSite(t, time.Hour)
	s.sessions.tokens["robot-other"] = s.users["robot"]
	req, _ := http.NewRequest("GET", s.url+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer robot-token")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close() // and never read
	read := s.open("robot-other")
	// The news of challenges made once both streams are open, one after
	// another (news told already is not told again), with a long title.
	var sk lobby.Seek
	s.call("ann-token", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Days: 3, To: "robot"}, http.StatusCreated, &sk)
	if ev := read.next(); ev.Type != bots.EventChallenge || ev.Challenge.ID != sk.ID {
		t.Fatalf("line %+v; want ann's challenge", ev)
	}
	sk.Title = strings.Repeat("a long title ", 80)
	id := sk.ID
	news := func(i int) string {
		sk.ID = fmt.Sprint(id, "-", i)
		return string(httpx.Marshal(lobby.Message{Type: lobby.NewsChallenge, Seek: sk.ID, By: "ann", Challenge: &sk}))
	}
	// Lines go in batches that a reader keeps up with, until the unread
	// stream's buffers are full and its queue overflows.
	const batch = bots.StreamQueue / 2
	for n := 0; s.bots.EventStreams() == 2; n += batch {
		if n > 100000 {
			t.Fatalf("the unread stream is still open after %d lines", n)
		}
		for i := range batch {
			s.bots.Deliver(s.users["robot"].ID, news(n+i))
		}
		for range batch {
			if ev := read.next(); ev.Type != bots.EventChallenge {
				t.Fatalf("line %+v; want the challenge", ev)
			}
		}
	}
	if read.ended(50 * time.Millisecond) {
		t.Fatal("the stream that was read closed with the unread one")
	}
}
