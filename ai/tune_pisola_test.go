package ai

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"stax/engine/match"
	"stax/game"
	"stax/game/record"
	"stax/games/pisola"
)

var (
	tunePisola         = flag.Bool("tune.pisola", false, "fit Pisola's evaluation weights to self-play games and print them as Go code")
	tunePisolaGames    = flag.Int("tune.games", 1000, "self-play games of the tuning")
	tunePisolaLevel    = flag.String("tune.level", "medium", "the level that plays the tuning's games")
	tunePisolaOpenings = flag.Int("tune.openings", 4, "random plies that open each tuning game")
	tunePisolaSeed     = flag.Uint64("tune.seed", 1, "seed of the tuning's games")
	tunePisolaWorkers  = flag.Int("tune.concurrency", 2, "games played at once by the tuning")
	tunePisolaRecords  = flag.String("tune.records", "", "fit to the games of this file (stax match --out) instead of playing them")
)

// pisolaHandWeights are the evaluation's weights before tuning, set by
// hand: the tuning starts from them and keeps their scale.
var pisolaHandWeights = [2][numPisolaTerms]int{
	{100, 30, -35, 15, 4, 0, 0, 0, 0, 0, 0, 0, 0},
	{100, 30, -35, 15, 4, 0, 0, 0, 20, 0, 0, 0, 0},
}

// tuneSample is one position of a tuning game: the difference of each
// term between White and Black, the phase (0 placing, 1 moving) and the
// game's result for White (1, 1/2 or 0).
type tuneSample struct {
	d      [numPisolaTerms]float64
	phase  int
	result float64
}

// TestTunePisola fits the weights of Pisola's evaluation (Texel tuning):
// it plays self-play games of -tune.level from random openings, takes
// every distinct position of them labelled with the game's result, and
// fits the weights of each phase so that a logistic function of the
// evaluation predicts the results best (least squares). The scale of the
// logistic is first fitted to the hand-set weights the evaluation had
// before, so the new weights keep the evaluation's units (the levels'
// temperatures are in them).
// Every eighth game (by its round number) is held out to check that the fit generalises.
//
//	go test ./ai -run TestTunePisola -tune.pisola -tune.games 1200 -timeout 0 -v
//
// With -tune.records it fits the games of a file instead, such as those of
// stax match --out (docs/strength.md has the commands). It prints the
// weights as Go code for pisolaWeights.
func TestTunePisola(t *testing.T) {
	if !*tunePisola {
		t.Skip("run with -tune.pisola")
	}
	g := load(t, "pisola")
	var records []*record.Record
	if *tunePisolaRecords != "" {
		text, err := os.ReadFile(*tunePisolaRecords)
		if err != nil {
			t.Fatal(err)
		}
		if records, err = record.ParseAll(string(text)); err != nil {
			t.Fatalf("%s: %v", *tunePisolaRecords, err)
		}
	} else {
		rep, err := match.Run(context.Background(), match.Config{
			Game:        g,
			Engines:     []match.Engine{{Name: "a", Level: *tunePisolaLevel}, {Name: "b", Level: *tunePisolaLevel}},
			Games:       *tunePisolaGames,
			Concurrency: *tunePisolaWorkers,
			Openings:    *tunePisolaOpenings,
			Seed:        *tunePisolaSeed,
			NewPlayer:   NewSeeded,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range rep.Games {
			records = append(records, res.Record)
		}
	}
	var train, test []tuneSample
	for _, rec := range records {
		samples := tuneSamples(t, g, rec)
		if round, _ := strconv.Atoi(rec.Get("Round")); round%8 == 0 {
			test = append(test, samples...)
		} else {
			train = append(train, samples...)
		}
	}
	t.Logf("%d games, %d positions to fit, %d held out", len(records), len(train), len(test))

	var w [2][numPisolaTerms]float64
	for ph := range w {
		for i := range w[ph] {
			w[ph][i] = float64(pisolaHandWeights[ph][i])
		}
	}
	k := fitScale(train, w)
	t.Logf("scale %.1f; error before: fit %.5f, held out %.5f", k, tuneError(train, w, k), tuneError(test, w, k))
	w = fitWeights(train, w, k)
	var iw [2][numPisolaTerms]int
	for ph := range w {
		for i := range w[ph] {
			iw[ph][i] = int(math.Round(w[ph][i]))
			w[ph][i] = float64(iw[ph][i])
		}
	}
	t.Logf("error after: fit %.5f, held out %.5f", tuneError(train, w, k), tuneError(test, w, k))
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\nvar pisolaWeights = [2][numPisolaTerms]int{\n", strings.Join(pisolaTermNames[:], ", "))
	for ph := range iw {
		fmt.Fprintf(&b, "\t{%s},\n", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(iw[ph])), ", "), "[]"))
	}
	b.WriteString("}\n")
	fmt.Print(b.String())
}

