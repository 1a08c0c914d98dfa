package main

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestDrawBoard draws known positions of every game and compares them with
// testdata/board/*.txt (go test -run TestDrawBoard -update rewrites them).
func TestDrawBoard(t *testing.T) {
	tests := []struct {
		name, spec, pos string
		move            string // played from pos, marked as the last move
	}{
		{"pogo", "pogo", "b,-,wbb/bw,w,-/ww,bw,b w", ""},
		{"pisola-placing", "pisola", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,b,-,-,-/-,w,-,-,b,-/-,-,-,-,-,-/w,-,-,-,-,- w", ""},
		{"pisola-locked", "pisola", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w", ""},
		{"pisola-roofs", "pisola(roofs=true)", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb^,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw^ w", ""},
		{"diam", "diam", "r/ry/-/-/-/-/-/gbyg 2", ""},
		{"diam-won", "diam", "gr/-/y/-/br/g/-/- 2", ""},
		{"pogo-last-move", "pogo", "b,-,wbb/bw,w,-/ww,bw,b w", "2a1-b2"},
		{"diam-last-move", "diam", "r/ry/-/-/-/-/-/gbyg 2", "8:4+"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := games.Load(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			s, err := g.ParseState(tt.pos)
			if err != nil {
				t.Fatal(err)
			}
			var last []int
			if tt.move != "" {
				m, err := s.ParseMove(tt.move)
				if err != nil {
					t.Fatal(err)
				}
				last = s.(game.Viewer).ViewMove(m).Cells()
				s.Apply(m)
			}
			var b strings.Builder
			drawBoard(&b, s, last, false)
			gametest.Golden(t, filepath.Join("testdata", "board", tt.name+".txt"), b.String(), *update)

			var c strings.Builder
			drawBoard(&c, s, last, true)
			if !strings.Contains(c.String(), "\x1b[") {
				t.Errorf("the coloured drawing has no colour")
			}
		})
	}
}

// TestDrawBoardWithoutView checks that a game without a board view is shown
// by its position string.
func TestDrawBoardWithoutView(t *testing.T) {
	g, err := games.Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	drawBoard(&b, noView{g.Start()}, nil, false)
	if got, want := b.String(), "  bb,bb,bb/-,-,-/ww,ww,ww w\n"; got != want {
		t.Errorf("drawBoard = %q, want %q", got, want)
	}
}

// noView hides a state's board view.
type noView struct{ game.State }
