// Package offline serves what the site needs to work without the server:
// the engine compiled for the browser (the rules, search and levels in
// WebAssembly, which cmd/stax-wasm is; stax serve builds it at start, see
// docs/offline.md), the Go runtime's loader of it, and the service worker
// that keeps the interface's files and the engine in the browser's cache.
//
// The engine may be missing (being built, or the go tool or the source
// absent): GET /engine/status says why, the rest of the site works
// without it, and the interface offers no offline play.
package offline

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Engine is the engine for the browser, built.
type Engine struct {
	// Gzip is the WebAssembly module compressed with gzip, which the
	// browsers that accept it are sent (every one in use does); Size is
	// the module's own size. The module itself is kept only when it has no
	// gzip form: otherwise Module expands it for the rare client that
	// wants it plain, rather than the server holding both (4.6 and 1.4 MB).
	Gzip []byte
	Size int
	wasm []byte
	// Exec is the Go runtime's wasm_exec.js of the toolchain that built
	// the module, which loads it.
	Exec []byte
	// Version names this build: a hash of the module and Exec.
	Version string
}

// NewEngine returns the Engine of a module and its loader, with its gzip
// form (nil for none) and version.
func NewEngine(wasm, exec, gzip []byte) *Engine {
	h := sha256.New()
	h.Write(wasm)
	h.Write(exec)
	e := &Engine{Gzip: gzip, Size: len(wasm), Exec: exec, Version: hex.EncodeToString(h.Sum(nil))[:16]}
	if len(gzip) == 0 {
		e.wasm = wasm
	}
	return e
}

// Module returns the WebAssembly module: the one kept, or its gzip form
// expanded.
func (e *Engine) Module() ([]byte, error) {
	if e.wasm != nil || len(e.Gzip) == 0 {
		return e.wasm, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(e.Gzip))
	if err != nil {
		return nil, fmt.Errorf("the engine's gzip form: %w", err)
	}
	b := bytes.NewBuffer(make([]byte, 0, e.Size))
	if _, err := b.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("the engine's gzip form: %w", err)
	}
	if b.Len() != e.Size {
		return nil, fmt.Errorf("the engine's gzip form expands to %d bytes; want %d", b.Len(), e.Size)
	}
	return b.Bytes(), nil
}

// Source gives the engine: the built one, or nil and why there is none
// (yet); building reports that it is on its way.
type Source interface {
	Engine() (e *Engine, building bool, why error)
}

// ErrNoSource is why a server configured without an engine has none.
var ErrNoSource = errors.New("this server was started without the browser engine")

// Config configures the offline files.
type Config struct {
	// Source gives the engine; nil serves none (ErrNoSource).
	Source Source
	// Assets are the interface's files, which the service worker caches;
	// sw.js among them is its template (see ServiceWorker).
	Assets fs.FS
	// Hashed, when set, maps the plain URL of each asset to the
	// content-hashed URL the pages load it by (server/assets); the worker
	// answers the hashed URLs of its version from its cache too.
	Hashed func() map[string]string
}

// Offline serves the engine and the service worker.
type Offline struct {
	cfg Config
}

// New returns the offline files' server.
func New(cfg Config) *Offline { return &Offline{cfg: cfg} }

// Routes adds GET /engine/status, /engine/stax.wasm, /engine/wasm_exec.js
// and /sw.js.
func (o *Offline) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /engine/status", o.handleStatus)
	m.HandleFunc("GET /engine/stax.wasm", o.handleWasm)
	m.HandleFunc("GET /engine/wasm_exec.js", o.handleExec)
	m.HandleFunc("GET /sw.js", o.handleServiceWorker)
}

