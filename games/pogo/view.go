package pogo

import (
	"fmt"
	"math/bits"

	"stax/game"
)

var squareNames = game.GridCellNames(3)

// Board returns the board of the position: a 3×3 grid of stacks, with the
// stacks each player tops.
func (s *State) Board() game.Board {
	b := game.Board{
		Topology: game.Grid,
		Size:     3,
		Cells:    make([]game.Cell, numSquares),
		Pieces:   []game.Piece{{Letter: 'w', Name: "white", Player: White}, {Letter: 'b', Name: "black", Player: Black}},
		Counts: []game.Count{{Label: "Stacks on top",
			Values: []int{bits.OnesCount16(s.top[White]), bits.OnesCount16(s.top[Black])}}},
		ToMove: s.toMove,
	}
	for sq := range b.Cells {
		stack := make([]byte, s.height[sq])
		for l := range stack {
			stack[l] = "wb"[s.bits[sq]>>l&1]
		}
		b.Cells[sq] = game.Cell{Name: squareNames[sq], Stack: string(stack)}
	}
	return b
}

// ViewMove describes a move: the top k pieces of a square go to another.
func (s *State) ViewMove(m game.Move) game.MoveView {
	k, from, to := decode(m)
	return game.MoveView{Kind: game.Shift, From: from, Count: k, To: []int{to}}
}

// Compose sets up a position by hand (game.Composer): the stacks of the
// squares a1, b1, …, c3 in the letters w and b, bottom to top.
func (g *Game) Compose(stacks []string, toMove int) (game.State, error) {
	board, err := game.GridText(3, stacks)
	if err != nil {
		return nil, err
	}
	if toMove < 0 || toMove > 1 {
		return nil, fmt.Errorf("player %d to move: want 0 (White) or 1 (Black)", toMove)
	}
	return g.ParseState(board + " " + string("wb"[toMove]))
}
