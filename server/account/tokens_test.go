package account_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/store/sqlite"
)

func TestScopeOf(t *testing.T) {
	for _, tc := range []struct {
		method, path, want string
	}{
		{"GET", "/api/me", store.ScopeRead},
		{"HEAD", "/api/games/abc", store.ScopeRead},
		{"GET", "/api/stream/event", store.ScopeRead},
		{"GET", "/api/bot/game/stream/abc", store.ScopeRead},
		{"GET", "/ws/games/abc", store.ScopePlay},
		{"GET", "/ws/lobby", store.ScopePlay},
		{"POST", "/api/bot/game/abc/move/a1-b2", store.ScopePlay},
		{"POST", "/api/bot/game/abc/resign", store.ScopePlay},
		{"POST", "/api/bot/account/upgrade", store.ScopeBot},
		{"POST", "/api/challenges", store.ScopeChallenge},
		{"POST", "/api/challenges/abc/accept", store.ScopeChallenge},
		{"DELETE", "/api/challenges/abc", store.ScopeChallenge},
		{"POST", "/api/seeks", store.ScopeChallenge},
		{"DELETE", "/api/seeks/abc", store.ScopeChallenge},
		// What no rule names, no token may do.
		{"POST", "/api/challengesx", ""},
		{"POST", "/api/games", ""},
		{"POST", "/api/tokens", ""},
		{"DELETE", "/api/me", ""},
		{"POST", "/api/password", ""},
		{"POST", "/api/pairing", ""},
		{"PUT", "/api/bot/game/abc/move/a1", ""},
		{"POST", "/api/bot/account/upgradex", ""},
		{"POST", "/api/bot/account/upgrade/x", ""},
	} {
		if got := account.ScopeOf(tc.method, tc.path); got != tc.want {
			t.Errorf("ScopeOf(%s, %s) = %q; want %q", tc.method, tc.path, got, tc.want)
		}
	}
}

// announced records what the accounts announce, as the store's feed would
// carry it to every instance.
type announced struct {
	mu  sync.Mutex
	evs []store.Event
}

func (f *announced) Watch(ctx context.Context, fn func(store.Event)) error { return nil }

func (f *announced) Announce(ctx context.Context, ev store.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.evs = append(f.evs, ev)
	return nil
}

func (f *announced) revocations() []store.Revocation {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.Revocation
	for _, ev := range f.evs {
		if ev.Kind == store.EventRevoke {
			out = append(out, store.RevocationOf(ev))
		}
	}
	return out
}

// countedTokens counts the uses a store of tokens is told of.
type countedTokens struct {
	store.Tokens
	mu   sync.Mutex
	uses []time.Time
}

func (c *countedTokens) TokenUsed(ctx context.Context, id string, t time.Time) error {
	c.mu.Lock()
	c.uses = append(c.uses, t)
	c.mu.Unlock()
	return c.Tokens.TokenUsed(ctx, id, t)
}

// tokenSite is the accounts domain behind its Guard, with routes standing
// for the other domains': each answers who the request is from.
type tokenSite struct {
	url  string
	st   *sqlite.Store
	feed *announced
	used *countedTokens
	a    *account.Accounts
	mu   sync.Mutex
	now  time.Time
}

func (s *tokenSite) advance(d time.Duration) {
	s.mu.Lock()
	s.now = s.now.Add(d)
	s.mu.Unlock()
}

func newTokenSite(t *testing.T, burst int) *tokenSite {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "a.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &tokenSite{st: st, feed: &announced{}, used: &countedTokens{Tokens: st}, now: time.Unix(1_800_000_000, 0)}
	s.a = account.New(account.Config{Users: st, Tokens: s.used, Feed: s.feed, PasswordParams: cheap,
		TokenEvery: time.Second, TokenBurst: burst,
		Now: func() time.Time { s.mu.Lock(); defer s.mu.Unlock(); return s.now }})
	m := http.NewServeMux()
	s.a.Routes(m)
	who := func(w http.ResponseWriter, r *http.Request) {
		u, ss, ok := s.a.SignedIn(w, r)
		if !ok {
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"name": u.Name, "token": ss.Token != nil})
	}
	m.HandleFunc("POST /api/bot/game/{id}/move/{move}", who)
	m.HandleFunc("POST /api/seeks", who)
	m.HandleFunc("POST /api/games", who)
	m.HandleFunc("POST /api/games/{id}/join", who)
	m.HandleFunc("POST /api/games/import", who)
	m.HandleFunc("GET /ws/games/{id}", who)
	m.HandleFunc("GET /api/games/{id}", func(w http.ResponseWriter, r *http.Request) {
		// A route that asks nobody who sends it: the Guard has checked
		// the token already.
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"id": r.PathValue("id")})
	})
	ts := httptest.NewServer(s.a.Guard(m))
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

