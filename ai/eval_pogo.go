package ai

import (
	"math"
	"math/bits"

	"stax/game"
	"stax/games/pogo"
)

// pogoEval scores Pogo positions by a logistic model fitted to the solved
// table: the weighted sum of a position's features estimates the log-odds
// that the side to move wins (a draw counting half), in units where a
// stack is worth about 100. The model has two sets of weights, one for
// the positions before contact (no stack holds both colours), where the
// game is a slow manoeuvre whose outcome lies far beyond any search, and
// one for the rest. The weights (eval_pogo_weights.go) are made by
// TunePogo (stax tune pogo); docs/strength.md tells how. A small neural network
// (eval_pogo_net.go) adds what the linear model misses.
//
// The features, for the side to move and for the other side:
//   - the stacks each side tops, by square (corner, edge, centre), height
//     (1, 2, 3, 4+) and the colours of the two pieces under the top one;
//   - tall stacks, top runs (1, 2, 3+ pieces of the top colour), enemy
//     pieces held under the top run, own pieces buried deeper;
//   - how many stacks each side tops (1 to 5+);
//   - mobility, moves that uncover none of the other's pieces, stacks
//     attacked (the other can land on them) and outnumbered (more of the
//     other's stacks reach them than of the owner's), the other's stacks a
//     side can take without uncovering one of the other's pieces, and
//     whether that wins at once; empty squares only one side reaches;
//   - the number of stacks, and the move;
//   - for every pair of squares, what each holds (empty, or a stack of
//     either side by height and whether it holds both colours), with the
//     weights of pairs the symmetries of the board map onto each other
//     shared.
type pogoEval struct{}

// The dense features of pogoFeatures: each [2] is indexed by side, 0 the
// side to move.
const (
	pfProfile     = 0   // [2][3 square classes][11 profiles]
	pfTall        = 66  // [2] stacks of five pieces or more
	pfPrisoners   = 68  // [2] enemy pieces under the top run
	pfMobility    = 70  // [2] moves
	pfAttacked    = 72  // [2] stacks the other side can land on
	pfOutnumbered = 74  // [2] ... by more stacks than the owner's that reach them
	pfCaptures    = 76  // [2] the other's stacks taken without uncovering its pieces
	pfWinThreat   = 78  // [2] such a take tops every stack
	pfStacks      = 80  // non-empty stacks
	pfBias        = 81  // 1
	pfTopsCount   = 82  // [2][5] tops 1, 2, 3, 4, 5+ stacks
	pfSafeMob     = 92  // [2] moves that uncover none of the other's pieces
	pfBuried      = 94  // [2] own pieces under enemy pieces in own stacks
	pfRun         = 96  // [2][3] stacks with a top run of 1, 2, 3+
	pfHeight      = 102 // [2][3] stacks of height 4, 5-6, 7+
	pfEmptyCtl    = 108 // [2] empty squares the side reaches and the other does not
	pfN           = 110
)

// Pair features: the contents of two squares.
const (
	pairContents = 17 // empty; then side (2) x height 1, 2, 3, 4+ (4) x holds both colours (2)
	pairStride   = pairContents * pairContents
	pairClasses  = 8 // pairs of squares up to the symmetries of the board
	pfPairs      = pairClasses * pairStride
)

// pogoModel is one set of the model's weights.
type pogoModel struct {
	dense [pfN]int32
	pairs [pfPairs]int32
}

// pogoFeatures are the features of a position: the dense counts and, for
// each of the 36 pairs of squares, the index of its pair weight.
type pogoFeatures struct {
	dense      [pfN]int32
	pairs      [36]int16
	precontact bool
	// net holds the squares' contents for the network (eval_pogo_net.go),
	// seen from the side to move, in the board's orientation.
	net [9]uint8
}

var squareClass = [9]int{0, 1, 0, 1, 2, 1, 0, 1, 0}

// pairClass[i] is the weight class of the i-th pair of squares (a, b),
// a < b, in the order of pogoFeatures.pairs; pairOrder[i] tells how the
// class orders the two contents: pairAsIs, pairSwapped (the class sees
// the pair as (b, a)), or pairSorted (a symmetry swaps the two squares,
// so the contents are taken in increasing order).
var pairClass, pairOrder = makePairClasses()

const (
	pairAsIs = iota
	pairSwapped
	pairSorted
)

