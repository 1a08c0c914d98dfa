package ai

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"time"

	"stax/game"
	"stax/games/pogo"
	"stax/games/pogo/solve"
	"stax/search"
)

// PogoTuning is what TunePogo and TunePogoNet fit.
type PogoTuning struct {
	// Table is Pogo's solved table of the game tuned, which labels the
	// positions.
	Table *solve.Table
	// Games is the number of games whose positions, and the positions
	// after each of their legal moves, make the training set (default
	// 3000; a tenth of it, at least 50, makes the test set).
	Games int
	// Epochs is the number of passes over the training set (default 20
	// for TunePogo, 30 for TunePogoNet).
	Epochs int
	// Seed seeds the games (the training set's with Seed, the test
	// set's with Seed+1) and the fitting (Seed+2 for TunePogo, Seed+4
	// for TunePogoNet), so that the committed weights, made with seed 1,
	// can be made again.
	Seed uint64
	// Log, when not nil, receives the progress.
	Log TuneLog
}

func (cfg *PogoTuning) check(gg game.Game, epochs int) (*pogo.Game, error) {
	g, ok := gg.(*pogo.Game)
	if !ok {
		return nil, fmt.Errorf("%s is not Pogo", game.SpecOf(gg))
	}
	if cfg.Table == nil {
		return nil, fmt.Errorf("no solved table of %s", game.SpecOf(gg))
	}
	if cfg.Games == 0 {
		cfg.Games = 3000
	}
	if cfg.Epochs == 0 {
		cfg.Epochs = epochs
	}
	if cfg.Games < 10 || cfg.Epochs < 1 {
		return nil, fmt.Errorf("%d games, %d epochs: want at least 10 games and one epoch", cfg.Games, cfg.Epochs)
	}
	return g, nil
}

// TunePogo fits Pogo's evaluation to the solved table. The training
// positions are those of games between the levels from random to hard
// (their searches guided by the hand-written evaluation pogoHandEval, so
// that the sample does not depend on the weights it replaces) from two to
// eight random plies, and every position one move from them; each is
// labelled by the table with the value for its side to move (a win 1, a
// draw ½, a loss 0). A logistic regression (Adam on the cross-entropy,
// seeded: the run is reproducible) fits the two sets of weights of
// pogoEval, which are scaled to the hand-written evaluation's units (the
// scale at which its own logistic fit is best) and returned as the file
// eval_pogo_weights.go. The table only teaches: the levels play by search.
func TunePogo(ctx context.Context, gg game.Game, cfg PogoTuning) (*Tuned, error) {
	g, err := cfg.check(gg, 20)
	if err != nil {
		return nil, fmt.Errorf("TunePogo: %w", err)
	}
	start := time.Now()
	train, err := tuneSamples(ctx, cfg.Table, g, cfg.Games, cfg.Seed)
	if err != nil {
		return nil, err
	}
	test, err := tuneSamples(ctx, cfg.Table, g, max(cfg.Games/10, 50), cfg.Seed+1)
	if err != nil {
		return nil, err
	}
	cfg.Log.printf("%d training positions, %d test positions (%v)", len(train), len(test), time.Since(start).Round(time.Second))
	rand.New(rand.NewPCG(cfg.Seed+2, cfg.Seed+2)).Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
	scale, handLoss := handScale(test)
	m, err := fitPogo(ctx, train, cfg.Epochs)
	if err != nil {
		return nil, err
	}
	cfg.Log.printf("cross-entropy on the test positions: hand-written evaluation %.4f (at its best scale, 1/%.1f), fitted model %.4f, training %.4f (%v)",
		handLoss, 1/scale, m.loss(test), m.loss(train), time.Since(start).Round(time.Second))
	return &Tuned{Source: m.source(scale), File: "eval_pogo_weights.go"}, nil
}

// tuneSample is a training position: its features, its value for the side
// to move and the hand-written evaluation's score.
type tuneSample struct {
	f      pogoFeatures
	target float64
	hand   int
	c      [9]uint8 // the canonical contents of its squares for the network
	lin    int      // the linear model's score for the side to move
}

