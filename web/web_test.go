package web_test

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"stax/games"
	"stax/web"
)

func TestFS(t *testing.T) {
	want := []string{"index.html", "app.js", "style.css", "render.js", "picker.js", "api.js", "dom.js", "favicon.svg",
		"transport.js", "storage.js", "svg.js", "board-view.js", "controls.js", "rules-kit.js", "outcome.js", "players.js", "recent-list.js",
		"games/index.js", "games/pogo.js", "games/pisola.js", "games/diam.js",
		"pages/home.js", "pages/rules.js", "pages/recent.js",
		"pages/game/page.js", "pages/game/connection.js"}
	if err := fstest.TestFS(web.FS(), want...); err != nil {
		t.Fatal(err)
	}
}

// importRE matches the static imports of an ES module.
var importRE = regexp.MustCompile(`(?m)^\s*import\s[^;]*?from\s+"([^"]+)";|import\("([^"]+)"\)`)

// TestImports checks without a browser that every module imported by
// another exists, that every module is reachable from app.js, and that the
// page loads app.js as a module.
func TestImports(t *testing.T) {
	fsys := web.FS()
	reached := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if reached[name] {
			return
		}
		reached[name] = true
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Errorf("reading %s: %v", name, err)
			return
		}
		for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
			spec := m[1]
			if spec == "" {
				spec = m[2]
			}
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				t.Errorf("%s imports %q: want a relative path (no build step resolves bare names)", name, spec)
				continue
			}
			target := path.Join(path.Dir(name), spec)
			if _, err := fs.Stat(fsys, target); err != nil {
				t.Errorf("%s imports %q, which does not exist", name, spec)
				continue
			}
			visit(target)
		}
	}
	visit("app.js")
	for _, name := range modules(t) {
		if !reached[name] {
			t.Errorf("%s is not imported by app.js or its imports", name)
		}
	}
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<script type="module" src="/app.js">`, `href="/style.css"`, `name="viewport"`} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
}

// pageOf returns the page a module belongs to: "pages/x" for pages/x.js
// and for every module under pages/x/, "" for a module outside pages/.
func pageOf(name string) string {
	rest, ok := strings.CutPrefix(name, "pages/")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "/"); i >= 0 {
		return "pages/" + rest[:i]
	}
	return "pages/" + strings.TrimSuffix(rest, ".js")
}

// imports returns the modules a module imports, as paths of the file
// system.
func imports(t *testing.T, name string) []string {
	t.Helper()
	src, err := fs.ReadFile(web.FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
		spec := m[1]
		if spec == "" {
			spec = m[2]
		}
		out = append(out, path.Join(path.Dir(name), spec))
	}
	return out
}

// TestNoPageImportsAPage checks that a page (pages/x.js, or the modules of
// pages/x/) imports no other page and that no module but the router
// (app.js) imports a page: code two pages share lives in a shared module
// outside pages/.
func TestNoPageImportsAPage(t *testing.T) {
	for _, name := range modules(t) {
		from := pageOf(name)
		for _, target := range imports(t, name) {
			to := pageOf(target)
			if to == "" || to == from || name == "app.js" {
				continue
			}
			t.Errorf("%s imports %s, a module of the page %s: move what they share out of pages/", name, target, to)
		}
	}
	for _, tc := range []struct{ name, page string }{
		{"pages/home.js", "pages/home"}, {"pages/game/page.js", "pages/game"}, {"pages/game/extras.js", "pages/game"}, {"render.js", ""},
	} {
		if got := pageOf(tc.name); got != tc.page {
			t.Errorf("pageOf(%q) = %q, want %q", tc.name, got, tc.page)
		}
	}
}

// TestOneModuleEach checks that each browser interface the client wraps is
// used by one module only: websockets by transport.js (reconnection,
// backoff and queue in one place), localStorage by storage.js (its
// try/catch in one place) and SVG elements by svg.js.
func TestOneModuleEach(t *testing.T) {
	for _, tc := range []struct {
		use    *regexp.Regexp
		module string
	}{
		{regexp.MustCompile(`new WebSocket\b`), "transport.js"},
		{regexp.MustCompile(`\blocalStorage\b`), "storage.js"},
		{regexp.MustCompile(`createElementNS\b`), "svg.js"},
	} {
		found := false
		for _, name := range modules(t) {
			src, err := fs.ReadFile(web.FS(), name)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "//") || !tc.use.MatchString(line) {
					continue
				}
				if name == tc.module {
					found = true
					continue
				}
				t.Errorf("%s:%d uses %s: use %s instead", name, i+1, tc.use, tc.module)
			}
		}
		if !found {
			t.Errorf("%s does not use %s", tc.module, tc.use)
		}
	}
}

// workerScripts are the scripts of the interface that are no ES modules
// of the page: the service worker and the engine's Web Worker, which the
// browser loads by their paths (offline/install.js, offline/engine.js).
var workerScripts = map[string]bool{"sw.js": true, "offline/engine-worker.js": true}

// modules returns the names of every ES module of the interface.
func modules(t *testing.T) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(web.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".js") && !workerScripts[name] {
			out = append(out, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGameNames checks that only the game modules (games/) name a game:
// the drawing, the picker and the pages work from the server's board views
// and option schema, so a new game needs no change to them.
func TestGameNames(t *testing.T) {
	var names []string
	for _, info := range games.All() {
		names = append(names, regexp.QuoteMeta(info.Name))
	}
	re := regexp.MustCompile(`(?i)\b(` + strings.Join(names, "|") + `)\b`)
	for _, name := range modules(t) {
		if strings.HasPrefix(name, "games/") {
			continue
		}
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := re.FindString(line); m != "" {
				t.Errorf("%s:%d names the game %q: %s", name, i+1, m, strings.TrimSpace(line))
			}
		}
	}
	// Every game the server plays has a module.
	src, err := fs.ReadFile(web.FS(), "games/index.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range games.All() {
		if !strings.Contains(string(src), `from "./`+info.Name+`.js"`) {
			t.Errorf("games/index.js does not register %s", info.Name)
		}
	}
}
