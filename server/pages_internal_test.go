package server

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"

	"stax/web"
)

// TestPageModules checks that the modules preloaded for the routes are
// the pages app.js imports when it shows them, every one of them.
func TestPageModules(t *testing.T) {
	app, err := fs.ReadFile(web.FS(), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	var lazy []string
	for _, m := range regexp.MustCompile(`import\("\./([^"]+)"\)`).FindAllSubmatch(app, -1) {
		if !slices.Contains(lazy, string(m[1])) {
			lazy = append(lazy, string(m[1]))
		}
	}
	var preloaded []string
	for _, p := range []string{"/", "/new", "/game/abc", "/games", "/rules", "/rules/pogo", "/analysis", "/@/ann", "/me/games",
		"/leaderboard", "/leaderboard/pogo", "/bots", "/puzzles", "/puzzles/daily", "/offline", "/bench", "/login", "/signup", "/account", "/reset", "/learn", "/learn/pogo-moves"} {
		for _, guest := range []bool{true, false} {
			m := pageModule(p, guest)
			if !slices.Contains(lazy, m) {
				t.Errorf("%s preloads %q, which app.js does not import", p, m)
			}
			if !slices.Contains(preloaded, m) {
				preloaded = append(preloaded, m)
			}
		}
	}
	for _, m := range lazy {
		if !slices.Contains(preloaded, m) {
			t.Errorf("app.js imports %s, which no route preloads", m)
		}
	}
	if pageModule("/", true) != "pages/home.js" || pageModule("/", false) != "pages/lobby.js" {
		t.Errorf("/ preloads %s for a guest and %s for a player", pageModule("/", true), pageModule("/", false))
	}
}
