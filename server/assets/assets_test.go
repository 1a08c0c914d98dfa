package assets_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"

	"stax/server/assets"
	"stax/web"
)

var big = strings.Repeat("export const words = \"stacks of stones\";\n", 40)

var files = fstest.MapFS{
	"index.html":    {Data: []byte(`<html lang="en"><script type="module" src="/app.js"></script></html>`)},
	"sw.js":         {Data: []byte(big)},
	"app.js":        {Data: []byte("import { a } from \"./lib/a.js\";\nimport \"./side.js\";\n" + big)},
	"lib/a.js":      {Data: []byte("export * from \"../b.js\";\nexport { c } from './lib2/c.js';\nexport const a = 1;\n")},
	"b.js":          {Data: []byte("export const b = 2;\n")},
	"lib/lib2/c.js": {Data: []byte("export const c = 3;\n")},
	"side.js":       {Data: []byte("console.log('side');\n")},
	"alone.js":      {Data: []byte("export const alone = true;\n")},
	"style.css":     {Data: []byte("body { color: red; }\n" + strings.Repeat("p { margin: 0 }\n", 40))},
	"icon.png":      {Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 200)},
	".hidden":       {Data: []byte("secret")},
}

func serve(t *testing.T, set *assets.Set, path string, header http.Header) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	w := httptest.NewRecorder()
	f, hashed := set.Lookup(strings.TrimPrefix(path, "/"))
	if f == nil {
		t.Fatalf("no file for %s", path)
	}
	assets.Serve(w, req, f, hashed)
	return w.Result()
}

func decode(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch coding {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		z, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = z
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// TestServe checks the headers and bodies of hashed and plain URLs, in
// each encoding, and the 304 of a revalidation.
func TestServe(t *testing.T) {
	set, err := assets.New(files)
	if err != nil {
		t.Fatal(err)
	}
	app := set.File("app.js")
	if want := regexp.MustCompile(`^app\.[0-9a-f]{12}\.js$`); !want.MatchString(app.Hashed) {
		t.Fatalf("hashed name of app.js: %q", app.Hashed)
	}
	if !strings.HasPrefix(app.Hash, strings.Split(app.Hashed, ".")[1]) {
		t.Errorf("the hashed name %s is not named by its hash %s", app.Hashed, app.Hash)
	}
	for _, tc := range []struct {
		path, accept, coding, cache string
	}{
		{app.URL(), "gzip, deflate, br, zstd", "br", assets.Immutable},
		{app.URL(), "gzip", "gzip", assets.Immutable},
		{app.URL(), "br;q=0.5, gzip;q=0.8", "gzip", assets.Immutable},
		{app.URL(), "br;q=0, gzip;q=0", "", assets.Immutable},
		{app.URL(), "", "", assets.Immutable},
		{"/app.js", "br, gzip", "br", assets.Revalidate},
		{"/app.js", "identity", "", assets.Revalidate},
		{set.File("style.css").URL(), "br", "br", assets.Immutable},
	} {
		res := serve(t, set, tc.path, http.Header{"Accept-Encoding": {tc.accept}})
		body, _ := io.ReadAll(res.Body)
		name := tc.path + " with Accept-Encoding " + strconv.Quote(tc.accept)
		if res.StatusCode != 200 {
			t.Errorf("%s: status %d", name, res.StatusCode)
		}
		if got := res.Header.Get("Content-Encoding"); got != tc.coding {
			t.Errorf("%s: Content-Encoding %q, want %q", name, got, tc.coding)
		}
		if got := res.Header.Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s: Cache-Control %q, want %q", name, got, tc.cache)
		}
		if got := res.Header.Values("Vary"); !slices.Contains(got, "Accept-Encoding") {
			t.Errorf("%s: Vary %q lacks Accept-Encoding", name, got)
		}
		if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Errorf("%s: Content-Length %s for a body of %d bytes", name, got, len(body))
		}
		if got := res.Header.Get("Content-Type"); got != "text/javascript; charset=utf-8" && !strings.HasSuffix(tc.path, ".css") {
			t.Errorf("%s: Content-Type %q", name, got)
		}
		f, _ := set.Lookup(strings.TrimPrefix(tc.path, "/"))
		if !bytes.Equal(decode(t, tc.coding, body), f.Data) {
			t.Errorf("%s: the body decoded is not the file", name)
		}
		if tc.coding != "" && len(body) >= len(f.Data) {
			t.Errorf("%s: %d bytes compressed for %d", name, len(body), len(f.Data))
		}

		// Revalidated with the ETag: 304, no body.
		etag := res.Header.Get("ETag")
		if etag == "" {
			t.Errorf("%s: no ETag", name)
			continue
		}
		res = serve(t, set, tc.path, http.Header{"Accept-Encoding": {tc.accept}, "If-None-Match": {etag}})
		body, _ = io.ReadAll(res.Body)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("%s revalidated with %s: status %d, %d bytes; want 304 and none", name, etag, res.StatusCode, len(body))
		}
		// Another file's tag is no match.
		res = serve(t, set, tc.path, http.Header{"Accept-Encoding": {tc.accept}, "If-None-Match": {`"0123"`}})
		if res.StatusCode != 200 {
			t.Errorf("%s revalidated with another tag: status %d", name, res.StatusCode)
		}
	}
	// Each encoding has a tag of its own.
	tags := map[string]bool{}
	for _, accept := range []string{"br", "gzip", ""} {
		tags[serve(t, set, "/app.js", http.Header{"Accept-Encoding": {accept}}).Header.Get("ETag")] = true
	}
	if len(tags) != 3 {
		t.Errorf("the encodings share ETags: %v", tags)
	}
	// Images are not compressed; hidden files are not served.
	if res := serve(t, set, "/icon.png", http.Header{"Accept-Encoding": {"br, gzip"}}); res.Header.Get("Content-Encoding") != "" {
		t.Errorf("icon.png compressed: %s", res.Header.Get("Content-Encoding"))
	}
	if f, _ := set.Lookup(".hidden"); f != nil {
		t.Errorf(".hidden is served")
	}
	// The page and the service worker have no hashed names.
	for _, name := range []string{"index.html", "sw.js"} {
		if f := set.File(name); f.Hashed != "" || f.URL() != "/"+name {
			t.Errorf("%s is hashed: %q", name, f.Hashed)
		}
	}
}

