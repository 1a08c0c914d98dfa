package main

import (
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// layers are the module's layering rules: the packages matched by a
// pattern must not depend, directly or through other packages, on those
// matched by any of the forbidden patterns. Below cmd/, only ai/ and the
// list in games/ name concrete games, and only cmd/ wires the computer
// players into the server and the engine (README's layout table). The
// puzzle format (puzzle/) knows only the game API, so that the server may
// serve puzzles; they are generated in ai/puzzlegen. A pattern "x/..."
// matches x and the packages below it.
var layers = []struct {
	pkgs      string
	forbidden []string
}{
	{"stax/game/...", []string{"stax/games/...", "stax/search/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/games/diam/...", []string{"stax/search/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/games/pisola/...", []string{"stax/search/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/games/pogo/...", []string{"stax/search/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/search/...", []string{"stax/games/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/ai/...", []string{"stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/engine/...", []string{"stax/games/...", "stax/ai/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/server/...", []string{"stax/games/...", "stax/ai/...", "stax/engine/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/web/...", []string{"stax/games/...", "stax/ai/...", "stax/engine/...", "stax/cmd/..."}},
	{"stax/puzzle/...", []string{"stax/games/...", "stax/search/...", "stax/ai/...", "stax/engine/...", "stax/server/...", "stax/web/...", "stax/cmd/..."}},
	// The bot client (stax bot, the house bots) drives any engine and
	// reads the bot API's wire types: it names no game and no computer
	// level (cmd/ hands it those), and the server never imports it.
	{"stax/bot", []string{"stax/games/...", "stax/ai/...", "stax/web/...", "stax/cmd/..."}},
	{"stax/server/...", []string{"stax/bot"}},
	// The site's domains: each imports only the domains it builds on
	// (the lobby reads the rating pools, live play the rules of names),
	// talks to the others through small interfaces, and nothing below the
	// HTTP layer (stax/server) imports it.
	{"stax/server/httpx", []string{"stax/server", "stax/server/store/...", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/store/...", []string{"stax/server", "stax/server/httpx", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/clock", []string{"stax/server", "stax/server/httpx", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker"}},
	{"stax/server/worker", []string{"stax/server", "stax/server/httpx", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/catalog", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/chat", "stax/server/clock"}},
	{"stax/server/view", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/account", []string{"stax/server", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/ratings", []string{"stax/server", "stax/server/account", "stax/server/lobby", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/lobby", []string{"stax/server", "stax/server/account", "stax/server/analysis", "stax/server/play"}},
	{"stax/server/analysis", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/play"}},
	{"stax/server/play", []string{"stax/server", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis"}},
	// The relay between instances knows rooms only through the small
	// interface live play implements; the latency histograms know no
	// domain.
	{"stax/server/relay", []string{"stax/server", "stax/server/httpx", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker"}},
	{"stax/server/update", []string{"stax/server", "stax/server/httpx", "stax/server/store/...", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/relay"}},
	{"stax/server/latency", []string{"stax/server", "stax/server/httpx", "stax/server/store/...", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/relay"}},
	// The archive asks live play whose turn it is through a small
	// interface, and no domain imports it.
	{"stax/server/archive", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/relay"}},
	{"stax/server/play", []string{"stax/server/archive"}},
	// The offline files (the browser's engine, the service worker) need
	// no domain; the board views' JSON form needs nothing of the server,
	// so that the browser's engine (cmd/stax-wasm) links no HTTP.
	{"stax/server/offline", []string{"stax/server", "stax/server/httpx", "stax/server/store/...", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker"}},
	{"stax/server/view/board", []string{"stax/server", "stax/server/httpx", "stax/server/store/...", "stax/server/view", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker"}},
	// Moderation answers live play, the lobby and the accounts through
	// their small interfaces, and imports none of them, nor they it.
	{"stax/server/moderation", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker"}},
	{"stax/server/account", []string{"stax/server/moderation"}},
	{"stax/server/play", []string{"stax/server/moderation"}},
	{"stax/server/lobby", []string{"stax/server/moderation"}},
	{"stax/server/httpx", []string{"stax/server/moderation"}},
	{"stax/server/store/...", []string{"stax/server/moderation"}},
	// The puzzles import no other domain (they take sessions and the
	// analyst through interfaces), and no other domain imports them.
	{"stax/server/puzzles", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/games/...", "stax/ai/..."}},
	{"stax/server/httpx", []string{"stax/server/puzzles"}},
	{"stax/server/store/...", []string{"stax/server/puzzles"}},
	{"stax/server/view", []string{"stax/server/puzzles"}},
	{"stax/server/account", []string{"stax/server/puzzles"}},
	{"stax/server/ratings", []string{"stax/server/puzzles"}},
	{"stax/server/lobby", []string{"stax/server/puzzles"}},
	{"stax/server/analysis", []string{"stax/server/puzzles"}},
	{"stax/server/play", []string{"stax/server/puzzles"}},
	// The opening explorer likewise: it reads the rating histories and
	// the analyst through interfaces.
	{"stax/server/explorer", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/puzzles", "stax/games/...", "stax/ai/..."}},
	{"stax/server/store/...", []string{"stax/server/explorer"}},
	{"stax/server/puzzles", []string{"stax/server/explorer"}},
	{"stax/server/play", []string{"stax/server/explorer"}},
	{"stax/server/ratings", []string{"stax/server/explorer"}},
	// The lessons need only the game API, the board views and httpx: no
	// other domain, and no domain imports them.
	{"stax/server/lessons", []string{"stax/server", "stax/server/account", "stax/server/ratings", "stax/server/lobby", "stax/server/analysis", "stax/server/play", "stax/server/worker", "stax/server/puzzles", "stax/server/explorer", "stax/server/moderation", "stax/games/...", "stax/ai/..."}},
	{"stax/server/play", []string{"stax/server/lessons"}},
	{"stax/server/puzzles", []string{"stax/server/lessons"}},
	{"stax/server/httpx", []string{"stax/server/lessons"}},
	{"stax/server/view", []string{"stax/server/lessons"}},
	// The bot API builds on live play, the lobby and the rating pools,
	// takes the sessions through an interface, and no domain imports it.
	{"stax/server/bots", []string{"stax/server", "stax/server/analysis", "stax/server/moderation", "stax/server/puzzles", "stax/server/explorer", "stax/server/lessons", "stax/server/archive", "stax/games/...", "stax/ai/..."}},
	{"stax/server/play", []string{"stax/server/bots"}},
	{"stax/server/lobby", []string{"stax/server/bots"}},
	{"stax/server/account", []string{"stax/server/bots"}},
	{"stax/server/ratings", []string{"stax/server/bots"}},
	{"stax/server/httpx", []string{"stax/server/bots"}},
	{"stax/server/store/...", []string{"stax/server/bots"}},
}

// TestLayers checks the layering rules on the non-test imports of every
// package of the module, so that, e.g., the server never links a rules
// engine or the solver again.
func TestLayers(t *testing.T) {
	imports := moduleImports(t, filepath.Join("..", ".."))
	var names []string
	for p := range imports {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, l := range layers {
		matched := false
		for _, p := range names {
			if !matchPattern(l.pkgs, p) {
				continue
			}
			matched = true
			for dep, via := range dependencies(imports, p) {
				for _, f := range l.forbidden {
					if matchPattern(f, dep) {
						t.Errorf("%s depends on %s (through %s); %s must not depend on %s", p, dep, via, l.pkgs, f)
					}
				}
			}
		}
		if !matched {
			t.Errorf("no package matches %s: update the layering rules", l.pkgs)
		}
	}
}

// matchPattern reports whether the import path p matches pattern, where
// "x/..." matches x and every path below it.
func matchPattern(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// moduleImports reads the module rooted at root and returns, for each of
// its packages, the module packages it imports outside its tests.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var module string
	for _, line := range strings.Split(string(mod), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			module = strings.TrimSpace(m)
		}
	}
	if module == "" {
		t.Fatal("go.mod names no module")
	}
	imports := map[string][]string{}
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); dir != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(dir, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		path := module
		if rel != "." {
			path += "/" + filepath.ToSlash(rel)
		}
		var own []string
		for _, imp := range pkg.Imports {
			if matchPattern(module+"/...", imp) {
				own = append(own, imp)
			}
		}
		imports[path] = own
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}

// dependencies returns the module packages p depends on, each with the
// package that imports it on one path from p.
func dependencies(imports map[string][]string, p string) map[string]string {
	deps := map[string]string{}
	queue := []string{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, imp := range imports[q] {
			if _, seen := deps[imp]; !seen && imp != p {
				deps[imp] = q
				queue = append(queue, imp)
			}
		}
	}
	return deps
}

// TestLayersCatch checks that the layering check notices a forbidden
// dependency reached through another package.
func TestLayersCatch(t *testing.T) {
	imports := map[string][]string{
		"stax/server":       {"stax/server/store", "stax/game"},
		"stax/server/store": {"stax/ai"},
		"stax/ai":           {"stax/games/pogo"},
	}
	deps := dependencies(imports, "stax/server")
	if deps["stax/ai"] != "stax/server/store" || deps["stax/games/pogo"] != "stax/ai" {
		t.Errorf("dependencies(stax/server) = %v; want stax/ai through stax/server/store and stax/games/pogo through stax/ai", deps)
	}
	if !matchPattern("stax/games/...", "stax/games/pogo") || !matchPattern("stax/games/...", "stax/games") || matchPattern("stax/games/...", "stax/gamesx") {
		t.Error("matchPattern does not match as go list does")
	}
}

// maxMethodFiles is how many files of its package a type's methods may
// spread over: a type whose methods need more is doing too much.
const maxMethodFiles = 3

// TestMethodsInFewFiles checks that no type of the site's packages has
// methods in more than maxMethodFiles files (test files aside), so that a
// reader finds a type's behaviour in one place and a domain that grows
// gets a package of its own instead of one more file of methods. The
// store implementations are the exception: their Store implements each
// domain's store interface in a file of that domain's name.
func TestMethodsInFewFiles(t *testing.T) {
	root := filepath.Join("..", "..", "server")
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "store" {
			return filepath.SkipDir
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return err
		}
		where := map[string]map[string]bool{} // receiver type → files
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, decl := range file.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
					continue
				}
				typ := fn.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok {
					continue
				}
				if where[id.Name] == nil {
					where[id.Name] = map[string]bool{}
				}
				where[id.Name][filepath.Base(f)] = true
			}
		}
		for typ, in := range where {
			if len(in) > maxMethodFiles {
				names := make([]string, 0, len(in))
				for f := range in {
					names = append(names, f)
				}
				sort.Strings(names)
				t.Errorf("%s: the methods of %s are in %d files (%s); want at most %d", dir, typ, len(in), strings.Join(names, ", "), maxMethodFiles)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
