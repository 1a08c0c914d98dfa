package server

import (
	"crypto/tls"
	"net/http"
	"strconv"
	"strings"
	"time"

	"stax/server/httpx"
)

// DefaultHSTSMaxAge is how long a browser that reached the site over TLS
// keeps to TLS for it (Strict-Transport-Security), by default.
const DefaultHSTSMaxAge = 365 * 24 * time.Hour

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
