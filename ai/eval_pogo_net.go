package ai

// pogoEval adds to its linear model a small neural network, which sees
// what the linear model's features miss: how the stacks of the whole
// board combine. The position, seen from the side to move and turned to a
// canonical orientation of the board, is one of pogoNetContents contents
// on each square (empty, or a stack by the colour of its top piece, its
// height and the colours of the three pieces under the top one);
// pogoNetHidden rectified units read the squares' contents, and a
// weighted sum of the units corrects the linear model's estimate of the
// log-odds that the side to move wins (a draw counting half), in
// pogoEval's units. The weights (eval_pogo_net_weights.go) are fitted to
// the solved table by TunePogoNet (stax tune pogo --net); the table only teaches.

const (
	pogoNetContents = 1 + 2*7*8 // empty; side x height 1-6, 7+ x the three pieces under the top (pogoFeatures.net)
	pogoNetInputs   = 9 * pogoNetContents
	pogoNetHidden   = 32
)

// netWeights are the network's weights: float32 for play (pogoNetModel),
// float64 while TunePogoNet fits them.
type netWeights[F float32 | float64] struct {
	in      [pogoNetInputs][pogoNetHidden]F
	bias    [pogoNetHidden]F
	out     [pogoNetHidden]F
	outBias F
}

// pogoNetModel is the network's weights, in pogoEval's units.
type pogoNetModel = netWeights[float32]

// pogoSymmetries are the 8 symmetries of the board as permutations of its
// squares: the square sym[sq] of the image holds what sq holds. Bit 0 of
// a symmetry's index mirrors the files, bit 1 the ranks, bit 2 swaps files
// and ranks.
var pogoSymmetries = func() (out [8][9]uint8) {
	for t := range out {
		for sq := 0; sq < 9; sq++ {
			f, r := sq%3, sq/3
			if t&1 != 0 {
				f = 2 - f
			}
			if t&2 != 0 {
				r = 2 - r
			}
			if t&4 != 0 {
				f, r = r, f
			}
			out[t][sq] = uint8(f + 3*r)
		}
	}
	return out
}()

// canonical returns the image of c under the symmetry of the board that
// makes it least, so that the network sees symmetric positions alike.
func canonical(c [9]uint8) [9]uint8 {
	best := c
	for t := 1; t < 8; t++ {
		var img [9]uint8
		for sq, to := range pogoSymmetries[t] {
			img[to] = c[sq]
		}
		for i := range img {
			if img[i] != best[i] {
				if img[i] < best[i] {
					best = img
				}
				break
			}
		}
	}
	return best
}

// score returns the network's estimate for canonical contents c.
func (n *netWeights[F]) score(c *[9]uint8) F {
	h := n.hidden(c)
	return n.output(n.outBias, &h)
}

// hidden returns the sums of the hidden units for canonical contents c.
func (n *netWeights[F]) hidden(c *[9]uint8) (h [pogoNetHidden]F) {
	h = n.bias
	for sq, x := range c {
		w := &n.in[sq*pogoNetContents+int(x)]
		for j := range h {
			h[j] += w[j]
		}
	}
	return h
}

// output returns start plus the weighted sum of the rectified hidden
// units h.
func (n *netWeights[F]) output(start F, h *[pogoNetHidden]F) F {
	v := start
	for j, x := range h {
		if x > 0 {
			v += x * n.out[j]
		}
	}
	return v
}
