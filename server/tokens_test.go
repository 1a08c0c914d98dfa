package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server"
	"stax/server/account"
	"stax/server/lobby"
	"stax/server/moderation"
	"stax/server/ratings"
	"stax/server/store"
)

// newToken makes a personal API token of the player's account in its
// browser and returns the secret.
func (p *player) newToken(description string, scopes ...string) string {
	p.t.Helper()
	var tok account.NewToken
	p.call("POST", "/api/tokens", account.TokenRequest{Description: description, Scopes: scopes}, http.StatusCreated, &tok)
	return tok.Secret
}

// withToken sends a request carrying a token, without cookies, and
// returns the status and the error code of the answer.
func (ts *testServer) withToken(token, method, path string, body any) (int, string, http.Header) {
	ts.t.Helper()
	var rd *bytes.Reader
	req, _ := http.NewRequest(method, ts.url+path, nil)
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
		req, _ = http.NewRequest(method, ts.url+path, rd)
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	var e struct{ Code string }
	json.NewDecoder(res.Body).Decode(&e)
	return res.StatusCode, e.Code, res.Header
}

// dialToken opens a game's websocket with a token, or returns the status
// of the refused handshake.
func (ts *testServer) dialToken(token, id string) (*wsClient, int) {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, strings.Replace(ts.url, "http", "ws", 1)+"/ws/games/"+id,
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		if res == nil {
			ts.t.Fatalf("dial with a token: %v", err)
		}
		return nil, res.StatusCode
	}
	c.SetReadLimit(1 << 22)
	ts.t.Cleanup(func() { c.CloseNow() })
	return &wsClient{t: ts.t, name: "token", c: c}, http.StatusSwitchingProtocols
}

// TestTokensOverInstances: two instances share a database. A read token
// can neither move nor open its account's seat; a play token opens it on
// the second instance and moves; revoking it on the first closes that
// websocket, and the database never held either secret.
func TestTokensOverInstances(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "seat": 0})
	reader := ann.newToken("scripts", "read")
	player := ann.newToken("engine", "play")

	if code, errCode, _ := ts2.withToken(reader, "POST", "/api/bot/game/"+id+"/move/x", nil); code != http.StatusForbidden || errCode != account.CodeMissingScope {
		t.Errorf("a read token moves: %d %s; want 403 %s", code, errCode, account.CodeMissingScope)
	}
	if _, code := ts2.dialToken(reader, id); code != http.StatusForbidden {
		t.Errorf("a read token opens its account's seat: %d; want 403", code)
	}
	if code, _, _ := ts2.withToken(reader, "GET", "/api/games/"+id, nil); code != http.StatusOK {
		t.Errorf("a read token reads the game: %d; want 200", code)
	}

	w, code := ts2.dialToken(player, id)
	if code != http.StatusSwitchingProtocols {
		t.Fatalf("a play token opens its account's seat: %d", code)
	}
	if seats := w.hello(); len(seats) != 1 || seats[0] != 0 {
		t.Fatalf("the play token's seats %v; want ann's, 0", seats)
	}
	wb := bob.game(id)
	wb.hello()
	mv := w.last.Legal()[0]
	w.move(mv, 0)
	if st := wb.waitPly(1); st.Moves[0] != mv {
		t.Fatalf("bob sees %v; want ann's token's move %s", st.Moves, mv)
	}

	// Revoked on the first instance: the websocket on the second closes,
	// and the token opens nothing more.
	var list struct{ Tokens []account.TokenView }
	ann.call("GET", "/api/tokens", nil, http.StatusOK, &list)
	for _, tok := range list.Tokens {
		if tok.Description == "engine" {
			ann.call("DELETE", "/api/tokens/"+tok.ID, nil, http.StatusOK, nil)
		}
	}
	if !closedSoon(w.c, 10*time.Second) {
		t.Fatal("a revoked token's websocket stayed open on the other instance")
	}
	if _, code := ts2.dialToken(player, id); code != http.StatusUnauthorized {
		t.Errorf("a revoked token opens the game: %d; want 401", code)
	}

	// At rest, only hashes: neither secret is in the database's files.
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{reader, player, strings.TrimPrefix(reader, account.TokenPrefix), strings.TrimPrefix(player, account.TokenPrefix)} {
			if bytes.Contains(b, []byte(secret)) {
				t.Fatalf("%s holds a token's secret", filepath.Base(f))
			}
		}
	}
}

// TestTokenMoveFlood: a flood of moves from one token meets its limit,
// 429 with Retry-After, before any domain sees it; another token of the
// same account goes on.
func TestTokenMoveFlood(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, newDB(t), server.Config{Now: clock.Now, PasswordParams: cheapPasswords, TokenBurst: 5, TokenEvery: time.Minute})
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "seat": 0})
	flood, calm := ann.newToken("flood", "play"), ann.newToken("calm", "play")
	limited := 0
	for i := range 20 {
		code, _, h := ts.withToken(flood, "POST", fmt.Sprintf("/api/bot/game/%s/move/m%d", id, i), nil)
		if code == http.StatusTooManyRequests {
			if h.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
			limited++
		} else if i >= 5 {
			t.Fatalf("move %d of the flood: %d; want 429", i, code)
		}
	}
	if limited != 15 {
		t.Fatalf("%d of 20 moves refused; want all past the burst of 5", limited)
	}
	if code, _, _ := ts.withToken(calm, "POST", "/api/bot/game/"+id+"/move/m0", nil); code == http.StatusTooManyRequests || code == http.StatusForbidden || code == http.StatusUnauthorized {
		t.Fatalf("another token's move during the flood: %d; want it past the accounts", code)
	}
}

