package diam

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"stax/game"
)

// String returns the position string: the cells 1 to 8 separated by /,
// each its pieces bottom to top (r, y, g, b) or - when empty, then a space
// and the number of the player to move, e.g. "-/-/-/-/-/-/-/- 1".
func (s *State) String() string {
	var sb strings.Builder
	sb.Grow(48)
	for cell := 0; cell < numCells; cell++ {
		if cell > 0 {
			sb.WriteByte('/')
		}
		s.cellString(&sb, cell)
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(int(s.toMove) + 1))
	return sb.String()
}

// Parse parses a position string of this variant. It rejects a string
// that no game could reach in the ways docs/rules.md makes precise: more than 4
// pieces on a cell or of a colour, a player number out of range, or diams
// on more than one diameter. A string that shows a diam is a finished
// game.
func (g *Game) Parse(str string) (*State, error) {
	fail := func(format string, args ...any) (*State, error) {
		return nil, &game.PositionError{Game: "diam", Input: str, Err: fmt.Errorf(format, args...)}
	}
	fields := strings.Fields(str)
	if len(fields) != 2 {
		return fail("want the 8 cells separated by /, a space, then the number of the player to move (1 to %d)", g.players)
	}
	s := &State{g: g}
	p, err := strconv.Atoi(fields[1])
	if err != nil || p < 1 || p > g.players || fields[1] != strconv.Itoa(p) {
		return fail("player to move %q; want a number from 1 to %d", fields[1], g.players)
	}
	s.toMove = uint8(p - 1)
	cells := strings.Split(fields[0], "/")
	if len(cells) != numCells {
		return fail("%d cells; want 8 separated by /", len(cells))
	}
	for cell, text := range cells {
		if text == "-" {
			continue
		}
		if text == "" {
			return fail("cell %d is blank; want its pieces bottom to top (r, y, g, b), or - when empty", cell+1)
		}
		if len(text) > maxHeight {
			return fail("cell %d holds %d pieces; a cell holds at most 4", cell+1, len(text))
		}
		for l := 0; l < len(text); l++ {
			c := strings.IndexByte(colourLetters, text[l])
			if c < 0 {
				return fail("cell %d: unexpected %q; want r, y, g or b for each piece, or - when empty", cell+1, text[l])
			}
			s.col[c] |= 1 << (4*cell + l)
		}
	}
	for c := 0; c < 4; c++ {
		if n := bits.OnesCount32(s.col[c]); n > perColour {
			return fail("%d %s pieces; there are 4 of each colour", n, colourNames[c])
		}
	}
	var diameters []string
	for cell := 0; cell < numCells/2; cell++ {
		for c := 0; c < 4; c++ {
			if s.col[c]>>(4*cell)&(s.col[c]>>(4*(cell+4)))&0xE != 0 {
				diameters = append(diameters, fmt.Sprintf("%d-%d", cell+1, cell+5))
				break
			}
		}
	}
	if len(diameters) > 1 {
		return fail("diams on cells %s; the move that ends a game makes its diams on one diameter", strings.Join(diameters, " and "))
	}
	s.init()
	return s, nil
}

// FormatMove writes a move: "r@3" places red on cell 3, "3:2+" moves the
// piece at level 2 of cell 3 and all above it clockwise to cell 4, and
// "pass" passes.
func (s *State) FormatMove(m game.Move) string { return FormatMove(m) }

// FormatMove writes a move in Diam's notation; it needs no position.
func FormatMove(m game.Move) string {
	switch m & kindMask {
	case kindPlace:
		return string([]byte{colourLetters[m>>3&3], '@', byte('1' + m&7)})
	case kindStep:
		dir := byte('-')
		if m&cwBit != 0 {
			dir = '+'
		}
		return string([]byte{byte('1' + m&7), ':', byte('1' + m>>3&3), dir})
	case PassMove:
		return "pass"
	}
	return fmt.Sprintf("Move(%d)", uint32(m))
}

// errSyntax is the error for a move that is not in Diam's notation.
var errSyntax = errors.New("want <colour>@<cell> (e.g. r@3), <cell>:<level><+ or -> (e.g. 3:2+), or pass; colours r, y, g, b, cells 1 to 8, levels 1 to 4")

