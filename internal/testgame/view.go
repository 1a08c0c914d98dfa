package testgame

import "stax/game"

var squareNames = game.GridCellNames(3)

// Board returns the board view: a 3x3 grid of crosses and noughts, the
// three in a row highlighted once a side has made it.
func (s *State) Board() game.Board {
	b := game.Board{
		Topology: game.Grid,
		Size:     3,
		Height:   1,
		Cells:    make([]game.Cell, 9),
		Pieces:   []game.Piece{{Letter: 'x', Name: "cross", Player: X}, {Letter: 'o', Name: "nought", Player: O}},
		ToMove:   s.toMove,
	}
	for sq := range b.Cells {
		b.Cells[sq].Name = squareNames[sq]
		if c := s.cells[sq]; c != 0 {
			b.Cells[sq].Stack = string("xo"[c-1])
		}
	}
	for _, l := range lines {
		if c := s.cells[l[0]]; c != 0 && s.cells[l[1]] == c && s.cells[l[2]] == c {
			for _, sq := range l {
				if b.Cells[sq].Marks&game.Highlighted == 0 {
					b.Cells[sq].Marks |= game.Highlighted
					b.Cells[sq].Levels = []int{1}
				}
			}
		}
	}
	return b
}

// ViewMove describes a move: the mover's piece on the square.
func (s *State) ViewMove(m game.Move) game.MoveView {
	return game.MoveView{Kind: game.Place, Piece: "xo"[s.toMove], To: []int{int(m) - 1}}
}
