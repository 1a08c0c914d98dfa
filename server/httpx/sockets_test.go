package httpx

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestMessageWithHandshake sends a websocket message in the same write as
// the handshake, so that the HTTP server has read it already when the
// socket takes the connection over: the socket must read it first, intact.
func TestMessageWithHandshake(t *testing.T) {
	s := NewSockets(SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, nil, nil)
	defer s.Close()
	got := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sk, ok := s.Accept(w, r)
		if !ok {
			got <- "not accepted"
			return
		}
		defer sk.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, data, err := sk.Read(ctx)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(data)
	}))
	defer ts.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const msg = "hello, server"
	// A masked text frame, as a client sends it (mask 0: the payload as is).
	frame := append([]byte{0x81, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	req := "GET / HTTP/1.1\r\nHost: " + strings.TrimPrefix(ts.URL, "http://") + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := conn.Write(append([]byte(req), frame...)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %s; want 101", res.Status)
	}
	select {
	case m := <-got:
		if m != msg {
			t.Fatalf("the server read %q; want %q", m, msg)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server read nothing")
	}
}
