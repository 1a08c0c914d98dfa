package game

import (
	"fmt"
	"strings"
)

// The board view: what a position looks like, for the programs that draw
// it (the terminal player and the browser). A game's state describes its
// board as a [Board] and each of its legal moves as a [MoveView], so that
// the drawing code knows topologies, stacks and marks but no game.

// Viewer is implemented by states that describe their board for display.
type Viewer interface {
	// Board returns the board of the position.
	Board() Board
	// ViewMove describes a legal move of the position: what it takes from
	// where and where it goes.
	ViewMove(m Move) MoveView
}

// Topology is the shape of a board.
type Topology uint8

// The topologies.
const (
	// Grid is a square board of Size×Size squares named a1 to h8. Its
	// cells are in the order a1, b1, …, a2, b2, …: cell file+Size*rank.
	Grid Topology = iota + 1
	// Ring is Size cells on a circle named 1 to Size, clockwise from the
	// top; cell i faces cell i+Size/2 across the centre.
	Ring
)

var topologyNames = [...]string{Grid: "grid", Ring: "ring"}

func (t Topology) String() string {
	if int(t) < len(topologyNames) && topologyNames[t] != "" {
		return topologyNames[t]
	}
	return fmt.Sprintf("Topology(%d)", t)
}

// Mark is a set of marks on a cell.
type Mark uint8

// The marks of a cell.
const (
	// Locked: the stack can never move again and nothing lands on it
	// (Pisola's cross face).
	Locked Mark = 1 << iota
	// Roofed: the stack carries a roof of its top piece's colour; a
	// roofed stack is locked too.
	Roofed
	// Highlighted: the cell belongs to something the rules point at, e.g.
	// the pieces of Diam's winning diam (see Cell.Levels).
	Highlighted
)

