package account_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// forgetter records the accounts it was told to forget, as live play and
// the lobby are.
type forgetter struct {
	mu   sync.Mutex
	gone []string
}

func (f *forgetter) ForgetAccount(ctx context.Context, userID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone = append(f.gone, userID)
}

// cheap are password parameters that make the tests fast.
var cheap = account.PasswordParams{Time: 1, Memory: 64, Threads: 1}

// newAccounts serves the accounts alone on a real SQLite store.
func newAccounts(t *testing.T) (*httptest.Server, *forgetter, store.Users) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "a.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := account.New(account.Config{Users: st, PasswordParams: cheap})
	f := &forgetter{}
	a.ForgetIn(f)
	m := http.NewServeMux()
	a.Routes(m)
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return ts, f, st
}

// browser is a client with its own cookies.
func browser(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

func do(t *testing.T, c *http.Client, method, url string, body any, want int) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url, bytes.NewReader(b))
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %v; want %d", method, url, res.StatusCode, out, want)
	}
	return out
}

// TestAccountLife follows an account from sign-up to deletion on its own:
// the session cookie, a wrong password, a password change that signs the
// other browsers out, and a deletion that the domains keeping something of
// the account hear of.
func TestAccountLife(t *testing.T) {
	ts, f, st := newAccounts(t)
	phone, laptop := browser(t), browser(t)
	creds := account.Credentials{Name: "ann", Password: "correct horse battery"}
	do(t, phone, "POST", ts.URL+"/api/signup", creds, http.StatusCreated)
	if out := do(t, phone, "GET", ts.URL+"/api/me", nil, http.StatusOK); out["name"] != "ann" {
		t.Fatalf("me %v; want ann", out)
	}
	if out := do(t, phone, "POST", ts.URL+"/api/signup", creds, http.StatusConflict); out["code"] != account.CodeNameTaken {
		t.Fatalf("second sign-up %v; want code %s", out, account.CodeNameTaken)
	}
	if out := do(t, laptop, "POST", ts.URL+"/api/login", account.Credentials{Name: "ANN", Password: "wrong password"}, http.StatusUnauthorized); out["code"] != account.CodeWrongLogin {
		t.Fatalf("wrong login %v", out)
	}
	do(t, laptop, "POST", ts.URL+"/api/login", account.Credentials{Name: "ANN", Password: creds.Password}, http.StatusOK)
	do(t, phone, "POST", ts.URL+"/api/password", account.PasswordChange{Old: creds.Password, New: "another long secret"}, http.StatusOK)
	do(t, phone, "GET", ts.URL+"/api/me", nil, http.StatusOK)
	do(t, laptop, "GET", ts.URL+"/api/me", nil, http.StatusUnauthorized)
	u, err := st.UserByName(context.Background(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	do(t, phone, "DELETE", ts.URL+"/api/me", account.PasswordConfirm{Password: "wrong"}, http.StatusForbidden)
	do(t, phone, "DELETE", ts.URL+"/api/me", account.PasswordConfirm{Password: "another long secret"}, http.StatusOK)
	if len(f.gone) != 1 || f.gone[0] != u.ID {
		t.Fatalf("forgotten %v; want ann's id %s", f.gone, u.ID)
	}
	do(t, phone, "GET", ts.URL+"/api/me", nil, http.StatusUnauthorized)
}

// TestNoAccounts checks that a site whose store keeps no accounts says so.
func TestNoAccounts(t *testing.T) {
	a := account.New(account.Config{})
	m := http.NewServeMux()
	a.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()
	do(t, browser(t), "POST", ts.URL+"/api/signup", account.Credentials{Name: "ann", Password: "correct horse battery"}, http.StatusNotImplemented)
	do(t, browser(t), "GET", ts.URL+"/api/me", nil, http.StatusNotImplemented)
}

// TestNoLockout: one guess a second at ann's password, spread over twenty
// addresses, soon meets the account-wide limit, and a new browser with
// the right password is held by it too; but ann's own browser, where she
// signed in before, signs in at once.
func TestNoLockout(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "a.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Unix(1_800_000_000, 0)
	proxies, _ := httpx.ParseTrustedProxies("127.0.0.1,::1")
	a := account.New(account.Config{Users: st, PasswordParams: cheap, Proxies: proxies, Now: func() time.Time { return now }})
	m := http.NewServeMux()
	a.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()
	creds := account.Credentials{Name: "ann", Password: "correct horse battery"}
	own := browser(t)
	do(t, own, "POST", ts.URL+"/api/signup", creds, http.StatusCreated)
	do(t, own, "POST", ts.URL+"/api/logout", struct{}{}, http.StatusOK)

	guesser := browser(t)
	refused := 0
	for i := range 20 {
		now = now.Add(time.Second)
		b, _ := json.Marshal(account.Credentials{Name: "ann", Password: fmt.Sprint("guess ", i)})
		req, _ := http.NewRequest("POST", ts.URL+"/api/login", bytes.NewReader(b))
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i))
		res, err := guesser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("twenty guesses at one account met no limit")
	}
	do(t, browser(t), "POST", ts.URL+"/api/login", creds, http.StatusTooManyRequests)
	do(t, own, "POST", ts.URL+"/api/login", creds, http.StatusOK)
}

