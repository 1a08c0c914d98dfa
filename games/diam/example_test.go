package diam_test

import (
	"fmt"

	"stax/game"
	"stax/games/diam"
)

// Example plays a short two-player game: player 1 brings two yellow pieces
// to level 2 of the opposite cells 1 and 5.
func Example() {
	g, err := diam.New(game.Options{"drop": "empty"})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := g.NewStart()
	for _, mv := range []string{"r@1", "g@3", "y@2", "b@7", "y@6", "g@4", "r@5", "b@8", "2:1-", "b@2", "6:1-"} {
		m, err := s.ParseMove(mv)
		if err != nil {
			fmt.Println(err)
			return
		}
		s.Apply(m)
	}
	fmt.Println(s)
	fmt.Println(s.Outcome().Describe(g))
	// Output:
	// ry/b/g/g/ry/-/b/b 2
	// Player 1 (red, yellow) wins (diam at level 2 in yellow on cells 1 and 5)
}

// ExampleState_ParseMove shows the reason given for an illegal move.
func ExampleState_ParseMove() {
	g, _ := diam.New(nil)
	s, _ := g.Parse("ry/gbg/-/-/-/-/-/- 1")
	_, err := s.ParseMove("1:1+")
	fmt.Println(err)
	// Output:
	// move "1:1+": illegal move: cell 2 would hold 5 pieces; a cell holds at most 4
}
