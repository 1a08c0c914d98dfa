package pogo_test

import (
	"testing"

	"stax/game/gametest"
	"stax/games/pogo"
)

func FuzzParsePosition(f *testing.F) {
	for _, seed := range []string{
		"bb,bb,bb/-,-,-/ww,ww,ww w",                // the start
		"b,-,wbb/bw,w,-/ww,bw,b w",                 // a middle game
		"-,-,bbbbbbwwwww/-,-,-/w,-,- b",            // a finished game
		"bb,bb,bb/-,-,-/ww,ww,ww",                  // no side to move
		"bb,bb,bb/-,,-/ww,ww,ww w",                 // a blank square
		"wwwwwwwwwwwwwwwwwwwwww,-,-/-,-,-/-,-,- w", // too many pieces
		"",
	} {
		f.Add(seed)
	}
	g, _ := pogo.New(nil)
	f.Fuzz(func(t *testing.T, in string) {
		if s := gametest.CheckParseState(t, g, in); s != nil {
			_ = s.Legal(nil)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"1a1-a2", // legal at the start
		"2b1-c2", // a bent two-step move
		"3a1-b1", // the U move, too few pieces at the start
		"1a3-a2", // Black's piece
		"4a1-a2", // bad count
		"1a1a2",  // no dash
		"",
	} {
		f.Add(seed)
	}
	g, _ := pogo.New(nil)
	s := g.NewStart()
	f.Fuzz(func(t *testing.T, in string) {
		gametest.CheckParseMove(t, s, in)
	})
}
