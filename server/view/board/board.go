// Package board is the JSON form of a position's board view and of a
// game's outcome, as the browser draws them, built from package game
// alone, so that the engine compiled for the browser (cmd/stax-wasm)
// builds the same views as the server.
package board

import "stax/game"

// The board view of a position, as the browser draws it: built from the
// game's game.Viewer, so that the client knows topologies and stacks but
// no game (docs/api.md, the view of a "State").

// View is a position's board and its legal moves in terms of the board's
// cells.
type View struct {
	Board BoardView  `json:"board"`
	Moves []MoveView `json:"moves"`
	// Last lists the cells the move that led to the position touched.
	Last []string `json:"last"`
}

// BoardView is the JSON form of game.Board.
type BoardView struct {
	Topology string      `json:"topology"`
	Size     int         `json:"size"`
	Height   int         `json:"height"`
	Cells    []CellView  `json:"cells"`
	Pieces   []PieceView `json:"pieces"`
	Reserves []Reserve   `json:"reserves"`
	Counts   []Count     `json:"counts"`
	ToMove   int         `json:"toMove"`
}

// CellView is one cell of a BoardView: its name, its pieces bottom to top
// as letters, its marks ("locked", "roofed", "highlighted") and the
// highlighted levels.
type CellView struct {
	Name   string   `json:"name"`
	Stack  string   `json:"stack"`
	Marks  []string `json:"marks,omitempty"`
	Levels []int    `json:"levels,omitempty"`
}

// PieceView is one kind of piece: its letter, colour name and owner.
type PieceView struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Player int    `json:"player"`
}

// Reserve is the number of pieces of one kind left to place.
type Reserve struct {
	Piece string `json:"piece"`
	Left  int    `json:"left"`
}

// Count is a number per player shown beside the board.
type Count struct {
	Label  string `json:"label"`
	Values []int  `json:"values"`
	Of     int    `json:"of,omitempty"`
}

// MoveView is one legal move: its notation, its kind ("pass", "place" or
// "shift") and the cells it takes pieces from and puts them on.
type MoveView struct {
	Text  string   `json:"text"`
	Kind  string   `json:"kind"`
	Piece string   `json:"piece,omitempty"`
	From  string   `json:"from,omitempty"`
	Count int      `json:"count,omitempty"`
	To    []string `json:"to,omitempty"`
}

// Of builds the view of st, or nil for a game without a board view.
// last lists the cells of the move that led to st.
func Of(st game.State, over bool, last []string) *View {
	v, ok := st.(game.Viewer)
	if !ok {
		return nil
	}
	b := v.Board()
	out := &View{Board: boardJSON(&b), Moves: []MoveView{}, Last: last}
	if out.Last == nil {
		out.Last = []string{}
	}
	if over {
		return out
	}
	for _, m := range st.Legal(nil) {
		out.Moves = append(out.Moves, moveJSON(&b, st.FormatMove(m), v.ViewMove(m)))
	}
	return out
}

// LastCells returns the names of the cells move m of st touches.
func LastCells(st game.State, m game.Move) []string {
	v, ok := st.(game.Viewer)
	if !ok {
		return nil
	}
	b := v.Board()
	var out []string
	for _, c := range v.ViewMove(m).Cells() {
		out = append(out, b.Cells[c].Name)
	}
	return out
}

func boardJSON(b *game.Board) BoardView {
	out := BoardView{
		Topology: b.Topology.String(),
		Size:     b.Size,
		Height:   b.Height,
		Cells:    make([]CellView, len(b.Cells)),
		Pieces:   make([]PieceView, len(b.Pieces)),
		Reserves: []Reserve{},
		Counts:   []Count{},
		ToMove:   b.ToMove,
	}
	for i, c := range b.Cells {
		out.Cells[i] = CellView{Name: c.Name, Stack: c.Stack, Marks: c.Marks.Names(), Levels: c.Levels}
	}
	for i, p := range b.Pieces {
		out.Pieces[i] = PieceView{Letter: string(p.Letter), Name: p.Name, Player: p.Player}
	}
	for _, r := range b.Reserves {
		out.Reserves = append(out.Reserves, Reserve{Piece: string(r.Piece), Left: r.Left})
	}
	for _, c := range b.Counts {
		out.Counts = append(out.Counts, Count{Label: c.Label, Values: c.Values, Of: c.Of})
	}
	return out
}

func moveJSON(b *game.Board, text string, mv game.MoveView) MoveView {
	out := MoveView{Text: text, Kind: mv.Kind.String()}
	switch mv.Kind {
	case game.Place:
		out.Piece = string(mv.Piece)
	case game.Shift:
		out.From = b.Cells[mv.From].Name
		out.Count = mv.Count
	}
	for _, c := range mv.To {
		out.To = append(out.To, b.Cells[c].Name)
	}
	return out
}

// Outcome describes how a finished game ended.
type Outcome struct {
	Result      string `json:"result"`
	Reason      string `json:"reason"`
	Detail      string `json:"detail"`
	Winners     []int  `json:"winners"`
	Scores      []int  `json:"scores,omitempty"`
	Description string `json:"description"`
}

// OutcomeOf returns the JSON outcome, nil while the game goes on.
func OutcomeOf(g game.Game, o game.Outcome) *Outcome {
	if !o.Over() {
		return nil
	}
	out := &Outcome{
		Result:      o.ResultString(),
		Reason:      o.Reason.String(),
		Detail:      o.Detail,
		Winners:     o.Winners(),
		Description: o.Describe(g),
	}
	if out.Winners == nil {
		out.Winners = []int{}
	}
	if o.HasScores {
		out.Scores = append([]int(nil), o.Scores[:o.Players]...)
	}
	return out
}

// PlayerNames returns the names of g's players, seat by seat.
func PlayerNames(g game.Game) []string {
	names := make([]string, g.Players())
	for p := range names {
		names[p] = g.PlayerName(p)
	}
	return names
}
