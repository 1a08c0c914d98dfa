package match

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// pairModel draws the mean score of a game pair between two engines: two
// games with the seats swapped, each a win, draw or loss for the first
// engine with the expected score of elo, the given share of draws, and a
// seat advantage that adds bias to the first game's expected score and
// takes it from the second's.
type pairModel struct {
	elo, draws, bias float64
}

func (m pairModel) game(rng *rand.Rand, s float64) float64 {
	win := s - m.draws/2
	switch u := rng.Float64(); {
	case u < win:
		return 1
	case u < win+m.draws:
		return 0.5
	}
	return 0
}

func (m pairModel) pair(rng *rand.Rand) float64 {
	s := ExpectedScore(m.elo)
	return (m.game(rng, s+m.bias) + m.game(rng, s-m.bias)) / 2
}

// runSPRT plays pairs drawn from m until t decides, or maxPairs pairs.
func runSPRT(t SPRT, m pairModel, rng *rand.Rand, maxPairs int) Decision {
	var s Score
	for range maxPairs {
		s.add(m.pair(rng))
		if d := t.Decide(s); d != Continue {
			return d
		}
	}
	return Continue
}

// TestSPRTErrorRates simulates many SPRTs on game pairs drawn from known
// distributions (results, not games) and checks the two promises of the
// test: between engines of the strength of H0 it accepts H1 at most α of
// the time, and between engines of the strength of H1 it accepts H1 at
// least 1-β of the time. The tolerance is two standard errors of the
// simulated rate.
func TestSPRTErrorRates(t *testing.T) {
	runs := 1000
	if testing.Short() {
		runs = 300
	}
	tests := []struct {
		sprt  SPRT
		draws float64
		bias  float64
	}{
		// Random against random in Pogo: no draws, H1 far away. The
		// normal approximation accepted H1 in 12-17% of such runs.
		{SPRT{Elo0: 0, Elo1: 200}, 0, 0},
		{SPRT{Elo0: 0, Elo1: 100}, 0.1, 0.1},
		{SPRT{Elo0: 0, Elo1: 30, Alpha: 0.1, Beta: 0.1}, 0.4, 0.05},
		{SPRT{Elo0: -20, Elo1: 30}, 0.3, 0},
	}
	for _, tc := range tests {
		alpha, beta := tc.sprt.Alpha, tc.sprt.Beta
		if alpha == 0 {
			alpha, beta = 0.05, 0.05
		}
		t.Run(fmt.Sprintf("elo0=%g,elo1=%g,draws=%g,bias=%g", tc.sprt.Elo0, tc.sprt.Elo1, tc.draws, tc.bias), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.sprt.Elo1)))
			for _, h := range []struct {
				name    string
				elo     float64
				maxRate float64 // of H1 accepted
				minRate float64
			}{
				{"H0", tc.sprt.Elo0, alpha, 0},
				{"H1", tc.sprt.Elo1, 1, 1 - beta},
			} {
				m := pairModel{elo: h.elo, draws: tc.draws, bias: tc.bias}
				h1, undecided := 0, 0
				for range runs {
					switch runSPRT(tc.sprt, m, rng, 100_000) {
					case AcceptH1:
						h1++
					case Continue:
						undecided++
					}
				}
				rate := float64(h1) / float64(runs)
				slack := 2 * math.Sqrt(alpha*(1-alpha)/float64(runs))
				t.Logf("true Elo %g (%s): H1 accepted in %d of %d runs (%.3f), %d undecided", h.elo, h.name, h1, runs, rate, undecided)
				if rate > h.maxRate+slack || rate < h.minRate-slack {
					t.Errorf("true Elo %g: H1 accepted in %.3f of the runs; want it in [%.3f, %.3f] (± %.3f)", h.elo, rate, h.minRate, h.maxRate, slack)
				}
			}
		})
	}
}
