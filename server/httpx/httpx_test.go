package httpx

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestRateLimiter checks the token bucket a client address spends: a
// burst at once, then one every period, and a retry time that says when.
func TestRateLimiter(t *testing.T) {
	rl := NewRateLimiter(10*time.Second, 3)
	t0 := time.Unix(1_700_000_000, 0)
	for i := 0; i < 3; i++ {
		if ok, _ := rl.Allow("a", t0); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, retry := rl.Allow("a", t0)
	if ok || retry != 10*time.Second {
		t.Fatalf("past the burst: %v, retry %v; want refused, retry 10s", ok, retry)
	}
	if ok, _ := rl.Allow("b", t0); !ok {
		t.Fatal("another client was refused: the buckets are per client")
	}
	if ok, _ := rl.Allow("a", t0.Add(10*time.Second)); !ok {
		t.Fatal("refused after a token came back")
	}
	rl.Sweep(t0.Add(time.Hour))
	if len(rl.buckets) != 0 {
		t.Fatalf("%d buckets after a quiet hour; want none", len(rl.buckets))
	}
}

// TestClientIP checks whose address the per-address limits count: behind
// a trusted proxy, the nearest address the proxies did not write; from
// anyone else, the connection's address, whatever the header says.
func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		remote, forwarded string
		proxies           Proxies
		want              string
	}{
		{"203.0.113.5:4000", "198.51.100.1", nil, "203.0.113.5"},
		{"203.0.113.5:4000", "198.51.100.1", proxies, "203.0.113.5"},
		{"10.1.2.3:4000", "198.51.100.1", proxies, "198.51.100.1"},
		{"10.1.2.3:4000", "6.6.6.6, 198.51.100.1, 10.9.9.9", proxies, "198.51.100.1"},
		{"10.1.2.3:4000", "", proxies, "10.1.2.3"},
		{"10.1.2.3:4000", "not-an-address", proxies, "10.1.2.3"},
		{"[::ffff:127.0.0.1]:4000", "[2001:db8::1]:555", proxies, "2001:db8::1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.forwarded != "" {
			r.Header.Set("X-Forwarded-For", tc.forwarded)
		}
		if got := tc.proxies.ClientIP(r); got != tc.want {
			t.Errorf("%s via %q (%d proxies): %s; want %s", tc.remote, tc.forwarded, len(tc.proxies), got, tc.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("a bad network was accepted")
	}
	if ClientKey("2001:db8::1") != ClientKey("2001:db8::2") || ClientKey("192.0.2.1") == ClientKey("192.0.2.2") {
		t.Error("IPv6 addresses of one /64 are one client, IPv4 addresses each their own")
	}
}

// TestIDs checks the ids: valid ones are recognised, derived ones are
// stable.
func TestIDs(t *testing.T) {
	id := NewID()
	if !ValidID(id) || ValidID(id+"a") || ValidID("ABCDEFGHIJKLMNOP") {
		t.Fatalf("ValidID disagrees with NewID (%q)", id)
	}
	if DerivedID("rematch x") != DerivedID("rematch x") || !ValidID(DerivedID("y")) {
		t.Fatal("DerivedID is not a stable valid id")
	}
	if HashSecret("s") == HashSecret("t") || len(NewSecret()) != 32 {
		t.Fatal("secrets")
	}
}
