// Package botstest is a client of the bot API for tests: an account of a
// site under test, signed in with a session cookie and, once it has made
// one, a personal API token; its event stream; and its games played to
// their end through the API. It uses the site's wire types, so that a
// test reads what a bot reads.
package botstest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/bots"
	"stax/server/store"
)

// Account is an account of the site at Base.
type Account struct {
	t    testing.TB
	Name string
	Base string
	c    *http.Client
	// Secret is the account's personal API token, once it has made one
	// (MakeToken): the account's requests carry it instead of the
	// session cookie.
	Secret string
}

// SignUp signs name up on the site at base, with a password of its own.
func SignUp(t testing.TB, base, name string) *Account {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	a := &Account{t: t, Name: name, Base: base, c: &http.Client{Jar: jar}}
	a.Call("POST", "/api/signup", account.Credentials{Name: name, Password: "correct horse " + name}, nil)
	return a
}

// MakeBot signs name up as a bot account, with a token of the bot scope.
func MakeBot(t testing.TB, base, name string) *Account {
	t.Helper()
	a := SignUp(t, base, name)
	a.MakeToken(store.ScopeBot)
	a.Call("POST", "/api/bot/account/upgrade", nil, nil)
	return a
}

// MakeToken makes a personal API token with the scopes, which the
// account's later requests carry.
func (a *Account) MakeToken(scopes ...string) {
	a.t.Helper()
	var tok account.NewToken
	a.Call("POST", "/api/tokens", account.TokenRequest{Description: "test", Scopes: scopes}, &tok)
	a.Secret = tok.Secret
}

// Call sends a request, decodes the answer into out (unless nil) and
// fails the test unless the answer is a success.
func (a *Account) Call(method, path string, body, out any) {
	a.t.Helper()
	status, data := a.Try(method, path, body)
	if status/100 != 2 {
		a.t.Fatalf("%s: %s %s: %d %s", a.Name, method, path, status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			a.t.Fatalf("%s: %s %s: %v in %s", a.Name, method, path, err, data)
		}
	}
}

// Try sends a request, its body (unless nil) as JSON, and returns the
// answer's status and body.
func (a *Account) Try(method, path string, body any) (int, []byte) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, a.Base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.Secret != "" {
		req.Header.Set("Authorization", "Bearer "+a.Secret)
	}
	res, err := a.c.Do(req)
	if err != nil {
		a.t.Fatalf("%s: %s %s: %v", a.Name, method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// open opens one of the account's streams.
func (a *Account) open(ctx context.Context, path string) *http.Response {
	a.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", a.Base+path, nil)
	req.Header.Set("Authorization", "Bearer "+a.Secret)
	res, err := a.c.Do(req)
	if err != nil {
		a.t.Fatalf("%s: GET %s: %v", a.Name, path, err)
	}
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		a.t.Fatalf("%s: GET %s: %s: %s", a.Name, path, res.Status, data)
	}
	return res
}

// lines calls fn with each line of a stream that is not a keep-alive,
// until fn returns false (true) or the stream ends (false).
func lines(r io.Reader, fn func([]byte) bool) (stopped bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && !fn(sc.Bytes()) {
			return true, nil
		}
	}
	return false, sc.Err()
}

// Stream calls fn with each line of one of the account's streams until fn
// returns false; the test fails if the stream ends first or ctx is done.
func (a *Account) Stream(ctx context.Context, path string, fn func([]byte) bool) {
	a.t.Helper()
	res := a.open(ctx, path)
	defer res.Body.Close()
	if stopped, err := lines(res.Body, fn); !stopped {
		a.t.Fatalf("%s: GET %s ended: %v", a.Name, path, errors.Join(err, ctx.Err()))
	}
}

// Events returns the account's event stream as a channel of events, read
// until the test ends.
func (a *Account) Events() <-chan bots.Event {
	a.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	res := a.open(ctx, "/api/stream/event")
	ch := make(chan bots.Event, 64)
	done := make(chan struct{})
	a.t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		defer res.Body.Close()
		lines(res.Body, func(line []byte) bool {
			var ev bots.Event
			if json.Unmarshal(line, &ev) != nil || ev.Type == "" {
				return true
			}
			select {
			case ch <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	return ch
}

// WaitEvent returns the first event of ch that ok accepts, failing the
// test after a minute without one.
func WaitEvent(t testing.TB, ch <-chan bots.Event, what string, ok func(bots.Event) bool) bots.Event {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case ev := <-ch:
			if ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s in a minute", what)
		}
	}
}

// PlayOut plays the account's seats of game id through the bot API until
// the game is over, and returns its last state. Its move at each ply is
// one of the legal moves, chosen by the ply (so that a game does not
// repeat itself); before, when not nil, is called before each of the
// account's moves with its ply.
func (a *Account) PlayOut(ctx context.Context, id string, before func(ply int)) bots.GameState {
	a.t.Helper()
	var seats []int
	var last bots.GameState
	a.Stream(ctx, "/api/bot/game/stream/"+id, func(line []byte) bool {
		var head struct{ Type string }
		json.Unmarshal(line, &head)
		var st bots.GameState
		switch head.Type {
		case bots.LineGameFull:
			var full bots.GameFull
			if err := json.Unmarshal(line, &full); err != nil {
				a.t.Fatal(err)
			}
			seats, st = full.Seats, full.State
		case bots.LineGameState:
			if err := json.Unmarshal(line, &st); err != nil {
				a.t.Fatal(err)
			}
		default:
			return true
		}
		last = st
		if st.Status != "playing" {
			return false
		}
		if slices.Contains(seats, st.ToMove) && len(st.Legal) > 0 {
			if before != nil {
				before(st.Ply)
			}
			mv := st.Legal[(st.Ply*7)%len(st.Legal)]
			a.Call("POST", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, url.PathEscape(mv), st.Ply), nil, nil)
		}
		return true
	})
	return last
}
