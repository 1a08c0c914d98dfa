package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/coder/websocket"

	"stax/server"
)

// do sends a request and returns the answer's status, body and header.
func do(t *testing.T, req *http.Request) (int, string, http.Header) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// TestSecurityHeaders checks that every answer forbids framing, sniffing
// and loading from elsewhere.
func TestSecurityHeaders(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	for _, path := range []string{"/", "/api/games", "/api/nothing", "/healthz"} {
		res, err := http.Get(ts.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		for h, want := range map[string]string{
			"Content-Security-Policy": "frame-ancestors 'none'",
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "DENY",
			"Referrer-Policy":         "no-referrer",
		} {
			if got := res.Header.Get(h); !strings.Contains(got, want) {
				t.Errorf("GET %s: %s = %q; want it to hold %q", path, h, got, want)
			}
		}
	}
}

// TestHostCheck checks that a request naming a host the server does not
// serve (a DNS-rebinding page) is refused, over HTTP and websockets, and
// that configured hosts are served.
func TestHostCheck(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{AllowedHosts: []string{"stax.example.org", ".example.net"}})
	id, _ := ts.twoPlayerGame("pogo")
	for _, tt := range []struct {
		host string
		code int
	}{
		{"evil.example:18180", http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example", http.StatusMisdirectedRequest},
		{"example.org", http.StatusMisdirectedRequest},
		{"localhost:8080", http.StatusOK},
		{"LOCALHOST.", http.StatusOK},
		{"[::1]:8080", http.StatusOK},
		{"127.0.0.2", http.StatusOK},
		{"stax.example.org", http.StatusOK},
		{"Stax.Example.Org:443", http.StatusOK},
		{"play.example.net", http.StatusOK},
		{"example.net", http.StatusOK},
	} {
		req, _ := http.NewRequest("GET", ts.url+"/api/games/"+id, nil)
		req.Host = tt.host
		if code, body, _ := do(t, req); code != tt.code {
			t.Errorf("Host %s: %d %s; want %d", tt.host, code, body, tt.code)
		}
	}
	// A rebinding page opening a websocket sends its own host as Host and
	// Origin: refused before the handshake.
	h := http.Header{}
	h.Set("Origin", "http://evil.example:18180")
	_, res, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+id,
		&websocket.DialOptions{HTTPHeader: h, Host: "evil.example:18180"})
	if err == nil || res == nil || res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("websocket for Host evil.example: %v, %v; want refused with 421", res, err)
	}
}

// TestJSONRequired checks that a state-changing request must declare a
// JSON body, which a cross-site form or a simple cross-site fetch cannot.
func TestJSONRequired(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	body := `{"spec":"pogo","seats":[{"kind":"human"},{"kind":"human"}]}`
	for _, tt := range []struct {
		ctype string
		code  int
	}{
		{"text/plain", http.StatusUnsupportedMediaType},
		{"application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"multipart/form-data; boundary=x", http.StatusUnsupportedMediaType},
		{"", http.StatusUnsupportedMediaType},
		{"application/json", http.StatusCreated},
		{"application/json; charset=utf-8", http.StatusCreated},
	} {
		req, _ := http.NewRequest("POST", ts.url+"/api/games", strings.NewReader(body))
		if tt.ctype != "" {
			req.Header.Set("Content-Type", tt.ctype)
		}
		if code, b, _ := do(t, req); code != tt.code {
			t.Errorf("POST with Content-Type %q: %d %s; want %d", tt.ctype, code, b, tt.code)
		}
	}
	// Trailing data after the JSON body is refused.
	req, _ := http.NewRequest("POST", ts.url+"/api/games", strings.NewReader(body+` {"spec":"diam"}`))
	req.Header.Set("Content-Type", "application/json")
	if code, b, _ := do(t, req); code != http.StatusBadRequest || !strings.Contains(b, "after the JSON") {
		t.Errorf("POST with trailing data: %d %s; want 400 saying data follows the JSON", code, b)
	}
}

// TestDebugStatsOptIn checks that the server's counters are served only
// when asked for.
func TestDebugStatsOptIn(t *testing.T) {
	for _, on := range []bool{false, true} {
		ts := startServer(t, newDB(t), server.Config{DebugStats: on})
		res, err := http.Get(ts.url + "/debug/stats")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		want := http.StatusNotFound
		if on {
			want = http.StatusOK
		}
		if res.StatusCode != want {
			t.Errorf("DebugStats %v: GET /debug/stats = %d; want %d", on, res.StatusCode, want)
		}
	}
}

// TestHiddenAssets checks that dot files of the assets are never served.
func TestHiddenAssets(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Assets: fstest.MapFS{
		"index.html":      {Data: []byte("<title>stax</title>")},
		"app.js":          {Data: []byte("// app")},
		".env":            {Data: []byte("SECRET=1")},
		".git/config":     {Data: []byte("[core]")},
		"img/.hidden.svg": {Data: []byte("<svg/>")},
	}})
	for path, code := range map[string]int{
		"/app.js": 200, "/": 200, "/game/abc": 200,
		"/.env": 404, "/.git/config": 404, "/img/.hidden.svg": 404, "/.git/": 404, "/x/../.env": 404,
	} {
		req, _ := http.NewRequest("GET", ts.url+path, nil)
		got, b, _ := do(t, req)
		if got != code || strings.Contains(b, "SECRET") || strings.Contains(b, "[core]") {
			t.Errorf("GET %s = %d %.60q; want %d", path, got, b, code)
		}
	}
}
