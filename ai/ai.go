// Package ai names the computer players of every stax game: levels from
// "beginner" to "strongest", each a search.Player with a budget and a dose
// of randomness, built on the game's evaluation function.
//
// The baselines "random" (a uniformly random legal move) and "greedy" (the
// best move one ply deep by the evaluation) are accepted by New but not
// listed by Levels.
package ai

import (
	"fmt"
	"strings"
	"sync/atomic"

	"stax/game"
	"stax/search"
)

// The level names, weakest first.
var levelNames = []string{"beginner", "easy", "medium", "hard", "strongest"}

// Baselines are the level names New accepts besides those of Levels.
var baselines = []string{"random", "greedy"}

// Levels returns the level names available for g, weakest first.
func Levels(g game.Game) []string {
	return append([]string(nil), levelNames...)
}

// seedCounter gives each new player a different seed unless one is set.
var seedCounter atomic.Uint64

// New returns a fresh Player for level (each game and seat should get its
// own Player: it may keep a search tree between moves). An unknown level is
// an error that lists the valid ones.
func New(g game.Game, level string) (search.Player, error) {
	return NewSeeded(g, level, 0x57a8+seedCounter.Add(1)*0x9e3779b97f4a7c15)
}

// NewSeeded is New with the seed of the player's randomness fixed, for
// reproducible games and tests.
func NewSeeded(g game.Game, level string, seed uint64) (search.Player, error) {
	ev := Evaluator(g)
	switch level {
	case "random":
		return search.NewRandom(seed), nil
	case "greedy":
		return search.NewGreedy(ev, seed), nil
	}
	for _, name := range Levels(g) {
		if name == level {
			return newLevel(g, level, ev, seed), nil
		}
	}
	valid := append(Levels(g), baselines...)
	return nil, fmt.Errorf("ai: unknown level %q for %s: valid levels are %s",
		level, g.Info().Name, strings.Join(valid, ", "))
}

// newLevel builds the player of a listed level.
func newLevel(g game.Game, level string, ev search.Evaluator, seed uint64) search.Player {
	gr := search.NewGreedy(ev, seed)
	gr.Temperature = 50
	return gr
}

// Evaluator returns the evaluation function the levels of g use.
func Evaluator(g game.Game) search.Evaluator {
	return search.Zero
}