// TestFairHashing: of forty sign-ins at once from one address, at most
// four wait (those past them are told 503 with Retry-After at once), and a
// sign-in from another address takes its turn with them instead of
// waiting behind the crowd. The test holds the only hashing slot while
// they queue, so that the order does not depend on the machine's speed.
func TestFairHashing(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "a.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	proxies, _ := httpx.ParseTrustedProxies("127.0.0.1,::1")
	a := account.New(account.Config{Users: st, PasswordParams: account.PasswordParams{Time: 1, Memory: 8 * 1024, Threads: 1}, Proxies: proxies, Hashers: 1})
	m := http.NewServeMux()
	a.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()
	login := func(from, name, password string) int {
		b, _ := json.Marshal(account.Credentials{Name: name, Password: password})
		req, _ := http.NewRequest("POST", ts.URL+"/api/login", bytes.NewReader(b))
		req.Header.Set("X-Forwarded-For", from)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	var busy, others atomic.Int32 // the crowd's answers but 401
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s: %d told to wait, %d other answers, %d waiting", what, busy.Load(), others.Load(), a.HashesWaiting())
			}
		}
	}
	release := sync.OnceFunc(a.HoldHashing())
	defer release()
	// The order in which the server hashes the sign-ins, by address.
	var mu sync.Mutex
	var order []string
	a.OnHashed(func(client string) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, client)
	})
	for i := range 40 {
		go func() {
			// Distinct names: the account-wide limit is not what holds them.
			switch login("203.0.113.7", fmt.Sprint("n", i), "guess") {
			case http.StatusServiceUnavailable:
				busy.Add(1)
			case http.StatusUnauthorized:
			default:
				others.Add(1)
			}
		}()
	}
	waitUntil("the crowd in", func() bool { return busy.Load()+others.Load() == 36 && a.HashesWaiting() == 4 })
	if busy.Load() == 0 {
		t.Errorf("none of 40 sign-ins at once from one address was told to wait; want those past its waiting room")
	}
	other := make(chan int, 1)
	go func() {
		other <- login("198.51.100.2", "nobody", "some password")
	}()
	waitUntil("the other address's sign-in to wait", func() bool { return a.HashesWaiting() == 5 })
	release()
	if code := <-other; code != http.StatusUnauthorized {
		t.Errorf("a sign-in from another address: %d; want 401", code)
	}
	waitUntil("the crowd served", func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == 5 })
	// Served in turn: the crowd's first, then the other address's, not
	// after the crowd's four.
	if i := slices.Index(order, "198.51.100.2"); i > 1 {
		t.Errorf("hashed in the order %v; want the other address's among the first two", order)
	}
}
