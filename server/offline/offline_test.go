package offline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// fixed is a Source that gives one answer.
type fixed struct {
	e        *Engine
	building bool
	why      error
}

func (f fixed) Engine() (*Engine, bool, error) { return f.e, f.building, f.why }

var assets = fstest.MapFS{
	"index.html": {Data: []byte("<html></html>")},
	"app.js":     {Data: []byte("// app")},
	"sw.js":      {Data: []byte(`const VERSION = "__VERSION__"; const SHELL = ["__SHELL__"];`)},
}

func serve(t *testing.T, src Source, path string, header http.Header) *http.Response {
	t.Helper()
	m := http.NewServeMux()
	New(Config{Source: src, Assets: assets}).Routes(m)
	req := httptest.NewRequest("GET", path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	w := httptest.NewRecorder()
	m.ServeHTTP(w, req)
	return w.Result()
}

// TestStatus checks GET /engine/status and the engine's files in each
// state of the engine: none configured, being built, failed, ready.
func TestStatus(t *testing.T) {
	e := NewEngine([]byte("\x00asm module"), []byte("// exec"), gzipped([]byte("\x00asm module")))
	tests := []struct {
		name     string
		src      Source
		want     Status
		wasmCode int
	}{
		{"none", nil, Status{Code: "none", Reason: ErrNoSource.Error()}, http.StatusServiceUnavailable},
		{"building", fixed{building: true, why: errors.New("the browser engine is being built")}, Status{Building: true, Code: "building", Reason: "the browser engine is being built"}, http.StatusServiceUnavailable},
		{"failed", fixed{why: errors.New("no go tool")}, Status{Code: "failed", Reason: "no go tool"}, http.StatusServiceUnavailable},
		{"ready", fixed{e: e}, Status{Ready: true, Version: e.Version, Size: e.Size, GzipSize: len(e.Gzip)}, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := serve(t, tc.src, "/engine/status", nil)
			var got Status
			if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("status = %+v, want %+v", got, tc.want)
			}
			if res := serve(t, tc.src, "/engine/stax.wasm", nil); res.StatusCode != tc.wasmCode {
				t.Errorf("GET /engine/stax.wasm: %d, want %d", res.StatusCode, tc.wasmCode)
			}
		})
	}
}

// TestWasmEncoding checks that the module is sent compressed to the
// browsers that accept gzip, whole to the others.
func TestWasmEncoding(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm"), 1000)
	e := NewEngine(wasm, []byte("// exec"), gzipped(wasm))
	for _, tc := range []struct {
		accept   string
		encoding string
	}{
		{"", ""},
		{"gzip", "gzip"},
		{"br, gzip;q=0.8", "gzip"},
		{"gzip;q=0", ""},
		{"identity", ""},
	} {
		res := serve(t, fixed{e: e}, "/engine/stax.wasm", http.Header{"Accept-Encoding": {tc.accept}})
		body, _ := io.ReadAll(res.Body)
		if got := res.Header.Get("Content-Encoding"); got != tc.encoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.encoding)
			continue
		}
		if tc.encoding == "gzip" {
			r, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(r)
		}
		if !bytes.Equal(body, wasm) {
			t.Errorf("Accept-Encoding %q: the body is not the module", tc.accept)
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/wasm" {
			t.Errorf("Content-Type %q, want application/wasm", ct)
		}
	}
}

// TestServiceWorker checks that sw.js lists the interface's files (and
// the engine's once built) and changes its version when the engine
// changes, which is how browsers learn of a new deployment.
func TestServiceWorker(t *testing.T) {
	e1 := NewEngine([]byte("one"), []byte("exec"), nil)
	e2 := NewEngine([]byte("two"), []byte("exec"), nil)
	var versions []string
	for _, tc := range []struct {
		name   string
		src    Source
		engine bool
	}{{"without engine", nil, false}, {"engine one", fixed{e: e1}, true}, {"engine two", fixed{e: e2}, true}} {
		res := serve(t, tc.src, "/sw.js", nil)
		body, _ := io.ReadAll(res.Body)
		s := string(body)
		if strings.Contains(s, "__VERSION__") || strings.Contains(s, "__SHELL__") {
			t.Errorf("%s: placeholders left in %s", tc.name, s)
		}
		for _, want := range []string{`"/"`, `"/app.js"`} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: %s is not cached: %s", tc.name, want, s)
			}
		}
		if strings.Contains(s, `"/sw.js"`) || strings.Contains(s, `"/index.html"`) {
			t.Errorf("%s: the worker caches itself or index.html under its name: %s", tc.name, s)
		}
		if got := strings.Contains(s, `"/engine/stax.wasm"`); got != tc.engine {
			t.Errorf("%s: the engine cached: %v, want %v", tc.name, got, tc.engine)
		}
		versions = append(versions, s[strings.Index(s, `VERSION = "`):strings.Index(s, `"; const SHELL`)])
	}
	if versions[0] == versions[1] || versions[1] == versions[2] {
		t.Errorf("the version does not change with the engine: %q", versions)
	}
}
