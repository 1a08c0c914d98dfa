package pogo_test

import (
	"fmt"

	"stax/game"
	"stax/games/pogo"
)

// Example counts the moves of the start, then plays the only winning move
// of a position: White tops every stack, which ends the game.
func Example() {
	g, err := pogo.New(game.Options{"u": "true"})
	if err != nil {
		panic(err)
	}
	s := g.NewStart()
	fmt.Println(len(s.Legal(nil)), "moves from", s)

	s, err = g.Parse("bbbbww,wbww,-/-,w,b/-,-,- w")
	if err != nil {
		panic(err)
	}
	m, err := s.ParseMove("1b2-c2")
	if err != nil {
		panic(err)
	}
	s.Apply(m)
	fmt.Println(s)
	fmt.Println(s.Outcome().Describe(g))
	_, err = s.ParseMove("1a3-a2")
	fmt.Println(err)
	// Output:
	// 16 moves from bb,bb,bb/-,-,-/ww,ww,ww w
	// bbbbww,wbww,-/-,-,bw/-,-,- b
	// White wins (every stack topped by White)
	// move "1a3-a2": the game is over
}