func makePairClasses() (cls [36]int, order [36]int) {
	sym := func(t, sq int) int { return int(pogoSymmetries[t][sq]) }
	less := func(p, q [2]int) bool { return p[0] < q[0] || p[0] == q[0] && p[1] < q[1] }
	seen := map[[2]int]int{}
	i := 0
	for a := 0; a < 9; a++ {
		for b := a + 1; b < 9; b++ {
			// The class is named by the least image of the pair in either
			// order; the pair is swapped when only (b, a) maps onto it.
			best := [2]int{9, 9}
			for t := 0; t < 8; t++ {
				p := [2]int{sym(t, a), sym(t, b)}
				if less(p, best) {
					best = p
				}
				if q := [2]int{p[1], p[0]}; less(q, best) {
					best = q
				}
			}
			direct, reversed := false, false
			for t := 0; t < 8; t++ {
				direct = direct || [2]int{sym(t, a), sym(t, b)} == best
				reversed = reversed || [2]int{sym(t, b), sym(t, a)} == best
			}
			c, ok := seen[best]
			if !ok {
				c = len(seen)
				seen[best] = c
			}
			cls[i] = c
			switch {
			case direct && reversed:
				order[i] = pairSorted
			case reversed:
				order[i] = pairSwapped
			}
			i++
		}
	}
	if len(seen) != pairClasses {
		panic("ai: Pogo's pairs of squares fall into an unexpected number of classes")
	}
	return cls, order
}

// Evaluate returns the score of s for player p: the linear model's and
// the network's.
func (pogoEval) Evaluate(st game.State, p int) int {
	s := st.(*pogo.State)
	var f pogoFeatures
	f.extract(s)
	c := canonical(f.net)
	v := f.linear() + int(math.Round(float64(pogoNet.score(&c))))
	if s.ToMove() != p {
		v = -v
	}
	return v
}

// linear returns the linear model's score of the position for its side to
// move.
func (f *pogoFeatures) linear() int {
	m := &pogoWeights[1]
	if f.precontact {
		m = &pogoWeights[0]
	}
	var v int32
	for j, x := range f.dense {
		v += m.dense[j] * x
	}
	for _, i := range f.pairs {
		v += m.pairs[i]
	}
	return int(v)
}

