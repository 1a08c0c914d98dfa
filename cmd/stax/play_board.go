package main

import (
	"fmt"
	"io"
	"strings"
)

// The board drawings work from the position string of docs/rules.md, so they
// draw every game without knowing its types: grid games (Pogo, Pisola) as
// ranks of piles, Diam as its ring of eight piles around the unused centre.
// Each pile is drawn piece by piece, bottom to top.

// ANSI escapes for the pieces: a coloured tile per piece.
const (
	ansiReset = "\x1b[0m"
	ansiDim   = "\x1b[2m"
)

var pieceColour = map[byte]string{
	'w': "\x1b[30;107m", // black on bright white
	'b': "\x1b[97;40m",  // bright white on black
	'r': "\x1b[97;41m",
	'g': "\x1b[30;42m",
	'y': "\x1b[30;103m",
	'B': "\x1b[97;44m", // Diam's blue, told apart from Pogo's black by the caller
}

// drawBoard draws the position string pos. It falls back to printing the
// string when it is in neither form.
func drawBoard(w io.Writer, pos string, colour bool) {
	board, _, ok := strings.Cut(pos, " ")
	var lines []string
	switch {
	case ok && strings.Contains(board, ","):
		lines = drawGrid(board, colour)
	case ok && strings.Count(board, "/") == 7:
		lines = drawRing(board, colour)
	}
	if lines == nil {
		fmt.Fprintf(w, "  %s\n", pos)
		return
	}
	for _, l := range lines {
		fmt.Fprintln(w, strings.TrimRight(l, " "))
	}
}

// tile draws one piece three columns wide: its letter, and a mark for a
// locked (*) or roofed (^) stack's top piece.
func tile(piece byte, mark byte, diam, colour bool) string {
	m := byte(' ')
	if mark != 0 {
		m = mark
	}
	text := " " + string(piece) + string(m)
	if !colour {
		return text
	}
	key := piece
	if diam && piece == 'b' {
		key = 'B'
	}
	c, ok := pieceColour[key]
	if !ok {
		return text
	}
	return c + text + ansiReset
}

// emptyTile draws the ground of an empty square or an empty level.
func emptyTile(colour bool) string {
	if colour {
		return ansiDim + " . " + ansiReset
	}
	return " . "
}

// stack splits a square of a position string into its pieces and its
// mark (* or ^, or 0).
func stack(sq string) (pieces string, mark byte) {
	if sq == "-" {
		return "", 0
	}
	if n := len(sq); n > 0 && (sq[n-1] == '*' || sq[n-1] == '^') {
		return sq[:n-1], sq[n-1]
	}
	return sq, 0
}

// drawGrid draws a grid game: the ranks from the highest down, each as
// piles standing on the rank's line, rank numbers on the left and files
// above and below.
func drawGrid(board string, colour bool) []string {
	ranks := strings.Split(board, "/")
	files := len(strings.Split(ranks[0], ","))
	header := "    "
	for f := 0; f < files; f++ {
		header += fmt.Sprintf(" %c  ", 'a'+f)
	}
	out := []string{header}
	for i, rank := range ranks {
		num := len(ranks) - i
		squares := strings.Split(rank, ",")
		if len(squares) != files {
			return nil
		}
		height := 1
		for _, sq := range squares {
			p, _ := stack(sq)
			height = max(height, len(p))
		}
		for level := height - 1; level >= 0; level-- {
			line := "    "
			if level == 0 {
				line = fmt.Sprintf("%3d ", num)
			}
			for _, sq := range squares {
				p, mark := stack(sq)
				switch {
				case level < len(p):
					m := byte(0)
					if level == len(p)-1 {
						m = mark
					}
					line += tile(p[level], m, false, colour) + " "
				case level == 0:
					line += emptyTile(colour) + " "
				default:
					line += "    "
				}
			}
			out = append(out, line)
		}
		out = append(out, "    "+strings.Repeat("--- ", files))
	}
	out = append(out, header)
	return out
}

// ringLayout places Diam's cells on a 3x3 grid, clockwise from the top
// left, so that opposite cells face each other across the centre (0).
var ringLayout = [3][3]int{{1, 2, 3}, {8, 0, 4}, {7, 6, 5}}

// drawRing draws Diam: the eight cells around the centre, each a pile of
// up to four levels, with the level numbers on the left.
func drawRing(board string, colour bool) []string {
	cells := strings.Split(board, "/")
	var out []string
	for _, row := range ringLayout {
		head := "      "
		for _, c := range row {
			if c == 0 {
				head += "        "
			} else {
				head += fmt.Sprintf(" cell %d ", c)
			}
		}
		out = append(out, head)
		for level := 3; level >= 0; level-- {
			line := fmt.Sprintf("  L%d  ", level+1)
			for _, c := range row {
				if c == 0 {
					line += "        "
					continue
				}
				p, _ := stack(cells[c-1])
				if level < len(p) {
					line += "  " + tile(p[level], 0, true, colour) + "   "
				} else {
					line += "  " + emptyTile(colour) + "   "
				}
			}
			out = append(out, line)
		}
	}
	out = append(out, "  cells 1-5, 2-6, 3-7 and 4-8 face each other; + is clockwise")
	return out
}