// Names returns the names of the marks in the set, e.g. ["locked"].
func (m Mark) Names() []string {
	var out []string
	for i, name := range [...]string{"locked", "roofed", "highlighted"} {
		if m&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// Piece describes one kind of piece of a game.
type Piece struct {
	// Letter is the piece's letter in position strings and in Cell.Stack.
	Letter byte
	// Name is the piece's colour in words, e.g. "white" or "red".
	Name string
	// Player is the player who owns the piece (0-based).
	Player int
}

// Cell is one square or cell of a board.
type Cell struct {
	// Name is the cell's name in the game's notation, e.g. "a1" or "3".
	Name string
	// Stack holds the pieces on the cell bottom to top, one letter each.
	Stack string
	// Marks are the cell's marks.
	Marks Mark
	// Levels lists, for a Highlighted cell, the 1-based levels of the
	// pieces meant (0 means the whole stack).
	Levels []int
}

// Top returns the letter of the cell's top piece, or 0 when it is empty.
func (c *Cell) Top() byte {
	if c.Stack == "" {
		return 0
	}
	return c.Stack[len(c.Stack)-1]
}

// Count is a number per player that the rules care about, e.g. the squares
// each player tops or the roofs each has placed.
type Count struct {
	// Label says what is counted, e.g. "Roofs placed".
	Label string
	// Values holds one value per player.
	Values []int
	// Of is the value that matters (e.g. the roofs a player has), or 0.
	Of int
}

// Reserve is the number of pieces of one kind that are not yet on the
// board.
type Reserve struct {
	// Piece is the letter of the pieces.
	Piece byte
	// Left is how many are left to place.
	Left int
}

// Board is the board of a position, as a drawing needs it.
type Board struct {
	// Topology and Size give the shape: a grid of Size×Size squares or a
	// ring of Size cells.
	Topology Topology
	Size     int
	// Height is the most pieces a cell holds, or 0 when stacks have no
	// limit.
	Height int
	// Cells holds every cell, in the order the topology gives.
	Cells []Cell
	// Pieces lists the kinds of piece of the game, each with its owner.
	Pieces []Piece
	// Reserves lists the pieces still to be placed, by kind; empty when
	// the game has no reserve or everything is placed.
	Reserves []Reserve
	// Counts lists the numbers per player worth showing beside the board.
	Counts []Count
	// ToMove is the player to move.
	ToMove int
}

// Piece returns the kind of piece with the given letter, or nil.
func (b *Board) Piece(letter byte) *Piece {
	for i := range b.Pieces {
		if b.Pieces[i].Letter == letter {
			return &b.Pieces[i]
		}
	}
	return nil
}

// Cell returns the index of the cell with the given name, or -1.
func (b *Board) Cell(name string) int {
	for i := range b.Cells {
		if b.Cells[i].Name == name {
			return i
		}
	}
	return -1
}

// Adjacent reports whether cells i and j are neighbours: orthogonally
// next to each other on a Grid, next to each other around a Ring.
func (t Topology) Adjacent(size, i, j int) bool {
	switch t {
	case Grid:
		fi, ri, fj, rj := i%size, i/size, j%size, j/size
		return ri == rj && (fi-fj == 1 || fj-fi == 1) || fi == fj && (ri-rj == 1 || rj-ri == 1)
	case Ring:
		d := (i - j + size) % size
		return i != j && (d == 1 || d == size-1)
	}
	return false
}

// MoveKind is the kind of a move, as a board shows it.
type MoveKind uint8

// The kinds of move.
const (
	// Pass moves nothing.
	Pass MoveKind = iota + 1
	// Place puts a piece of kind Piece from the mover's reserve on each
	// cell of To.
	Place
	// Shift takes the top Count pieces of the stack on From and puts them,
	// in the same order, on the stack of To[0].
	Shift
)

var moveKindNames = [...]string{Pass: "pass", Place: "place", Shift: "shift"}

func (k MoveKind) String() string {
	if int(k) < len(moveKindNames) && moveKindNames[k] != "" {
		return moveKindNames[k]
	}
	return fmt.Sprintf("MoveKind(%d)", k)
}

// MoveView describes one move in terms of a Board's cells.
type MoveView struct {
	Kind MoveKind
	// Piece is the letter of the pieces a Place move puts down.
	Piece byte
	// From is the index of the cell a Shift move takes pieces from.
	From int
	// Count is the number of pieces a Shift move takes from the top.
	Count int
	// To holds the indices of the cells the move puts pieces on.
	To []int
}

// Cells returns the indices of the cells the move touches, for showing the
// last move.
func (v MoveView) Cells() []int {
	if v.Kind == Shift {
		return append([]int{v.From}, v.To...)
	}
	return v.To
}

// String writes the view for tests and messages, e.g. "shift 2 a1>b1",
// "place w a1 c3" or "pass", naming cells by their index in b.
func (v MoveView) String(b *Board) string {
	name := func(i int) string {
		if i >= 0 && i < len(b.Cells) {
			return b.Cells[i].Name
		}
		return fmt.Sprintf("#%d", i)
	}
	switch v.Kind {
	case Place:
		names := make([]string, len(v.To))
		for i, c := range v.To {
			names[i] = name(c)
		}
		return fmt.Sprintf("place %c %s", v.Piece, strings.Join(names, " "))
	case Shift:
		to := "?"
		if len(v.To) > 0 {
			to = name(v.To[0])
		}
		return fmt.Sprintf("shift %d %s>%s", v.Count, name(v.From), to)
	}
	return v.Kind.String()
}

// GridCellNames returns the names of the squares of an n×n grid in the
// order of a Grid board: a1, b1, …, a2, ….
func GridCellNames(n int) []string {
	names := make([]string, n*n)
	for i := range names {
		names[i] = string([]byte{byte('a' + i%n), byte('1' + i/n)})
	}
	return names
}

// Composer is implemented by games whose positions can be set up by hand:
// Compose returns the position whose cells hold stacks (in the order of
// Board's cells, each bottom to top in the letters of the game's pieces,
// "" for an empty cell) with player toMove to move. It reads the position
// through the game's own parser, so a position the rules refuse gets the
// parser's message.
type Composer interface {
	Compose(stacks []string, toMove int) (State, error)
}

// GridText writes the stacks of a grid of size×size cells (in Grid order:
// a1, b1, …) as the position strings of the grid games write their
// boards: ranks from the top, separated by '/', cells by ',', '-' for an
// empty cell.
func GridText(size int, stacks []string) (string, error) {
	if len(stacks) != size*size {
		return "", fmt.Errorf("%d stacks for a board of %d cells", len(stacks), size*size)
	}
	var b strings.Builder
	for r := size - 1; r >= 0; r-- {
		for f := 0; f < size; f++ {
			if f > 0 {
				b.WriteByte(',')
			}
			if s := stacks[r*size+f]; s == "" {
				b.WriteByte('-')
			} else {
				b.WriteString(s)
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String(), nil
}