// extract computes the features of s.
func (f *pogoFeatures) extract(s *pogo.State) {
	*f = pogoFeatures{precontact: true}
	g := s.Game().(*pogo.Game)
	mover := s.ToMove()
	var att [2][9]int32
	var tops [2]uint16
	var content [9]int
	var ownMask [2][9]uint16 // the pieces of the stack's owner on each stack
	for x := 0; x < 2; x++ {
		c := mover ^ x
		tops[x] = s.Tops(c)
		for m := tops[x]; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			black, h := s.Stack(sq)
			full := uint16(1)<<h - 1
			own := black
			if c == pogo.White {
				own = ^black & full
			}
			enemy := full &^ own
			ownMask[x][sq] = own
			var reach uint16
			for k := 1; k <= min(h, 3); k++ {
				d := g.Destinations(k, sq)
				reach |= d
				n := int32(bits.OnesCount16(d))
				f.dense[pfMobility+x] += n
				// A move that leaves x's piece (or nothing) behind.
				if k == h || own>>(h-k-1)&1 != 0 {
					f.dense[pfSafeMob+x] += n
				}
			}
			for d := reach; d != 0; d &= d - 1 {
				att[x][bits.TrailingZeros16(d)]++
			}
			// The top run, the enemy pieces under it and the own ones
			// under those.
			run, mixed := h, 0
			if enemy != 0 {
				run = h - 1 - (15 - bits.LeadingZeros16(enemy))
				mixed = 1
				f.precontact = false
				f.dense[pfPrisoners+x] += int32(bits.OnesCount16(enemy))
				f.dense[pfBuried+x] += int32(bits.OnesCount16(own)) - int32(run)
			}
			f.dense[pfRun+x*3+min(run, 3)-1]++
			content[sq] = 1 + x*8 + (min(h, 4)-1)*2 + mixed
			// For the network: the colours of the three pieces under the
			// top one (bit i set when the piece i+1 below the top is the
			// other side's).
			under := 0
			for i := 0; i < 3 && i < h-1; i++ {
				if enemy>>(h-2-i)&1 != 0 {
					under |= 1 << i
				}
			}
			f.net[sq] = uint8(1 + x*56 + (min(h, 7)-1)*8 + under)
			// The profile: the height and the colours of the two pieces
			// under the top one (0 own, 1 enemy).
			var prof int
			switch {
			case h == 1:
				prof = 0
			case h == 2:
				prof = 1 + int(enemy&1)
			case h == 3:
				prof = 3 + int(enemy>>1&1) + 2*int(enemy&1)
			default:
				prof = 7 + int(enemy>>(h-2)&1) + 2*int(enemy>>(h-3)&1)
			}
			f.dense[pfProfile+x*33+squareClass[sq]*11+prof]++
			switch {
			case h >= 7:
				f.dense[pfHeight+x*3+2]++
			case h >= 5:
				f.dense[pfHeight+x*3+1]++
			case h == 4:
				f.dense[pfHeight+x*3]++
			}
			if h >= 5 {
				f.dense[pfTall+x]++
			}
		}
	}
	for x := 0; x < 2; x++ {
		var taken uint16
		for m := tops[x]; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			if a := att[1-x][sq]; a > 0 {
				f.dense[pfAttacked+x]++
				if a > att[x][sq] {
					f.dense[pfOutnumbered+x]++
				}
			}
			h, own := s.Height(sq), ownMask[x][sq]
			for k := 1; k <= min(h, 3); k++ {
				if k == h || own>>(h-k-1)&1 != 0 {
					taken |= g.Destinations(k, sq) & tops[1-x]
				}
			}
		}
		f.dense[pfCaptures+x] = int32(bits.OnesCount16(taken))
		if taken != 0 && tops[1-x]&(tops[1-x]-1) == 0 {
			f.dense[pfWinThreat+x] = 1
		}
		f.dense[pfTopsCount+x*5+min(bits.OnesCount16(tops[x]), 5)-1] = 1
	}
	for sq := 0; sq < 9; sq++ {
		if s.Height(sq) > 0 {
			f.dense[pfStacks]++
			continue
		}
		switch {
		case att[0][sq] > 0 && att[1][sq] == 0:
			f.dense[pfEmptyCtl]++
		case att[1][sq] > 0 && att[0][sq] == 0:
			f.dense[pfEmptyCtl+1]++
		}
	}
	f.dense[pfBias] = 1
	i := 0
	for a := 0; a < 9; a++ {
		for b := a + 1; b < 9; b++ {
			ca, cb := content[a], content[b]
			if pairOrder[i] == pairSwapped || pairOrder[i] == pairSorted && ca > cb {
				ca, cb = cb, ca
			}
			f.pairs[i] = int16(pairClass[i]*pairStride + ca*pairContents + cb)
			i++
		}
	}
}

// pogoHandEval is Pogo's hand-written evaluation, which the levels below
// strongest and the greedy baseline play with: their recipes were tuned
// with it (docs/strength.md), and the games that sample pogoEval's
// training positions are played by them, so that the sample does not
// depend on the weights it makes.
//
// It scores stacks controlled (more for a tall one, an own triplet on
// top, enemy pieces held under a thick top run), attacks (a stack the
// opponent reaches, worse when it reaches it with more stacks than defend
// it), mobility and the move.
type pogoHandEval struct{}

func (pogoHandEval) Evaluate(st game.State, p int) int {
	s := st.(*pogo.State)
	g := s.Game().(*pogo.Game)
	var att [2][9]int
	var mob [2]int
	for c := 0; c < 2; c++ {
		for m := s.Tops(c); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			var reach uint16
			for k := 1; k <= min(s.Height(sq), 3); k++ {
				d := g.Destinations(k, sq)
				reach |= d
				mob[c] += bits.OnesCount16(d)
			}
			for d := reach; d != 0; d &= d - 1 {
				att[c][bits.TrailingZeros16(d)]++
			}
		}
	}
	var side [2]int
	for sq := 0; sq < 9; sq++ {
		h := s.Height(sq)
		if h == 0 {
			continue
		}
		c := s.Piece(sq, h-1)
		run := 1
		for run < h && s.Piece(sq, h-1-run) == c {
			run++
		}
		v := 100 + 6*min(h, 6)
		if run >= 3 {
			v += 40
		}
		if run < h {
			v += 12 * (h - run)
			if run <= 2 {
				v -= 15
			}
		}
		if a := att[1-c][sq]; a > 0 {
			v -= 25
			if a > att[c][sq] {
				v -= 20
			}
		}
		side[c] += v
	}
	q := 1 - p
	score := side[p] - side[q] + 3*(mob[p]-mob[q])
	if s.ToMove() == p {
		return score + 30
	}
	return score - 30
}
