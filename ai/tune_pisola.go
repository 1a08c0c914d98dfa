package ai

import (
	"context"
	"fmt"
	"go/format"
	"math"
	"strconv"
	"strings"

	"stax/game"
	"stax/game/record"
	"stax/games/pisola"
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

// PisolaTuning is what TunePisola fits.
type PisolaTuning struct {
	// Records are the games to fit, all of the game tuned, such as
	// those stax match --out writes; a game whose record has no result
	// is left out. Every eighth game by its Round is held out to check
	// that the fit generalises.
	Records []*record.Record
	// Iters is the number of gradient steps (default 3000).
	Iters int
	// Log, when not nil, receives the progress.
	Log TuneLog
}

// TunePisola fits the weights of Pisola's evaluation (Texel tuning) to
// the games of cfg.Records, played in g (a Pisola game): it takes every
// distinct position of them labelled with the game's result, and fits the
// weights of each phase so that a logistic function of the evaluation
// predicts the results best (least squares). The scale of the logistic is
// first fitted to the hand-set weights the evaluation had before, so the
// new weights keep the evaluation's units (the levels' temperatures are in
// them). It returns the weights as the declaration of pisolaWeights.
func TunePisola(ctx context.Context, g game.Game, cfg PisolaTuning) (*Tuned, error) {
	if _, ok := g.(*pisola.Game); !ok {
		return nil, fmt.Errorf("TunePisola: %s is not Pisola", game.SpecOf(g))
	}
	if cfg.Iters <= 0 {
		cfg.Iters = 3000
	}
	var train, test [][]float64
	var trainRes, testRes []float64
	for _, rec := range cfg.Records {
		round, _ := strconv.Atoi(rec.Get("Round"))
		samples, err := pisolaTuneSamples(g, rec)
		if err != nil {
			return nil, err
		}
		for _, sm := range samples {
			if round%8 == 0 {
				test, testRes = append(test, sm.x), append(testRes, sm.result)
			} else {
				train, trainRes = append(train, sm.x), append(trainRes, sm.result)
			}
		}
	}
	if len(train) == 0 {
		return nil, fmt.Errorf("TunePisola: no positions to fit in %d games; want finished games, at least one with a Round not a multiple of 8", len(cfg.Records))
	}
	cfg.Log.printf("%d games, %d positions to fit, %d held out", len(cfg.Records), len(train), len(test))

	w0 := make([]float64, 2*numPisolaTerms)
	for ph := range pisolaHandWeights {
		for i, x := range pisolaHandWeights[ph] {
			w0[ph*numPisolaTerms+i] = float64(x)
		}
	}
	k := fitScale(train, trainRes, w0)
	cfg.Log.printf("scale 1/%.1f; error before: fit %.5f, held out %.5f", 1/k, texelError(train, trainRes, w0, k), texelError(test, testRes, w0, k))
	w, err := texelFit(ctx, train, trainRes, w0, k, cfg.Iters, 1)
	if err != nil {
		return nil, err
	}
	var iw [2][numPisolaTerms]int
	for i := range w {
		iw[i/numPisolaTerms][i%numPisolaTerms] = int(math.Round(w[i]))
		w[i] = math.Round(w[i])
	}
	cfg.Log.printf("error after: fit %.5f, held out %.5f", texelError(train, trainRes, w, k), texelError(test, testRes, w, k))
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\nvar pisolaWeights = [2][numPisolaTerms]int{\n", strings.Join(pisolaTermNames[:], ", "))
	for ph := range iw {
		fmt.Fprintf(&b, "\t{%s},\n", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(iw[ph])), ", "), "[]"))
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, err
	}
	return &Tuned{Source: src, Var: "pisolaWeights"}, nil
}

// pisolaTuneSamples replays a game of g and returns its distinct
// positions before the end, labelled with the result.
func pisolaTuneSamples(g game.Game, rec *record.Record) ([]pisolaTuneSample, error) {
	if spec := rec.Get("Game"); spec != game.SpecOf(g).String() {
		return nil, fmt.Errorf("a game of %s, not %s", spec, game.SpecOf(g))
	}
	res, err := record.ParseResult(rec.Get("Result"), 2)
	if err != nil {
		return nil, err
	}
	result := 0.5
	switch res[pisola.White] {
	case game.Win:
		result = 1
	case game.Loss:
		result = 0
	case game.Ongoing:
		return nil, nil
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
			return nil, fmt.Errorf("round %s: %w", rec.Get("Round"), err)
		}
	}
	return out, nil
}