// tuneSamples replays a game of g and returns its distinct positions
// before the end, labelled with the result.
func tuneSamples(t *testing.T, g game.Game, rec *record.Record) []tuneSample {
	t.Helper()
	if spec := rec.Get("Game"); spec != game.SpecOf(g).String() {
		t.Fatalf("a game of %s, not %s", spec, game.SpecOf(g))
	}
	res, err := record.ParseResult(rec.Get("Result"), 2)
	if err != nil {
		t.Fatal(err)
	}
	result := 0.5
	switch res[pisola.White] {
	case game.Win:
		result = 1
	case game.Loss:
		result = 0
	case game.Ongoing:
		return nil
	}
	h := game.NewHistory(g, g.Start())
	seen := map[uint64]bool{}
	var out []tuneSample
	for _, mv := range rec.Moves {
		s := h.State().(*pisola.State)
		if !seen[s.Hash()] {
			seen[s.Hash()] = true
			terms := pisolaTerms(s)
			sm := tuneSample{result: result}
			if s.Moving() {
				sm.phase = 1
			}
			for i := range sm.d {
				sm.d[i] = float64(terms[pisola.White][i] - terms[pisola.Black][i])
			}
			out = append(out, sm)
		}
		if err := h.Play(mv); err != nil {
			t.Fatalf("%v", err)
		}
	}
	return out
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func (sm *tuneSample) eval(w *[2][numPisolaTerms]float64) float64 {
	v := 0.0
	for i, x := range sm.d {
		v += w[sm.phase][i] * x
	}
	return v
}

// tuneError is the mean squared error of the predicted results.
func tuneError(samples []tuneSample, w [2][numPisolaTerms]float64, k float64) float64 {
	e := 0.0
	for i := range samples {
		d := samples[i].result - sigmoid(samples[i].eval(&w)/k)
		e += d * d
	}
	return e / float64(max(1, len(samples)))
}

// fitScale returns the scale k of the logistic that fits the samples best
// with weights w, by golden-section search.
func fitScale(samples []tuneSample, w [2][numPisolaTerms]float64) float64 {
	lo, hi := 10.0, 2000.0
	phi := (math.Sqrt(5) - 1) / 2
	for hi-lo > 0.5 {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if tuneError(samples, w, a) < tuneError(samples, w, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// fitWeights minimises the error over the weights by gradient descent
// (Adam), from w.
func fitWeights(samples []tuneSample, w [2][numPisolaTerms]float64, k float64) [2][numPisolaTerms]float64 {
	var m, v [2][numPisolaTerms]float64
	const rate, b1, b2 = 1.0, 0.9, 0.999
	for it := 1; it <= 3000; it++ {
		var grad [2][numPisolaTerms]float64
		for i := range samples {
			sm := &samples[i]
			p := sigmoid(sm.eval(&w) / k)
			f := -2 * (sm.result - p) * p * (1 - p) / k
			for j, x := range sm.d {
				grad[sm.phase][j] += f * x
			}
		}
		for ph := range w {
			for j := range w[ph] {
				gr := grad[ph][j] / float64(len(samples))
				m[ph][j] = b1*m[ph][j] + (1-b1)*gr
				v[ph][j] = b2*v[ph][j] + (1-b2)*gr*gr
				mh := m[ph][j] / (1 - math.Pow(b1, float64(it)))
				vh := v[ph][j] / (1 - math.Pow(b2, float64(it)))
				w[ph][j] -= rate * mh / (math.Sqrt(vh) + 1e-12)
			}
		}
	}
	return w
}
