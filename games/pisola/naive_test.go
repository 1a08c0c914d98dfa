package pisola_test

import (
	"fmt"
	"sort"
	"strings"
)

// This file is a second, deliberately simple implementation of the rules,
// written straight from docs/rules.md to check the fast one: the board is a grid
// of strings, every question is answered by scanning the whole board, and
// every move copies the position.

// naivePos is a position: board[rank][file] holds a square's pieces bottom
// to top ("" when empty).
type naivePos struct {
	n      int
	roofs  bool
	endAny bool // end=any: the game ends when either player cannot move
	board  [][]string
	locked [][]bool
	toMove byte // 'w' or 'b'
}

// naiveMove is a move in notation, with the squares as [file, rank].
type naiveMove struct {
	place    bool
	from, to [2]int
}

func (m naiveMove) String() string {
	sq := func(s [2]int) string { return fmt.Sprintf("%c%d", 'a'+s[0], s[1]+1) }
	if m.place {
		return sq(m.from) + "+" + sq(m.to)
	}
	return sq(m.from) + "-" + sq(m.to)
}

// naiveParse reads a position string that is known to be good.
func naiveParse(pos string, n int, roofs, endAny bool) naivePos {
	p := naivePos{n: n, roofs: roofs, endAny: endAny}
	board, side, _ := strings.Cut(pos, " ")
	p.toMove = side[0]
	ranks := strings.Split(board, "/")
	p.board = make([][]string, n)
	p.locked = make([][]bool, n)
	for r := 0; r < n; r++ {
		p.board[r] = make([]string, n)
		p.locked[r] = make([]bool, n)
		squares := strings.Split(ranks[n-1-r], ",")
		for f := 0; f < n; f++ {
			s := squares[f]
			if strings.HasSuffix(s, "*") || strings.HasSuffix(s, "^") {
				p.locked[r][f] = true
				s = s[:len(s)-1]
			}
			if s != "-" {
				p.board[r][f] = s
			}
		}
	}
	return p
}

func (p naivePos) String() string {
	var ranks []string
	for r := p.n - 1; r >= 0; r-- {
		var squares []string
		for f := 0; f < p.n; f++ {
			s := p.board[r][f]
			if s == "" {
				s = "-"
			}
			if p.locked[r][f] {
				if p.roofs {
					s += "^"
				} else {
					s += "*"
				}
			}
			squares = append(squares, s)
		}
		ranks = append(ranks, strings.Join(squares, ","))
	}
	return strings.Join(ranks, "/") + " " + string(p.toMove)
}

func (p naivePos) clone() naivePos {
	c := p
	c.board = make([][]string, p.n)
	c.locked = make([][]bool, p.n)
	for r := range p.board {
		c.board[r] = append([]string(nil), p.board[r]...)
		c.locked[r] = append([]bool(nil), p.locked[r]...)
	}
	return c
}

func (p naivePos) pieces() int {
	total := 0
	for _, rank := range p.board {
		for _, s := range rank {
			total += len(s)
		}
	}
	return total
}

func (p naivePos) moving() bool { return p.pieces() == p.n*p.n }

func (p naivePos) on(f, r int) bool { return f >= 0 && f < p.n && r >= 0 && r < p.n }

// destinations lists where the stack on (f, r) may go: its height in a
// straight line, onto a square that is not locked.
func (p naivePos) destinations(f, r int) [][2]int {
	h := len(p.board[r][f])
	var out [][2]int
	for _, d := range [][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
		tf, tr := f+d[0]*h, r+d[1]*h
		if p.on(tf, tr) && !p.locked[tr][tf] {
			out = append(out, [2]int{tf, tr})
		}
	}
	return out
}

// lockAll locks every unlocked stack with no destination, again and again
// until nothing changes.
func (p naivePos) lockAll() {
	for changed := true; changed; {
		changed = false
		for r := 0; r < p.n; r++ {
			for f := 0; f < p.n; f++ {
				if p.board[r][f] != "" && !p.locked[r][f] && len(p.destinations(f, r)) == 0 {
					p.locked[r][f] = true
					changed = true
				}
			}
		}
	}
}

// lockedBy counts the locked stacks topped by colour c.
func (p naivePos) lockedBy(c byte) int {
	n := 0
	for r := 0; r < p.n; r++ {
		for f := 0; f < p.n; f++ {
			if s := p.board[r][f]; s != "" && p.locked[r][f] && s[len(s)-1] == c {
				n++
			}
		}
	}
	return n
}

