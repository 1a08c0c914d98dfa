package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"stax/server"
	"stax/server/store/pgtest"
)

// TestBotAPITwoInstances plays a whole game through the bot API over two
// servers sharing one SQLite database: each player follows the game on
// the first and moves on the second.
func TestBotAPITwoInstances(t *testing.T) { testBotAPITwoInstances(t, newDB(t)) }

// TestBotAPITwoInstancesPostgres plays it over two servers sharing one
// PostgreSQL database.
func TestBotAPITwoInstancesPostgres(t *testing.T) { testBotAPITwoInstances(t, pgtest.URL(t)) }

// plainBot is a program that plays through the bot API knowing nothing
// but what docs/bots.md says: it uses the standard library alone (no
// package of stax), as a bot written in any language would.
type plainBot struct {
	name string
	hc   *http.Client
}

func newPlainBot(name string) *plainBot {
	jar, _ := cookiejar.New(nil)
	return &plainBot{name: name, hc: &http.Client{Jar: jar}}
}

// botState is a gameState line, or the state of a gameFull line.
type botState struct {
	Moves   string   `json:"moves"`
	Ply     int      `json:"ply"`
	ToMove  int      `json:"toMove"`
	Times   []int64  `json:"times"`
	Legal   []string `json:"legal"`
	Status  string   `json:"status"`
	Outcome *struct {
		Result  string `json:"result"`
		Reason  string `json:"reason"`
		Winners []int  `json:"winners"`
	} `json:"outcome"`
}

// botLine is a line of a game stream, as far as the bot reads it.
type botLine struct {
	Type  string    `json:"type"`
	Seats []int     `json:"seats"`
	State *botState `json:"state"`
	botState
	// Username and Text are a chatLine's.
	Username string `json:"username"`
	Text     string `json:"text"`
}

// played is what a bot saw of a game: its final state, the moves it
// sent and the chat lines it heard.
type played struct {
	final botState
	moves int
	heard []string
}

// post sends a JSON request (body nil for none) and returns the status,
// and the error code of a refusal.
func (b *plainBot) post(ctx context.Context, base, path string, body any, out any) (int, string, error) {
	data := []byte{}
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return 0, "", err
		}
	}
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, bytes.NewReader(data))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := b.hc.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, "", err
	}
	if res.StatusCode >= 300 {
		var e struct{ Error, Code string }
		json.Unmarshal(answer, &e)
		return res.StatusCode, e.Code, nil
	}
	if out != nil {
		return res.StatusCode, "", json.Unmarshal(answer, out)
	}
	return res.StatusCode, "", nil
}

