package pisola_test

import (
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pisola"
)

// TestBoard checks the board view of known positions against
// testdata/board.txt (go test -run TestBoard -update rewrites it).
func TestBoard(t *testing.T) {
	const locked = "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w"
	for _, v := range []struct {
		opts      game.Options
		file      string
		positions []string
	}{
		{nil, "testdata/board.txt", []string{
			"-,-,-,-,-,-/-,-,-,-,-,-/-,-,b,-,-,-/-,w,-,-,b,-/-,-,-,-,-,-/w,-,-,-,-,- w",
			locked,
		}},
		{game.Options{"roofs": "true"}, "testdata/board-roofs.txt", []string{
			"b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb^,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw^ w",
		}},
	} {
		g, err := pisola.New(v.opts)
		if err != nil {
			t.Fatal(err)
		}
		gametest.CheckBoardGolden(t, g, v.positions, v.file, *update)
	}
}
