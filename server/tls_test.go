package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"stax/server"
	"stax/server/account"
	"stax/server/httpx"
)

// TestSecureTransport checks the session cookie's Secure attribute and
// Strict-Transport-Security: both over TLS, both through a trusted proxy
// that received the request over TLS, neither over plain HTTP nor when a
// client that is not a proxy claims TLS in X-Forwarded-Proto.
func TestSecureTransport(t *testing.T) {
	proxies, err := httpx.ParseTrustedProxies("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{PasswordParams: cheapPasswords}
	plain := startServer(t, newDB(t), cfg)
	proxied := startServer(t, newDB(t), server.Config{PasswordParams: cheapPasswords, TrustedProxies: proxies})
	direct := startServer(t, newDB(t), cfg)
	direct.http.Close()
	tlsServer := httptest.NewTLSServer(direct.srv)
	defer tlsServer.Close()

	for i, tt := range []struct {
		what   string
		url    string
		client *http.Client
		from   string // the loopback address the request comes from
		proto  string // X-Forwarded-Proto, if any
		secure bool
	}{
		{"plain HTTP", plain.url, http.DefaultClient, "127.0.0.1", "", false},
		{"plain HTTP claiming TLS, not from a proxy", plain.url, http.DefaultClient, "127.0.0.1", "https", false},
		{"TLS", tlsServer.URL, tlsServer.Client(), "127.0.0.1", "", true},
		{"a trusted proxy that received TLS", proxied.url, nil, "127.0.0.1", "https", true},
		{"a trusted proxy that received TLS, several hops", proxied.url, nil, "127.0.0.1", "https, http", true},
		{"a trusted proxy that received plain HTTP", proxied.url, nil, "127.0.0.1", "http", false},
		{"a client that is not the proxy claiming TLS", proxied.url, nil, "127.0.0.3", "https", false},
	} {
		client := tt.client
		if client == nil {
			client = clientFrom(tt.from)
		}
		b, _ := json.Marshal(account.Credentials{Name: "user" + string(rune('a'+i)), Password: "correct horse"})
		req, _ := http.NewRequest("POST", tt.url+"/api/signup", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if tt.proto != "" {
			req.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.what, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("%s: signup %d", tt.what, res.StatusCode)
		}
		// Every cookie: the session's and the known device's.
		cookies := res.Header.Values("Set-Cookie")
		if len(cookies) == 0 {
			t.Fatalf("%s: no cookie set", tt.what)
		}
		for _, cookie := range cookies {
			if secure := strings.Contains(cookie, "; Secure"); secure != tt.secure {
				t.Errorf("%s: Set-Cookie %q; want Secure: %v", tt.what, cookie, tt.secure)
			}
		}
		hsts := res.Header.Get("Strict-Transport-Security")
		if (hsts != "") != tt.secure || tt.secure && hsts != "max-age=31536000" {
			t.Errorf("%s: Strict-Transport-Security %q; want one a year long: %v", tt.what, hsts, tt.secure)
		}
	}
}
