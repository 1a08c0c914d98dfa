package diam_test

import (
	"fmt"
	"strings"

	"stax/game"
)

// naive is a deliberately simple second implementation of the rules of
// docs/rules.md, written straight from the text with cells as strings and
// everything recomputed from scratch, to cross-check the bitboard one.
type naive struct {
	players int
	teams   bool
	dropAny bool
}

// naivePos is a position: cells[i] holds cell i+1's pieces bottom to top
// as letters; toMove is 1-based.
type naivePos struct {
	cells  [8]string
	toMove int
}

func naiveOf(g game.Game) naive {
	o := g.Options()
	return naive{players: o.Int("players"), teams: o.Bool("teams"), dropAny: o.String("drop") == "any"}
}

func parseNaive(pos string) naivePos {
	var p naivePos
	board, side, _ := strings.Cut(pos, " ")
	for i, c := range strings.Split(board, "/") {
		if c != "-" {
			p.cells[i] = c
		}
	}
	fmt.Sscan(side, &p.toMove)
	return p
}

func (p naivePos) String() string {
	cells := make([]string, 8)
	for i, c := range p.cells {
		cells[i] = c
		if c == "" {
			cells[i] = "-"
		}
	}
	return strings.Join(cells, "/") + " " + fmt.Sprint(p.toMove)
}

// seatColour is the colour of each seat with four players.
const seatColour = "rgyb"

// places returns the colours player (1-based) places from their reserve.
func (n naive) places(player int) string {
	if n.players == 2 {
		return []string{"ry", "gb"}[player-1]
	}
	return string(seatColour[player-1])
}

// moves returns the colours player may move.
func (n naive) moves(player int) string {
	if n.players == 4 && n.teams {
		// Partners sit two seats apart.
		partner := (player+1)%4 + 1
		return string(seatColour[player-1]) + string(seatColour[partner-1])
	}
	return n.places(player)
}

// winners returns the 1-based players who win by a diam in colour c.
func (n naive) winners(c byte) []int {
	var w []int
	for p := 1; p <= n.players; p++ {
		if n.players == 2 || !n.teams {
			if strings.IndexByte(n.places(p), c) >= 0 {
				w = append(w, p)
			}
		} else if strings.IndexByte(n.moves(p), c) >= 0 {
			w = append(w, p)
		}
	}
	return w
}

// diam returns the colour and 1-based level of the highest diam, or 0.
func (n naive) diam(p naivePos) (byte, int) {
	for level := 4; level >= 2; level-- {
		for i := 0; i < 4; i++ {
			a, b := p.cells[i], p.cells[i+4]
			if len(a) >= level && len(b) >= level && a[level-1] == b[level-1] {
				return a[level-1], level
			}
		}
	}
	return 0, 0
}

// ownMoves lists player's moves other than a pass, in notation.
func (n naive) ownMoves(p naivePos, player int) []string {
	var out []string
	for _, c := range n.places(player) {
		onBoard := 0
		for _, cell := range p.cells {
			onBoard += strings.Count(cell, string(c))
		}
		if onBoard == 4 {
			continue
		}
		for i, cell := range p.cells {
			if len(cell) == 0 || (n.dropAny && len(cell) < 4) {
				out = append(out, fmt.Sprintf("%c@%d", c, i+1))
			}
		}
	}
	for i, cell := range p.cells {
		for l := 0; l < len(cell); l++ {
			if !strings.ContainsRune(n.moves(player), rune(cell[l])) {
				continue
			}
			carried := len(cell) - l
			for _, dir := range []string{"-", "+"} {
				to := (i + 7) % 8
				if dir == "+" {
					to = (i + 1) % 8
				}
				if len(p.cells[to])+carried <= 4 {
					out = append(out, fmt.Sprintf("%d:%d%s", i+1, l+1, dir))
				}
			}
		}
	}
	return out
}

// legal lists the legal moves: none once a diam stands or when no one can
// move, pass alone when only the player to move cannot.
func (n naive) legal(p naivePos) []string {
	if c, _ := n.diam(p); c != 0 {
		return nil
	}
	if own := n.ownMoves(p, p.toMove); len(own) > 0 {
		return own
	}
	for q := 1; q <= n.players; q++ {
		if len(n.ownMoves(p, q)) > 0 {
			return []string{"pass"}
		}
	}
	return nil
}

// apply plays a legal move given in notation.
func (n naive) apply(p naivePos, mv string) naivePos {
	switch {
	case mv == "pass":
	case strings.Contains(mv, "@"):
		var cell int
		fmt.Sscanf(mv[2:], "%d", &cell)
		p.cells[cell-1] += mv[:1]
	default:
		var cell, level int
		fmt.Sscanf(mv, "%d:%d", &cell, &level)
		from := cell - 1
		to := (from + 7) % 8
		if strings.HasSuffix(mv, "+") {
			to = (from + 1) % 8
		}
		block := p.cells[from][level-1:]
		p.cells[from] = p.cells[from][:level-1]
		p.cells[to] += block
	}
	p.toMove = p.toMove%n.players + 1
	return p
}

func (n naive) perft(p naivePos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, mv := range n.legal(p) {
		total += n.perft(n.apply(p, mv), depth-1)
	}
	return total
}