// ParseMove parses a move in Diam's notation and checks that it is legal,
// saying why when it is not.
func (s *State) ParseMove(str string) (game.Move, error) {
	fail := func(err error) (game.Move, error) {
		return game.NoMove, &game.MoveError{Input: str, Err: err}
	}
	m, err := parseNotation(strings.TrimSpace(str))
	if err != nil {
		return fail(err)
	}
	if s.Terminal() {
		return fail(game.ErrGameOver)
	}
	if reason := s.whyIllegal(m); reason != "" {
		return fail(fmt.Errorf("%w: %s", game.ErrIllegalMove, reason))
	}
	return m, nil
}

// parseNotation reads a move's notation without looking at a position.
func parseNotation(in string) (game.Move, error) {
	switch {
	case in == "pass":
		return PassMove, nil
	case len(in) == 3 && in[1] == '@':
		c := strings.IndexByte(colourLetters, in[0])
		if c < 0 {
			return game.NoMove, fmt.Errorf("colour %q; want r, y, g or b", in[0])
		}
		cell, ok := parseDigit(in[2], 8)
		if !ok {
			return game.NoMove, fmt.Errorf("cell %q; cells run from 1 to 8", in[2])
		}
		return PlaceMove(c, cell), nil
	case len(in) == 4 && in[1] == ':':
		cell, ok := parseDigit(in[0], 8)
		if !ok {
			return game.NoMove, fmt.Errorf("cell %q; cells run from 1 to 8", in[0])
		}
		l, ok := parseDigit(in[2], 4)
		if !ok {
			return game.NoMove, fmt.Errorf("level %q; levels run from 1 to 4", in[2])
		}
		if in[3] != '+' && in[3] != '-' {
			return game.NoMove, fmt.Errorf("direction %q; want + (clockwise) or - (counter-clockwise)", in[3])
		}
		return StepMove(cell, l, in[3] == '+'), nil
	}
	return game.NoMove, errSyntax
}

// parseDigit reads a digit 1..n and returns it 0-based.
func parseDigit(d byte, n int) (int, bool) {
	v := int(d) - '1'
	return v, v >= 0 && v < n
}

// whyIllegal returns why m is not legal in s (which is not over), or "" if
// it is.
func (s *State) whyIllegal(m game.Move) string {
	g := s.g
	p := int(s.toMove)
	me := g.PlayerName(p)
	switch m & kindMask {
	case PassMove:
		if n := s.count(g, p); n > 0 {
			return fmt.Sprintf("%s has %d other legal moves; a player passes only with none", me, n)
		}
	case kindPlace:
		c, cell := int(m>>3&3), int(m&7)
		switch h := int(s.h[cell]); {
		case !g.CanPlace(p, c):
			if g.CanMove(p, c) {
				return fmt.Sprintf("%s belongs to %s's partner; a player moves a partner's pieces but places only their own colour, %s",
					colourNames[c], me, g.placeNames(p))
			}
			return fmt.Sprintf("%s is not %s's; %s places %s", colourNames[c], me, me, g.placeNames(p))
		case s.reserve(c) == 0:
			return fmt.Sprintf("no %s piece is left in reserve; all 4 are on the board", colourNames[c])
		case !g.dropAny && h > 0:
			return fmt.Sprintf("cell %d is not empty; pieces are placed on empty cells (drop=empty)", cell+1)
		case h >= maxHeight:
			return fmt.Sprintf("cell %d would hold 5 pieces; a cell holds at most 4", cell+1)
		}
	case kindStep:
		cell, l := int(m&7), int(m>>3&3)
		d := neighbour(cell, m&cwBit != 0)
		h := int(s.h[cell])
		switch {
		case h == 0:
			return fmt.Sprintf("cell %d is empty", cell+1)
		case l >= h:
			return fmt.Sprintf("cell %d has no piece at level %d; it holds %d", cell+1, l+1, h)
		}
		c := s.colourAt(cell, l)
		if !g.CanMove(p, c) {
			return fmt.Sprintf("the piece at level %d of cell %d is %s; %s moves %s", l+1, cell+1, colourNames[c], me, g.moveNames(p))
		}
		if n := int(s.h[d]) + h - l; n > maxHeight {
			return fmt.Sprintf("cell %d would hold %d pieces; a cell holds at most 4", d+1, n)
		}
	default:
		return "not a Diam move"
	}
	return ""
}

// placeNames and moveNames list the colours player p places and moves.
func (g *Game) placeNames(p int) string { return colourList(g.placeSet[p]) }

func (g *Game) moveNames(p int) string { return colourList(g.moveSet[p]) }

func colourList(set uint8) string {
	var names []string
	for _, c := range []int{Red, Yellow, Green, Blue} {
		if set>>c&1 != 0 {
			names = append(names, colourNames[c])
		}
	}
	return strings.Join(names, " and ")
}