// call sends a request with a token ("" for none) through a client (nil:
// one without cookies) and returns the status, the decoded answer and the
// headers.
func call(t *testing.T, c *http.Client, method, url, token string, body any) (int, map[string]any, http.Header) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if c == nil {
		c = http.DefaultClient
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out, res.Header
}

// newToken makes a token in a signed-in browser and returns its secret
// and id.
func newToken(t *testing.T, s *tokenSite, c *http.Client, description string, scopes ...string) (string, string) {
	t.Helper()
	code, out, _ := call(t, c, "POST", s.url+"/api/tokens", "", account.TokenRequest{Description: description, Scopes: scopes})
	if code != http.StatusCreated {
		t.Fatalf("create token %v: %d %v", scopes, code, out)
	}
	return out["secret"].(string), out["id"].(string)
}

// TestTokens follows tokens from their making in a browser to their
// revocation: the secret shown once and kept hashed, the scopes enforced
// (a read token cannot move, a token cannot make tokens), and a revoked
// token refused, its revocation announced to every instance.
func TestTokens(t *testing.T) {
	s := newTokenSite(t, 100)
	ann := browser(t)
	do(t, ann, "POST", s.url+"/api/signup", account.Credentials{Name: "ann", Password: "correct horse battery"}, http.StatusCreated)

	for _, bad := range []account.TokenRequest{
		{Description: "none", Scopes: nil},
		{Description: "unknown", Scopes: []string{"read", "admin"}},
		{Description: strings.Repeat("x", 101), Scopes: []string{"read"}},
		{Description: "two\nlines", Scopes: []string{"read"}},
	} {
		if code, out, _ := call(t, ann, "POST", s.url+"/api/tokens", "", bad); code != http.StatusBadRequest || out["code"] != account.CodeBadTokenRequest {
			t.Errorf("create token %+v: %d %v; want 400 %s", bad, code, out, account.CodeBadTokenRequest)
		}
	}
	code, out, _ := call(t, ann, "POST", s.url+"/api/tokens", "", account.TokenRequest{Description: " reader ", Scopes: []string{"read", "read"}})
	if code != http.StatusCreated {
		t.Fatalf("create token: %d %v", code, out)
	}
	reader := out["secret"].(string)
	if !strings.HasPrefix(reader, account.TokenPrefix) || len(reader) != len(account.TokenPrefix)+32 || out["description"] != "reader" || fmt.Sprint(out["scopes"]) != "[read]" {
		t.Fatalf("new token %v; want a secret stax_ and 32 characters, the description trimmed, the scope once", out)
	}
	s.advance(time.Second)
	player, playerID := newToken(t, s, ann, "engine", "play", "read")

	// The store keeps the hashes, never the secrets.
	u, err := s.st.UserByName(context.Background(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := s.st.TokensOf(context.Background(), u.ID)
	if err != nil || len(kept) != 2 {
		t.Fatalf("tokens kept: %v, %v", kept, err)
	}
	for _, k := range kept {
		if k.Hash == reader || k.Hash == player || (k.Hash != httpx.HashSecret(reader) && k.Hash != httpx.HashSecret(player)) {
			t.Fatalf("token kept as %+v; want the SHA-256 of its secret", k)
		}
	}
	code, out, _ = call(t, ann, "GET", s.url+"/api/tokens", "", nil)
	list, _ := out["tokens"].([]any)
	if code != http.StatusOK || len(list) != 2 || list[0].(map[string]any)["id"] != playerID || list[0].(map[string]any)["secret"] != nil {
		t.Fatalf("GET /api/tokens: %d %v; want two, newest first, without secrets", code, out)
	}

	for _, tc := range []struct {
		what, method, path, token string
		want                      int
		code                      string
	}{
		{"read token reads", "GET", "/api/me", reader, 200, ""},
		{"read token reads a route that asks nobody", "GET", "/api/games/g1", reader, 200, ""},
		{"read token moves", "POST", "/api/bot/game/g1/move/a1", reader, 403, account.CodeMissingScope},
		{"read token opens a game's websocket", "GET", "/ws/games/g1", reader, 403, account.CodeMissingScope},
		{"play token moves", "POST", "/api/bot/game/g1/move/a1", player, 200, ""},
		{"play token opens a game's websocket", "GET", "/ws/games/g1", player, 200, ""},
		{"play token seeks", "POST", "/api/seeks", player, 403, account.CodeMissingScope},
		{"token creates a game", "POST", "/api/games", player, 403, account.CodeTokenRefused},
		{"token lists tokens", "GET", "/api/tokens", player, 403, account.CodeTokenRefused},
		{"token makes a token", "POST", "/api/tokens", player, 403, account.CodeTokenRefused},
		{"token deletes the account", "DELETE", "/api/me", player, 403, account.CodeTokenRefused},
		{"unknown token", "GET", "/api/me", account.TokenPrefix + strings.Repeat("a", 32), 401, account.CodeInvalidToken},
		{"not a token", "GET", "/api/me", "hello", 401, account.CodeInvalidToken},
	} {
		var body any
		if tc.method != "GET" && tc.method != "DELETE" {
			body = struct{}{}
		}
		code, out, h := call(t, nil, tc.method, s.url+tc.path, tc.token, body)
		if code != tc.want || tc.code != "" && out["code"] != tc.code {
			t.Errorf("%s: %d %v; want %d %s", tc.what, code, out, tc.want, tc.code)
		}
		if tc.code == account.CodeMissingScope && !strings.Contains(fmt.Sprint(out["error"]), `"`+account.ScopeOf(tc.method, tc.path)+`" scope`) {
			t.Errorf("%s: %v; want the error to name the scope needed", tc.what, out["error"])
		}
		if code == 200 && out["name"] != "ann" && out["id"] != "g1" || code == 200 && out["token"] == false {
			t.Errorf("%s: %v; want ann's token", tc.what, out)
		}
		if code == 401 && !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q; want Bearer", tc.what, h.Get("WWW-Authenticate"))
		}
	}
	if code, out, _ := call(t, nil, "GET", s.url+"/api/me?guest=ok", account.TokenPrefix+"nope", nil); code != 401 {
		t.Errorf("GET /api/me?guest=ok with an unknown token: %d %v; want 401, not a guest's answer", code, out)
	}

	// Revoking: only one's own; the token is refused at once, and every
	// instance is told to close what it opened.
	bob := browser(t)
	do(t, bob, "POST", s.url+"/api/signup", account.Credentials{Name: "bob", Password: "correct horse battery"}, http.StatusCreated)
	do(t, bob, "DELETE", s.url+"/api/tokens/"+playerID, struct{}{}, http.StatusNotFound)
	do(t, ann, "DELETE", s.url+"/api/tokens/"+playerID, struct{}{}, http.StatusOK)
	if code, _, _ := call(t, nil, "POST", s.url+"/api/bot/game/g1/move/a1", player, struct{}{}); code != http.StatusUnauthorized {
		t.Errorf("a revoked token moves: %d; want 401", code)
	}
	want := store.Revocation{User: u.ID, Session: store.TokenSession(httpx.HashSecret(player)), Only: true}
	if rs := s.feed.revocations(); len(rs) != 1 || rs[0] != want {
		t.Errorf("revocations announced %+v; want %+v", rs, want)
	}

	// Changing the password keeps the tokens; deleting the account takes
	// them.
	do(t, ann, "POST", s.url+"/api/password", account.PasswordChange{Old: "correct horse battery", New: "another long secret"}, http.StatusOK)
	if code, _, _ := call(t, nil, "GET", s.url+"/api/me", reader, nil); code != http.StatusOK {
		t.Errorf("a token after a password change: %d; want 200", code)
	}
	// The password change closes the other browsers' connections, and
	// not those the tokens opened.
	rs := s.feed.revocations()
	if last := rs[len(rs)-1]; !last.Browsers || last.Ends(store.TokenSession(httpx.HashSecret(reader))) || !last.Ends("another browser") {
		t.Errorf("the password change announced %+v: want the browsers' sessions ended, not the tokens'", last)
	}
	do(t, ann, "DELETE", s.url+"/api/me", account.PasswordConfirm{Password: "another long secret"}, http.StatusOK)
	if code, _, _ := call(t, nil, "GET", s.url+"/api/me", reader, nil); code != http.StatusUnauthorized {
		t.Errorf("a deleted account's token: %d; want 401", code)
	}
}

// TestTokenFlood: a token that floods moves meets its limit (429 with
// Retry-After) once its burst is spent, while another token moves on;
// the limit refills with time, and the token's use is recorded once a
// minute however many requests carry it.
func TestTokenFlood(t *testing.T) {
	const burst = 10
	s := newTokenSite(t, burst)
	ann := browser(t)
	do(t, ann, "POST", s.url+"/api/signup", account.Credentials{Name: "ann", Password: "correct horse battery"}, http.StatusCreated)
	flood, _ := newToken(t, s, ann, "flood", "play")
	calm, _ := newToken(t, s, ann, "calm", "play")
	move := func(token string) (int, http.Header) {
		code, out, h := call(t, nil, "POST", s.url+"/api/bot/game/g1/move/a1", token, nil)
		if code == http.StatusTooManyRequests && out["code"] != httpx.CodeRateLimited {
			t.Fatalf("429 %v; want the code %s", out, httpx.CodeRateLimited)
		}
		return code, h
	}
	var ok, limited int
	for range 3 * burst {
		code, h := move(flood)
		switch code {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			limited++
			if h.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After")
			}
		default:
			t.Fatalf("a move: %d; want 200 or 429", code)
		}
	}
	if ok != burst || limited != 2*burst {
		t.Fatalf("a flood of %d moves: %d admitted, %d refused; want %d admitted", 3*burst, ok, limited, burst)
	}
	if code, _ := move(calm); code != http.StatusOK {
		t.Fatalf("another token's move during the flood: %d; want 200", code)
	}
	s.advance(time.Second)
	if code, _ := move(flood); code != http.StatusOK {
		t.Fatalf("the flooding token's move a second later: %d; want 200", code)
	}
	s.used.mu.Lock()
	uses := len(s.used.uses)
	s.used.mu.Unlock()
	if uses != 2 {
		t.Fatalf("%d uses recorded for two tokens within a minute; want 2", uses)
	}
	s.advance(time.Minute)
	move(flood)
	move(flood)
	s.used.mu.Lock()
	last := s.used.uses[len(s.used.uses)-1]
	uses = len(s.used.uses)
	s.used.mu.Unlock()
	if uses != 3 || last.Second() != 0 {
		t.Fatalf("%d uses recorded, the last at %v; want one more a minute later, to the minute", uses, last)
	}
	// An unknown token is refused before it reaches a limit.
	if code, _ := move(account.TokenPrefix + "unknown"); code != http.StatusUnauthorized {
		t.Fatalf("an unknown token: %d; want 401", code)
	}
}

