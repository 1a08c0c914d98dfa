package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serveInProcess runs serve with c until the test ends and returns the
// site's address and what serve printed.
func serveInProcess(t *testing.T, c serveConfig) (addr string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	e := &env{stdout: out, stderr: io.Discard}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	if c.db == "" {
		c.db = filepath.Join(t.TempDir(), "stax.db")
	}
	c.sync = "normal"
	c.ready = func(addr string) { ready <- addr }
	go func() { done <- serve(ctx, e, discardLogger(), c) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	select {
	case addr = <-ready:
	case err := <-done:
		done <- nil
		t.Fatal(err)
	}
	return addr, out
}

// get returns the status and body of a GET.
func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	res, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestServeHealthAddr checks that --health-addr serves /healthz and
// /metrics on a listener of its own, and --metrics on the site's.
func TestServeHealthAddr(t *testing.T) {
	for _, tt := range []struct {
		metrics  bool
		siteCode int
	}{{false, http.StatusNotFound}, {true, http.StatusOK}} {
		addr, out := serveInProcess(t, serveConfig{addr: "127.0.0.1:0", healthAddr: "127.0.0.1:0", metrics: tt.metrics})
		m := regexp.MustCompile(`operators' listener on (http://[^ ]+)/ `).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("serve printed %q; want the operators' listener", out.String())
		}
		if code, body := get(t, http.DefaultClient, m[1]+"/healthz"); code != http.StatusOK {
			t.Errorf("GET /healthz on --health-addr: %d %s", code, body)
		}
		if code, body := get(t, http.DefaultClient, m[1]+"/metrics"); code != http.StatusOK || !strings.Contains(body, "stax_moves_total") {
			t.Errorf("GET /metrics on --health-addr: %d %.200s", code, body)
		}
		if code, _ := get(t, http.DefaultClient, "http://"+addr+"/metrics"); code != tt.siteCode {
			t.Errorf("GET /metrics on --addr with --metrics=%v: %d; want %d", tt.metrics, code, tt.siteCode)
		}
	}
}
