package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"stax/server/httpx"
	"strings"
)

// contentSecurityPolicy lets the page load its own scripts, styles, images
// and websocket and nothing else, and forbids framing it (so that no other
// site can overlay it and have a hidden button clicked). 'wasm-unsafe-eval'
// lets the engine's worker compile the site's own WebAssembly
// (server/offline), and nothing else: it allows no eval of JavaScript.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders are set on every answer.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", contentSecurityPolicy},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
}

// guard wraps the routes: it sets the security headers, refuses a Host the
// server does not serve (a DNS-rebinding page names its own host) and a
// state-changing request whose body is not declared JSON (a cross-site form
// or a "simple" fetch can send text/plain without a preflight, never
// application/json).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range securityHeaders {
			h.Set(kv[0], kv[1])
		}
		if !s.hostAllowed(r.Host) {
			httpx.Error(w, http.StatusMisdirectedRequest, fmt.Sprintf("this server does not serve the host %q; its operator can allow it with stax serve --allowed-hosts", hostOnly(r.Host)))
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
				httpx.Error(w, http.StatusUnsupportedMediaType, "a request that changes anything must send its body as Content-Type: application/json")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// hostOnly returns the host name of a Host header, without its port or
// brackets, in lower case and without a trailing dot.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// isLoopbackHost reports whether a host name can only mean this machine:
// localhost, a name under .localhost, or a loopback address.
func isLoopbackHost(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostAllowed reports whether the server answers requests for host (a Host
// header). Loopback names are always allowed; Config.AllowedHosts adds
// others ("*" any, ".example.org" the domain and its subdomains).
func (s *Server) hostAllowed(host string) bool {
	h := hostOnly(host)
	if isLoopbackHost(h) {
		return true
	}
	for _, a := range s.cfg.AllowedHosts {
		a = strings.TrimSuffix(strings.ToLower(a), ".")
		switch {
		case a == "*", a == h:
			return true
		case strings.HasPrefix(a, ".") && (h == a[1:] || strings.HasSuffix(h, a)):
			return true
		}
	}
	return false
}
