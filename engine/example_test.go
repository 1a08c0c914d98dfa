package engine_test

import (
	"context"
	"os"
	"strings"

	"stax/ai"
	"stax/engine"
	"stax/games"
)

// ExampleServer runs a short session of the protocol from a script.
func ExampleServer() {
	srv := engine.NewServer(engine.Config{
		Name: "stax", Registry: games.All(),
		NewPlayer: ai.New, Levels: ai.Levels, Level: "medium",
	})
	script := strings.Join([]string{
		"isready",
		"newgame diam(players=4)",
		"position startpos moves r@1 g@5 y@3",
		"show",
		"legal",
		"go wtime 1000",
		"quit",
	}, "\n")
	srv.Run(context.Background(), strings.NewReader(script), os.Stdout)
	// Output:
	// readyok
	// info string game diam(players=4)
	// info string position r/-/y/-/g/-/-/- 4
	// info string tomove 4 Blue
	// legal b@2 b@4 b@6 b@7 b@8
	// error go: unknown parameter "wtime"; want movetime MS, depth D, nodes N, infinite, time1..time4 MS, inc1..inc4 MS or movestogo N
}
