package server

import (
	"crypto/tls"
	"math"
	"net"
	"net/http"
	"net/netip"
	"stax/server/httpx"
	"strconv"
	"strings"
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
// are kept alive by pings instead, and the bot API's streams by their
// lines (each must be written within 20 s).
func (s *Server) HTTPServer() *http.Server {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.ReadTimeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
	}
	// The bot API's streams are requests that last: a graceful shutdown
	// ends them rather than waiting for them.
	hs.RegisterOnShutdown(s.bots.Close)
	return hs
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

// Unwrap returns the connection counted, which the websockets' poller
// watches (httpx.ConnWrapper).
func (c *limitConn) Unwrap() net.Conn { return c.Conn }

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// HealthHandler returns the handler of the operators' listener (stax serve
// --health-addr): GET /healthz, GET /metrics, and GET /debug/stats when
// Config.DebugStats is set. It has none of the site's routes and is meant
// for a private address, where a scraper or a load balancer's health
// check is never refused because the site's connections are at their
// limits.
func (s *Server) HealthHandler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.Handle("GET /metrics", s.metrics.handler())
	if s.cfg.DebugStats {
		m.HandleFunc("GET /debug/stats", s.handleStats)
	}
	return s.metrics.count(m)
}

// HealthServer returns an http.Server for HealthHandler, with short
// timeouts: its clients are probes and scrapers, and an idle connection is
// closed after a few seconds.
func (s *Server) HealthServer() *http.Server {
	return &http.Server{
		Handler:           s.HealthHandler(),
		ReadHeaderTimeout: 2 * time.Second,
		ReadTimeout:       5 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       10 * time.Second,
	}
}

// forwardedTLS reports whether a request came through a trusted proxy
// that received it over TLS: the proxy says so in X-Forwarded-Proto (the
// first value, written by the proxy nearest the browser). The header of
// anyone else is ignored, since any client can write it.
func (s *Server) forwardedTLS(r *http.Request) bool {
	if len(s.cfg.TrustedProxies) == 0 {
		return false
	}
	peer, ok := httpx.PeerAddr(r.RemoteAddr)
	if !ok || !httpx.Trusted(s.cfg.TrustedProxies, peer) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// secureTransport wraps the routes so that what the browser reached over
// TLS is treated as such: the answer carries Strict-Transport-Security,
// and a request a trusted proxy received over TLS is passed on with a
// (blank) r.TLS, so that every domain's test of r.TLS (the session
// cookie's Secure attribute) answers for the browser's connection rather
// than the proxy's.
func (s *Server) secureTransport(next http.Handler) http.Handler {
	hsts := ""
	if s.cfg.HSTSMaxAge > 0 {
		hsts = "max-age=" + strconv.FormatInt(int64(s.cfg.HSTSMaxAge/time.Second), 10)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil && s.forwardedTLS(r) {
			r = r.WithContext(r.Context())
			r.TLS = &tls.ConnectionState{}
		}
		if r.TLS != nil && hsts != "" {
			w.Header().Set("Strict-Transport-Security", hsts)
		}
		next.ServeHTTP(w, r)
	})
}
