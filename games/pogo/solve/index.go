package solve

import (
	"fmt"
	"math/bits"
)

// The board has 9 squares, numbered as in package pogo: a1, b1, c1, a2, ...,
// c3 (file + 3*rank).
const numSquares = 9

// pos is a position in the solver's own compact form: the height of each
// stack and its colours (bit l set: the piece at level l is Black). White
// is always to move: a position with Black to move is stored with its
// colours swapped.
type pos struct {
	h [numSquares]uint8
	b [numSquares]uint16
}

// syms lists the 8 symmetries of the square as permutations: square sq
// goes to syms[g][sq]. Symmetry 0 is the identity.
var syms = func() (p [8][numSquares]uint8) {
	maps := [8]func(f, r int) (int, int){
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return 2 - f, r },
		func(f, r int) (int, int) { return f, 2 - r },
		func(f, r int) (int, int) { return 2 - f, 2 - r },
		func(f, r int) (int, int) { return r, f },
		func(f, r int) (int, int) { return 2 - r, f },
		func(f, r int) (int, int) { return r, 2 - f },
		func(f, r int) (int, int) { return 2 - r, 2 - f },
	}
	for g, m := range maps {
		for sq := 0; sq < numSquares; sq++ {
			f, r := m(sq%3, sq/3)
			p[g][sq] = uint8(f + 3*r)
		}
	}
	return p
}()

// invSyms[g][t] is the square that symmetry g sends to t.
var invSyms = func() (p [8][numSquares]uint8) {
	for g := range syms {
		for sq, t := range syms[g] {
			p[g][t] = uint8(sq)
		}
	}
	return p
}()

// symCompose[a][b] is the symmetry "b, then a".
var symCompose = func() (c [8][8]uint8) {
	for a := 0; a < 8; a++ {
		for b := 0; b < 8; b++ {
			var p [numSquares]uint8
			for sq := 0; sq < numSquares; sq++ {
				p[sq] = syms[a][syms[b][sq]]
			}
			for g := 0; g < 8; g++ {
				if p == syms[g] {
					c[a][b] = uint8(g)
				}
			}
		}
	}
	return c
}()

// binom[n][k] is the binomial coefficient C(n, k) for n <= 32.
var binom = func() (c [33][33]uint32) {
	for n := 0; n <= 32; n++ {
		c[n][0] = 1
		for k := 1; k <= n; k++ {
			c[n][k] = c[n-1][k-1] + c[n-1][k]
		}
	}
	return c
}()

// canonLayout is a layout of stack heights that is the least of its 8
// images, with the positions of it that the index holds.
type canonLayout struct {
	layout uint32   // the layout's rank
	base   uint32   // index of its first position
	stab   uint8    // mask of the symmetries that leave the layout unchanged
	count  uint32   // how many of its colourings are canonical
	sub    []int16  // for a symmetric layout: colour rank -> offset (< 924), or -1
	list   []uint16 // for a symmetric layout: the canonical colour ranks in order
}

// layoutInfo maps any layout to its canonical one.
type layoutInfo struct {
	canon uint32 // index into indexer.canon
	base  uint32 // the canonical layout's base, copied to save a lookup
	sym   uint8  // a symmetry that maps this layout to the canonical one
	stab  uint8  // the canonical layout's stabiliser, copied likewise
}

// indexer ranks positions of n white and n black pieces on the 9 squares
// densely: a layout (the heights of the stacks) ranked by the combinatorial
// number system, times the colourings of the 2n pieces ranked the same way.
// It folds the 8 symmetries of the square: only positions that are the
// least of their images get an index.
type indexer struct {
	n, pieces  int
	numLayouts int
	numColours int
	size       int // positions before folding: numLayouts * numColours
	colourWord []uint16
	colourRank []uint16 // indexed by a 2n-bit word with n bits set
	heights    []uint64 // packed heights of each layout, 5 bits a square
	info       []layoutInfo
	canon      []canonLayout
	total      uint32 // canonical positions
	fullMask   uint16
}