// play follows game id on the server at follow and acts on the server at
// move: it plays the first of its legal moves each time, until the game
// ends. With first, it sends its first move a second time, which must be
// refused as stale, and says "good luck" after it, moving again once it
// hears the line.
func (b *plainBot) play(ctx context.Context, follow, move, id string, first bool) (p played, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", follow+"/api/bot/game/stream/"+id, nil)
	if err != nil {
		return p, err
	}
	res, err := b.hc.Do(req)
	if err != nil {
		return p, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return p, fmt.Errorf("%s: the stream of game %s: status %d", b.name, id, res.StatusCode)
	}
	rd := bufio.NewReader(res.Body)
	moved := -1      // the ply of the last move sent
	waiting := false // for its own chat line to come back
	for n := 0; ; n++ {
		raw, err := rd.ReadBytes('\n')
		if err == io.EOF && p.final.Status == "finished" {
			return p, nil // the stream ends after the final state
		}
		if err != nil {
			return p, fmt.Errorf("%s: line %d of the stream: %v (last state %+v)", b.name, n, err, p.final)
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue // a keep-alive
		}
		var line botLine
		if err := json.Unmarshal(raw, &line); err != nil {
			return p, fmt.Errorf("%s: line %d %q: %v", b.name, n, raw, err)
		}
		switch {
		case n == 0 && (line.Type != "gameFull" || line.State == nil || len(line.Seats) != 1):
			return p, fmt.Errorf("%s: the stream's first line %s; want gameFull with the bot's seat", b.name, raw)
		case line.Type == "gameFull":
			p.final = *line.State
		case line.Type == "gameState" && p.final.Status == "finished":
			return p, fmt.Errorf("%s: %s after the final state", b.name, raw)
		case line.Type == "gameState":
			p.final = line.botState
		case line.Type == "chatLine":
			p.heard = append(p.heard, line.Username+": "+line.Text)
			waiting = waiting && line.Username != b.name
		}
		if waiting || p.final.Status != "playing" || len(p.final.Legal) == 0 || p.final.Ply == moved {
			continue
		}
		path := fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, url.PathEscape(p.final.Legal[0]), p.final.Ply)
		if code, errCode, err := b.post(ctx, move, path, nil, nil); err != nil || code != http.StatusOK {
			return p, fmt.Errorf("%s: POST %s: %d %s %v", b.name, path, code, errCode, err)
		}
		moved = p.final.Ply
		p.moves++
		if first {
			first = false
			if code, errCode, err := b.post(ctx, move, path, nil, nil); err != nil || code != http.StatusConflict || errCode != "stale" {
				return p, fmt.Errorf("%s: the move sent again: %d %q %v; want 409 stale", b.name, code, errCode, err)
			}
			if code, errCode, err := b.post(ctx, move, "/api/bot/game/"+id+"/chat", map[string]string{"text": "good luck"}, nil); err != nil || code != http.StatusOK {
				return p, fmt.Errorf("%s: chat: %d %q %v", b.name, code, errCode, err)
			}
			// The line reaches the other player's stream with this
			// one's, before the game goes on (and ends).
			waiting = true
		}
	}
}

// testBotAPITwoInstances: two accounts, each a plain HTTP client, play a
// game challenged on the first server and accepted on the second,
// following it on the first and moving on the second, to its end.
func testBotAPITwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ann, bob := newPlainBot("ann"), newPlainBot("bob")
	for _, b := range []*plainBot{ann, bob} {
		if code, _, err := b.post(ctx, ts1.url, "/api/signup", map[string]string{"name": b.name, "password": "correct horse"}, nil); err != nil || code != http.StatusCreated {
			t.Fatalf("%s: sign up: %d %v", b.name, code, err)
		}
	}
	var challenge struct{ ID string }
	spec := "pogo(maxplies=40)"
	if code, errCode, err := ann.post(ctx, ts1.url, "/api/challenges", map[string]any{"spec": spec, "to": "bob", "clock": map[string]int{"initial": 300, "increment": 2}}, &challenge); err != nil || code != http.StatusCreated {
		t.Fatalf("ann challenges bob: %d %s %v", code, errCode, err)
	}
	var accepted struct{ Game string }
	if code, errCode, err := bob.post(ctx, ts2.url, "/api/challenges/"+challenge.ID+"/accept", map[string]any{}, &accepted); err != nil || code != http.StatusCreated {
		t.Fatalf("bob accepts on the second server: %d %s %v", code, errCode, err)
	}

	type result struct {
		name string
		played
		err error
	}
	results := make(chan result, 2)
	for i, b := range []*plainBot{ann, bob} {
		go func() {
			p, err := b.play(ctx, ts1.url, ts2.url, accepted.Game, i == 0)
			results <- result{b.name, p, err}
		}()
	}
	var finals []result
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		finals = append(finals, r)
	}
	a, b := finals[0], finals[1]
	if a.final.Outcome == nil || b.final.Outcome == nil || a.final.Moves != b.final.Moves || a.final.Outcome.Result != b.final.Outcome.Result {
		t.Fatalf("the final states %+v and %+v; want one ending, seen by both", a.final, b.final)
	}
	if a.moves+b.moves != a.final.Ply || a.final.Ply == 0 || len(a.final.Times) != 2 {
		t.Fatalf("%d and %d moves sent, the game ended at ply %d with times %v; want every move of the game sent by the bots, and the clocks", a.moves, b.moves, a.final.Ply, a.final.Times)
	}
	for _, r := range finals {
		if len(r.heard) != 1 || r.heard[0] != "ann: good luck" {
			t.Errorf("%s heard %q; want ann's good luck, said on the other server", r.name, r.heard)
		}
	}
	t.Logf("%s: %d plies, %s by %s; %d moves sent by %s, %d by %s", spec, a.final.Ply, a.final.Outcome.Result, a.final.Outcome.Reason, a.moves, a.name, b.moves, b.name)
	// The servers agree on the game's end.
	for _, ts := range []*testServer{ts1, ts2} {
		var st struct {
			Status string
			Ply    int
		}
		ts.call("GET", "/api/games/"+accepted.Game, nil, http.StatusOK, &st)
		if st.Status != "finished" || st.Ply != a.final.Ply {
			t.Fatalf("GET /api/games/%s on %s: %+v; want finished at ply %d", accepted.Game, ts.url, st, a.final.Ply)
		}
	}
}