// TestBotMarks: a bot account, made with its token, seeks with it; the
// game's seats, its profile and the account's own answer say it is a bot,
// and its browser watches the game it plays in, holding no seat there. Its
// opponent may not offer it a takeback or a rematch.
func TestBotMarks(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann := ts.player("ann")
	ann.signup("correct horse")
	robot := ts.player("robot")
	robot.signup("battery staple")
	secret := robot.newToken("engine", "bot")
	if code, errCode, _ := ts.withToken(secret, "POST", "/api/bot/account/upgrade", nil); code != http.StatusOK {
		t.Fatalf("upgrade: %d %s", code, errCode)
	}
	var me account.Me
	robot.call("GET", "/api/me", nil, http.StatusOK, &me)
	if !me.Bot {
		t.Fatalf("the bot's /api/me: %+v; want bot", me)
	}
	robot.fails("POST", "/api/seeks", map[string]any{"spec": "pogo"}, http.StatusForbidden, "bot API")

	code, errCode, _ := ts.withToken(secret, "POST", "/api/seeks", map[string]any{"spec": "pogo", "seat": 1})
	if code != http.StatusCreated {
		t.Fatalf("the bot seeks with its token: %d %s", code, errCode)
	}
	var seeks struct{ Seeks []lobby.Seek }
	ann.call("GET", "/api/seeks", nil, http.StatusOK, &seeks)
	if len(seeks.Seeks) != 1 {
		t.Fatalf("seeks %+v; want the bot's", seeks)
	}
	var acc lobby.AcceptResponse
	ann.call("POST", "/api/seeks/"+seeks.Seeks[0].ID+"/accept", struct{}{}, http.StatusCreated, &acc)
	w := ann.game(acc.Game)
	w.hello()
	if seats := w.last.Seats; len(seats) != 2 || seats[0].Bot || !seats[1].Bot || seats[1].Name != "robot" {
		t.Fatalf("seats %+v; want the robot's, the second, marked a bot", seats)
	}
	var p ratings.Profile
	ann.call("GET", "/api/users/robot", nil, http.StatusOK, &p)
	if !p.Bot {
		t.Fatalf("the bot's profile %+v; want bot", p)
	}
	p = ratings.Profile{}
	ann.call("GET", "/api/users/ann", nil, http.StatusOK, &p)
	if p.Bot {
		t.Fatalf("ann's profile %+v; want no bot", p)
	}
	// The bot's browser watches its game: its owner sees it played, but
	// holds no seat there; its token holds the seat.
	b := robot.game(acc.Game)
	if seats := b.hello(); len(seats) != 0 {
		t.Fatalf("the bot's browser holds the seats %v of its game; want none", seats)
	}
	b.send(map[string]any{"type": "resign"})
	b.wantError("not_your_seat", "")
	wt, code := ts.dialToken(secret, acc.Game)
	if code != http.StatusSwitchingProtocols {
		t.Fatalf("the bot's token opens its game: %d", code)
	}
	if seats := wt.hello(); len(seats) != 1 || seats[0] != 1 {
		t.Fatalf("the bot's token holds the seats %v; want [1]", seats)
	}
	// Ann offers the bot neither a takeback nor a rematch, which the bot
	// API cannot answer.
	w.move("1a1-a2", 0)
	w.waitPly(1)
	w.send(map[string]any{"type": "takeback"})
	w.wantError("bad_message", "robot is a bot")
	w.send(map[string]any{"type": "resign"})
	w.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	w.send(map[string]any{"type": "rematch"})
	w.wantError("bad_message", "challenge it again")
}

// TestDisabledAccountTokens: the tokens of an account the operators
// disable are refused within a refresh, and work again once it is
// enabled.
func TestDisabledAccountTokens(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, _ := ts.annAndBob()
	secret := ann.newToken("scripts", "read")
	admin := moderation.Admin{Users: ts.store.(store.Users), Store: ts.store.(store.Moderation), Now: clock.Now}
	for _, step := range []struct {
		disable bool
		want    int
	}{{true, http.StatusUnauthorized}, {false, http.StatusOK}} {
		if err := admin.Disable(context.Background(), "ann", step.disable); err != nil {
			t.Fatal(err)
		}
		clock.Advance(moderation.RefreshEvery)
		ts.srv.CheckClocks()
		if code, _, _ := ts.withToken(secret, "GET", "/api/me", nil); code != step.want {
			t.Errorf("a token of an account disabled %v: %d; want %d", step.disable, code, step.want)
		}
	}
}