// TestOtherVersion checks that the hashed name of another version of a
// file, which a page from an instance of that version asks for, finds the
// current file, served to be revalidated rather than kept as immutable,
// and that no other name does.
func TestOtherVersion(t *testing.T) {
	set, err := assets.New(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want string // the file found, "" for none
	}{
		{"app.0123456789ab.js", "app.js"},
		{"lib/lib2/c.ffffffffffff.js", "lib/lib2/c.js"},
		{"style.000000000000.css", "style.css"},
		{"app.0123456789a.js", ""},   // too short for a hash
		{"app.0123456789abc.js", ""}, // too long
		{"app.0123456789AB.js", ""},  // not lower-case hex
		{"gone.0123456789ab.js", ""}, // no such file
		{"sw.0123456789ab.js", ""},   // never hashed
		{"index.0123456789ab.html", ""},
		{".0123456789ab", ""},
	} {
		f, hashed := set.Lookup(tc.name)
		switch {
		case tc.want == "" && f != nil:
			t.Errorf("%s finds %s; want nothing", tc.name, f.Name)
		case tc.want != "" && (f == nil || f.Name != tc.want):
			t.Errorf("%s finds %v; want %s", tc.name, f, tc.want)
		case f != nil && hashed:
			t.Errorf("%s is served as the immutable hashed name of %s", tc.name, f.Name)
		}
	}
	res := serve(t, set, "/app.0123456789ab.js", http.Header{"Accept-Encoding": {"br"}})
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != assets.Revalidate {
		t.Errorf("another version of app.js: status %d, Cache-Control %q; want 200 and %q", res.StatusCode, res.Header.Get("Cache-Control"), assets.Revalidate)
	}
}