// Status is the answer of GET /engine/status.
type Status struct {
	// Ready is true when the engine is served; Building while it is being
	// built. Code says why it is not served, for the interface's
	// catalogue: "none" (the server has no engine), "building" or
	// "failed"; Reason says it in words, for people reading logs and
	// scripts.
	Ready    bool   `json:"ready"`
	Building bool   `json:"building,omitempty"`
	Code     string `json:"code,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Version  string `json:"version,omitempty"`
	// Size and GzipSize are the module's sizes in bytes.
	Size     int `json:"size,omitempty"`
	GzipSize int `json:"gzipSize,omitempty"`
}

// engine returns the engine and the status of the engine.
func (o *Offline) engine() (*Engine, Status) {
	if o.cfg.Source == nil {
		return nil, Status{Code: "none", Reason: ErrNoSource.Error()}
	}
	e, building, why := o.cfg.Source.Engine()
	if e == nil {
		st := Status{Building: building, Code: "failed"}
		if building {
			st.Code = "building"
		}
		if why != nil {
			st.Reason = why.Error()
		}
		return nil, st
	}
	return e, Status{Ready: true, Version: e.Version, Size: e.Size, GzipSize: len(e.Gzip)}
}

func (o *Offline) handleStatus(w http.ResponseWriter, r *http.Request) {
	_, st := o.engine()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, st)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// unavailable answers a request for the engine's files while there is
// none.
func unavailable(w http.ResponseWriter, st Status) {
	w.Header().Set("Cache-Control", "no-store")
	if st.Building {
		w.Header().Set("Retry-After", "10")
	}
	http.Error(w, "the browser engine is not available: "+st.Reason, http.StatusServiceUnavailable)
}

func (o *Offline) handleWasm(w http.ResponseWriter, r *http.Request) {
	e, st := o.engine()
	if e == nil {
		unavailable(w, st)
		return
	}
	w.Header().Set("Content-Type", "application/wasm")
	w.Header().Set("Vary", "Accept-Encoding")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+e.Version+`"`)
	body := e.Gzip
	if acceptsGzip(r.Header.Get("Accept-Encoding")) && len(e.Gzip) > 0 {
		w.Header().Set("Content-Encoding", "gzip")
	} else {
		var err error
		if body, err = e.Module(); err != nil {
			http.Error(w, "the browser engine could not be read: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

func (o *Offline) handleExec(w http.ResponseWriter, r *http.Request) {
	e, st := o.engine()
	if e == nil {
		unavailable(w, st)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+e.Version+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(e.Exec))
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return strings.ReplaceAll(params, " ", "") != "q=0"
		}
	}
	return false
}

// ServiceWorker returns the service worker: the template sw.js of the
// assets with its two placeholders filled, __VERSION__ with the version
// of the interface's files and the engine together (so that a new
// deployment changes the worker's bytes, which is how the browser learns
// of an update), and __SHELL__ with the list of files to cache (every
// asset but sw.js, the page itself as "/", and the engine's two files
// when it is ready); and __HASHED__ with the hashed URLs of the files
// (Config.Hashed), each sending to the plain URL it is cached under.
func (o *Offline) ServiceWorker() ([]byte, error) {
	if o.cfg.Assets == nil {
		return nil, errors.New("no interface files to cache")
	}
	tmpl, err := fs.ReadFile(o.cfg.Assets, "sw.js")
	if err != nil {
		return nil, err
	}
	files, hash, err := o.shell()
	if err != nil {
		return nil, err
	}
	version := hash
	e, _ := o.engine()
	if e != nil {
		version += "-" + e.Version
		files = append(files, "/engine/wasm_exec.js", "/engine/stax.wasm")
	}
	list, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	aliases := map[string]string{}
	if o.cfg.Hashed != nil {
		cached := map[string]bool{}
		for _, f := range files {
			cached[f] = true
		}
		for plain, hashed := range o.cfg.Hashed() {
			if cached[plain] {
				aliases[hashed] = plain
			}
		}
	}
	hashedList, err := json.Marshal(aliases)
	if err != nil {
		return nil, err
	}
	out := bytes.Replace(tmpl, []byte(`"__VERSION__"`), []byte(`"`+version+`"`), 1)
	out = bytes.Replace(out, []byte(`["__SHELL__"]`), list, 1)
	out = bytes.Replace(out, []byte(`{"__HASHED__": ""}`), hashedList, 1)
	return out, nil
}

// shell lists the interface's files to cache and hashes them.
func (o *Offline) shell() ([]string, string, error) {
	files := []string{"/"}
	h := sha256.New()
	err := fs.WalkDir(o.cfg.Assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if p == "sw.js" || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		b, err := fs.ReadFile(o.cfg.Assets, p)
		if err != nil {
			return err
		}
		h.Write([]byte(p))
		h.Write(b)
		if p != "index.html" {
			files = append(files, "/"+p)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	slices.Sort(files)
	return files, hex.EncodeToString(h.Sum(nil))[:16], nil
}

func (o *Offline) handleServiceWorker(w http.ResponseWriter, r *http.Request) {
	b, err := o.ServiceWorker()
	if err != nil {
		http.Error(w, "no service worker: "+err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Service-Worker-Allowed", "/")
	w.Write(b)
}
