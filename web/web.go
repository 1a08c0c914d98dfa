// Package web holds stax's browser interface: plain ES modules, a style
// sheet and SVG rendering, embedded in the binary with no build step.
//
// The server serves [FS] as its static files, and index.html for every page
// route, so the interface routes in the browser on the URL's path:
//
//	/              the home page: choose a game, its options and who plays each seat
//	/game/<id>     a game: play, watch, join through an invitation (#invite=...) or replay
//	/games         the recent games
//	/rules/<game>  the rules of pogo, pisola or diam, with diagrams
//
// The modules are:
//
//	app.js       the router
//	api.js       the HTTP API and the game websocket of docs/server.md
//	position.js  position strings and move notation, read for display
//	render.js    SVG boards from position strings, for play and for the rules
//	picker.js    clicks to moves, from the list of legal moves the server sends
//	home.js, play.js, recent.js, rules.js  the pages
//
// The server stays the judge of every move: the interface only offers what
// the server lists as legal, and shows the server's error for a typed move
// it refuses.
//
// The browser tests (browser_test.go) drive headless Chromium through the
// real server, in-process. They skip when Chromium is not installed, unless
// STAX_REQUIRE_BROWSER is set; STAX_CHROMIUM names another executable, and
// STAX_BROWSER_SHOTS names a directory to save screenshots of the main steps
// in, for looking at the pages by eye. A failing subtest saves a screenshot
// in the temporary directory and logs its path.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// FS returns the static files of the interface, rooted so that index.html
// is at the top.
func FS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "static" is valid.
		panic(err)
	}
	return sub
}