// tuneSamples plays games between levels of every strength and returns
// their positions and the positions one move away, each once.
func tuneSamples(ctx context.Context, tb *solve.Table, g *pogo.Game, games int, seed uint64) ([]tuneSample, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	levels := []string{"random", "greedy", "beginner", "easy", "medium", "medium", "hard", "hard"}
	seen := map[uint64]bool{}
	var out []tuneSample
	add := func(s *pogo.State) {
		if seen[s.Hash()] || s.Terminal() {
			return
		}
		seen[s.Hash()] = true
		out = append(out, newTuneSample(tb, s))
	}
	var legal []game.Move
	for range games {
		if err := tuneErr(ctx); err != nil {
			return nil, err
		}
		var players [2]search.Player
		for i := range players {
			p, err := NewSeeded(g, levels[rng.IntN(len(levels))], rng.Uint64())
			if err != nil {
				return nil, err
			}
			players[i] = p
		}
		h := game.NewHistory(g, nil)
		for range 2 + rng.IntN(7) {
			if h.Over() {
				break
			}
			legal = h.State().Legal(legal[:0])
			h.PlayMove(legal[rng.IntN(len(legal))])
		}
		for !h.Over() {
			s := h.State().(*pogo.State)
			add(s)
			c := s.Copy()
			legal = s.Legal(legal[:0])
			for _, m := range legal {
				c.Apply(m)
				add(c)
				c.Undo()
			}
			res, err := search.Ask(ctx, players[s.ToMove()], search.PositionOf(h), search.Limits{}, nil)
			if err != nil {
				return nil, err
			}
			if err := h.PlayMove(res.Move); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// newTuneSample returns s as a training position, labelled by the table.
func newTuneSample(tb *solve.Table, s *pogo.State) tuneSample {
	var sm tuneSample
	sm.f.extract(s)
	switch tb.Verdict(s).Result {
	case game.Win:
		sm.target = 1
	case game.Draw:
		sm.target = 0.5
	}
	sm.hand = pogoHandEval{}.Evaluate(s, s.ToMove())
	sm.c = canonical(sm.f.net)
	sm.lin = sm.f.linear()
	return sm
}

// sigmoid is the logistic function, texelPredict at scale 1.
func sigmoid(x float64) float64 { return texelPredict(x, 1) }

// crossEntropy is the loss of predicting p for target t.
func crossEntropy(p, t float64) float64 {
	p = min(max(p, 1e-9), 1-1e-9)
	return -(t*math.Log(p) + (1-t)*math.Log(1-p))
}

// handScale returns the scale k at which sigmoid(k*hand) fits the samples
// best, and its loss.
func handScale(data []tuneSample) (float64, float64) {
	bestK, bestL := 0.0, math.Inf(1)
	for k := 0.0005; k < 0.05; k *= 1.02 {
		var l float64
		for i := range data {
			l += crossEntropy(sigmoid(k*float64(data[i].hand)), data[i].target)
		}
		if l < bestL {
			bestK, bestL = k, l
		}
	}
	return bestK, bestL / float64(len(data))
}

// fittedPogo is the model being fitted: pogoEval's weights as reals.
type fittedPogo struct {
	w [2][pfN + pfPairs]float64
}

func (f *pogoFeatures) phase() int {
	if f.precontact {
		return 0
	}
	return 1
}

// logit returns the model's log-odds for the side to move.
func (m *fittedPogo) logit(f *pogoFeatures) float64 {
	w := &m.w[f.phase()]
	var z float64
	for j, x := range f.dense {
		if x != 0 {
			z += w[j] * float64(x)
		}
	}
	for _, i := range f.pairs {
		z += w[pfN+int(i)]
	}
	return z
}

func (m *fittedPogo) loss(data []tuneSample) float64 {
	var l float64
	for i := range data {
		l += crossEntropy(sigmoid(m.logit(&data[i].f)), data[i].target)
	}
	return l / float64(len(data))
}

// fitPogo fits the model by Adam on mini-batches of 256, with a light L2
// penalty, updating only the weights a batch touches. Unlike texelFit's
// full passes over dense feature vectors, it walks sparse samples (36 of
// the 4,844 weights of a position are pair weights), which keeps 400,000
// positions within a few minutes; and it minimises the cross-entropy of
// the table's values rather than the squared error.
func fitPogo(ctx context.Context, data []tuneSample, epochs int) (*fittedPogo, error) {
	const (
		lr    = 0.01
		l2    = 1e-5
		batch = 256
	)
	m := &fittedPogo{}
	var moments [2][pfN + pfPairs]adamMoments
	var grad [2][pfN + pfPairs]float64
	var touched [2][pfN + pfPairs]bool
	step := 0
	for range epochs {
		if err := tuneErr(ctx); err != nil {
			return nil, err
		}
		for i := 0; i < len(data); i += batch {
			end := min(i+batch, len(data))
			for k := i; k < end; k++ {
				f := &data[k].f
				ph := f.phase()
				d := sigmoid(m.logit(f)) - data[k].target
				for j, x := range f.dense {
					if x != 0 {
						grad[ph][j] += d * float64(x)
						touched[ph][j] = true
					}
				}
				for _, p := range f.pairs {
					grad[ph][pfN+int(p)] += d
					touched[ph][pfN+int(p)] = true
				}
			}
			step++
			c1, c2 := adamCorrections(step)
			for ph := range m.w {
				for j := range m.w[ph] {
					if !touched[ph][j] {
						continue
					}
					touched[ph][j] = false
					g := grad[ph][j]/float64(end-i) + l2*m.w[ph][j]
					grad[ph][j] = 0
					moments[ph][j].step(&m.w[ph][j], g, lr, c1, c2, 1e-8)
				}
			}
		}
	}
	return m, nil
}

// source writes the weights, divided by scale, as the Go file
// eval_pogo_weights.go.
func (m *fittedPogo) source(scale float64) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by stax tune pogo; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package ai\n\n")
	fmt.Fprintf(&b, "// pogoWeights are pogoEval's weights: [0] before contact, [1] after.\n")
	fmt.Fprintf(&b, "var pogoWeights = [2]pogoModel{\n")
	for ph := range m.w {
		list := func(ws []float64) {
			for i, w := range ws {
				if i%16 == 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "%d, ", int(math.Round(w/scale)))
			}
		}
		b.WriteString("{\ndense: [pfN]int32{")
		list(m.w[ph][:pfN])
		b.WriteString("\n},\npairs: [pfPairs]int32{")
		list(m.w[ph][pfN:])
		b.WriteString("\n},\n},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return src
}
