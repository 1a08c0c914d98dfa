package pogo_test

import (
	"strings"
	"testing"
)

// naivePos is a Pogo position kept as plainly as possible: each square's
// pieces bottom to top as a string of w and b.
type naivePos struct {
	sq     [9]string
	toMove byte // 'w' or 'b'
}

func naiveParse(t testing.TB, pos string) naivePos {
	t.Helper()
	var p naivePos
	board, side, _ := strings.Cut(pos, " ")
	p.toMove = side[0]
	for i, rank := range strings.Split(board, "/") {
		for f, cell := range strings.Split(rank, ",") {
			if cell != "-" {
				p.sq[3*(2-i)+f] = cell
			}
		}
	}
	return p
}

// naiveOver reports whether one colour tops every non-empty stack.
func naiveOver(p naivePos) bool {
	var tops [2]bool
	for _, s := range p.sq {
		if s != "" {
			tops[strings.IndexByte("wb", s[len(s)-1])] = true
		}
	}
	return !tops[0] || !tops[1]
}

// naivePaths returns every square reached by a walk of exactly k orthogonal
// steps from sq that never steps onto a square already on its path.
func naivePaths(sq, k int) map[int]bool {
	ends := map[int]bool{}
	var walk func(at int, path []int, left int)
	walk = func(at int, path []int, left int) {
		if left == 0 {
			ends[at] = true
			return
		}
		f, r := at%3, at/3
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nf, nr := f+d[0], r+d[1]
			if nf < 0 || nf > 2 || nr < 0 || nr > 2 {
				continue
			}
			next := nr*3 + nf
			visited := false
			for _, p := range path {
				visited = visited || p == next
			}
			if !visited {
				walk(next, append(append([]int{}, path...), next), left-1)
			}
		}
	}
	walk(sq, []int{sq}, k)
	return ends
}

func adjacent(a, b int) bool {
	df, dr := a%3-b%3, a/3-b/3
	return df*df+dr*dr == 1
}

// naiveChildren lists the positions reached by every legal move. Without
// the U move, three pieces may not end next to where they started.
func naiveChildren(p naivePos, u bool) []naivePos {
	if naiveOver(p) {
		return nil
	}
	var out []naivePos
	for from, s := range p.sq {
		if s == "" || s[len(s)-1] != p.toMove {
			continue
		}
		for k := 1; k <= 3 && k <= len(s); k++ {
			for to := range naivePaths(from, k) {
				if k == 3 && !u && adjacent(from, to) {
					continue
				}
				c := p
				block := s[len(s)-k:]
				c.sq[from] = s[:len(s)-k]
				c.sq[to] += block
				c.toMove = "wb"[strings.IndexByte("bw", p.toMove)]
				out = append(out, c)
			}
		}
	}
	return out
}

func naivePerft(p naivePos, depth int, u bool) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, c := range naiveChildren(p, u) {
		n += naivePerft(c, depth-1, u)
	}
	return n
}