// roofsWon reports whether a player has put on all their roofs.
func (p naivePos) roofsWon() bool {
	return p.roofs && (p.lockedBy('w') >= p.n || p.lockedBy('b') >= p.n)
}

func adjacent(a, b [2]int) bool {
	df, dr := a[0]-b[0], a[1]-b[1]
	return df*df+dr*dr == 1
}

// moves lists the legal moves in any order.
func (p naivePos) moves() []naiveMove {
	var out []naiveMove
	if !p.moving() {
		var empty [][2]int
		for r := 0; r < p.n; r++ {
			for f := 0; f < p.n; f++ {
				if p.board[r][f] == "" {
					empty = append(empty, [2]int{f, r})
				}
			}
		}
		apart := false
		for i := range empty {
			for j := range empty {
				if i != j && !adjacent(empty[i], empty[j]) {
					apart = true
				}
			}
		}
		for i := range empty {
			for j := i + 1; j < len(empty); j++ {
				if !apart || !adjacent(empty[i], empty[j]) {
					out = append(out, naiveMove{place: true, from: empty[i], to: empty[j]})
				}
			}
		}
		return out
	}
	if p.roofsWon() {
		return nil
	}
	// With end=any the game is over when the player who just moved cannot
	// move any more.
	if p.endAny && len(p.stackMoves(other(p.toMove))) == 0 {
		return nil
	}
	return p.stackMoves(p.toMove)
}

// stackMoves lists the stack moves of colour c.
func (p naivePos) stackMoves(c byte) []naiveMove {
	var out []naiveMove
	for r := 0; r < p.n; r++ {
		for f := 0; f < p.n; f++ {
			s := p.board[r][f]
			if s == "" || p.locked[r][f] || s[len(s)-1] != c {
				continue
			}
			for _, d := range p.destinations(f, r) {
				out = append(out, naiveMove{from: [2]int{f, r}, to: d})
			}
		}
	}
	return out
}

// play returns the position after m, the locking rule applied after every
// move as docs/rules.md says.
func (p naivePos) play(m naiveMove) naivePos {
	c := p.clone()
	if m.place {
		c.board[m.from[1]][m.from[0]] = string(p.toMove)
		c.board[m.to[1]][m.to[0]] = string(p.toMove)
		if c.moving() {
			c.toMove = 'w'
		} else {
			c.toMove = other(p.toMove)
		}
	} else {
		c.board[m.to[1]][m.to[0]] += c.board[m.from[1]][m.from[0]]
		c.board[m.from[1]][m.from[0]] = ""
		c.toMove = other(p.toMove)
	}
	c.lockAll()
	return c
}

func other(c byte) byte {
	if c == 'w' {
		return 'b'
	}
	return 'w'
}

// outcome returns "" for a game in progress, else "w", "b" or "draw" and
// the two scores.
func (p naivePos) outcome() (string, [2]int) {
	if !p.moving() {
		return "", [2]int{}
	}
	if p.roofs {
		sc := [2]int{min(p.lockedBy('w'), p.n), min(p.lockedBy('b'), p.n)}
		w, b := p.lockedBy('w') >= p.n, p.lockedBy('b') >= p.n
		switch {
		case w && b:
			return string(other(p.toMove)), sc
		case w:
			return "w", sc
		case b:
			return "b", sc
		}
	}
	if len(p.moves()) > 0 {
		return "", [2]int{}
	}
	return p.score()
}

// score compares the scores as the end of the game does.
func (p naivePos) score() (string, [2]int) {
	var sc [2]int
	if p.roofs {
		sc = [2]int{min(p.lockedBy('w'), p.n), min(p.lockedBy('b'), p.n)}
	} else {
		for r := 0; r < p.n; r++ {
			for f := 0; f < p.n; f++ {
				if s := p.board[r][f]; s != "" {
					if s[len(s)-1] == 'w' {
						sc[0]++
					} else {
						sc[1]++
					}
				}
			}
		}
	}
	switch {
	case sc[0] > sc[1]:
		return "w", sc
	case sc[1] > sc[0]:
		return "b", sc
	}
	return "draw", sc
}

func naivePerft(p naivePos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.moves() {
		n += naivePerft(p.play(m), depth-1)
	}
	return n
}

// moveStrings returns the moves in notation, sorted.
func (p naivePos) moveStrings() []string {
	var out []string
	for _, m := range p.moves() {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}
