package moderation_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/server/httpx"
	"stax/server/httpx/httpxtest"
	"stax/server/moderation"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// fakePasswords records the passwords set.
type fakePasswords struct {
	mu  sync.Mutex
	set map[string]string
}

func (f *fakePasswords) CheckNewPassword(name, password string) error {
	if len(password) < 8 {
		return errors.New("password: want at least 8 characters")
	}
	if name != "" && strings.EqualFold(name, password) {
		return errors.New("password: it must not be your name")
	}
	return nil
}

func (f *fakePasswords) ResetPassword(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set[u.Name] = password
	return true
}

// fakeChat holds one chat line.
type fakeChat struct{}

func (fakeChat) RemoveChatLines(game, from, text string) {}

func (fakeChat) ChatLine(game, from string, at time.Time) (string, bool) {
	if game == "aaaaaaaaaaaaaaaa" && from == "bob" && at.Equal(time.Unix(100, 0)) {
		return "bob: something rude", true
	}
	return "", false
}

type site struct {
	t     *testing.T
	m     *moderation.Moderation
	http  *httptest.Server
	st    *sqlite.Store
	users map[string]*store.User
	pw    *fakePasswords
}

// newSite serves the moderation alone on a real SQLite store, with the
// accounts ann, bob, cy and a password holder (a long name) and fakes of
// the accounts and live play around it.
func newSite(t *testing.T) *site {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	users := map[string]*store.User{}
	for _, name := range []string{"ann", "bob", "cy", "longpassword"} {
		u := &store.User{ID: httpx.NewID(), Name: name, PasswordHash: "h", Created: time.Unix(1, 0).UTC()}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		users[name] = u
	}
	pw := &fakePasswords{set: map[string]string{}}
	// A clock a second later at each reading, so that reports sort in
	// the order they were made.
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	m := moderation.New(moderation.Config{Store: st, Users: st, Sessions: httpxtest.Sessions(users), Passwords: pw, Chat: fakeChat{}, Now: now})
	mux := http.NewServeMux()
	m.Routes(mux)
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return &site{t: t, m: m, http: hs, st: st, users: users, pw: pw}
}

// do sends a request as user (none when empty) and returns the status and
// the body.
func (s *site) do(user, method, path string, body any) (int, string) {
	s.t.Helper()
	code, b := httpxtest.Do(s.t, s.http.URL, user, method, path, body)
	return code, strings.TrimSpace(string(b))
}

// TestBlocks blocks and unblocks accounts and checks what the snapshot
// answers live play.
func TestBlocks(t *testing.T) {
	s := newSite(t)
	ann, bob := s.users["ann"], s.users["bob"]
	for _, c := range []struct {
		user, method, path string
		body               any
		code               int
		says               string
	}{
		{"", "GET", "/api/blocks", nil, http.StatusUnauthorized, "not signed in"},
		{"ann", "GET", "/api/blocks", nil, http.StatusOK, `{"blocks":[]}`},
		{"ann", "POST", "/api/blocks", moderation.BlockRequest{Name: "BOB"}, http.StatusOK, `{"blocks":["bob"]}`},
		{"ann", "POST", "/api/blocks", moderation.BlockRequest{Name: "cy"}, http.StatusOK, `{"blocks":["bob","cy"]}`},
		{"ann", "POST", "/api/blocks", moderation.BlockRequest{Name: "bob"}, http.StatusOK, `{"blocks":["bob","cy"]}`},
		{"ann", "POST", "/api/blocks", moderation.BlockRequest{Name: "ann"}, http.StatusBadRequest, "yourself"},
		{"ann", "POST", "/api/blocks", moderation.BlockRequest{Name: "nobody"}, http.StatusNotFound, moderation.CodeNoSuchAccount},
		{"ann", "POST", "/api/blocks", map[string]any{"name": "bob", "forever": true}, http.StatusBadRequest, "unknown field"},
		{"ann", "DELETE", "/api/blocks/cy", nil, http.StatusOK, `{"blocks":["bob"]}`},
		{"bob", "GET", "/api/blocks", nil, http.StatusOK, `{"blocks":[]}`},
	} {
		code, body := s.do(c.user, c.method, c.path, c.body)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s %s %s %v: %d %s; want %d saying %s", c.user, c.method, c.path, c.body, code, body, c.code, c.says)
		}
	}
	if !s.m.BlocksName(ann.ID, "Bob") || !s.m.Blocks(ann.ID, bob.ID) || s.m.BlocksName(bob.ID, "ann") || s.m.BlocksName(ann.ID, "cy") {
		t.Errorf("the snapshot after the blocks: ann blocks bob %v (by id %v), bob blocks ann %v, ann blocks cy %v; want true, true, false, false",
			s.m.BlocksName(ann.ID, "bob"), s.m.Blocks(ann.ID, bob.ID), s.m.BlocksName(bob.ID, "ann"), s.m.BlocksName(ann.ID, "cy"))
	}
}

