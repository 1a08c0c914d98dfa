package diam_test

import (
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/diam"
)

// TestBoard checks the board view of known positions against
// testdata/board.txt (go test -run TestBoard -update rewrites it).
func TestBoard(t *testing.T) {
	for _, v := range []struct {
		opts      game.Options
		file      string
		positions []string
	}{
		{nil, "testdata/board.txt", []string{"-/-/-/-/-/-/-/- 1", "g/rb/yg/-/b/r/y/- 1", "gr/-/y/-/br/g/-/- 2"}},
		{game.Options{"players": "4", "teams": "true"}, "testdata/board4.txt", []string{"r/g/y/-/-/-/-/- 4"}},
	} {
		g, err := diam.New(v.opts)
		if err != nil {
			t.Fatal(err)
		}
		gametest.CheckBoardGolden(t, g, v.positions, v.file, *update)
	}
}
