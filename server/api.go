package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"

	"stax/server/account"
	"stax/server/assets"
	"stax/server/httpx"
	"stax/server/view"
)

// routes composes the domains' routes behind the guard.
func (s *Server) routes() {
	m := http.NewServeMux()
	s.catalog.Routes(m)
	s.live.Routes(m)
	s.archive.Routes(m)
	s.accounts.Routes(m)
	s.ratings.Routes(m)
	s.lobby.Routes(m)
	s.analysis.Routes(m)
	s.offline.Routes(m)
	s.moderation.Routes(m)
	s.puzzles.Routes(m)
	s.explorer.Routes(m)
	s.lessons.Routes(m)
	s.bots.Routes(m)
	m.HandleFunc("GET /api/view", view.Handler(s.cfg.Games))
	m.HandleFunc("GET /healthz", s.handleHealth)
	if s.cfg.DebugStats {
		m.HandleFunc("GET /debug/stats", s.handleStats)
	}
	if s.cfg.Metrics {
		m.Handle("GET /metrics", s.metrics.handler())
	} else {
		m.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
			httpx.Error(w, http.StatusNotFound, "no metrics here; stax serve --metrics serves /metrics, and --health-addr on a listener of its own")
		})
	}
	m.HandleFunc("/debug/", func(w http.ResponseWriter, r *http.Request) {
		httpx.Error(w, http.StatusNotFound, "no debug endpoint here; stax serve --stats serves /debug/stats")
	})
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no API endpoint %s %s; see docs/server.md", r.Method, r.URL.Path))
	})
	m.HandleFunc("/", s.handleStatic)
	s.mux = s.metrics.count(s.secureTransport(s.guard(s.accounts.Guard(compressAPI(m)))))
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	// A stalled database is an unwell one: the check answers in time.
	ctx, cancel := context.WithTimeout(r.Context(), HealthDeadline)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		http.Error(w, "database: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	io.WriteString(w, "ok\n")
}

// hidden reports whether a slash-separated path has a segment starting
// with a dot.
func hidden(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// fallbackIndex is served when the server has no UI assets.
const fallbackIndex = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>stax</title>
<body style="font-family:sans-serif;max-width:40em;margin:2em auto">
<h1>stax</h1>
<p>The server is running, but it has no user interface files.
The API is described in docs/server.md: try <a href="/api/games">/api/games</a>
and <a href="/api/recent">/api/recent</a>.</p>
</body></html>
`

func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if s.cfg.Assets == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, fallbackIndex)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if hidden(name) {
		// .git, .env and the like are never part of the UI.
		http.NotFound(w, r)
		return
	}
	if name == "index.html" {
		s.serveIndex(w, r)
		return
	}
	if f, hashed := s.assets.Set().Lookup(name); f != nil && f.Name != "sw.js" {
		assets.Serve(w, r, f, hashed)
		return
	}
	if strings.Contains(path.Base(name), ".") {
		http.NotFound(w, r)
		return
	}
	// A page route of the UI: let the browser-side router handle it.
	s.serveIndex(w, r)
}

// guard wraps the routes: it sets the security headers, refuses a Host the
// server does not serve (a DNS-rebinding page names its own host) and a
// state-changing request whose body is not declared JSON (a cross-site form
// or a "simple" fetch can send text/plain without a preflight, never
// application/json). A request that carries an API token is no cross-site
// form's (a page cannot set Authorization without a preflight), and may
// send no body, as the bot API's actions do.
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
		switch {
		case r.Method == http.MethodGet, r.Method == http.MethodHead, r.Method == http.MethodOptions:
		case account.HasToken(r) && r.ContentLength == 0:
		default:
			if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
				httpx.Error(w, http.StatusUnsupportedMediaType, "a request that changes anything must send its body as Content-Type: application/json")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
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

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, s.Stats())
}

// serveIndex serves the interface's index.html, made for the page the
// request's path names, in the language of its Accept-Language (which
// the interface speaks unless the visitor chose another).
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	if s.assets == nil {
		http.NotFound(w, r)
		return
	}
	var me *account.Me
	if _, err := r.Cookie(account.SessionCookie); err == nil && s.accounts != nil {
		if u, ss, err := s.accounts.Session(r); err == nil {
			m := account.MeOf(u, ss)
			me = &m
		}
	}
	p, words := s.pages.get(s.assets.Set(), pageKind(r.URL.Path), pageModule(r.URL.Path, me == nil), pageLanguage(r.Header.Get("Accept-Language")), me == nil)
	if p == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", p.csp)
	h.Set("Vary", "Accept-Language, Cookie")
	h.Set("Cache-Control", "no-cache")
	if me != nil {
		// A signed-in player's page is theirs: made for each request.
		body := signedIn(p.body, words, *me)
		sum := sha256.Sum256(body)
		h.Set("Cache-Control", "no-cache, private")
		assets.ServeBytes(w, r, body, "text/html; charset=utf-8", base64.RawURLEncoding.EncodeToString(sum[:12]), nil)
		return
	}
	assets.ServeBytes(w, r, p.body, "text/html; charset=utf-8", p.tag, &p.enc)
}

// hashedURLs maps the plain URL of each asset to its hashed one, for the
// service worker.
func (s *Server) hashedURLs() map[string]string {
	if s.assets == nil {
		return nil
	}
	return s.assets.Set().Hashed()
}
