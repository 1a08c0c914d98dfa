// Package httpxtest holds what the tests of the site's domains share: a
// stand-in for the accounts domain that signs a request in by a header,
// and a client that sends JSON requests as an account and checks the
// answer's status.
package httpxtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"

	"stax/server/httpx"
	"stax/server/store"
)

// UserHeader is the header that names the account a request is made as.
const UserHeader = "X-User"

// Sessions signs a request in as the account its UserHeader names: the
// accounts domain, as the other domains see it, without passwords or
// cookies.
type Sessions map[string]*store.User

// Session returns the request's account, or an error when it has none.
func (f Sessions) Session(r *http.Request) (*store.User, *store.Session, error) {
	if u := f[r.Header.Get(UserHeader)]; u != nil {
		return u, &store.Session{UserID: u.ID}, nil
	}
	return nil, nil, errors.New("you are not signed in")
}

// SignedIn returns the request's account, answering 401 when it has none.
func (f Sessions) SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool) {
	u, ss, err := f.Session(r)
	if err != nil {
		httpx.Error(w, http.StatusUnauthorized, err.Error())
		return nil, nil, false
	}
	return u, ss, true
}

// Do sends a request to the site at url as user ("" for a guest), with
// body as JSON when not nil, and returns the status and the body.
func Do(t testing.TB, url, user, method, path string, body any) (int, []byte) {
	t.Helper()
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, url+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if user != "" {
		req.Header.Set(UserHeader, user)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(res.Body); err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return res.StatusCode, got.Bytes()
}

// Call sends a request as Do does and decodes the answer into out (a
// pointer, set to its zero value first, so that fields absent from the
// answer stay empty), failing the test unless the status is want.
func Call(t testing.TB, url, user, method, path string, body any, want int, out any) {
	t.Helper()
	code, got := Do(t, url, user, method, path, body)
	if code != want {
		t.Fatalf("%s %s as %q: status %d %s; want %d", method, path, user, code, bytes.TrimSpace(got), want)
	}
	if out != nil {
		reflect.ValueOf(out).Elem().SetZero()
		if err := json.Unmarshal(got, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, got)
		}
	}
}
