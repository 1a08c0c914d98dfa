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
)

// TunePogoNet fits the network of Pogo's evaluation to the solved table.
// It trains on the positions TunePogo trains on (the same games, with the
// same seeds) and every position reachable from the start without contact
// and one move into it, each labelled by the table with its value for the
// side to move (a win 1, a draw ½, a loss 0). The network learns what the
// linear model (eval_pogo_weights.go, fitted first) gets wrong: Adam on
// the cross-entropy of the sum of the two, seeded. The output is scaled to
// pogoEval's units (the scale at which the hand-written evaluation's
// logistic fit is best, as in TunePogo) and returned as the file
// eval_pogo_net_weights.go. The table only teaches: the levels play by
// search.
func TunePogoNet(ctx context.Context, gg game.Game, cfg PogoTuning) (*Tuned, error) {
	g, err := cfg.check(gg, 30)
	if err != nil {
		return nil, fmt.Errorf("TunePogoNet: %w", err)
	}
	start := time.Now()
	train, err := tuneSamples(ctx, cfg.Table, g, cfg.Games, cfg.Seed)
	if err != nil {
		return nil, err
	}
	train = append(train, frontierSamples(cfg.Table, g)...)
	test, err := tuneSamples(ctx, cfg.Table, g, max(cfg.Games/10, 50), cfg.Seed+1)
	if err != nil {
		return nil, err
	}
	scale, _ := handScale(test)
	cfg.Log.printf("%d training positions, %d test positions (%v)", len(train), len(test), time.Since(start).Round(time.Second))
	rng := rand.New(rand.NewPCG(cfg.Seed+4, cfg.Seed+4))
	n := newFittedNet(rng, scale)
	cfg.Log.printf("linear model alone: cross-entropy train %.4f test %.4f", n.loss(train), n.loss(test))
	for e := range cfg.Epochs {
		if err := tuneErr(ctx); err != nil {
			return nil, err
		}
		n.epoch(train, rng, 0.002*math.Pow(0.93, float64(e)))
		if e%5 == 4 || e == cfg.Epochs-1 {
			cfg.Log.printf("epoch %d: cross-entropy train %.4f test %.4f (%v)", e+1, n.loss(train), n.loss(test), time.Since(start).Round(time.Second))
		}
	}
	return &Tuned{Source: n.source(), File: "eval_pogo_net_weights.go"}, nil
}

// frontierSamples returns every position reachable from the start of g
// without contact (one of each set of symmetric images) and every
// position one move from them where the colours first meet: the opening,
// where a move can lose a game thirty plies later, and the positions
// where its search ends.
func frontierSamples(tb *solve.Table, g *pogo.Game) []tuneSample {
	seenPre := map[[9]uint8]bool{}
	seen := map[uint64]bool{}
	var out []tuneSample
	add := func(s *pogo.State) { out = append(out, newTuneSample(tb, s)) }
	queue := []*pogo.State{g.NewStart()}
	var f pogoFeatures
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.Terminal() {
			continue
		}
		f.extract(s)
		if !f.precontact {
			if !seen[s.Hash()] {
				seen[s.Hash()] = true
				add(s)
			}
			continue
		}
		c := canonical(f.net)
		if seenPre[c] {
			continue
		}
		seenPre[c] = true
		add(s)
		for _, m := range s.Legal(nil) {
			n := s.Copy()
			n.Apply(m)
			queue = append(queue, n)
		}
	}
	return out
}

// fittedNet is the network being fitted, in float64.
type fittedNet struct {
	netWeights[float64]
	// scale turns pogoEval's units into log-odds.
	scale float64
	// The optimiser's state: Adam's moments of every weight, and its
	// steps so far.
	adam struct {
		in      [pogoNetInputs][pogoNetHidden]adamMoments
		bias    [pogoNetHidden]adamMoments
		out     [pogoNetHidden]adamMoments
		outBias adamMoments
	}
	step int
}