// TestReports reports an account, a game and a chat line, and reads them
// back as an operator.
func TestReports(t *testing.T) {
	s := newSite(t)
	game := "aaaaaaaaaaaaaaaa"
	for _, c := range []struct {
		body any
		code int
		says string
	}{
		{moderation.ReportRequest{User: "bob", Reason: "insults in the lobby"}, http.StatusCreated, `"id"`},
		{moderation.ReportRequest{Game: game, Chat: &moderation.ChatQuote{From: "bob", At: time.Unix(100, 0)}, Reason: "rude"}, http.StatusCreated, `"id"`},
		{moderation.ReportRequest{Game: game, Chat: &moderation.ChatQuote{From: "cy", At: time.Unix(5, 0)}, Reason: "spam"}, http.StatusCreated, `"id"`},
		{moderation.ReportRequest{Game: game, Reason: "engine use"}, http.StatusCreated, `"id"`},
		{moderation.ReportRequest{User: "bob"}, http.StatusBadRequest, "needs a reason"},
		{moderation.ReportRequest{Reason: "nothing named"}, http.StatusBadRequest, "names an account"},
		{moderation.ReportRequest{Chat: &moderation.ChatQuote{From: "bob"}, Reason: "x"}, http.StatusBadRequest, "with its game"},
		{moderation.ReportRequest{Game: "../etc", Reason: "x"}, http.StatusBadRequest, "no game"},
		{moderation.ReportRequest{User: "nobody", Reason: "x"}, http.StatusNotFound, "no account"},
		{moderation.ReportRequest{User: "bob", Reason: strings.Repeat("é", 501)}, http.StatusBadRequest, "at most 500"},
	} {
		code, body := s.do("ann", "POST", "/api/reports", c.body)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("report %+v: %d %s; want %d saying %s", c.body, code, body, c.code, c.says)
		}
	}
	// Past the burst, a reporter waits.
	if code, _ := s.do("ann", "POST", "/api/reports", moderation.ReportRequest{User: "cy", Reason: "again"}); code != http.StatusTooManyRequests {
		t.Errorf("a sixth report at once: %d; want 429", code)
	}

	admin := moderation.Admin{Users: s.st, Store: s.st}
	ctx := context.Background()
	open, err := admin.Reports(ctx, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range open {
		got = append(got, r.ReporterName+"|"+r.TargetName+"|"+r.Game+"|"+r.Chat+"|"+r.Reason)
	}
	want := []string{
		"ann|bob|||insults in the lobby",
		"ann|bob|" + game + "|bob: something rude|rude",
		"ann|cy|" + game + "|cy at 1970-01-01T00:00:05Z (not found on this instance)|spam",
		"ann||" + game + "||engine use",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("open reports:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := admin.CloseReport(ctx, open[0].ID, "warned"); err != nil {
		t.Fatal(err)
	}
	if err := admin.CloseReport(ctx, open[0].ID, "again"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("closing a closed report: %v; want ErrConflict", err)
	}
	if left, _ := admin.Reports(ctx, false, 100); len(left) != 3 {
		t.Errorf("%d open reports after closing one; want 3", len(left))
	}
}

// TestRestrictions mutes and disables accounts as an operator: the
// snapshot answers at once for this instance, a disabled account's
// sessions are gone and it cannot sign in.
func TestRestrictions(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	admin := moderation.Admin{Users: s.st, Store: s.st}
	bob := s.users["bob"]
	if err := s.st.CreateSession(ctx, &store.Session{TokenHash: "t1", UserID: bob.ID, Created: time.Now(), Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	guarded := s.m.GuardUsers(s.st)
	for _, step := range []struct {
		what          string
		do            func() error
		muted, closed bool
	}{
		{"at first", func() error { return nil }, false, false},
		{"mute bob", func() error { return admin.Mute(ctx, "bob", true) }, true, false},
		{"disable bob", func() error { return admin.Disable(ctx, "Bob", true) }, true, true},
		{"unmute bob", func() error { return admin.Mute(ctx, "bob", false) }, false, true},
		{"enable bob", func() error { return admin.Disable(ctx, "bob", false) }, false, false},
	} {
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.what, err)
		}
		if err := s.m.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		_, byName := guarded.UserByName(ctx, "bob")
		if s.m.Muted(bob.ID) != step.muted || s.m.Disabled(bob.ID) != step.closed || (byName != nil) != step.closed {
			t.Errorf("%s: muted %v, disabled %v, sign-in lookup %v; want muted %v, disabled %v", step.what,
				s.m.Muted(bob.ID), s.m.Disabled(bob.ID), byName, step.muted, step.closed)
		}
	}
	if _, err := s.st.Session(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob's session after he was disabled: %v; want it deleted", err)
	}
	for _, name := range []string{"nobody"} {
		if err := admin.Mute(ctx, name, true); err == nil || !strings.Contains(err.Error(), "no account is named") {
			t.Errorf("muting %q: %v; want an error naming no account", name, err)
		}
	}
}

// TestResetLink makes a reset link as an operator and uses it: once, with
// a password that passes the rules.
func TestResetLink(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	admin := moderation.Admin{Users: s.st, Store: s.st}
	link, err := admin.ResetLink(ctx, "longpassword", "https://stax.example.org/", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	base, token, ok := strings.Cut(link, "/reset#")
	if !ok || base != "https://stax.example.org" || len(token) < 20 {
		t.Fatalf("reset link %q; want https://stax.example.org/reset#<token>", link)
	}
	for _, c := range []struct {
		body moderation.ResetRequest
		code int
		says string
	}{
		{moderation.ResetRequest{Token: token, Password: "short"}, http.StatusBadRequest, moderation.CodeWeakPassword},
		{moderation.ResetRequest{Token: "forged", Password: "a good new one"}, http.StatusNotFound, moderation.CodeBadLink},
		{moderation.ResetRequest{Token: token, Password: "a good new one"}, http.StatusNoContent, ""},
		{moderation.ResetRequest{Token: token, Password: "another good one"}, http.StatusNotFound, "used or expired"},
	} {
		code, body := s.do("", "POST", "/api/password/reset", c.body)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("reset %+v: %d %s; want %d saying %s", c.body, code, body, c.code, c.says)
		}
	}
	if got := s.pw.set["longpassword"]; got != "a good new one" {
		t.Errorf("the password set: %q; want the one of the first good use", got)
	}
	// A link whose password is the account's name is used up, and says so.
	link, _ = admin.ResetLink(ctx, "longpassword", "https://x", time.Hour)
	_, token, _ = strings.Cut(link, "#")
	if code, body := s.do("", "POST", "/api/password/reset", moderation.ResetRequest{Token: token, Password: "LongPassword"}); code != http.StatusBadRequest || !strings.Contains(body, "ask the operators") {
		t.Errorf("a reset to the account's name: %d %s; want 400 saying the link is used", code, body)
	}
	if _, err := admin.ResetLink(ctx, "nobody", "https://x", time.Hour); err == nil {
		t.Error("a reset link for no account was made")
	}
}
