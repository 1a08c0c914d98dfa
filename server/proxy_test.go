package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server"
	"stax/server/httpx"
)

// postVia sends a creation from the client at ip with the given
// X-Forwarded-For header (none when empty) and returns the status.
func postVia(t *testing.T, ts *testServer, ip, forwarded string) int {
	t.Helper()
	b, _ := json.Marshal(hotseat)
	req, _ := http.NewRequest("POST", ts.url+"/api/games", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if forwarded != "" {
		req.Header.Set("X-Forwarded-For", forwarded)
	}
	res, err := clientFrom(ip).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestTrustedProxies checks whose address the per-address limits count:
// behind a trusted proxy, the client the proxy names in X-Forwarded-For;
// from anyone else, the connection's address, whatever the header says.
func TestTrustedProxies(t *testing.T) {
	proxies, err := httpx.ParseTrustedProxies("127.0.0.1, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, newDB(t), server.Config{CreateBurst: 1, CreateEvery: time.Hour, TrustedProxies: proxies})
	steps := []struct {
		what, from, forwarded string
		want                  int
	}{
		{"a client through the proxy", "127.0.0.1", "203.0.113.7", http.StatusCreated},
		{"the same client again", "127.0.0.1", "203.0.113.7", http.StatusTooManyRequests},
		{"another client through the proxy", "127.0.0.1", "203.0.113.8", http.StatusCreated},
		{"the first client, writing a false address of its own", "127.0.0.1", "198.51.100.1, 203.0.113.7", http.StatusTooManyRequests},
		{"the first client through two proxies", "127.0.0.1", "203.0.113.7, 10.1.2.3", http.StatusTooManyRequests},
		{"a client through two proxies", "127.0.0.1", "203.0.113.9, 10.1.2.3", http.StatusCreated},
		{"a client writing its own header, not through a proxy", "127.0.0.2", "203.0.113.10", http.StatusCreated},
		{"that client again, with another header", "127.0.0.2", "203.0.113.11", http.StatusTooManyRequests},
		{"the proxy without a header: itself", "127.0.0.1", "", http.StatusCreated},
		{"an unreadable hop stops at the proxy", "127.0.0.1", "203.0.113.12, nonsense", http.StatusTooManyRequests},
	}
	for _, s := range steps {
		if got := postVia(t, ts, s.from, s.forwarded); got != s.want {
			t.Errorf("%s (from %s, X-Forwarded-For %q): %d; want %d", s.what, s.from, s.forwarded, got, s.want)
		}
	}
}

func TestParseTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		bad  bool
	}{
		{"", 0, false},
		{"127.0.0.1", 1, false},
		{" 10.0.0.0/8 , ::1,fd00::/8", 3, false},
		{"10.0.0.0/33", 0, true},
		{"proxy.example.org", 0, true},
		{"10.0.0.1:8080", 0, true},
	} {
		got, err := httpx.ParseTrustedProxies(tc.in)
		if (err != nil) != tc.bad || len(got) != tc.want {
			t.Errorf("ParseTrustedProxies(%q) = %v, %v; want %d networks, error %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestProxyConnections opens more websockets through a trusted proxy than
// one address may hold, each for another client: the proxy's connections
// count only against the total, each client's against its own cap.
func TestProxyConnections(t *testing.T) {
	proxies, _ := httpx.ParseTrustedProxies("127.0.0.1")
	ts := startListening(t, server.Config{MaxConns: 40, MaxConnsPerIP: 2, IPHeadroom: 1, ConnHeadroom: 4, TrustedProxies: proxies})
	id, _ := ts.twoPlayerGame("pogo")
	dial := func(from, client string) (int, error) {
		h := http.Header{}
		h.Set("X-Forwarded-For", client)
		c, res, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+id,
			&websocket.DialOptions{HTTPClient: clientFrom(from), HTTPHeader: h})
		if err != nil {
			code := 0
			if res != nil {
				code = res.StatusCode
			}
			return code, err
		}
		t.Cleanup(func() { c.CloseNow() })
		return 0, nil
	}
	for i := range 10 {
		client := fmt.Sprintf("203.0.113.%d", i/2+1) // two websockets each
		if code, err := dial("127.0.0.1", client); err != nil {
			t.Fatalf("websocket %d through the proxy for %s: %d %v", i+1, client, code, err)
		}
	}
	if code, _ := dial("127.0.0.1", "203.0.113.1"); code != http.StatusTooManyRequests {
		t.Errorf("a third websocket for one client through the proxy: %d; want 429", code)
	}
	// Not through a proxy: the address is the connection's.
	for i := range 2 {
		if code, err := dial("127.0.0.2", fmt.Sprint("198.51.100.", i+1)); err != nil {
			t.Fatalf("websocket %d from 127.0.0.2: %d %v", i+1, code, err)
		}
	}
	if code, _ := dial("127.0.0.2", "198.51.100.9"); code != http.StatusTooManyRequests {
		t.Errorf("a third websocket from 127.0.0.2 with a header of its own: %d; want 429", code)
	}
}