// newFittedNet returns a network with random input weights and small
// output weights, for a linear model whose units are scale log-odds.
func newFittedNet(rng *rand.Rand, scale float64) *fittedNet {
	n := &fittedNet{scale: scale}
	for i := range n.in {
		for j := range n.in[i] {
			n.in[i][j] = rng.NormFloat64() * 0.3
		}
	}
	// The output starts small: the sum starts as the linear model.
	for j := range n.out {
		n.out[j] = rng.NormFloat64() * 0.01
	}
	return n
}

// forward returns the log-odds of d, the linear model's and the
// network's, and the hidden units' sums.
func (n *fittedNet) forward(d *tuneSample, h *[pogoNetHidden]float64) float64 {
	*h = n.hidden(&d.c)
	return n.output(n.outBias+float64(d.lin)*n.scale, h)
}

func (n *fittedNet) loss(data []tuneSample) float64 {
	var l float64
	var h [pogoNetHidden]float64
	for i := range data {
		l += crossEntropy(sigmoid(n.forward(&data[i], &h)), data[i].target)
	}
	return l / float64(len(data))
}

// epoch runs Adam over data in batches of 128 at learning rate lr.
func (n *fittedNet) epoch(data []tuneSample, rng *rand.Rand, lr float64) {
	const batch = 128
	g := new(netWeights[float64]) // the batch's gradient
	st := &n.adam
	update := func(w *float64, gr *float64, a *adamMoments, c1, c2 float64) {
		a.step(w, *gr, lr, c1, c2, 1e-8)
		*gr = 0
	}
	rng.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	var h [pogoNetHidden]float64
	for i := 0; i < len(data); i += batch {
		end := min(i+batch, len(data))
		for k := i; k < end; k++ {
			d := &data[k]
			z := n.forward(d, &h)
			dz := sigmoid(z) - d.target
			g.outBias += dz
			for j, x := range h {
				if x <= 0 {
					continue
				}
				g.out[j] += dz * x
				dh := dz * n.out[j]
				g.bias[j] += dh
				for sq, c := range d.c {
					g.in[sq*pogoNetContents+int(c)][j] += dh
				}
			}
		}
		n.step++
		c1, c2 := adamCorrections(n.step)
		inv := 1 / float64(end-i)
		for a := range n.in {
			for j := range n.in[a] {
				if g.in[a][j] != 0 {
					g.in[a][j] *= inv
					update(&n.in[a][j], &g.in[a][j], &st.in[a][j], c1, c2)
				}
			}
		}
		for j := range n.bias {
			g.bias[j] *= inv
			update(&n.bias[j], &g.bias[j], &st.bias[j], c1, c2)
			g.out[j] *= inv
			update(&n.out[j], &g.out[j], &st.out[j], c1, c2)
		}
		g.outBias *= inv
		update(&n.outBias, &g.outBias, &st.outBias, c1, c2)
	}
}

// source writes the network, its output divided by scale, as the Go file
// eval_pogo_net_weights.go.
func (n *fittedNet) source() []byte {
	scale := n.scale
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by stax tune pogo --net; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package ai\n\n")
	fmt.Fprintf(&b, "// pogoNet is the network that scores Pogo's positions before contact.\n")
	fmt.Fprintf(&b, "var pogoNet = pogoNetModel{\n")
	f := func(x float64) string { return fmt.Sprintf("%.5g", x) }
	b.WriteString("in: [pogoNetInputs][pogoNetHidden]float32{\n")
	for i := range n.in {
		b.WriteString("{")
		for j := range n.in[i] {
			b.WriteString(f(n.in[i][j]) + ", ")
		}
		b.WriteString("},\n")
	}
	b.WriteString("},\nbias: [pogoNetHidden]float32{")
	for _, x := range n.bias {
		b.WriteString(f(x) + ", ")
	}
	// The output layer carries the scale, so that the score comes out in
	// pogoEval's units.
	b.WriteString("},\nout: [pogoNetHidden]float32{")
	for _, x := range n.out {
		b.WriteString(f(x/scale) + ", ")
	}
	fmt.Fprintf(&b, "},\noutBias: %s,\n}\n", f(n.outBias/scale))
	src, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return src
}
