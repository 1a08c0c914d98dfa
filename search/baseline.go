package search

import (
	"context"
	"math/rand/v2"
	"time"

	"stax/game"
)

// Random plays a uniformly random legal move.
type Random struct {
	rng *rand.Rand
	buf []game.Move
}

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// Play returns a random legal move with score 0.
func (r *Random) Play(ctx context.Context, pos Position, lim Limits, report func(Progress)) (Result, error) {
	s := pos.State
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	r.buf = s.Legal(r.buf[:0])
	if len(r.buf) == 0 {
		return Result{}, ErrNoMoves
	}
	m := r.buf[r.rng.IntN(len(r.buf))]
	return Result{Move: m, PV: []game.Move{m}, Depth: 1, Nodes: 1}, nil
}

// Greedy plays the move whose resulting position its evaluator likes best
// for the mover, taking an immediate win when there is one; equal moves are
// chosen among at random. With Temperature > 0 it picks by a softmax of the
// scores instead (Temperature is in evaluation units).
type Greedy struct {
	Eval        Evaluator
	Temperature float64
	rng         *rand.Rand
	buf         []game.Move
}

// NewGreedy returns a greedy player using eval, seeded with seed.
func NewGreedy(eval Evaluator, seed uint64) *Greedy {
	if eval == nil {
		eval = Zero
	}
	return &Greedy{Eval: eval, rng: rand.New(rand.NewPCG(seed, 0x9ead))}
}

// Play scores every legal move one ply deep and returns the best.
func (g *Greedy) Play(ctx context.Context, pos Position, lim Limits, report func(Progress)) (Result, error) {
	s := pos.State
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	g.buf = s.Legal(g.buf[:0])
	if len(g.buf) == 0 {
		return Result{}, ErrNoMoves
	}
	sd := newSides(s)
	c := s.Clone()
	u, _ := c.(game.Undoer)
	scores := make([]int, len(g.buf))
	for i, m := range g.buf {
		cs := c
		if u == nil {
			cs = c.Clone()
		}
		cs.Apply(m)
		if cs.Terminal() {
			scores[i] = sd.outcomeValue(cs.Outcome()) * (WinScore - 1)
		} else {
			scores[i] = g.Eval.Evaluate(cs, sd.root)
		}
		if u != nil {
			u.Undo()
		}
	}
	pick := softPick(g.rng, scores, g.Temperature)
	m := g.buf[pick]
	res := Result{Move: m, Score: ScoreOf(scores[pick]), PV: []game.Move{m}, Depth: 1, Nodes: int64(len(g.buf)), Elapsed: time.Since(start)}
	if report != nil {
		report(Progress{Depth: 1, Score: res.Score, Nodes: res.Nodes, Elapsed: res.Elapsed, PV: res.PV})
	}
	return res, nil
}

// softPick returns the index of a best score, chosen at random among equal
// ones, or with temp > 0 an index drawn with probability proportional to
// exp(score/temp). Proven wins are always taken and proven losses avoided
// when anything else exists.
func softPick(rng *rand.Rand, scores []int, temp float64) int {
	best := scores[0]
	for _, v := range scores {
		best = max(best, v)
	}
	if temp <= 0 || best > WinScore/2 {
		n := 0
		pick := 0
		for i, v := range scores {
			if v == best {
				n++
				if rng.IntN(n) == 0 {
					pick = i
				}
			}
		}
		return pick
	}
	weights := make([]float64, len(scores))
	total := 0.0
	for i, v := range scores {
		if v < -WinScore/2 && best >= -WinScore/2 {
			continue
		}
		w := expClamp(float64(v-best) / temp)
		weights[i] = w
		total += w
	}
	x := rng.Float64() * total
	for i, w := range weights {
		x -= w
		if x < 0 && w > 0 {
			return i
		}
	}
	for i := len(scores) - 1; i >= 0; i-- {
		if scores[i] == best {
			return i
		}
	}
	return 0
}