// TestGraph checks the imports read from the modules, the graph and the
// import map.
func TestGraph(t *testing.T) {
	set, err := assets.New(files)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.Graph("app.js"), []string{"app.js", "lib/a.js", "b.js", "lib/lib2/c.js", "side.js"}; !slices.Equal(got, want) {
		t.Errorf("graph of app.js: %q, want %q", got, want)
	}
	var m struct{ Imports map[string]string }
	if err := json.Unmarshal(set.ImportMap(), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, name := range []string{"app.js", "lib/a.js", "b.js", "lib/lib2/c.js", "side.js", "alone.js"} {
		want["/"+name] = set.File(name).URL()
	}
	if !mapsEqual(m.Imports, want) {
		t.Errorf("import map %v, want %v", m.Imports, want)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestImportSpecifiers checks the import lines read, and that those of
// the interface's modules are all read: every `from "…"` and `import "…"`
// of a module at the start of a statement is found.
func TestImportSpecifiers(t *testing.T) {
	src := `// import "./not-a-statement.js" in a comment is skipped
import x from "./x.js";
import {
  a,
  b as c,
} from "../a.js";
import * as ns from './ns.js';
import "./side.js";
export * from "./all.js";
export { d } from "./d.js";
export const s = "from \"./nothing.js\"";
const later = "import { y } from './y.js'";
`
	want := []string{"./x.js", "../a.js", "./ns.js", "./side.js", "./all.js", "./d.js"}
	if got := assets.ImportSpecifiers([]byte(src)); !slices.Equal(got, want) {
		t.Errorf("ImportSpecifiers = %q, want %q", got, want)
	}

	set, err := assets.New(web.FS())
	if err != nil {
		t.Fatal(err)
	}
	fromRE := regexp.MustCompile(`(?m)(?:\bfrom\s*|^import\s*)["'](\.{1,2}/[^"']+)["']`)
	for _, name := range set.Names() {
		if !strings.HasSuffix(name, ".js") || assets.Plain[name] {
			continue
		}
		f := set.File(name)
		got := assets.ImportSpecifiers(f.Data)
		all := fromRE.FindAllSubmatch(f.Data, -1)
		if len(got) != len(all) {
			t.Errorf("%s: %d imports read of %d: %q", name, len(got), len(all), got)
		}
		if len(f.Imports) != len(got) {
			t.Errorf("%s: imports %q, of which %q name files", name, got, f.Imports)
		}
	}
	// The graph of the entry and a page.
	graph := set.Graph("app.js", "pages/game/page.js")
	for _, name := range []string{"app.js", "pages/game/page.js", "pages/game/connection.js", "i18n/en.js", "offline/install.js"} {
		if !slices.Contains(graph, name) {
			t.Errorf("the graph of app.js lacks %s", name)
		}
	}
}

// TestSource checks that the files of a directory are read again when
// one changes, and that embedded ones are read once.
func TestSource(t *testing.T) {
	dir := t.TempDir()
	write := func(s string, mod time.Time) {
		p := filepath.Join(dir, "app.js")
		os.WriteFile(p, []byte(s), 0o644)
		os.Chtimes(p, mod, mod)
	}
	t0 := time.Now().Add(-time.Hour)
	write("export const v = 1;\n", t0)
	src, err := assets.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	first := src.Set().File("app.js").URL()
	if src.Set().File("app.js").URL() != first {
		t.Errorf("the hash changed with no change")
	}
	write("export const v = 2;\n", t0.Add(time.Second))
	if second := src.Set().File("app.js").URL(); second == first {
		t.Errorf("the hashed URL %s did not change with the file", first)
	}

	emb, err := assets.Open(web.FS())
	if err != nil {
		t.Fatal(err)
	}
	if emb.Set() != emb.Set() {
		t.Errorf("the embedded files are read again")
	}
	if _, err := fs.Stat(web.FS(), "app.js"); err != nil {
		t.Fatal(err)
	}
}

func TestNegotiate(t *testing.T) {
	for header, want := range map[string]string{
		"":                        "",
		"gzip, deflate, br, zstd": "br",
		"gzip":                    "gzip",
		"GZIP;q=1":                "gzip",
		"br;q=0.1, gzip":          "gzip",
		"br;q=0":                  "",
		"*":                       "",
		"identity":                "",
		"gzip;q=0.5, br;q=0.5":    "br",
		"gzip;q=bad, br;q=0.2":    "br",
	} {
		if got := assets.Negotiate(header); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", header, got, want)
		}
	}
}

// TestUnreadable checks that a file that cannot be read (a symbolic link
// out of the directory, which os.Root refuses) is left out, not an error.
func TestUnreadable(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "app.js"), []byte("export const a = 1;\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "out.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := assets.Open(root.FS())
	if err != nil {
		t.Fatal(err)
	}
	if src.Set().File("app.js") == nil || src.Set().File("out.txt") != nil {
		t.Errorf("files %q", src.Set().Names())
	}
}

// answer is an API answer of a few kilobytes, such as a game's state.
var answer = []byte(strings.Repeat(`{"id":"g123","spec":"pogo","players":["ann","bob"],"moves":["a1b2","c3"]},`, 60))

// TestQuick checks that each coding's quick compression decodes to the
// answer, also when compressors are reused by many goroutines at once.
func TestQuick(t *testing.T) {
	for _, coding := range []string{"gzip", "br"} {
		t.Run(coding, func(t *testing.T) {
			t.Parallel()
			errs := make(chan error, 8)
			for g := range 8 {
				go func() {
					for i := range 20 {
						body := answer[:len(answer)-37*(g+i)]
						c := assets.Quick(coding, body)
						var r io.Reader
						if coding == "gzip" {
							zr, err := gzip.NewReader(bytes.NewReader(c))
							if err != nil {
								errs <- err
								return
							}
							r = zr
						} else {
							r = brotli.NewReader(bytes.NewReader(c))
						}
						got, err := io.ReadAll(r)
						if err != nil || !bytes.Equal(got, body) {
							errs <- fmt.Errorf("%s of %d bytes: decoded %d bytes, %v", coding, len(body), len(got), err)
							return
						}
						if len(c) >= len(body)/4 {
							errs <- fmt.Errorf("%s of %d bytes gave %d; want a quarter or less", coding, len(body), len(c))
							return
						}
					}
					errs <- nil
				}()
			}
			for range 8 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// BenchmarkQuick measures the compression of an API answer.
func BenchmarkQuick(b *testing.B) {
	for _, coding := range []string{"gzip", "br"} {
		b.Run(coding, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				assets.Quick(coding, answer)
			}
		})
	}
}