// newIndexer builds the tables for n pieces a side (1 <= n <= 6).
func newIndexer(n int) *indexer {
	if n < 1 || n > 6 {
		panic(fmt.Sprintf("solve: %d pieces a side; want 1 to 6", n))
	}
	x := &indexer{n: n, pieces: 2 * n}
	x.fullMask = 1<<x.pieces - 1
	x.numLayouts = int(binom[x.pieces+8][8])
	x.numColours = int(binom[x.pieces][n])
	x.size = x.numLayouts * x.numColours
	x.colourRank = make([]uint16, 1<<x.pieces)
	x.colourWord = make([]uint16, 0, x.numColours)
	for w := 0; w < 1<<x.pieces; w++ {
		if popcount(uint16(w)) != n {
			continue
		}
		r := combRank(uint32(w))
		x.colourRank[w] = uint16(r)
		if int(r) != len(x.colourWord) {
			panic("solve: colour ranks out of order")
		}
		x.colourWord = append(x.colourWord, uint16(w))
	}
	x.heights = make([]uint64, x.numLayouts)
	var h [numSquares]uint8
	x.eachLayout(&h, 0, x.pieces)
	x.info = make([]layoutInfo, x.numLayouts)
	for l := range x.numLayouts {
		hs := x.layoutHeights(uint32(l))
		best, bestSym := uint32(l), uint8(0)
		var stab uint8
		for g := 0; g < 8; g++ {
			var img [numSquares]uint8
			for sq := 0; sq < numSquares; sq++ {
				img[syms[g][sq]] = hs[sq]
			}
			r := layoutRank(&img)
			if r == uint32(l) {
				stab |= 1 << g
			}
			if r < best {
				best, bestSym = r, uint8(g)
			}
		}
		x.info[l].sym = bestSym
		if best == uint32(l) {
			x.info[l].canon = uint32(len(x.canon))
			x.canon = append(x.canon, canonLayout{layout: uint32(l), stab: stab})
		}
	}
	for l := range x.numLayouts {
		if c := x.info[l]; c.sym != 0 {
			hs := x.layoutHeights(uint32(l))
			var img [numSquares]uint8
			for sq := 0; sq < numSquares; sq++ {
				img[syms[c.sym][sq]] = hs[sq]
			}
			x.info[l].canon = x.info[layoutRank(&img)].canon
		}
	}
	var base uint32
	for i := range x.canon {
		cl := &x.canon[i]
		cl.base = base
		if cl.stab == 1 {
			cl.count = uint32(x.numColours)
		} else {
			cl.sub = make([]int16, x.numColours)
			var p pos
			p.h = x.layoutHeights(cl.layout)
			for c := range x.numColours {
				x.split(&p, x.colourWord[c])
				if x.leastColour(&p, cl.stab, 0, 0) == uint16(c) {
					cl.sub[c] = int16(cl.count)
					cl.list = append(cl.list, uint16(c))
					cl.count++
				} else {
					cl.sub[c] = -1
				}
			}
		}
		base += cl.count
	}
	x.total = base
	for l := range x.info {
		cl := &x.canon[x.info[l].canon]
		x.info[l].base, x.info[l].stab = cl.base, cl.stab
	}
	return x
}

// eachLayout fills the heights table: every way to put left pieces on the
// squares from sq on.
func (x *indexer) eachLayout(h *[numSquares]uint8, sq, left int) {
	if sq == numSquares-1 {
		h[sq] = uint8(left)
		r := layoutRank(h)
		var packed uint64
		for i := 0; i < numSquares; i++ {
			packed |= uint64(h[i]) << (5 * i)
		}
		x.heights[r] = packed
		return
	}
	for v := 0; v <= left; v++ {
		h[sq] = uint8(v)
		x.eachLayout(h, sq+1, left-v)
	}
}

// layoutHeights unpacks the heights of layout l.
func (x *indexer) layoutHeights(l uint32) (h [numSquares]uint8) {
	p := x.heights[l]
	for i := 0; i < numSquares; i++ {
		h[i] = uint8(p >> (5 * i) & 31)
	}
	return h
}

// layoutRank ranks a layout by the positions of the 8 separators in its
// stars-and-bars word: the j-th separator (1-based) sits after the pieces
// of the first j squares, at position prefix+j-1, and the rank is the sum
// of C(position, j).
func layoutRank(h *[numSquares]uint8) uint32 {
	var r uint32
	prefix := 0
	for j := 1; j < numSquares; j++ {
		prefix += int(h[j-1])
		r += binom[prefix+j-1][j]
	}
	return r
}

// combRank ranks a word by the combinatorial number system.
func combRank(w uint32) uint32 {
	var r uint32
	j := 1
	for p := 0; w != 0; p++ {
		if w&1 != 0 {
			r += binom[p][j]
			j++
		}
		w >>= 1
	}
	return r
}

func popcount(w uint16) int {
	n := 0
	for ; w != 0; w &= w - 1 {
		n++
	}
	return n
}

