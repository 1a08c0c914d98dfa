package ai

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"stax/game"
	"stax/games/diam"
	"stax/search"
)

var (
	diamTune      = flag.Bool("tune.diam", false, "tune the two-player Diam evaluation from self-play (Texel tuning) and print the weights")
	diamTuneGames = flag.Int("tune.diam.games", 4000, "self-play games for -tune.diam")
	diamTuneNodes = flag.Int64("tune.diam.nodes", 3000, "alpha-beta nodes a move in the self-play games of -tune.diam")
	diamTuneSeed  = flag.Uint64("tune.diam.seed", 1, "seed of the self-play games of -tune.diam")
	diamTuneData  = flag.String("tune.diam.data", "", "file of labelled positions for -tune.diam: read when it exists, else written after the self-play")
	diamTuneIters = flag.Int("tune.diam.iters", 3000, "gradient steps of -tune.diam")
	diamTuneFrom  = flag.String("tune.diam.from", "hand", "weights -tune.diam plays its games with and starts from: hand (the hand-set ones, as four-player Diam uses) or tuned (the current two-player ones)")
)

// diamSample is a position of a self-play game and the game's result for
// player 1: 1 a win, 1/2 a draw, 0 a loss.
type diamSample struct {
	pos    string
	result float64
}

// TestTuneDiam tunes the weights of the two-player Diam evaluation with
// -tune.diam (see docs/strength.md):
//
//	go test ./ai -run TestTuneDiam -tune.diam -timeout 0 -v
//
// It plays self-play games of alpha-beta with the hand-set weights of
// diamWeights4 (or, with -tune.diam.from tuned, the current diamWeights2;
// a node budget a move, a few random plies first and a small chance of a random
// move, each game seeded from -tune.diam.seed, so the data are the same on
// every machine), labels every position with the game's result, and fits
// the weights by Texel's method: the mean squared error between the
// results and a logistic function of the evaluation, its scale fitted to
// the current weights first and then held, so that the tuned weights keep
// the evaluation's units. It prints the weights as Go code for
// diamWeights2.
func TestTuneDiam(t *testing.T) {
	if !*diamTune {
		t.Skip("run with -tune.diam")
	}
	g := load(t, "diam").(*diam.Game)
	from := diamWeights4
	switch *diamTuneFrom {
	case "hand":
	case "tuned":
		from = diamWeights2
	default:
		t.Fatalf("-tune.diam.from %q: want hand or tuned", *diamTuneFrom)
	}
	samples := diamTuneSamples(t, g, &from)
	t.Logf("%d positions", len(samples))
	feats := make([][]float64, len(samples))
	results := make([]float64, len(samples))
	for i, sm := range samples {
		st, err := g.ParseState(sm.pos)
		if err != nil {
			t.Fatal(err)
		}
		var f [diamNFeat]int32
		diamFeatures(st.(*diam.State), 0, &f)
		feats[i] = make([]float64, diamNFeat)
		for j, x := range f {
			feats[i][j] = float64(x)
		}
		results[i] = sm.result
	}
	w0 := make([]float64, diamNFeat)
	for i, x := range from {
		w0[i] = float64(x)
	}
	k := fitScale(feats, results, w0)
	t.Logf("scale %.5f, error of the current weights %.6f", k, texelError(feats, results, w0, k))
	w := texelFit(feats, results, w0, k, *diamTuneIters, 2)
	t.Logf("error of the tuned weights %.6f", texelError(feats, results, w, k))
	var b strings.Builder
	b.WriteString("var diamWeights2 = diamWeights{\n")
	names := []string{"fThreat", "fHalf", "fLater", "fNear", "fCovered", "fToMove"}
	for i, n := range names {
		fmt.Fprintf(&b, "\t%s: %d, %s + 1: %d, %s + 2: %d,\n", n, iround(w[3*i]), n, iround(w[3*i+1]), n, iround(w[3*i+2]))
	}
	fmt.Fprintf(&b, "\tfGround: %d,\n", iround(w[fGround]))
	fmt.Fprintf(&b, "\tfTop: %d, fTop + 1: %d, fTop + 2: %d, fTop + 3: %d,\n", iround(w[fTop]), iround(w[fTop+1]), iround(w[fTop+2]), iround(w[fTop+3]))
	fmt.Fprintf(&b, "\tfReserve: %d, fTempo: %d, fDouble: %d,\n}\n", iround(w[fReserve]), iround(w[fTempo]), iround(w[fDouble]))
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s", src)
}

func iround(x float64) int { return int(math.Round(x)) }

// diamTuneSamples reads the samples of -tune.diam.data, or plays the
// self-play games (and writes the file when one is named).
func diamTuneSamples(t *testing.T, g *diam.Game, w *diamWeights) []diamSample {
	if *diamTuneData != "" {
		if f, err := os.Open(*diamTuneData); err == nil {
			defer f.Close()
			var out []diamSample
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				pos, res, ok := strings.Cut(sc.Text(), ";")
				r, err := strconv.ParseFloat(res, 64)
				if !ok || err != nil {
					t.Fatalf("%s: bad line %q", *diamTuneData, sc.Text())
				}
				out = append(out, diamSample{pos, r})
			}
			return out
		}
	}
	games := make([][]diamSample, *diamTuneGames)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i] = diamSelfPlay(t, g, w, *diamTuneSeed*1_000_003+uint64(i))
			}
		}()
	}
	for i := range games {
		next <- i
		if i%500 == 499 {
			t.Logf("%d games", i+1)
		}
	}
	close(next)
	wg.Wait()
	var out []diamSample
	for _, gs := range games {
		out = append(out, gs...)
	}
	if *diamTuneData != "" {
		var b strings.Builder
		for _, sm := range out {
			fmt.Fprintf(&b, "%s;%g\n", sm.pos, sm.result)
		}
		if err := os.WriteFile(*diamTuneData, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// diamSelfPlay plays one game of alpha-beta with weights w against itself
// from 2 to 6 random plies and returns its positions from the first
// searched one on, labelled with the result.
func diamSelfPlay(t *testing.T, g *diam.Game, w *diamWeights, seed uint64) []diamSample {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := game.NewHistory(g, nil)
	for range 2 + rng.IntN(5) {
		legal := h.State().Legal(nil)
		if h.Over() || len(legal) == 0 {
			break
		}
		if err := h.PlayMove(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	var players [2]*search.AlphaBeta
	for i := range players {
		players[i] = search.NewAlphaBeta(diamEval{w: w}, 16, seed+uint64(i))
		players[i].Epsilon = 0.03
	}
	var pos []string
	for !h.Over() {
		pos = append(pos, h.State().String())
		res, err := search.Ask(context.Background(), players[h.State().ToMove()], search.PositionOf(h), search.Limits{Nodes: *diamTuneNodes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.PlayMove(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	r := 0.5
	switch h.Outcome().Results[0] {
	case game.Win:
		r = 1
	case game.Loss:
		r = 0
	}
	out := make([]diamSample, len(pos))
	for i, p := range pos {
		out[i] = diamSample{p, r}
	}
	return out
}
