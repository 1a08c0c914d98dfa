package ai

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/games/pogo"
	"stax/search"
)

var (
	accuracy         = flag.Bool("pogo.accuracy", false, "measure how often Pogo levels keep the solved value with their moves (needs the cached table: stax solve pogo)")
	accuracyLevels   = flag.String("pogo.accuracy.levels", "hard,strongest", "the levels measured, comma-separated")
	accuracyGames    = flag.Int("pogo.accuracy.games", 10, "self-play games per level")
	accuracyMoveTime = flag.Duration("pogo.accuracy.movetime", 0, "time per move (0: the level's own budget)")
	accuracySeed     = flag.Uint64("pogo.accuracy.seed", 0, "seed of the first game's opening and player (the games take the seeds from here on)")
	accuracyNodes    = flag.Int64("pogo.accuracy.nodes", 0, "nodes per move instead of time, for figures that do not depend on the machine's load (0: the level's own budget)")
)

// TestPogoAccuracy measures, with -pogo.accuracy, how often each level's
// moves keep the value of the position by the solved table (a win stays a
// win, a draw a draw; in a lost position every move does), over games of
// the level against itself from two random plies:
//
//	go test ./ai -run TestPogoAccuracy -pogo.accuracy -timeout 0 -v
//
// The table is only the judge: the levels play by search.
func TestPogoAccuracy(t *testing.T) {
	if !*accuracy {
		t.Skip("run with -pogo.accuracy")
	}
	_, tb := cachedPogoTable(t)
	g := load(t, "pogo").(*pogo.Game)
	for _, level := range strings.Split(*accuracyLevels, ",") {
		var moves, kept, atStake, drawToLoss, winLost int
		var errs []string
		start := time.Now()
		for i := range *accuracyGames {
			seed := *accuracySeed + uint64(i)
			rng := rand.New(rand.NewPCG(seed, 7))
			p, err := NewSeeded(g, level, seed+1)
			if err != nil {
				t.Fatal(err)
			}
			h := game.NewHistory(g, nil)
			for range 2 {
				legal := h.State().Legal(nil)
				h.PlayMove(legal[rng.IntN(len(legal))])
			}
			for !h.Over() {
				s := h.State().(*pogo.State)
				best, _, _ := tb.Best(s)
				res, err := search.Ask(context.Background(), p, search.PositionOf(h), search.Limits{Time: *accuracyMoveTime, Nodes: *accuracyNodes}, nil)
				if err != nil {
					t.Fatal(err)
				}
				c := s.Copy()
				c.Apply(res.Move)
				got := tb.Verdict(c).Next()
				moves++
				if best.Verdict.Result != game.Loss {
					atStake++
				}
				if got.Result == best.Verdict.Result {
					kept++
				} else {
					if best.Verdict.Result == game.Draw {
						drawToLoss++
					} else {
						winLost++
					}
					errs = append(errs, fmt.Sprintf("%s: %s (%s) instead of %s (%s)", s, s.FormatMove(res.Move), got, s.FormatMove(best.Move), best.Verdict))
				}
				h.PlayMove(res.Move)
			}
		}
		t.Logf("%s: kept the value with %d of %d moves (%.1f%%); %d of the %d moves with something at stake lost it: %d a draw to a loss, %d a win; %v",
			level, kept, moves, 100*float64(kept)/float64(max(moves, 1)), moves-kept, atStake, drawToLoss, winLost, time.Since(start).Round(time.Second))
		for _, e := range errs {
			t.Logf("  %s", e)
		}
	}
}