// split sets the colours of p's stacks from a colour word, the pieces
// taken square by square from the bottom up.
func (x *indexer) split(p *pos, w uint16) {
	for sq := 0; sq < numSquares; sq++ {
		h := p.h[sq]
		p.b[sq] = w & (1<<h - 1)
		w >>= h
	}
}

// word returns the colour word of p seen through symmetry g.
func word(p *pos, g uint8) uint16 {
	var w uint16
	off := uint8(0)
	inv := &invSyms[g]
	for t := 0; t < numSquares; t++ {
		src := inv[t]
		w |= p.b[src] << off
		off += p.h[src]
	}
	return w
}

// leastColour returns the least colour rank of p's images under the
// symmetries in mask, each applied after symmetry pre, with the colours
// swapped when swap is the full mask.
func (x *indexer) leastColour(p *pos, mask uint8, pre uint8, swap uint16) uint16 {
	best := uint16(0xffff)
	for g := uint8(0); g < 8; g++ {
		if mask>>g&1 == 0 {
			continue
		}
		r := x.colourRank[word(p, symCompose[g][pre])^swap]
		if r < best {
			best = r
		}
	}
	return best
}

// index returns the index of p, with its colours swapped if swap is set,
// and the place of its canonical layout in indexer.canon.
func (x *indexer) index(p *pos, swap bool) (idx uint32, canon uint32) {
	return x.indexLayout(p, layoutRank(&p.h), swap)
}

// indexLayout is index for a position whose layout rank is known.
func (x *indexer) indexLayout(p *pos, layout uint32, swap bool) (idx uint32, canon uint32) {
	var sw uint16
	if swap {
		sw = x.fullMask
	}
	li := &x.info[layout]
	if li.stab == 1 {
		return li.base + uint32(x.colourRank[word(p, li.sym)^sw]), li.canon
	}
	c := x.leastColour(p, li.stab, li.sym, sw)
	return li.base + uint32(x.canon[li.canon].sub[c]), li.canon
}

// orbit returns the number of distinct images of the canonical position
// with colour rank c in layout cl.
func (x *indexer) orbit(p *pos, cl *canonLayout, c uint16) int {
	if cl.stab == 1 {
		return 8
	}
	fixed := 0
	for g := uint8(0); g < 8; g++ {
		if cl.stab>>g&1 != 0 && x.colourRank[word(p, g)] == c {
			fixed++
		}
	}
	return 8 / fixed
}

// decode returns the position of index idx.
func (x *indexer) decode(idx uint32) pos {
	lo, hi := 0, len(x.canon)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if x.canon[m].base <= idx {
			lo = m
		} else {
			hi = m
		}
	}
	cl := &x.canon[lo]
	var p pos
	p.h = x.layoutHeights(cl.layout)
	off := idx - cl.base
	c := uint16(off)
	if cl.list != nil {
		c = cl.list[off]
	}
	x.split(&p, x.colourWord[c])
	return p
}

// A layout can also be ranked from its stars-and-bars word itself: bit i
// set when position i holds a separator. Un-moves change a layout by
// taking k zeros out of one run and putting them into another, which is a
// few shifts of the word; two table lookups then rank it.
var sepRankLo, sepRankHi = func() (lo [1024]uint32, hi [9][1024]uint32) {
	for w := 0; w < 1024; w++ {
		lo[w] = combRank(uint32(w))
		for c := 0; c <= 8; c++ {
			var r uint32
			j := c + 1
			for i := 0; i < 10; i++ {
				if w>>i&1 != 0 {
					r += binom[10+i][j]
					j++
				}
			}
			hi[c][w] = r
		}
	}
	return lo, hi
}()

// layoutWord returns the stars-and-bars word of the heights h and the
// position in it where each square's run of pieces starts.
func layoutWord(h *[numSquares]uint8) (w uint32, start [numSquares]uint8) {
	at := uint8(0)
	for sq := 0; sq < numSquares; sq++ {
		start[sq] = at
		at += h[sq]
		if sq < numSquares-1 {
			w |= 1 << at
			at++
		}
	}
	return w, start
}

// wordRank ranks a layout word; it equals layoutRank of its heights.
func wordRank(w uint32) uint32 {
	lo := w & 1023
	return sepRankLo[lo] + sepRankHi[bits.OnesCount32(lo)][w>>10&1023]
}

// removeZeros takes k pieces out of the run starting at position at.
func removeZeros(w uint32, at, k uint8) uint32 {
	return w&(1<<at-1) | w>>(at+k)<<at
}

// insertZeros puts k pieces into the run starting at position at.
func insertZeros(w uint32, at, k uint8) uint32 {
	return w&(1<<at-1) | w>>at<<(at+k)
}