// TestBotStreamsCounted: a session holds at most 16 game streams, and
// the streams count against the open connections of an address, as
// websockets do.
func TestBotStreamsCounted(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Now: newFakeClock().Now, PasswordParams: cheapPasswords, MaxConnsPerIP: 20})
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "seat": 0})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(p *player) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.url+"/api/bot/game/stream/"+id, nil)
		res, err := p.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		if res.StatusCode == http.StatusOK {
			return res.StatusCode, ""
		}
		var e struct{ Error, Code string }
		json.NewDecoder(res.Body).Decode(&e)
		if res.Header.Get("Retry-After") == "" {
			t.Errorf("a stream refused with %d %+v without Retry-After", res.StatusCode, e)
		}
		return res.StatusCode, e.Code
	}
	for i := range 16 {
		if code, _ := open(ann); code != http.StatusOK {
			t.Fatalf("ann's stream %d: %d; want 200", i+1, code)
		}
	}
	if code, errCode := open(ann); code != http.StatusTooManyRequests || errCode != "too_many_streams" {
		t.Fatalf("ann's stream 17: %d %q; want 429 too_many_streams", code, errCode)
	}
	// Bob's session has its own 16, but the address only 20 connections.
	for i := range 4 {
		if code, _ := open(bob); code != http.StatusOK {
			t.Fatalf("bob's stream %d: %d; want 200", i+1, code)
		}
	}
	if code, errCode := open(bob); code != http.StatusTooManyRequests || errCode == "too_many_streams" {
		t.Fatalf("a 21st stream from an address that may hold 20 connections: %d %q; want 429 for the address", code, errCode)
	}
}

// TestBotStreamLasts serves the site as stax serve does: a game stream
// outlives the server's read timeout (which bounds a request's arrival),
// and a graceful shutdown ends it at once rather than waiting for it.
func TestBotStreamLasts(t *testing.T) {
	const readTimeout = 200 * time.Millisecond
	ts := startServer(t, newDB(t), server.Config{Now: newFakeClock().Now, PasswordParams: cheapPasswords, ReadTimeout: readTimeout})
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "seat": 0})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := ts.srv.HTTPServer()
	go hs.Serve(ts.srv.Listener(ln))
	t.Cleanup(func() { hs.Close() })
	ts.url = "http://" + ln.Addr().String()

	res, err := ann.hc.Get(ts.url + "/api/bot/game/stream/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		rd := bufio.NewReader(res.Body)
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	next := func() (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(10 * time.Second):
			t.Fatal("the stream said nothing for 10 s")
			return "", false
		}
	}
	if l, _ := next(); !strings.Contains(l, `"type":"gameFull"`) {
		t.Fatalf("first line %q; want gameFull", l)
	}
	time.Sleep(3 * readTimeout) // the time that a stream must outlive
	bob.call("POST", "/api/bot/game/"+id+"/chat", map[string]string{"text": "still there?"}, http.StatusOK, nil)
	if l, _ := next(); !strings.Contains(l, "still there?") {
		t.Fatalf("after the read timeout the stream sent %q; want bob's chat line", l)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a stream open: %v; want the stream ended at once", err)
	}
	for {
		if _, ok := next(); !ok {
			break
		}
	}
}
