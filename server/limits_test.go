package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server"
	"stax/server/play"
)

// startListening starts a server as stax serve does: its own http.Server
// with the server's timeouts, behind the server's limiting listener.
func startListening(t *testing.T, cfg server.Config) *testServer {
	t.Helper()
	ts := startServer(t, newDB(t), cfg)
	ts.http.Close() // the httptest server is not used
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := ts.srv.HTTPServer()
	go hs.Serve(ts.srv.Listener(ln))
	t.Cleanup(func() { hs.Close() })
	ts.url = "http://" + ln.Addr().String()
	return ts
}

// clientFrom returns an HTTP client whose connections come from the
// loopback address ip (Linux answers on all of 127.0.0.0/8).
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// dialFrom opens a websocket to a game from a loopback address; it returns
// the HTTP status of a refusal.
func (ts *testServer) dialFrom(ip, id string) (*websocket.Conn, int, error) {
	c, res, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+id,
		&websocket.DialOptions{HTTPClient: clientFrom(ip)})
	if err != nil {
		code := 0
		if res != nil {
			code = res.StatusCode
			if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
				if res.Header.Get("Retry-After") == "" {
					return nil, code, fmt.Errorf("refusal %d without Retry-After", code)
				}
			}
		}
		return nil, code, err
	}
	// Read in the background, as a browser does, so that pings are
	// answered.
	go func() {
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	return c, 0, nil
}

func healthy(t *testing.T, c *http.Client, url string) {
	t.Helper()
	res, err := c.Get(url + "/healthz")
	if err != nil {
		t.Fatalf("GET /healthz: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /healthz = %d %s; want 200", res.StatusCode, b)
	}
}

// TestConnectionCaps checks the per-address and total websocket limits:
// the connection past each is refused with 429 or 503 and Retry-After,
// /healthz keeps answering at the cap, and a freed place can be taken
// again.
func TestConnectionCaps(t *testing.T) {
	ts := startListening(t, server.Config{MaxConns: 12, MaxConnsPerIP: 8, IPHeadroom: 4, ConnHeadroom: 4})
	id, _ := ts.twoPlayerGame("pogo")
	var open []*websocket.Conn
	for i := range 8 {
		c, code, err := ts.dialFrom("127.0.0.1", id)
		if err != nil {
			t.Fatalf("websocket %d from 127.0.0.1: %d %v", i, code, err)
		}
		open = append(open, c)
	}
	if _, code, err := ts.dialFrom("127.0.0.1", id); code != http.StatusTooManyRequests {
		t.Fatalf("websocket 9 from 127.0.0.1: %d %v; want 429 with Retry-After", code, err)
	}
	for i := range 4 {
		c, code, err := ts.dialFrom("127.0.0.2", id)
		if err != nil {
			t.Fatalf("websocket %d from 127.0.0.2: %d %v", i, code, err)
		}
		open = append(open, c)
	}
	if _, code, err := ts.dialFrom("127.0.0.3", id); code != http.StatusServiceUnavailable {
		t.Fatalf("websocket 13 in all: %d %v; want 503 with Retry-After", code, err)
	}
	for range 20 {
		healthy(t, clientFrom("127.0.0.1"), ts.url)
	}
	open[0].Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, code, err := ts.dialFrom("127.0.0.3", id)
		if err == nil {
			open = append(open, c)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a freed place was not given again: %d %v", code, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range open {
		c.CloseNow()
	}
	if st := ts.srv.Stats(); st.Refused < 2 {
		t.Errorf("stats count %d refusals; want at least 2", st.Refused)
	}
}

// TestIdleFlood floods the server with connections that send nothing
// from one address: those past the listener's limit are answered 503 at
// once, the others are cut off after the header timeout, and /healthz
// answers another address throughout.
func TestIdleFlood(t *testing.T) {
	ts := startListening(t, server.Config{MaxConns: 50, MaxConnsPerIP: 10, IPHeadroom: 5, ReadHeaderTimeout: 300 * time.Millisecond})
	addr := strings.TrimPrefix(ts.url, "http://")
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	refused := 0
	for range 200 {
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	healthy(t, clientFrom("127.0.0.1"), ts.url)
	var wg sync.WaitGroup
	var mu sync.Mutex
	cut := 0
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			line, err := bufio.NewReader(c).ReadString('\n')
			mu.Lock()
			defer mu.Unlock()
			switch {
			case strings.HasPrefix(line, "HTTP/1.1 503"):
				refused++
			case err != nil && strings.Contains(err.Error(), "timeout"):
				// still open after 10s: neither
			default:
				cut++ // closed by the server after the header timeout
			}
		}()
	}
	wg.Wait()
	healthy(t, clientFrom("127.0.0.1"), ts.url)
	if refused != 200-15 || cut != 15 {
		t.Errorf("of 200 idle connections %d were refused and %d cut off; want %d and %d", refused, cut, 200-15, 15)
	}
}

