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
	tunePisolaGames    = flag.Int("tune.pisola.games", 1000, "self-play games of the tuning")
	tunePisolaLevel    = flag.String("tune.pisola.level", "medium", "the level that plays the tuning's games")
	tunePisolaOpenings = flag.Int("tune.pisola.openings", 4, "random plies that open each tuning game")
	tunePisolaSeed     = flag.Uint64("tune.pisola.seed", 1, "seed of the tuning's games")
	tunePisolaWorkers  = flag.Int("tune.pisola.workers", 2, "games played at once by the tuning")
	tunePisolaRecords  = flag.String("tune.pisola.records", "", "fit to the games of this file (stax match --out) instead of playing them")
)

// pisolaHandWeights are the evaluation's weights before tuning, set by
// hand: the tuning starts from them and keeps their scale.
var pisolaHandWeights = [2][numPisolaTerms]int{
	{100, 30, -35, 15, 4, 0, 0, 0, 0, 0, 0, 0, 0},
	{100, 30, -35, 15, 4, 0, 0, 0, 20, 0, 0, 0, 0},
}

// pisolaTuneSample is one position of a tuning game: the difference of
// each term between White and Black, in the slots of the position's phase
// (the placing phase's terms first, then the moving phase's, one weight
// each), and the game's result for White (1, 1/2 or 0).
type pisolaTuneSample struct {
	x      []float64
	result float64
}

// TestTunePisola fits the weights of Pisola's evaluation (Texel tuning):
// it plays self-play games of -tune.pisola.level from random openings, takes
// every distinct position of them labelled with the game's result, and
// fits the weights of each phase so that a logistic function of the
// evaluation predicts the results best (least squares). The scale of the
// logistic is first fitted to the hand-set weights the evaluation had
// before, so the new weights keep the evaluation's units (the levels'
// temperatures are in them).
// Every eighth game (by its round number) is held out to check that the fit generalises.
//
//	go test ./ai -run TestTunePisola -tune.pisola -tune.pisola.games 1200 -timeout 0 -v
//
// With -tune.pisola.records it fits the games of a file instead, such as those of
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
	var train, test [][]float64
	var trainRes, testRes []float64
	for _, rec := range records {
		round, _ := strconv.Atoi(rec.Get("Round"))
		for _, sm := range pisolaTuneSamples(t, g, rec) {
			if round%8 == 0 {
				test, testRes = append(test, sm.x), append(testRes, sm.result)
			} else {
				train, trainRes = append(train, sm.x), append(trainRes, sm.result)
			}
		}
	}
	t.Logf("%d games, %d positions to fit, %d held out", len(records), len(train), len(test))

	w0 := make([]float64, 2*numPisolaTerms)
	for ph := range pisolaHandWeights {
		for i, x := range pisolaHandWeights[ph] {
			w0[ph*numPisolaTerms+i] = float64(x)
		}
	}
	k := fitScale(train, trainRes, w0)
	t.Logf("scale 1/%.1f; error before: fit %.5f, held out %.5f", 1/k, texelError(train, trainRes, w0, k), texelError(test, testRes, w0, k))
	w := texelFit(train, trainRes, w0, k, 3000, 1)
	var iw [2][numPisolaTerms]int
	for i := range w {
		iw[i/numPisolaTerms][i%numPisolaTerms] = int(math.Round(w[i]))
		w[i] = math.Round(w[i])
	}
	t.Logf("error after: fit %.5f, held out %.5f", texelError(train, trainRes, w, k), texelError(test, testRes, w, k))
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\nvar pisolaWeights = [2][numPisolaTerms]int{\n", strings.Join(pisolaTermNames[:], ", "))
	for ph := range iw {
		fmt.Fprintf(&b, "\t{%s},\n", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(iw[ph])), ", "), "[]"))
	}
	b.WriteString("}\n")
	fmt.Print(b.String())
}

// pisolaTuneSamples replays a game of g and returns its distinct
// positions before the end, labelled with the result.
func pisolaTuneSamples(t *testing.T, g game.Game, rec *record.Record) []pisolaTuneSample {
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
	var out []pisolaTuneSample
	for _, mv := range rec.Moves {
		s := h.State().(*pisola.State)
		if !seen[s.Hash()] {
			seen[s.Hash()] = true
			terms := pisolaTerms(s)
			sm := pisolaTuneSample{x: make([]float64, 2*numPisolaTerms), result: result}
			slot := 0
			if s.Moving() {
				slot = numPisolaTerms
			}
			for i := range numPisolaTerms {
				sm.x[slot+i] = float64(terms[pisola.White][i] - terms[pisola.Black][i])
			}
			out = append(out, sm)
		}
		if err := h.Play(mv); err != nil {
			t.Fatalf("%v", err)
		}
	}
	return out
}