// TestBotAccount: an account becomes a bot with a token of the bot scope,
// and only if it has played no game; a bot's browser may manage its
// tokens but not seek, nor open a game it plays in; a person chooses
// whether to accept rated games against bots.
func TestBotAccount(t *testing.T) {
	s := newTokenSite(t, 100)
	ann, bot := browser(t), browser(t)
	do(t, ann, "POST", s.url+"/api/signup", account.Credentials{Name: "ann", Password: "correct horse battery"}, http.StatusCreated)
	do(t, bot, "POST", s.url+"/api/signup", account.Credentials{Name: "robot", Password: "correct horse battery"}, http.StatusCreated)
	if me := do(t, ann, "GET", s.url+"/api/me", nil, http.StatusOK); me["bot"] != false || me["ratedBots"] != true {
		t.Fatalf("a new account: %v; want no bot, accepting rated games against bots", me)
	}
	reader, _ := newToken(t, s, bot, "reader", "read", "play", "challenge")
	botToken, _ := newToken(t, s, bot, "engine", "bot")

	ctx := context.Background()
	annUser, _ := s.st.UserByName(ctx, "ann")
	annBot, _ := newToken(t, s, ann, "mine", "bot")
	g := &store.Game{ID: "played", Spec: "pogo", Status: store.Playing, Created: time.Unix(1, 0), Updated: time.Unix(1, 0),
		Seats: []store.Seat{{Kind: "human", Name: "ann", User: annUser.ID, Joined: true}, {Kind: "ai", Level: "easy", Joined: true}}, End: store.End{Outcome: "*", Resigned: -1}}
	if err := s.st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what, token string
		want        int
		code        string
	}{
		{"without the bot scope", reader, 403, account.CodeMissingScope},
		{"an account that has played", annBot, 409, account.CodePlayedGames},
		{"a new account", botToken, 200, ""},
		{"a bot again", botToken, 409, account.CodeAlreadyBot},
	} {
		if code, out, _ := call(t, nil, "POST", s.url+"/api/bot/account/upgrade", tc.token, nil); code != tc.want || tc.code != "" && out["code"] != tc.code {
			t.Errorf("upgrade %s: %d %v; want %d %s", tc.what, code, out, tc.want, tc.code)
		}
	}
	do(t, bot, "POST", s.url+"/api/bot/account/upgrade", struct{}{}, http.StatusForbidden)
	if me := do(t, bot, "GET", s.url+"/api/me", nil, http.StatusOK); me["bot"] != true {
		t.Fatalf("after the upgrade: %v; want a bot", me)
	}
	// The bot's browser manages its tokens, watches (live play gives it
	// no seat in its games' websockets), but does not play.
	do(t, bot, "GET", s.url+"/api/tokens", nil, http.StatusOK)
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"POST", "/api/seeks", 403},
		{"POST", "/api/games", 403},
		{"POST", "/api/games/g1/join", 403},
		{"POST", "/api/games/import", 200},
		{"GET", "/ws/games/mine", 200},
	} {
		var body any
		if tc.method == "POST" {
			body = struct{}{}
		}
		code, out, _ := call(t, bot, tc.method, s.url+tc.path, "", body)
		if code != tc.want || code == 403 && out["code"] != account.CodeBotAccount {
			t.Errorf("the bot's browser: %s %s: %d %v; want %d", tc.method, tc.path, code, out, tc.want)
		}
	}
	// With its token, the bot plays.
	if code, out, _ := call(t, nil, "POST", s.url+"/api/seeks", botToken, struct{}{}); code != 200 {
		t.Errorf("the bot's token seeks: %d %v", code, out)
	}
	// A person's browser is not held.
	do(t, ann, "POST", s.url+"/api/seeks", struct{}{}, http.StatusOK)

	do(t, ann, "POST", s.url+"/api/me/preferences", map[string]bool{"ratedBots": false}, http.StatusOK)
	if me := do(t, ann, "GET", s.url+"/api/me", nil, http.StatusOK); me["ratedBots"] != false {
		t.Fatalf("after refusing rated games against bots: %v", me)
	}
	if u, _ := s.st.UserByName(ctx, "ann"); !u.NoRatedBots {
		t.Fatalf("ann as stored: %+v; want her refusal kept", u)
	}
	do(t, ann, "POST", s.url+"/api/me/preferences", map[string]any{}, http.StatusBadRequest)
	if code, _, _ := call(t, nil, "POST", s.url+"/api/me/preferences", annBot, map[string]bool{"ratedBots": true}); code != http.StatusForbidden {
		t.Errorf("a token sets a preference: %d; want 403", code)
	}
}

// TestTokenUsedAfterCreated: a token used in the minute it was made was
// last used when it was made, not at the start of that minute (the use is
// kept to the minute), which would read as before it existed.
func TestTokenUsedAfterCreated(t *testing.T) {
	s := newTokenSite(t, 100)
	s.advance(30 * time.Second)
	ann := browser(t)
	do(t, ann, "POST", s.url+"/api/signup", account.Credentials{Name: "ann", Password: "correct horse battery"}, http.StatusCreated)
	secret, _ := newToken(t, s, ann, "script", "read")
	s.advance(10 * time.Second)
	if code, out, _ := call(t, nil, "GET", s.url+"/api/me", secret, nil); code != http.StatusOK {
		t.Fatalf("the token reads the account: %d %v", code, out)
	}
	var list struct{ Tokens []account.TokenView }
	_, out, _ := call(t, ann, "GET", s.url+"/api/tokens", "", nil)
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &list); err != nil || len(list.Tokens) != 1 {
		t.Fatalf("the tokens: %v %v", out, err)
	}
	if tok := list.Tokens[0]; tok.Used.IsZero() || tok.Used.Before(tok.Created) {
		t.Fatalf("the token made at %v was last used at %v; want not before it was made", tok.Created, tok.Used)
	}
}
