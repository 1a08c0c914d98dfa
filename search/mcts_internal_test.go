package search

import (
	"testing"

	"stax/game"
)

// TestDrawReward checks what a finished game is worth to each player: 1 for
// the winner, 0 for a loser, and for a draw ½ by default or the DrawReward
// asked for.
func TestDrawReward(t *testing.T) {
	won := game.Outcome{Players: 4, Results: [game.MaxPlayers]game.Result{game.Loss, game.Win, game.Loss, game.Loss}}
	drawn := game.Outcome{Players: 4, Results: [game.MaxPlayers]game.Result{game.Draw, game.Draw, game.Draw, game.Draw}}
	for _, c := range []struct {
		reward float64
		o      game.Outcome
		want   [4]float64
	}{
		{0, won, [4]float64{0, 1, 0, 0}},
		{0.25, won, [4]float64{0, 1, 0, 0}},
		{0, drawn, [4]float64{0.5, 0.5, 0.5, 0.5}},
		{0.25, drawn, [4]float64{0.25, 0.25, 0.25, 0.25}},
	} {
		m := &MCTS{DrawReward: c.reward}
		got := outcomeRewards(c.o, 4, m.drawReward())
		if [4]float64(got[:4]) != c.want {
			t.Errorf("DrawReward %v, %v: rewards %v, want %v", c.reward, c.o.Results[:4], got[:4], c.want)
		}
	}
}
