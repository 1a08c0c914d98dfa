package pisola_test

import (
	"fmt"

	"stax/game"
	"stax/games/pisola"
)

// ExampleNew plays the last placing of a game, which begins the moving
// phase, and then moves a stack.
func ExampleNew() {
	g, err := pisola.New(game.Options{"size": "6"})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(g.Start().Legal(nil)), "placings from the empty board")

	// Two adjacent squares are left, so the last placing may fill both.
	s, err := g.Parse("w,w,b,w,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b b")
	if err != nil {
		panic(err)
	}
	for _, mv := range []string{"f6+e6", "a1-b1"} {
		m, err := s.ParseMove(mv)
		if err != nil {
			panic(err)
		}
		fmt.Println(s.FormatMove(m))
		s.Apply(m)
	}
	fmt.Println(s)
	_, err = s.ParseMove("b1-b2")
	fmt.Println(err)
	// Output:
	// 570 placings from the empty board
	// e6+f6
	// a1-b1
	// w,w,b,w,b,b/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/-,bw,w,b,w,b b
	// move "b1-b2": illegal move: b1 is topped by White and Black is to move
}
