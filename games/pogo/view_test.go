package pogo_test

import (
	"testing"

	"stax/game/gametest"
)

// TestBoard checks the board view of known positions against
// testdata/board.txt (go test -run TestBoard -update rewrites it).
func TestBoard(t *testing.T) {
	g := mustGame(t, nil)
	gametest.CheckBoardGolden(t, g, []string{
		"bb,bb,bb/-,-,-/ww,ww,ww w",
		"-,bb,bw/-,-,-/bww,bb,www w",
		"-,bww,-/-,wbbw,-/bbw,-,bw b",
	}, "testdata/board.txt", *update)
}
