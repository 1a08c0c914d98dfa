// Package web holds stax's browser interface: plain ES modules, a style
// sheet and SVG rendering, embedded in the binary with no build step.
//
// The server serves [FS] as its static files. The interface is a single
// page (index.html) that routes on the URL's fragment: the home page to
// start a game, a game in play, a replay of a finished game, the list of
// recent games and a rules page for each game, whose diagrams are drawn by
// the same code that draws the boards in play.
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
