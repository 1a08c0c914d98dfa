package server_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"stax/server"
	"stax/server/assets"
	"stax/web"
)

// get sends a GET with headers and returns the answer with its body.
func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	// An Accept-Encoding of the request's own keeps the body as sent.
	if req.Header.Get("Accept-Encoding") == "" {
		req.Header.Set("Accept-Encoding", "identity")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// TestPageHead checks the page served for the interface's routes: the
// import map names every module by a hashed URL that serves it, allowed
// by the Content-Security-Policy; the module graph is preloaded by hashed
// URLs; the style sheets are named by theirs; the description is the
// page's, in the visitor's language.
func TestPageHead(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Assets: web.FS()})
	res, body := get(t, ts.url+"/rules/pisola", map[string]string{"Accept-Language": "fr-FR,fr;q=0.9"})
	page := string(body)
	if res.StatusCode != 200 {
		t.Fatalf("GET /rules/pisola: %d", res.StatusCode)
	}
	if !strings.Contains(page, `<html lang="fr">`) || !strings.Contains(page, `<meta name="description" content="Les règles de Pogo, Pisola et Diam`) {
		t.Errorf("the French rules page lacks its language or description:\n%.600s", page)
	}
	if !strings.Contains(page, `>Parties récentes</a>`) || !strings.Contains(page, `>Règles du Pisola</a>`) || !strings.Contains(page, `<option value="fr" selected>`) {
		t.Errorf("the French page's header is not in French")
	}
	if !strings.Contains(page, `<meta name="stax-guest" content="">`) {
		t.Errorf("a guest's page does not say so")
	}

	// hashOK checks that a hashed URL serves the file of the plain one,
	// named by the hash of its bytes, cached as immutable.
	hashOK := func(plain, hashed string) {
		t.Helper()
		res, b := get(t, ts.url+hashed, nil)
		sum := sha256.Sum256(b)
		if res.StatusCode != 200 || !strings.Contains(hashed, "."+hex.EncodeToString(sum[:])[:assets.HashLen]+".") {
			t.Errorf("%s (for %s): status %d, its bytes' hash %x", hashed, plain, res.StatusCode, sum[:6])
		}
		if cc := res.Header.Get("Cache-Control"); cc != assets.Immutable {
			t.Errorf("%s: Cache-Control %q", hashed, cc)
		}
		res, p := get(t, ts.url+plain, nil)
		if res.StatusCode != 200 || string(p) != string(b) {
			t.Errorf("%s and %s differ", plain, hashed)
		}
	}

	m := regexp.MustCompile(`<script type="importmap">([^<]*)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no import map in the page:\n%.600s", page)
	}
	var importMap struct{ Imports map[string]string }
	if err := json.Unmarshal([]byte(m[1]), &importMap); err != nil {
		t.Fatal(err)
	}
	if len(importMap.Imports) < 20 {
		t.Errorf("the import map names %d modules", len(importMap.Imports))
	}
	for plain, hashed := range importMap.Imports {
		hashOK(plain, hashed)
	}
	sum := sha256.Sum256([]byte(m[1]))
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("the Content-Security-Policy %q does not allow the import map", csp)
	}

	preloads := regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`).FindAllStringSubmatch(page, -1)
	if len(preloads) < 20 {
		t.Errorf("%d modules preloaded", len(preloads))
	}
	hashedModules := map[string]bool{}
	for _, h := range importMap.Imports {
		hashedModules[h] = true
	}
	for _, p := range preloads {
		if !hashedModules[p[1]] {
			t.Errorf("%s is preloaded but not in the import map", p[1])
		}
	}
	if strings.Index(page, `type="importmap"`) > strings.Index(page, `rel="modulepreload"`) {
		t.Errorf("a module is preloaded before the import map")
	}
	for module, want := range map[string]bool{"/pages/rules.js": true, "/i18n/fr.js": true, "/i18n/en.js": true, "/i18n/es.js": false, "/pages/home.js": false} {
		if got := strings.Contains(page, `<link rel="modulepreload" href="`+importMap.Imports[module]+`">`); got != want {
			t.Errorf("the French rules page preloads %s: %v, want %v", module, got, want)
		}
	}
	for _, plain := range []string{"/style.css", "/app.js", "/favicon.svg"} {
		re := regexp.MustCompile(`(?:href|src)="(` + regexp.QuoteMeta(strings.TrimSuffix(plain, path.Ext(plain))) + `\.[0-9a-f]{12}\.[a-z]+)"`)
		if m := re.FindStringSubmatch(page); m == nil {
			t.Errorf("the page does not name %s by its hashed URL", plain)
		} else {
			hashOK(plain, m[1])
		}
	}

	// Each page has its description, in each language.
	seen := map[string]bool{}
	for _, p := range []string{"/", "/game/abc", "/analysis", "/rules/pogo", "/@/ann", "/leaderboard", "/puzzles", "/games", "/learn"} {
		for _, lang := range []string{"en", "fr", "es"} {
			_, b := get(t, ts.url+p, map[string]string{"Accept-Language": lang})
			d := regexp.MustCompile(`<meta name="description" content="([^"]{50,})">`).FindStringSubmatch(string(b))
			if d == nil {
				t.Errorf("%s in %s: no description", p, lang)
				continue
			}
			if seen[d[1]] {
				t.Errorf("%s in %s: the description %q is another page's", p, lang, d[1])
			}
			seen[d[1]] = true
		}
	}
}

