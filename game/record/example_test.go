package record_test

import (
	"fmt"

	"stax/game"
	"stax/game/record"
	"stax/games"
)

func Example() {
	g, _ := games.Load("pogo(u=false)")
	h := game.NewHistory(g, nil)
	for _, m := range []string{"1a1-a2", "1a3-b3", "2b1-c2"} {
		if err := h.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	h.Resign(1, game.ByResignation, "")
	r := record.FromHistory(h, record.Tag{Name: "Date", Value: "2026.11.22"},
		record.Tag{Name: "Seat1", Value: "human:alice"}, record.Tag{Name: "Seat2", Value: "stax:hard"})
	text := r.String()
	fmt.Print(text)

	back, err := record.Parse(text)
	if err != nil {
		fmt.Println(err)
		return
	}
	h2, err := back.Replay(games.All())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h2.Outcome().Describe(g))
	// Output:
	// [Game "pogo(u=false)"]
	// [Date "2026.11.22"]
	// [Seat1 "human:alice"]
	// [Seat2 "stax:hard"]
	// [Result "1-0"]
	// [Termination "resignation"]
	//
	// 1. 1a1-a2 1a3-b3 2. 2b1-c2 1-0
	// White wins (resignation)
}