// TestSlowBody checks that a request whose body trickles in is cut off at
// the read timeout, not held.
func TestSlowBody(t *testing.T) {
	ts := startListening(t, server.Config{ReadTimeout: 500 * time.Millisecond})
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	start := time.Now()
	closed := make(chan time.Duration, 1)
	go func() {
		io.Copy(io.Discard, c)
		closed <- time.Since(start)
	}()
	for i := 0; i < 100; i++ {
		select {
		case <-closed:
			return // cut off, as wanted
		case <-time.After(100 * time.Millisecond):
		}
		if _, err := c.Write([]byte(" ")); err != nil {
			return // cut off
		}
	}
	t.Errorf("a body sent one byte every 100ms was still being read after 10s; want it cut off at the 500ms read timeout")
}

// TestPingTimeout checks that a websocket whose peer stops answering pings
// is closed, and one that answers stays open.
func TestPingTimeout(t *testing.T) {
	// The peer that answers has 2 s to do it, however busy the machine;
	// the one that never reads is closed all the same.
	ts := startListening(t, server.Config{PingInterval: 100 * time.Millisecond, PingTimeout: 2 * time.Second})
	id, _ := ts.twoPlayerGame("pogo")
	live, _, err := ts.dialFrom("127.0.0.1", id)
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	// A peer that never reads never answers a ping.
	dead, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dead.CloseNow()
	deadline := time.Now().Add(10 * time.Second)
	for ts.srv.Stats().PingClosed == 0 {
		if time.Now().After(deadline) {
			t.Fatal("a websocket that answers no ping was not closed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // several more pings
	if st := ts.srv.Stats(); st.PingClosed != 1 || st.Conns != 1 {
		t.Errorf("stats: %d closed for pings, %d open; want 1 and 1 (the peer that answers)", st.PingClosed, st.Conns)
	}
	if err := live.Ping(context.Background()); err != nil {
		t.Errorf("the websocket that answers pings was closed: %v", err)
	}
}

// TestWatcherCrowd opens many spectators of one game at once: each is told
// the count of watchers about once a second while they come, not once per
// join, none is closed as too slow, and the last count is right.
func TestWatcherCrowd(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	id, _ := ts.twoPlayerGame("pogo")
	const crowd = 80
	type seen struct {
		counts int
		last   int
	}
	results := make(chan seen, crowd)
	var conns []*websocket.Conn
	deadline := time.Now().Add(20 * time.Second)
	start := time.Now()
	for range crowd {
		c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+id, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadLimit(1 << 20)
		conns = append(conns, c)
		go func() {
			var s seen
			defer func() { results <- s }()
			for s.last != crowd {
				ctx, cancel := context.WithDeadline(context.Background(), deadline)
				_, data, err := c.Read(ctx)
				cancel()
				if err != nil {
					return
				}
				var m struct {
					Type  string
					Count int
				}
				if json.Unmarshal(data, &m) == nil && m.Type == "watchers" {
					s.counts++
					s.last = m.Count
				}
			}
		}()
	}
	joining := time.Since(start)
	most := int(joining/time.Second) + 3 // one a second, and the last
	for range crowd {
		s := <-results
		if s.last != crowd || s.counts > most {
			t.Errorf("a spectator was told %d counts, the last %d, while the crowd joined in %v; want at most %d, the last %d", s.counts, s.last, joining, most, crowd)
			break
		}
	}
	for _, c := range conns {
		c.CloseNow()
	}
}

// TestIdleGameSockets checks that the websockets of a game, behind the
// server's limiting listener as stax serve has them, hold no goroutine
// while they wait for a message (Linux's poller watches them), and still
// get the moves.
func TestIdleGameSockets(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the poller of idle websockets is Linux's")
	}
	ts := startListening(t, server.Config{})
	cr := ts.create(play.CreateRequest{Spec: "pogo", Seats: hotseat.Seats})
	p := ts.dial("player", cr.ID, cr.Token)
	p.hello()
	before := runtime.NumGoroutine()
	const crowd = 40
	var watchers []*wsClient
	for i := range crowd {
		w := ts.dial(fmt.Sprint("spectator ", i), cr.ID, "")
		w.hello()
		watchers = append(watchers, w)
	}
	n := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n = runtime.NumGoroutine() - before; n <= crowd/4 {
			break
		}
	}
	if n > crowd/4 {
		t.Fatalf("%d goroutines more with %d idle websockets; want almost none", n, crowd)
	}
	p.move("1a1-a2", 0)
	for _, w := range watchers {
		w.waitPly(1)
	}
}
