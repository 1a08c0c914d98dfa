package diam

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"stax/game"
)

var cellNames = [numCells]string{"1", "2", "3", "4", "5", "6", "7", "8"}

// Board returns the board of the position: the ring of eight cells of up
// to four pieces, the reserves of the four colours and, highlighted, the
// pieces of every diam on the board.
func (s *State) Board() game.Board {
	b := game.Board{
		Topology: game.Ring,
		Size:     numCells,
		Height:   maxHeight,
		Cells:    make([]game.Cell, numCells),
		Pieces:   make([]game.Piece, 4),
		Reserves: make([]game.Reserve, 4),
		ToMove:   int(s.toMove),
	}
	for c := range b.Pieces {
		b.Pieces[c] = game.Piece{Letter: colourLetters[c], Name: colourNames[c], Player: s.g.Owner(c)}
		b.Reserves[c] = game.Reserve{Piece: colourLetters[c], Left: s.reserve(c)}
	}
	for cell := range b.Cells {
		h := int(s.h[cell])
		stack := make([]byte, h)
		for l := range stack {
			stack[l] = colourLetters[s.colourAt(cell, l)]
		}
		b.Cells[cell] = game.Cell{Name: cellNames[cell], Stack: string(stack)}
	}
	// Every diam: a colour at one level, above the first, of facing cells.
	for cell := 0; cell < numCells/2; cell++ {
		for l := 1; l < maxHeight; l++ {
			a, o := &b.Cells[cell], &b.Cells[cell^4]
			if l < len(a.Stack) && l < len(o.Stack) && a.Stack[l] == o.Stack[l] {
				for _, c := range []*game.Cell{a, o} {
					c.Marks |= game.Highlighted
					c.Levels = append(c.Levels, l+1)
				}
			}
		}
	}
	return b
}

// ViewMove describes a move: a placing puts a piece of its colour on a
// cell; a step takes the piece at its level and every piece above it to
// the next cell.
func (s *State) ViewMove(m game.Move) game.MoveView {
	cell := int(m & 7)
	switch m & kindMask {
	case kindPlace:
		return game.MoveView{Kind: game.Place, Piece: colourLetters[m>>3&3], To: []int{cell}}
	case kindStep:
		level := int(m >> 3 & 3)
		return game.MoveView{Kind: game.Shift, From: cell, Count: int(s.h[cell]) - level, To: []int{neighbour(cell, m&cwBit != 0)}}
	}
	return game.MoveView{Kind: game.Pass}
}

// Compose sets up a position by hand (game.Composer): the stacks of the
// cells 1 to 8 in the colours' letters, bottom to top.
func (g *Game) Compose(stacks []string, toMove int) (game.State, error) {
	if len(stacks) != 8 {
		return nil, fmt.Errorf("%d stacks for a ring of 8 cells", len(stacks))
	}
	if toMove < 0 || toMove >= g.Players() {
		return nil, fmt.Errorf("player %d to move: want 0 to %d", toMove, g.Players()-1)
	}
	cells := make([]string, 8)
	for i, s := range stacks {
		cells[i] = cmp.Or(s, "-")
	}
	return g.ParseState(strings.Join(cells, "/") + " " + strconv.Itoa(toMove+1))
}
