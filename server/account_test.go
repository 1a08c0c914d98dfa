package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server"
	"stax/server/account"
	"stax/server/lobby"
	"stax/server/play"
	"stax/server/view"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Now().UTC().Truncate(time.Second)}
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

// cheapPasswords keeps the tests' password hashing fast; the default
// parameters are checked in package server's own tests.
var cheapPasswords = server.PasswordParams{Time: 1, Memory: 64, Threads: 1}

// startAccounts starts a server with accounts on a fake clock.
func startAccounts(t *testing.T, db string, clock *fakeClock) *testServer {
	t.Helper()
	return startServer(t, db, server.Config{Now: clock.Now, PasswordParams: cheapPasswords})
}

// player is a browser: an HTTP client with its own cookies.
type player struct {
	t    *testing.T
	ts   *testServer
	name string
	hc   *http.Client
}

func (ts *testServer) player(name string) *player {
	jar, _ := cookiejar.New(nil)
	return &player{t: ts.t, ts: ts, name: name, hc: &http.Client{Jar: jar}}
}

// annAndBob signs up the players ann and bob, whom most tests need.
func (ts *testServer) annAndBob() (ann, bob *player) {
	ann, bob = ts.player("ann"), ts.player("bob")
	ann.signup("correct horse")
	bob.signup("battery staple")
	return ann, bob
}

// do sends a JSON request and returns the status and body.
func (p *player) do(method, path string, body any) (int, []byte) {
	p.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.ts.url+path, rd)
	req.Header.Set("Content-Type", "application/json")
	res, err := p.hc.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// call sends a request, checks the status and decodes the answer.
func (p *player) call(method, path string, body any, want int, out any) {
	p.t.Helper()
	code, data := p.do(method, path, body)
	if code != want {
		p.t.Fatalf("%s: %s %s = %d %s; want %d", p.name, method, path, code, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			p.t.Fatalf("%s: %s %s: %v in %s", p.name, method, path, err, data)
		}
	}
}

// fails checks that a request fails with the status and an error that
// says what.
func (p *player) fails(method, path string, body any, want int, says string) (errCode string) {
	p.t.Helper()
	code, data := p.do(method, path, body)
	var e struct{ Error, Code string }
	json.Unmarshal(data, &e)
	if code != want || !strings.Contains(e.Error, says) {
		p.t.Fatalf("%s: %s %s = %d %s; want %d with an error saying %q", p.name, method, path, code, data, want, says)
	}
	return e.Code
}

func (p *player) signup(password string) {
	p.t.Helper()
	p.call("POST", "/api/signup", account.Credentials{Name: p.name, Password: password}, http.StatusCreated, nil)
}

// dial opens a websocket with the player's cookies.
func (p *player) dial(path string) *websocket.Conn {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(p.ts.url, "http", "ws", 1)+path, &websocket.DialOptions{HTTPClient: p.hc})
	if err != nil {
		p.t.Fatalf("%s: dial %s: %v", p.name, path, err)
	}
	c.SetReadLimit(1 << 22)
	p.t.Cleanup(func() { c.CloseNow() })
	return c
}

// game opens the websocket of a game.
func (p *player) game(id string) *wsClient {
	return &wsClient{t: p.t, name: p.name, c: p.dial("/ws/games/" + id)}
}

