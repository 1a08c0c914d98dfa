// Package web holds stax's browser interface: plain ES modules, a style
// sheet and SVG rendering, embedded in the binary with no build step.
//
// The server serves [FS] as its static files, compressed and under
// content-hashed URLs (server/assets), and index.html for every page route
// with its head made for the page (server/pages.go: the import map of the
// hashed modules, the preloaded module graph, the description, the header
// in the visitor's language), so the interface routes in the browser on
// the URL's path:
//
//	/              the home page: choose a game, its options and who plays each seat
//	/game/<id>     a game: play, watch, join through an invitation (#invite=...) or replay
//	/games         the recent games
//	/rules/<game>  the rules of a game, with diagrams
//
// Boards are drawn from the server's board views (docs/api.md, "View"),
// which give a board's topology (a grid or a ring), its stacks, marks and
// reserves and the legal moves as shifts, placings and passes: no module
// outside games/ knows a game. The modules are:
//
//	app.js          the router; it imports each page's module when the page is
//	                first shown
//	api.js          the HTTP API, board views, and the game's and the analysis
//	                board's websockets of docs/api.md
//	transport.js    the one websocket: reconnection with backoff, a queue
//	storage.js      the one use of localStorage, which may be refused
//	svg.js          the one SVG element builder (dom.js builds HTML)
//	wire.js         the board views and game updates as sent, spelled out: cells
//	                named, the legal moves' groups expanded, updates applied
//	render.js       SVG boards from board views, by topology, for play and for the rules
//	picker.js       clicks to moves, from the legal moves of the board view
//	board-view.js, controls.js  the board and move controls of the game page
//	                and the analysis board
//	i18n.js         the words of i18n/<lang>.js, plurals, and errorWords: every
//	                error shown comes from a code and the catalogue
//	games/index.js  the one list of game modules; games/<name>.js holds a game's
//	                notation hint, rules page and, where needed, its picker or option links
//	pages/          the pages, one module or directory each (game/: page.js with
//	                connection.js and extras.js); a page imports no other page,
//	                what pages share is outside pages/ (TestNoPageImportsAPage)
//	offline/        the engine in the browser (docs/offline.md): engine-worker.js, the
//	                Web Worker running the WebAssembly engine, and engine.js, its client;
//	                play.js, offline games against the computer (/offline); local-api.js,
//	                the analysis board's searches in the browser; bench.js (/bench);
//	                install.js, the service worker's registration (sw.js is its template)
//
// docs/adding-a-game.md says how a new game reaches the interface.
//
// The server stays the judge of every move of its games: the interface only
// offers what the server lists as legal, and says in the catalogue's words
// why it refused a typed move. Offline games are judged by the same rules,
// compiled into the engine that runs in the browser.
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
