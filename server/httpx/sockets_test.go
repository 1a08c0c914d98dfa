package httpx

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
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

// detach runs serve, a socket's life read with Read, on a goroutine of its
// own, then Done.
func detach(sk *Socket, serve func()) {
	go func() {
		defer sk.Done()
		serve()
	}()
}

// socketServer serves websockets that Sockets with limits accepts until
// the test ends: serve gets each socket once it is accepted, and runs its
// life with Serve or detach.
func socketServer(t *testing.T, limits SocketLimits, serve func(*Socket)) (*Sockets, *httptest.Server) {
	t.Helper()
	s := NewSockets(limits, nil, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sk, ok := s.Accept(w, r); ok {
			serve(sk)
		}
	}))
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return s, ts
}

// rawClient is a websocket client over a bare connection, so that a test
// sends and reads frames as they are and holds no goroutine.
type rawClient struct {
	net.Conn
	rd *bufio.Reader
}

// dialRaw opens a websocket to ts with a bare connection.
func dialRaw(t *testing.T, ts *httptest.Server) *rawClient {
	t.Helper()
	host := strings.TrimPrefix(ts.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req := "GET / HTTP/1.1\r\nHost: " + host + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	c := &rawClient{Conn: conn, rd: bufio.NewReader(conn)}
	res, err := http.ReadResponse(c.rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %s; want 101", res.Status)
	}
	return c
}

// send writes a masked frame (mask 0: the payload as is).
func (c *rawClient) send(t *testing.T, op byte, payload string) {
	t.Helper()
	frame := append([]byte{0x80 | op, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
	if _, err := c.Write(frame); err != nil {
		t.Fatal(err)
	}
}

// next reads the server's next frame (unmasked, short).
func (c *rawClient) next(t *testing.T) (op byte, payload string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	var h [2]byte
	if _, err := io.ReadFull(c.rd, h[:]); err != nil {
		t.Fatal(err)
	}
	p := make([]byte, h[1]&0x7F)
	if _, err := io.ReadFull(c.rd, p); err != nil {
		t.Fatal(err)
	}
	return h[0] & 0x0F, string(p)
}

// pong answers the server's next frame, which must be a ping.
func (c *rawClient) pong(t *testing.T) {
	t.Helper()
	op, p := c.next(t)
	if op != 0x9 {
		t.Fatalf("the server sent a frame of opcode %#x; want a ping (0x9)", op)
	}
	c.send(t, 0xA, p)
}

// TestIdlePongs checks that pongs answered while a socket waits for a
// message keep it open and never reach its reader as messages.
func TestIdlePongs(t *testing.T) {
	got := make(chan string, 10)
	s, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10, PingInterval: 10 * time.Millisecond, PingTimeout: 20 * time.Second}, func(sk *Socket) {
		stop := sk.KeepAlive()
		sk.Serve(func(typ websocket.MessageType, data []byte) {
			got <- fmt.Sprintf("%v %q", typ, data)
		}, func() { stop() })
	})
	c := dialRaw(t, ts)
	// Each ping comes only once the one before has had its pong: the
	// socket's Ping returned.
	for range 5 {
		c.pong(t)
	}
	c.send(t, 0x1, "after the pongs")
	if m := <-got; m != `MessageText "after the pongs"` {
		t.Fatalf("the reader got %s; want the text message alone", m)
	}
	c.pong(t)
	c.send(t, 0x2, "")
	if m := <-got; m != `MessageBinary ""` {
		t.Fatalf("the reader got %s; want the client's empty binary message", m)
	}
	if n := s.IdleClosed.Load(); n != 0 {
		t.Fatalf("%d sockets closed as idle; want none", n)
	}
	c.Close()
}

// TestCloseWhileIdle checks that a socket closed while it waits for a
// message tells the client the status and reason.
func TestCloseWhileIdle(t *testing.T) {
	socks := make(chan *Socket, 1)
	ended := make(chan error, 1)
	_, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, func(sk *Socket) {
		socks <- sk
		detach(sk, func() {
			_, _, err := sk.Read(context.Background())
			ended <- err
		})
	})
	c := dialRaw(t, ts)
	sk := <-socks
	// Wait until the socket waits by itself.
	for {
		sk.mu.Lock()
		w := sk.waiting
		sk.mu.Unlock()
		if w {
			break
		}
		runtime.Gosched()
	}
	sk.CloseWith(websocket.StatusPolicyViolation, "signed out")
	op, p := c.next(t)
	if op != 0x8 || len(p) < 2 || websocket.StatusCode(binary.BigEndian.Uint16([]byte(p))) != websocket.StatusPolicyViolation || p[2:] != "signed out" {
		t.Fatalf("the client got opcode %#x %q; want a close frame, 1008 signed out", op, p)
	}
	c.send(t, 0x8, p[:2])
	if err := <-ended; err == nil {
		t.Fatal("Read returned no error after the socket closed")
	}
}