func TestSignupLoginLogout(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann := ts.player("Ann")
	ann.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")
	// The pages ask with ?guest=ok: a guest is null, not refused.
	if code, body := ann.do("GET", "/api/me?guest=ok", nil); code != http.StatusOK || strings.TrimSpace(string(body)) != "null" {
		t.Fatalf("GET /api/me?guest=ok for a guest = %d %s; want 200 null", code, body)
	}
	code, _ := ann.do("POST", "/api/signup", account.Credentials{Name: "Ann", Password: "correct horse"})
	if code != http.StatusCreated {
		t.Fatalf("signup: %d", code)
	}
	var me account.Me
	ann.call("GET", "/api/me", nil, http.StatusOK, &me)
	if me.Name != "Ann" || !me.Expires.Equal(clock.Now().Add(server.DefaultSessionTTL)) {
		t.Fatalf("me = %+v", me)
	}
	var again account.Me
	ann.call("GET", "/api/me?guest=ok", nil, http.StatusOK, &again)
	if again != me {
		t.Fatalf("GET /api/me?guest=ok = %+v; want %+v", again, me)
	}

	// The cookies are HttpOnly and SameSite.
	req, _ := http.NewRequest("POST", ts.url+"/api/login", strings.NewReader(`{"name":"ann","password":"correct horse"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	// The session's cookie, and the known-device cookie that keeps the
	// account-wide limit on sign-ins off this browser.
	cookies := res.Cookies()
	if res.StatusCode != http.StatusOK || len(cookies) != 2 {
		t.Fatalf("login (name in another case): %d cookies %+v; want 200 and two cookies", res.StatusCode, cookies)
	}
	for _, c := range cookies {
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || (c.Name == "stax_session") != (c.Path == "/") {
			t.Fatalf("cookie %+v; want HttpOnly, SameSite=Lax, the session's for the whole site", c)
		}
	}

	bob := ts.player("bob")
	for _, tc := range []struct {
		name, password string
		code           int
		says           string
		errCode        string // by which the UI translates the error
	}{
		{"ANN", "another password", http.StatusConflict, "taken", account.CodeNameTaken},
		{"ab", "long enough pw", http.StatusBadRequest, "3 to 20", account.CodeBadName},
		{"a_very_long_name_indeed", "long enough pw", http.StatusBadRequest, "3 to 20", account.CodeBadName},
		{"bob smith", "long enough pw", http.StatusBadRequest, "letters, digits", account.CodeBadName},
		{"_bob", "long enough pw", http.StatusBadRequest, "starting with", account.CodeBadName},
		{"bob", "short", http.StatusBadRequest, "at least 8", account.CodeWeakPassword},
		{"bob", "password", http.StatusBadRequest, "best-known", account.CodeWeakPassword},
		{"bob", "aaaaaaaaaaaa", http.StatusBadRequest, "repeated", account.CodeWeakPassword},
		{"bobby", "BOBBY", http.StatusBadRequest, "at least 8", account.CodeWeakPassword},
		{"bobbybob", "BobbyBob", http.StatusBadRequest, "your name", account.CodeWeakPassword},
		{"bob", strings.Repeat("x1", 200), http.StatusBadRequest, "at most 256", account.CodeWeakPassword},
	} {
		if c := bob.fails("POST", "/api/signup", account.Credentials{Name: tc.name, Password: tc.password}, tc.code, tc.says); c != tc.errCode {
			t.Errorf("signup %q %q: error code %q; want %q", tc.name, tc.password, c, tc.errCode)
		}
	}
	bob.fails("POST", "/api/signup", map[string]any{"name": "bob", "password": "x", "admin": true}, http.StatusBadRequest, "unknown field")
	if c := bob.fails("POST", "/api/login", account.Credentials{Name: "Ann", Password: "wrong horse"}, http.StatusUnauthorized, "wrong name or password"); c != account.CodeWrongLogin {
		t.Errorf("a wrong password at login: error code %q; want %q", c, account.CodeWrongLogin)
	}
	bob.fails("POST", "/api/login", account.Credentials{Name: "nobody", Password: "wrong horse"}, http.StatusUnauthorized, "wrong name or password")
	bob.fails("POST", "/api/login", account.Credentials{Name: "Ann", Password: strings.Repeat("x", 100000)}, http.StatusBadRequest, "")
	bob.fails("POST", "/api/login", account.Credentials{Name: "Ann"}, http.StatusBadRequest, "password")
	bob.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")

	ann.call("POST", "/api/logout", struct{}{}, http.StatusOK, nil)
	ann.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")
	// Logging out twice is harmless.
	ann.call("POST", "/api/logout", struct{}{}, http.StatusOK, nil)
}

func TestSessionExpires(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann := ts.player("ann")
	ann.signup("correct horse")
	clock.Advance(server.DefaultSessionTTL - time.Second)
	ann.call("GET", "/api/me", nil, http.StatusOK, nil)
	clock.Advance(time.Second)
	ann.fails("GET", "/api/me", nil, http.StatusUnauthorized, "expired")
	// The expired session is gone for good.
	ann.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")
	ann.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	ann.call("GET", "/api/me", nil, http.StatusOK, nil)
}

func TestChangePassword(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann := ts.player("ann")
	ann.signup("correct horse")
	phone := ts.player("ann")
	phone.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	if c := ann.fails("POST", "/api/password", account.PasswordChange{Old: "wrong horse", New: "battery staple"}, http.StatusForbidden, "wrong password"); c != account.CodeWrongPassword {
		t.Errorf("a wrong old password: error code %q; want %q", c, account.CodeWrongPassword)
	}
	ann.fails("POST", "/api/password", account.PasswordChange{Old: "correct horse", New: "short"}, http.StatusBadRequest, "at least 8")
	ann.call("POST", "/api/password", account.PasswordChange{Old: "correct horse", New: "battery staple"}, http.StatusOK, nil)
	// This browser stays signed in; the others are signed out.
	ann.call("GET", "/api/me", nil, http.StatusOK, nil)
	phone.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")
	phone.fails("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusUnauthorized, "wrong")
	phone.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "battery staple"}, http.StatusOK, nil)
	ts.player("x").fails("POST", "/api/password", account.PasswordChange{Old: "a", New: "b"}, http.StatusUnauthorized, "not signed in")
}

func TestLoginRateLimit(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann := ts.player("ann")
	ann.signup("correct horse")
	eve := ts.player("eve")
	for i := range 10 {
		code, _ := eve.do("POST", "/api/login", account.Credentials{Name: "ann", Password: fmt.Sprint("guess", i)})
		if code != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d; want 401", i, code)
		}
	}
	code, data := eve.do("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"})
	if code != http.StatusTooManyRequests || !strings.Contains(string(data), "too many sign-in attempts") {
		t.Fatalf("11th attempt: %d %s; want 429", code, data)
	}
}

func TestDeleteAccount(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo"})
	ann.fails("DELETE", "/api/me", account.PasswordConfirm{Password: "wrong horse"}, http.StatusForbidden, "wrong password")
	ann.call("DELETE", "/api/me", account.PasswordConfirm{Password: "correct horse"}, http.StatusOK, nil)
	ann.fails("GET", "/api/me", nil, http.StatusUnauthorized, "not signed in")
	ts.player("x").fails("GET", "/api/users/ann", nil, http.StatusNotFound, "no player")
	var st stateOf
	bob.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
	names := []string{st.Seats[0].Name, st.Seats[1].Name}
	if !strings.Contains(strings.Join(names, ","), "(deleted player)") || !strings.Contains(strings.Join(names, ","), "bob") {
		t.Fatalf("seats after deleting ann: %v; want bob and (deleted player)", names)
	}
	// The name is retired: nobody passes for ann, whom bob played.
	ts.player("ann").fails("POST", "/api/signup", account.Credentials{Name: "Ann", Password: "new password"}, http.StatusConflict, "taken")
}

// playersGame has a seek posted by a and accepted by b, and returns the
// game's id.
func playersGame(t *testing.T, a, b *player, seek map[string]any) string {
	t.Helper()
	var sk lobby.Seek
	a.call("POST", "/api/seeks", seek, http.StatusCreated, &sk)
	var acc lobby.AcceptResponse
	b.call("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusCreated, &acc)
	return acc.Game
}

// TestGameFollowsItsPlayer: the seats a signed-in player creates or joins
// through an invitation are the account's, held on every device where the
// player is signed in, without the token.
func TestGameFollowsItsPlayer(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, bob := ts.annAndBob()
	var created play.CreateResponse
	ann.call("POST", "/api/games", play.CreateRequest{Spec: "pogo", Name: "ignored", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human", Invite: true}}}, http.StatusCreated, &created)
	var joined play.JoinResponse
	bob.call("POST", "/api/games/"+created.ID+"/join", play.JoinRequest{Invite: created.Invites[0].Invite}, http.StatusOK, &joined)
	if s := joined.State.Seats; s[0].Name != "ann" || !s[0].Account || s[1].Name != "bob" || !s[1].Account {
		t.Fatalf("seats %+v; want ann's and bob's accounts", s)
	}
	for _, tc := range []struct {
		name, password string
		seat           int
	}{{"ann", "correct horse", 0}, {"bob", "battery staple", 1}} {
		phone := ts.player(tc.name)
		phone.call("POST", "/api/login", account.Credentials{Name: tc.name, Password: tc.password}, http.StatusOK, nil)
		if seats := phone.game(created.ID).hello(); len(seats) != 1 || seats[0] != tc.seat {
			t.Fatalf("%s's phone holds %v; want seat %d", tc.name, seats, tc.seat)
		}
	}
	var mine struct{ Games []view.Summary }
	bob.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != created.ID {
		t.Fatalf("bob's games %+v", mine.Games)
	}
}
