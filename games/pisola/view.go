package pisola

import (
	"fmt"
	"math/bits"

	"stax/game"
)

// Board returns the board of the position: the grid of stacks with their
// locks or roofs, the pieces still to place while placing, and the squares
// each player tops (and the roofs each has placed in the roofs variant).
func (s *State) Board() game.Board {
	n := s.g.geo.n
	names := game.GridCellNames(n)
	b := game.Board{
		Topology: game.Grid,
		Size:     n,
		Cells:    make([]game.Cell, n*n),
		Pieces:   []game.Piece{{Letter: 'w', Name: "white", Player: White}, {Letter: 'b', Name: "black", Player: Black}},
		ToMove:   s.toMove,
	}
	placed := [2]int{}
	for sq := range b.Cells {
		h := int(s.height[sq])
		stack := make([]byte, h)
		for l := range stack {
			p := s.bits[sq] >> l & 1
			stack[l] = "wb"[p]
			placed[p]++
		}
		c := game.Cell{Name: names[sq], Stack: string(stack)}
		if s.locked&(1<<sq) != 0 {
			c.Marks = game.Locked
			if s.g.roofs {
				c.Marks |= game.Roofed
			}
		}
		b.Cells[sq] = c
	}
	if each := s.g.Pieces(); !s.moving {
		b.Reserves = []game.Reserve{{Piece: 'w', Left: each - placed[White]}, {Piece: 'b', Left: each - placed[Black]}}
	}
	b.Counts = []game.Count{{Label: "Squares on top",
		Values: []int{bits.OnesCount64(s.top[White]), bits.OnesCount64(s.top[Black])}}}
	if s.g.roofs {
		b.Counts = append(b.Counts, game.Count{Label: "Roofs placed",
			Values: []int{s.Locked(White), s.Locked(Black)}, Of: s.g.numRoofs})
	}
	return b
}

// ViewMove describes a move: a placing puts a piece of the mover's colour
// on each of two squares; a stack move takes the whole stack.
func (s *State) ViewMove(m game.Move) game.MoveView {
	a, b := decode(m)
	if m&stackKind != 0 {
		return game.MoveView{Kind: game.Shift, From: a, Count: int(s.height[a]), To: []int{b}}
	}
	return game.MoveView{Kind: game.Place, Piece: "wb"[s.toMove], To: []int{a, b}}
}

// Compose sets up a position by hand (game.Composer): the stacks of the
// squares a1, b1, … in the letters w and b, bottom to top.
func (g *Game) Compose(stacks []string, toMove int) (game.State, error) {
	board, err := game.GridText(g.Size(), stacks)
	if err != nil {
		return nil, err
	}
	if toMove < 0 || toMove > 1 {
		return nil, fmt.Errorf("player %d to move: want 0 (White) or 1 (Black)", toMove)
	}
	return g.ParseState(board + " " + string("wb"[toMove]))
}
