package ai

import (
	"bufio"
	"context"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"stax/game"
	"stax/games/diam"
	"stax/search"
)

// diamSample is a position of a self-play game and the game's result for
// player 1: 1 a win, 1/2 a draw, 0 a loss.
type diamSample struct {
	pos    string
	result float64
}

// DiamTuning is what TuneDiam plays and fits.
type DiamTuning struct {
	// Games is the number of self-play games (default 4000).
	Games int
	// Nodes is the alpha-beta nodes a move of the games (default 3000).
	Nodes int64
	// Seed seeds the games: game i is seeded with Seed*1000003+i.
	Seed uint64
	// Workers is the number of games played at once (default:
	// GOMAXPROCS).
	Workers int
	// Data names a file of labelled positions: read instead of playing
	// when it exists, else written after the self-play ("": none).
	Data string
	// Iters is the number of gradient steps (default 3000).
	Iters int
	// FromTuned starts from, and plays the games with, the current
	// two-player weights (diamWeights2) instead of the hand-set ones
	// four-player Diam uses (diamWeights4).
	FromTuned bool
	// Log, when not nil, receives the progress.
	Log TuneLog
}

// TuneDiam tunes the weights of the two-player Diam evaluation. It plays
// self-play games of alpha-beta with the hand-set weights of diamWeights4
// (or, with cfg.FromTuned, the current diamWeights2; a node budget a move,
// a few random plies first and a small chance of a random move, each game
// seeded from cfg.Seed, so the data are the same on every machine), labels
// every position with the game's result, and fits the weights by Texel's
// method: the mean squared error between the results and a logistic
// function of the evaluation, its scale fitted to the current weights
// first and then held, so that the tuned weights keep the evaluation's
// units. It returns the weights as the declaration of diamWeights2.
func TuneDiam(ctx context.Context, gg game.Game, cfg DiamTuning) (*Tuned, error) {
	g, ok := gg.(*diam.Game)
	if !ok || g.Players() != 2 {
		return nil, fmt.Errorf("TuneDiam: %s is not two-player Diam", game.SpecOf(gg))
	}
	if cfg.Games <= 0 {
		cfg.Games = 4000
	}
	if cfg.Nodes <= 0 {
		cfg.Nodes = 3000
	}
	if cfg.Iters <= 0 {
		cfg.Iters = 3000
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	from := diamWeights4
	if cfg.FromTuned {
		from = diamWeights2
	}
	samples, err := diamTuneSamples(ctx, g, &from, cfg)
	if err != nil {
		return nil, err
	}
	cfg.Log.printf("%d positions", len(samples))
	feats := make([][]float64, len(samples))
	results := make([]float64, len(samples))
	for i, sm := range samples {
		st, err := g.ParseState(sm.pos)
		if err != nil {
			return nil, err
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
	cfg.Log.printf("scale %.5f, error of the current weights %.6f", k, texelError(feats, results, w0, k))
	w, err := texelFit(ctx, feats, results, w0, k, cfg.Iters, 2)
	if err != nil {
		return nil, err
	}
	cfg.Log.printf("error of the tuned weights %.6f", texelError(feats, results, w, k))
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
		return nil, err
	}
	return &Tuned{Source: src, Var: "diamWeights2"}, nil
}

func iround(x float64) int { return int(math.Round(x)) }

// diamTuneSamples reads the samples of cfg.Data, or plays the self-play
// games (and writes the file when one is named).
func diamTuneSamples(ctx context.Context, g *diam.Game, w *diamWeights, cfg DiamTuning) ([]diamSample, error) {
	if cfg.Data != "" {
		if f, err := os.Open(cfg.Data); err == nil {
			defer f.Close()
			var out []diamSample
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				pos, res, ok := strings.Cut(sc.Text(), ";")
				r, err := strconv.ParseFloat(res, 64)
				if !ok || err != nil {
					return nil, fmt.Errorf("%s: bad line %q; want a position, a semicolon and a result, e.g. %q", cfg.Data, sc.Text(), g.Start().String()+";0.5")
				}
				out = append(out, diamSample{pos, r})
			}
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("%s: %w", cfg.Data, err)
			}
			cfg.Log.printf("read %s", cfg.Data)
			return out, nil
		}
	}
	games := make([][]diamSample, cfg.Games)
	errs := make([]error, cfg.Games)
	var wg sync.WaitGroup
	next := make(chan int)
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				games[i], errs[i] = diamSelfPlay(ctx, g, w, cfg.Nodes, cfg.Seed*1_000_003+uint64(i))
			}
		}()
	}
	for i := range games {
		if ctx.Err() != nil {
			break
		}
		next <- i
		if i%500 == 499 {
			cfg.Log.printf("%d games", i+1)
		}
	}
	close(next)
	wg.Wait()
	if err := tuneErr(ctx); err != nil {
		return nil, err
	}
	var out []diamSample
	for i, gs := range games {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, gs...)
	}
	if cfg.Data != "" {
		var b strings.Builder
		for _, sm := range out {
			fmt.Fprintf(&b, "%s;%g\n", sm.pos, sm.result)
		}
		if err := os.WriteFile(cfg.Data, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		cfg.Log.printf("wrote %s", cfg.Data)
	}
	return out, nil
}

// diamSelfPlay plays one game of alpha-beta with weights w against itself
// from 2 to 6 random plies and returns its positions from the first
// searched one on, labelled with the result.
func diamSelfPlay(ctx context.Context, g *diam.Game, w *diamWeights, nodes int64, seed uint64) ([]diamSample, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := game.NewHistory(g, nil)
	for range 2 + rng.IntN(5) {
		legal := h.State().Legal(nil)
		if h.Over() || len(legal) == 0 {
			break
		}
		if err := h.PlayMove(legal[rng.IntN(len(legal))]); err != nil {
			return nil, err
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
		res, err := search.Ask(ctx, players[h.State().ToMove()], search.PositionOf(h), search.Limits{Nodes: nodes}, nil)
		if err != nil {
			return nil, err
		}
		if err := h.PlayMove(res.Move); err != nil {
			return nil, err
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
	return out, nil
}
