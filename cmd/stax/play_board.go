package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"stax/game"
)

// The board drawings work from the game's board view (game.Viewer), so
// they draw every game without knowing it: a grid as ranks of piles, a
// ring of eight as its cells around the unused centre. Each pile is drawn
// piece by piece, bottom to top; reserves and counts follow.

// ANSI escapes for the pieces: a coloured tile per piece.
const (
	ansiReset = "\x1b[0m"
	ansiDim   = "\x1b[2m"
)

// pieceColour maps a piece's colour name to its tile.
var pieceColour = map[string]string{
	"white":  "\x1b[30;107m", // black on bright white
	"black":  "\x1b[97;40m",  // bright white on black
	"red":    "\x1b[97;41m",
	"green":  "\x1b[30;42m",
	"yellow": "\x1b[30;103m",
	"blue":   "\x1b[97;44m",
}

// drawBoard draws the position s from its board view, or prints its
// position string when its game has none. last lists the cells the last
// move touched (indices of the board's cells), marked on the drawing: ===
// under a square instead of ---, [brackets] around a cell's name.
func drawBoard(w io.Writer, s game.State, last []int, colour bool) {
	v, ok := s.(game.Viewer)
	if !ok {
		fmt.Fprintf(w, "  %s\n", s)
		return
	}
	b := v.Board()
	d := drawing{b: &b, colour: colour, last: map[int]bool{}}
	for _, c := range last {
		d.last[c] = true
	}
	var lines []string
	switch {
	case b.Topology == game.Grid:
		lines = d.grid()
	case b.Topology == game.Ring && b.Size == 8:
		lines = d.ring()
	default:
		lines = d.list()
	}
	lines = append(lines, d.extras(s.Game())...)
	for _, l := range lines {
		fmt.Fprintln(w, strings.TrimRight(l, " "))
	}
}

// drawing draws one board.
type drawing struct {
	b      *game.Board
	colour bool
	last   map[int]bool // the cells of the last move
}

// tile draws one piece three columns wide: its letter and a mark (* for a
// locked stack's top piece, ^ for a roofed one's, = for a highlighted
// piece).
func (d drawing) tile(letter, mark byte) string {
	if mark == 0 {
		mark = ' '
	}
	text := " " + string(letter) + string(mark)
	if !d.colour {
		return text
	}
	p := d.b.Piece(letter)
	if p == nil || pieceColour[p.Name] == "" {
		return text
	}
	return pieceColour[p.Name] + text + ansiReset
}

// empty draws the ground of an empty square or an empty level.
func (d drawing) empty() string {
	if d.colour {
		return ansiDim + " . " + ansiReset
	}
	return " . "
}

// level draws level l (0 = bottom) of cell c: its piece with its mark, or
// "" when the cell is lower.
func (d drawing) level(c *game.Cell, l int) string {
	if l >= len(c.Stack) {
		return ""
	}
	var mark byte
	switch {
	case l == len(c.Stack)-1 && c.Marks&game.Roofed != 0:
		mark = '^'
	case l == len(c.Stack)-1 && c.Marks&game.Locked != 0:
		mark = '*'
	case c.Marks&game.Highlighted != 0 && (slices.Contains(c.Levels, l+1) || slices.Contains(c.Levels, 0)):
		mark = '='
	}
	return d.tile(c.Stack[l], mark)
}

// grid draws the ranks from the highest down, each as piles standing on
// the rank's line, rank numbers on the left and files above and below.
func (d drawing) grid() []string {
	n := d.b.Size
	header := "    "
	for f := 0; f < n; f++ {
		header += fmt.Sprintf(" %c  ", 'a'+f)
	}
	out := []string{header}
	for r := n - 1; r >= 0; r-- {
		rank := d.b.Cells[r*n : (r+1)*n]
		height := 1
		for _, c := range rank {
			height = max(height, len(c.Stack))
		}
		for l := height - 1; l >= 0; l-- {
			line := "    "
			if l == 0 {
				line = fmt.Sprintf("%3d ", r+1)
			}
			for i := range rank {
				switch t := d.level(&rank[i], l); {
				case t != "":
					line += t + " "
				case l == 0:
					line += d.empty() + " "
				default:
					line += "    "
				}
			}
			out = append(out, line)
		}
		ground := "    "
		for f := 0; f < n; f++ {
			if d.last[r*n+f] {
				ground += "=== "
			} else {
				ground += "--- "
			}
		}
		out = append(out, ground)
	}
	return append(out, header)
}

// ringLayout places a ring of eight cells on a 3x3 grid, clockwise from the
// top left, so that facing cells face each other across the centre (-1).
var ringLayout = [3][3]int{{0, 1, 2}, {7, -1, 3}, {6, 5, 4}}

// ring draws a ring of eight: the cells around the centre, each a pile
// with the level numbers on the left.
func (d drawing) ring() []string {
	var out []string
	height := max(d.b.Height, 1)
	for _, c := range d.b.Cells {
		height = max(height, len(c.Stack))
	}
	for _, row := range ringLayout {
		head := "      "
		for _, i := range row {
			if i < 0 {
				head += "        "
			} else {
				name := "cell " + d.b.Cells[i].Name
				if d.last[i] {
					name = "[" + name + "]"
				}
				head += fmt.Sprintf("%-8s", " "+name)
			}
		}
		out = append(out, head)
		for l := height - 1; l >= 0; l-- {
			line := fmt.Sprintf("  L%d  ", l+1)
			for _, i := range row {
				if i < 0 {
					line += "        "
					continue
				}
				t := d.level(&d.b.Cells[i], l)
				if t == "" {
					t = d.empty()
				}
				line += "  " + t + "   "
			}
			out = append(out, line)
		}
	}
	var pairs []string
	for i := 0; i < d.b.Size/2; i++ {
		pairs = append(pairs, d.b.Cells[i].Name+"-"+d.b.Cells[i+d.b.Size/2].Name)
	}
	out = append(out, "  cells "+strings.Join(pairs[:len(pairs)-1], ", ")+" and "+pairs[len(pairs)-1]+" face each other; numbered clockwise")
	return out
}

// list draws any other board one cell a line, bottom to top.
func (d drawing) list() []string {
	var out []string
	for i := range d.b.Cells {
		c := &d.b.Cells[i]
		name := c.Name
		if d.last[i] {
			name = "[" + name + "]"
		}
		line := fmt.Sprintf("  %4s ", name)
		if c.Stack == "" {
			line += d.empty()
		}
		for l := range c.Stack {
			line += d.level(c, l)
		}
		out = append(out, line)
	}
	return out
}

// extras writes the reserves and counts of the board, naming the players.
func (d drawing) extras(g game.Game) []string {
	var out []string
	if len(d.b.Reserves) > 0 {
		parts := make([]string, len(d.b.Reserves))
		for i, r := range d.b.Reserves {
			name := string(r.Piece)
			if p := d.b.Piece(r.Piece); p != nil {
				name = p.Name
			}
			parts[i] = fmt.Sprintf("%s %d", name, r.Left)
		}
		out = append(out, "  to place: "+strings.Join(parts, ", "))
	}
	for _, c := range d.b.Counts {
		parts := make([]string, len(c.Values))
		for p, v := range c.Values {
			parts[p] = fmt.Sprintf("%s %d", g.PlayerName(p), v)
		}
		line := "  " + strings.ToLower(c.Label[:1]) + c.Label[1:] + ": " + strings.Join(parts, ", ")
		if c.Of > 0 {
			line += fmt.Sprintf(" (of %d)", c.Of)
		}
		out = append(out, line)
	}
	return out
}