// TestPageCompressed checks that the page is compressed, revalidated with
// its ETag, and says a visitor with a session cookie is not known to be a
// guest.
func TestPageCompressed(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Assets: web.FS()})
	res, body := get(t, ts.url+"/", map[string]string{"Accept-Encoding": "br, gzip"})
	if res.Header.Get("Content-Encoding") != "br" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("GET /: Content-Encoding %q, Cache-Control %q", res.Header.Get("Content-Encoding"), res.Header.Get("Cache-Control"))
	}
	if vary := strings.Join(res.Header.Values("Vary"), ", "); !strings.Contains(vary, "Accept-Encoding") || !strings.Contains(vary, "Accept-Language") {
		t.Errorf("GET /: Vary %q", vary)
	}
	if res.Header.Get("Content-Length") == "" || res.ContentLength != int64(len(body)) {
		t.Errorf("GET /: Content-Length %q for %d bytes", res.Header.Get("Content-Length"), len(body))
	}
	res, body = get(t, ts.url+"/", map[string]string{"Accept-Encoding": "br, gzip", "If-None-Match": res.Header.Get("ETag")})
	if res.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("GET / revalidated: %d with %d bytes", res.StatusCode, len(body))
	}
	// A signed-in player's page says who they are, and has their links.
	_, body = get(t, ts.url+"/", map[string]string{"Cookie": "stax_session=unknown"})
	if !strings.Contains(string(body), "stax-guest") {
		t.Errorf("a visitor with an unknown session is not taken for a guest")
	}
	req, _ := http.NewRequest("POST", ts.url+"/api/signup", strings.NewReader(`{"name":"ann","password":"a long enough secret"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("signing up: %v %v", res, err)
	}
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == "stax_session" {
			cookie = c.String()
		}
	}
	res, body = get(t, ts.url+"/", map[string]string{"Cookie": cookie, "Accept-Language": "fr"})
	page := string(body)
	if strings.Contains(page, "stax-guest") || !strings.Contains(page, `<meta name="stax-me" content="{&#34;name&#34;:&#34;ann&#34;`) ||
		!strings.Contains(page, `<a href="/@/ann" data-link>ann</a>`) || !strings.Contains(page, `>Se déconnecter</button>`) {
		t.Errorf("a signed-in player's page:\n%s", page)
	}
	if !strings.Contains(res.Header.Get("Cache-Control"), "private") {
		t.Errorf("a signed-in player's page is cached as %q", res.Header.Get("Cache-Control"))
	}
	// The service worker answers the hashed URLs from its cache.
	_, sw := get(t, ts.url+"/sw.js", nil)
	if strings.Contains(string(sw), "__HASHED__") || !regexp.MustCompile(`"/app\.[0-9a-f]{12}\.js":"/app\.js"`).Match(sw) {
		t.Errorf("the service worker lacks the hashed URLs: %.300s", sw)
	}
}

// TestAPICompressed checks that the API's larger answers are compressed
// for the clients that accept it, and the same once decoded.
func TestAPICompressed(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	_, plain := get(t, ts.url+"/api/games", nil)
	if len(plain) < 2048 {
		t.Fatalf("GET /api/games: %d bytes", len(plain))
	}
	for _, coding := range []string{"br", "gzip"} {
		res, body := get(t, ts.url+"/api/games", map[string]string{"Accept-Encoding": coding})
		if res.Header.Get("Content-Encoding") != coding || !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("GET /api/games accepting %s: Content-Encoding %q, Vary %q", coding, res.Header.Get("Content-Encoding"), res.Header.Values("Vary"))
			continue
		}
		if res.ContentLength != int64(len(body)) || len(body) >= len(plain)/2 {
			t.Errorf("GET /api/games in %s: Content-Length %d, %d bytes of %d", coding, res.ContentLength, len(body), len(plain))
		}
		var r io.Reader = bytes.NewReader(body)
		if coding == "br" {
			r = brotli.NewReader(r)
		} else {
			z, err := gzip.NewReader(r)
			if err != nil {
				t.Fatal(err)
			}
			r = z
		}
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, plain) {
			t.Errorf("GET /api/games in %s decodes to another answer (%v)", coding, err)
		}
	}
	// A POST's answer too: a new Pisola game's state.
	req, _ := http.NewRequest("POST", ts.url+"/api/games", strings.NewReader(`{"spec":"pisola","seats":[{"kind":"human"},{"kind":"ai","level":"easy"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "br")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || res.Header.Get("Content-Encoding") != "br" {
		t.Errorf("POST /api/games: %d, Content-Encoding %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	// Small answers and errors go as they are.
	res, _ = get(t, ts.url+"/api/nothing", map[string]string{"Accept-Encoding": "br"})
	if res.StatusCode != 404 || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("GET /api/nothing: %d, Content-Encoding %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
}