// TestReadContextWhileIdle checks that a read whose context ends while
// it waits closes the socket.
func TestReadContextWhileIdle(t *testing.T) {
	ended := make(chan error, 1)
	_, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, func(sk *Socket) {
		detach(sk, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, _, err := sk.Read(ctx)
			ended <- err
		})
	})
	c := dialRaw(t, ts)
	if err := <-ended; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Read returned %v; want the context's deadline", err)
	}
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.rd.ReadByte(); err == nil {
		t.Fatal("the connection is still open")
	}
}

// TestIdleSockets checks what a socket waiting for a message holds, after
// a message and a pong: no goroutine at all where the system has a poller
// (Linux), elsewhere a stack of at most 4 KiB (the library's own read
// would hold 8 KiB, which for 10,000 idle sockets was 40 MB,
// docs/performance.md). The sockets still answer pings and messages.
func TestIdleSockets(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 300 websockets")
	}
	const n = 300
	socks := make(chan *Socket, n)
	got := make(chan string, n)
	s, ts := socketServer(t, SocketLimits{MaxConns: n, MaxConnsPerIP: n}, func(sk *Socket) {
		socks <- sk
		sk.Serve(func(_ websocket.MessageType, data []byte) { got <- string(data) }, func() {})
	})
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	stacks, goroutines := ms.StackInuse, runtime.NumGoroutine()
	clients := make([]*rawClient, n)
	all := make([]*Socket, n)
	for i := range clients {
		clients[i] = dialRaw(t, ts)
		all[i] = <-socks
	}
	ping := func() {
		pinged := make(chan error, n)
		for i, c := range clients {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				pinged <- all[i].Ping(ctx)
			}()
			c.pong(t)
		}
		for range n {
			if err := <-pinged; err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range clients {
		c.send(t, 0x1, "move")
	}
	for range n {
		<-got
	}
	ping()
	// Wait until every socket waits by itself (or is parked) again.
	deadline := time.Now().Add(20 * time.Second)
	for _, sk := range all {
		for {
			if time.Now().After(deadline) {
				t.Fatal("a socket did not go back to waiting after the pong: the library's read holds it")
			}
			sk.mu.Lock()
			w := sk.waiting || sk.parked
			sk.mu.Unlock()
			if w && !sk.nc.hasPending() {
				break
			}
			runtime.Gosched()
		}
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	perStack := float64(int64(ms.StackInuse)-int64(stacks)) / n
	perGoroutine := float64(runtime.NumGoroutine()-goroutines) / n
	t.Logf("per idle socket: %.2f goroutines, %.0f bytes of stack", perGoroutine, perStack)
	if s.poller() != nil {
		if perGoroutine > 0.1 {
			t.Errorf("%.2f goroutines per idle socket; want none (the poller watches them)", perGoroutine)
		}
	} else if !raceDetector && perStack > 5<<10 {
		t.Errorf("stack per idle socket: %.0f bytes; want at most about 4 KiB", perStack)
	}
	// Parked, they still answer pings and read messages.
	ping()
	for i, c := range clients {
		c.send(t, 0x1, fmt.Sprint("again ", i))
	}
	for range n {
		select {
		case <-got:
		case <-time.After(20 * time.Second):
			t.Fatal("a message to an idle socket was not read")
		}
	}
	for _, c := range clients {
		c.Close()
	}
}

// TestHandlersBounded checks that the messages of many sockets are
// handled at most SocketLimits.Handlers at a time, and all of them in the
// end.
func TestHandlersBounded(t *testing.T) {
	const sockets, limit = 12, 3
	var running, most atomic.Int32
	release := make(chan struct{})
	handled := make(chan struct{}, sockets)
	_, ts := socketServer(t, SocketLimits{MaxConns: sockets, MaxConnsPerIP: sockets, Handlers: limit}, func(sk *Socket) {
		sk.Serve(func(websocket.MessageType, []byte) {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			<-release
			running.Add(-1)
			handled <- struct{}{}
		}, func() {})
	})
	for range sockets {
		dialRaw(t, ts).send(t, 0x1, "resign")
	}
	// Wait until the first handlers hold every token, then a while for
	// any handler beyond the bound to show.
	for running.Load() < limit {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	for range sockets {
		select {
		case <-handled:
		case <-time.After(20 * time.Second):
			t.Fatal("a message waiting its turn was never handled")
		}
	}
	if m := most.Load(); m != limit {
		t.Fatalf("%d messages handled at once; want at most %d (and that many)", m, limit)
	}
}

// TestParkedEnds checks that a socket served with Serve ends, with end
// called once, however it closes while it waits for a message: closed by
// the server with a status, by the library, by the peer, or at shutdown.
func TestParkedEnds(t *testing.T) {
	for _, tt := range []struct {
		name  string
		close func(t *testing.T, s *Sockets, sk *Socket, c *rawClient)
	}{
		{"CloseWith", func(t *testing.T, s *Sockets, sk *Socket, c *rawClient) {
			sk.CloseWith(websocket.StatusPolicyViolation, "signed out")
			op, p := c.next(t)
			if op != 0x8 || len(p) < 2 || websocket.StatusCode(binary.BigEndian.Uint16([]byte(p))) != websocket.StatusPolicyViolation || p[2:] != "signed out" {
				t.Fatalf("the client got opcode %#x %q; want a close frame, 1008 signed out", op, p)
			}
			c.send(t, 0x8, p[:2])
		}},
		{"CloseNow", func(t *testing.T, s *Sockets, sk *Socket, c *rawClient) { sk.CloseNow() }},
		{"peer", func(t *testing.T, s *Sockets, sk *Socket, c *rawClient) { c.Close() }},
		{"peer's close", func(t *testing.T, s *Sockets, sk *Socket, c *rawClient) {
			c.send(t, 0x8, "\x03\xe8")
			if op, _ := c.next(t); op != 0x8 {
				t.Fatalf("the client got opcode %#x; want the close frame answered", op)
			}
		}},
		{"shutdown", func(t *testing.T, s *Sockets, sk *Socket, c *rawClient) {
			closed := make(chan struct{})
			go func() {
				s.Close()
				close(closed)
			}()
			if op, p := c.next(t); op != 0x8 || len(p) < 2 || websocket.StatusCode(binary.BigEndian.Uint16([]byte(p))) != websocket.StatusGoingAway {
				t.Fatalf("the client got opcode %#x %q; want a close frame, 1001", op, p)
			}
			c.send(t, 0x8, "\x03\xe9")
			<-closed
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			socks := make(chan *Socket, 1)
			var ends atomic.Int32
			ended := make(chan struct{}, 2)
			s, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, func(sk *Socket) {
				socks <- sk
				sk.Serve(func(websocket.MessageType, []byte) {}, func() {
					ends.Add(1)
					ended <- struct{}{}
				})
			})
			c := dialRaw(t, ts)
			sk := <-socks
			c.send(t, 0x1, "hello")
			waitSocket(t, sk, "back to waiting", func(sk *Socket) bool { return sk.parked || sk.waiting })
			tt.close(t, s, sk, c)
			select {
			case <-ended:
			case <-time.After(20 * time.Second):
				t.Fatal("the socket's end was never called")
			}
			s.Close() // waits for Done
			if n := ends.Load(); n != 1 {
				t.Fatalf("end called %d times; want once", n)
			}
		})
	}
}

// TestHalfMessage checks that a client that begins a message and sends
// no more holds the goroutine serving parked sockets only until
// FrameTimeout: its socket is closed, and another socket's message is
// handled.
func TestHalfMessage(t *testing.T) {
	got := make(chan string, 2)
	socks := make(chan *Socket, 2)
	s, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10, Handlers: 1, FrameTimeout: 100 * time.Millisecond}, func(sk *Socket) {
		socks <- sk
		sk.Serve(func(_ websocket.MessageType, data []byte) { got <- string(data) }, func() {})
	})
	if s.poller() == nil {
		t.Skip("no poller on this system: each socket waits on a goroutine of its own")
	}
	half := dialRaw(t, ts)
	sk := <-socks
	if _, err := half.Write([]byte{0x81}); err != nil {
		t.Fatal(err)
	}
	// The one goroutine serving parked sockets waits for the rest of the
	// half message.
	waitSocket(t, sk, "serving the half message", func(sk *Socket) bool { return sk.waiting })
	whole := dialRaw(t, ts)
	whole.send(t, 0x1, "move")
	select {
	case m := <-got:
		if m != "move" {
			t.Fatalf("handled %q; want the whole socket's move", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the whole message was not handled: the half one holds the server")
	}
	half.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.ReadAll(half.rd); err != nil {
		t.Fatalf("the half message's socket: %v; want it closed", err)
	}
}

// TestCloseParkedUnanswered checks that closing a parked socket whose
// peer does not answer the close holds none of the goroutines serving the
// ready queue: another socket's message is handled before the close
// handshake gives up on the silent peer.
func TestCloseParkedUnanswered(t *testing.T) {
	socks := make(chan *Socket, 2)
	events := make(chan string, 4)
	s, ts := socketServer(t, SocketLimits{MaxConns: 10, MaxConnsPerIP: 10, Handlers: 1}, func(sk *Socket) {
		socks <- sk
		sk.Serve(func(_ websocket.MessageType, data []byte) { events <- "handled " + string(data) }, func() { events <- "ended" })
	})
	if s.poller() == nil {
		t.Skip("no poller on this system: each socket waits on a goroutine of its own")
	}
	silent := dialRaw(t, ts)
	sk := <-socks
	waitSocket(t, sk, "parked", func(sk *Socket) bool { return sk.parked })
	sk.CloseWith(websocket.StatusGoingAway, "restarting")
	if op, _ := silent.next(t); op != 0x8 {
		t.Fatalf("the silent client got opcode %#x; want the close frame", op)
	}
	other := dialRaw(t, ts)
	other.send(t, 0x1, "move")
	if e := <-events; e != "handled move" {
		t.Fatalf("first %q; want the other socket's move handled while the close waits for the silent peer", e)
	}
	if e := <-events; e != "ended" {
		t.Fatalf("then %q; want the closed socket ended", e)
	}
}

// waitSocket waits until a socket's state, read under its lock, is what
// ok wants.
func waitSocket(t *testing.T, sk *Socket, what string, ok func(*Socket) bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; runtime.Gosched() {
		sk.mu.Lock()
		done := ok(sk)
		sk.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the socket was never %s", what)
		}
	}
}
