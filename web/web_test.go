package web_test

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"stax/web"
)

func TestFS(t *testing.T) {
	want := []string{"index.html", "app.js", "style.css", "render.js", "position.js", "picker.js", "play.js", "home.js", "rules.js", "recent.js", "api.js", "dom.js", "favicon.svg"}
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
			if !strings.HasPrefix(spec, "./") {
				t.Errorf("%s imports %q: want a relative path (no build step resolves bare names)", name, spec)
				continue
			}
			target := strings.TrimPrefix(spec, "./")
			if _, err := fs.Stat(fsys, target); err != nil {
				t.Errorf("%s imports %q, which does not exist", name, spec)
				continue
			}
			visit(target)
		}
	}
	visit("app.js")
	js, err := fs.Glob(fsys, "*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range js {
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
