package server

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"stax/server/httpx"
	"strconv"
	"sync"
	"time"
)

// The defaults of the connection limits (see Config).
const (
	DefaultMaxConns          = 10000
	DefaultMaxConnsPerIP     = 100
	DefaultConnHeadroom      = 256
	DefaultIPHeadroom        = 16
	DefaultReadTimeout       = 15 * time.Second
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultPingInterval      = 30 * time.Second
	DefaultPingTimeout       = 20 * time.Second
)

// Listener wraps a listener so that it holds at most the websocket limits
// plus some headroom of connections (Config.ConnHeadroom in total,
// Config.IPHeadroom per address): a connection past that is answered 503
// at once and closed, without waiting for its request, so that the process
// keeps file descriptors for its listener, its database and requests such
// as GET /healthz however many connections are opened.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &limitListener{
		Listener: ln,
		max:      s.cfg.MaxConns + s.cfg.ConnHeadroom,
		perIP:    s.cfg.MaxConnsPerIP + s.cfg.IPHeadroom,
		refused:  listenerRefusals{&s.refused, s.metrics.refused.WithLabelValues(refusedConnections)},
		proxies:  s.cfg.TrustedProxies,
	}
}

// HTTPServer returns an http.Server for the server with its timeouts: a
// request's header must arrive within Config.ReadHeaderTimeout and its body
// within Config.ReadTimeout (slow senders are cut off), and an idle
// keep-alive connection is closed after two minutes. Websockets, once open,
// are kept alive by pings instead.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.ReadTimeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
}

// limitListener is the listener of Server.Listener.
type limitListener struct {
	net.Listener
	max, perIP int
	proxies    []netip.Prefix // whose connections count only in the total
	conns      httpx.ConnCount
	refused    interface{ Add(int64) int64 }
}

// tooManyBody and tooMany are the whole answer to a connection past the
// listener's limits.
const tooManyBody = `{"error":"the server holds too many connections; try again later"}` + "\n"

var tooMany = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 30\r\nConnection: close\r\n" +
	"Content-Length: " + strconv.Itoa(len(tooManyBody)) + "\r\n\r\n" + tooManyBody)

// Accept returns the next connection within the limits, refusing the
// others.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(ip); err == nil {
			ip = h
		}
		perIP := l.perIP
		if a, ok := httpx.PeerAddr(ip); ok && httpx.Trusted(l.proxies, a) {
			// A proxy carries many clients; each request is counted
			// against its client once its header has been read.
			perIP = math.MaxInt
		}
		if l.conns.Take(ip, l.max, perIP) != "" {
			l.refused.Add(1)
			c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			c.Write(tooMany)
			c.Close()
			continue
		}
		return &limitConn{Conn: c, release: func() { l.conns.Give(ip) }}, nil
	}
}

// limitConn is a connection of a limitListener; closing it frees its place.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
