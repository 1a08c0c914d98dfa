package solve

import (
	"strings"

	"stax/game"
)

// This file holds a slow, independent model of Pogo for n pieces a side,
// to check the solver against: stacks are strings of 'w' and 'b' from the
// bottom up, destinations come from walking paths square by square, and
// positions are told apart by their symmetric images' strings.

// naive is a position with White to move.
type naive [numSquares]string

// naiveOf converts the solver's form.
func naiveOf(p *pos) naive {
	var s naive
	for sq := 0; sq < numSquares; sq++ {
		var b strings.Builder
		for l := uint8(0); l < p.h[sq]; l++ {
			b.WriteByte("wb"[p.b[sq]>>l&1])
		}
		s[sq] = b.String()
	}
	return s
}

// key returns the least string of s's 8 images.
func (s naive) key() string {
	best := ""
	for g := 0; g < 8; g++ {
		var img naive
		for sq := 0; sq < numSquares; sq++ {
			img[syms[g][sq]] = s[sq]
		}
		k := strings.Join(img[:], "/")
		if g == 0 || k < best {
			best = k
		}
	}
	return best
}

// topped reports whether colour c tops some stack.
func (s naive) topped(c byte) bool {
	for _, st := range s {
		if st != "" && st[len(st)-1] == c {
			return true
		}
	}
	return false
}

// walk returns the squares a block reaches in exactly k orthogonal steps
// from sq without stepping twice on a square of its path.
func walk(sq, k int) map[int]bool {
	out := map[int]bool{}
	var rec func(at, left int, seen map[int]bool)
	rec = func(at, left int, seen map[int]bool) {
		if left == 0 {
			out[at] = true
			return
		}
		f, r := at%3, at/3
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nf, nr := f+d[0], r+d[1]
			if nf < 0 || nf > 2 || nr < 0 || nr > 2 {
				continue
			}
			n := nf + 3*nr
			if seen[n] {
				continue
			}
			seen[n] = true
			rec(n, left-1, seen)
			delete(seen, n)
		}
	}
	rec(sq, k, map[int]bool{sq: true})
	return out
}

// successors returns the positions after each of White's moves, colours
// swapped so that White is to move again.
func (s naive) successors(u bool) []naive {
	if !s.topped('w') || !s.topped('b') {
		return nil
	}
	var out []naive
	for from := 0; from < numSquares; from++ {
		st := s[from]
		if st == "" || st[len(st)-1] != 'w' {
			continue
		}
		for k := 1; k <= 3 && k <= len(st); k++ {
			for to := range walk(from, k) {
				if k == 3 && !u && abs(from%3-to%3)+abs(from/3-to/3) == 1 {
					continue
				}
				next := s
				next[from] = st[:len(st)-k]
				next[to] = s[to] + st[len(st)-k:]
				for sq := range next {
					next[sq] = swapColours(next[sq])
				}
				out = append(out, next)
			}
		}
	}
	return out
}

func swapColours(st string) string {
	return strings.Map(func(r rune) rune {
		if r == 'w' {
			return 'b'
		}
		return 'w'
	}, st)
}

// naiveSolve solves every position of a table's index the slow way, one
// distance at a time: at an odd distance d, the undecided positions with a
// move to a loss in d-1 are won in d; at an even one, those whose every
// move leads to a decided win are lost in d. It returns the verdicts by
// key.
func naiveSolve(t *Table) map[string]Verdict {
	type node struct {
		succ []string
		v    Verdict
		done bool
	}
	nodes := map[string]*node{}
	for idx := uint32(0); idx < t.x.total; idx++ {
		p := t.x.decode(idx)
		s := naiveOf(&p)
		n := &node{}
		switch {
		case !s.topped('w'):
			n.v, n.done = Verdict{Result: game.Loss}, true
		case !s.topped('b'):
			n.v, n.done = Verdict{Result: game.Win}, true
		}
		for _, c := range s.successors(t.u) {
			n.succ = append(n.succ, c.key())
		}
		nodes[s.key()] = n
	}
	for d := 1; ; d++ {
		var decided []*node
		for _, n := range nodes {
			if n.done {
				continue
			}
			all := true
			for _, k := range n.succ {
				c := nodes[k]
				if d%2 == 1 && c.done && c.v.Result == game.Loss && c.v.Plies == d-1 {
					decided = append(decided, n)
					break
				}
				if !c.done {
					all = false
				}
			}
			if d%2 == 0 && all {
				decided = append(decided, n)
			}
		}
		if len(decided) == 0 {
			break
		}
		for _, n := range decided {
			n.done = true
			n.v = Verdict{Result: game.Win, Plies: d}
			if d%2 == 0 {
				n.v.Result = game.Loss
			}
		}
	}
	out := map[string]Verdict{}
	for k, n := range nodes {
		if !n.done {
			n.v = Verdict{Result: game.Draw}
		}
		out[k] = n.v
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
