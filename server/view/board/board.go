// Package board is the JSON form of a position's board view and of a
// game's outcome, as the browser draws them, built from package game
// alone, so that the engine compiled for the browser (cmd/stax-wasm)
// builds the same views as the server.
package board

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"stax/game"
)

// The board view of a position, as the browser draws it: built from the
// game's game.Viewer, so that the client knows topologies and stacks but
// no game (docs/api.md, the view of a "State"). It is sized for the wire:
// cells are named by the topology and given by index, and the legal moves
// come in groups that the client expands (List).

// View is a position's board and its legal moves in terms of the board's
// cells.
type View struct {
	Board BoardView `json:"board"`
	// Moves holds the legal moves in groups, each standing for many moves
	// (MoveGroup); List expands them. Empty once the game is over.
	Moves Moves `json:"moves"`
	// Last lists the cells the move that led to the position touched.
	Last []string `json:"last"`
}

// BoardView is the JSON form of game.Board.
type BoardView struct {
	Topology string `json:"topology"`
	Size     int    `json:"size"`
	Height   int    `json:"height"`
	// Stacks holds every cell's pieces, bottom to top as letters, in the
	// order of the topology's cells (Names).
	Stacks Stacks `json:"stacks"`
	// Marks lists, for each mark ("locked", "roofed", "highlighted"), the
	// indices of the cells that carry it; absent when no cell has one.
	Marks map[string][]int `json:"marks,omitempty"`
	// Levels gives, by cell index, a highlighted cell's 1-based levels.
	Levels   map[int][]int `json:"levels,omitempty"`
	Pieces   []PieceView   `json:"pieces"`
	Reserves []Reserve     `json:"reserves"`
	Counts   []Count       `json:"counts"`
	ToMove   int           `json:"toMove"`
}

// Stacks is the stacks of a board's cells. An update message of a game
// sends the changed ones as an object by cell index instead, which
// decodes as no stacks (update.Apply applies it to a state).
type Stacks []string

// UnmarshalJSON reads the stacks of every cell, and nothing from an
// object of changed cells.
func (s *Stacks) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		*s = nil
		return nil
	}
	return json.Unmarshal(b, (*[]string)(s))
}

// CellView is one cell of a board, as BoardView.Cells spells it out: its
// name, its pieces bottom to top as letters, its marks and the highlighted
// levels.
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

// Moves is the legal moves of a position, in groups by kind: placings,
// shifts and passing (see MoveGroup).
type Moves struct {
	Place []MoveGroup `json:"place,omitempty"`
	Shift []MoveGroup `json:"shift,omitempty"`
	// Pass is the notation of passing, when it is legal.
	Pass string `json:"pass,omitempty"`
}

// MoveGroup is a group of legal moves of one kind, written once. Cells
// are written one character each, the cell's index in Alphabet ("A" is
// the first cell), and Text is the moves' notation with {from} and {to}
// standing for the names of their cells:
//
//   - place, without Pick: a piece of kind Piece from the reserve on one
//     cell, one move for each cell of To;
//   - place with Pick: a piece of kind Piece on each of Pick cells of To,
//     one move for every choice of Pick cells (no two of them neighbours
//     when Apart), {to} standing for their names in board order joined by
//     Join;
//   - shift: the top Count pieces of a cell, or its pieces from level
//     Level up (1 for the whole stack), onto another: one move for each
//     destination of each string of From, which is the source cell
//     followed by its destinations.
type MoveGroup struct {
	Text  string   `json:"text"`
	Piece string   `json:"piece,omitempty"`
	Count int      `json:"count,omitempty"`
	Level int      `json:"level,omitempty"`
	To    string   `json:"to,omitempty"`
	Pick  int      `json:"pick,omitempty"`
	Apart bool     `json:"apart,omitempty"`
	Join  string   `json:"join,omitempty"`
	From  []string `json:"from,omitempty"`
}

// Alphabet writes the cells of a MoveGroup: cell i is Alphabet[i]. A
// board has at most len(Alphabet) cells.
const Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// cellsText writes cells in Alphabet.
func cellsText(cells ...int) string {
	if len(cells) == 1 {
		return Alphabet[cells[0] : cells[0]+1] // a piece of Alphabet: nothing to allocate
	}
	out := make([]byte, len(cells))
	for i, c := range cells {
		out[i] = Alphabet[c]
	}
	return string(out)
}

// cellsOf reads cells written in Alphabet, leaving out any that is not a
// cell of a board of n cells.
func cellsOf(text string, n int) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		if c := strings.IndexByte(Alphabet, text[i]); c >= 0 && c < n {
			out = append(out, c)
		}
	}
	return out
}

// MoveView is one legal move, as List spells it out: its notation, its
// kind ("pass", "place" or "shift") and the names of the cells it takes
// pieces from and puts them on.
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
	out := &View{Board: boardJSON(&b), Last: last}
	if out.Last == nil {
		out.Last = []string{}
	}
	if over {
		return out
	}
	out.Moves = groups(st, v, &b)
	return out
}

// groups writes the legal moves of st in groups: the moves of one kind,
// piece, count or level whose notation is the same but for their cells'
// names share a group, and the placings on several cells that are every
// choice of so many cells of a set (apart or not) are written as that
// set.
func groups(st game.State, v game.Viewer, b *game.Board) Moves {
	var moves Moves
	var out []MoveGroup // the placings
	type placeKey struct {
		piece    byte
		template int
	}
	places := map[placeKey]int{} // a placing group's index by piece and template
	type placings struct {
		cells [][]int
		texts []string
	}
	multi := map[[2]int]*placings{}
	type single struct {
		kind                   game.MoveKind
		piece                  byte
		from, to, count, level int
		texts                  []int // the templates that fit, best first
		best                   int   // the template it takes
	}
	legal := st.Legal(nil)
	singles := make([]single, 0, len(legal))
	ts := templateSet{ids: make(map[string]int, 2*len(legal))}
	fits := make([]int, 0, 3*len(legal)) // the templates of the singles
	for _, m := range legal {
		mv := v.ViewMove(m)
		text := st.FormatMove(m)
		switch {
		case mv.Kind == game.Place && len(mv.To) == 1:
			n := len(fits)
			fits = ts.templates(fits, text, "", b.Cells[mv.To[0]].Name)
			singles = append(singles, single{kind: game.Place, piece: mv.Piece, to: mv.To[0], texts: fits[n:len(fits):len(fits)]})
		case mv.Kind == game.Place && len(mv.To) > 1:
			k := [2]int{int(mv.Piece), len(mv.To)}
			p := multi[k]
			if p == nil {
				p = &placings{}
				multi[k] = p
				// The group keeps its place among the others.
				out = append(out, MoveGroup{Piece: string(mv.Piece), Pick: len(mv.To)})
			}
			cells := slices.Clone(mv.To)
			slices.Sort(cells)
			p.cells = append(p.cells, cells)
			p.texts = append(p.texts, text)
		case mv.Kind == game.Shift && len(mv.To) > 0:
			from, to := mv.From, mv.To[0]
			n := len(fits)
			fits = ts.templates(fits, text, b.Cells[from].Name, b.Cells[to].Name)
			singles = append(singles, single{kind: game.Shift, from: from, to: to, count: mv.Count, level: len(b.Cells[from].Stack) - mv.Count + 1,
				texts: fits[n:len(fits):len(fits)]})
		case mv.Kind == game.Pass:
			moves.Pass = text
		}
	}
	// Each move takes the template that fits the most moves.
	for i := range singles {
		s := &singles[i]
		t := s.texts[0]
		for _, c := range s.texts[1:] {
			if ts.used[c] > ts.used[t] {
				t = c
			}
		}
		s.best = t
		if s.kind == game.Shift {
			continue
		}
		k := placeKey{s.piece, t}
		i, ok := places[k]
		if !ok {
			i = len(out)
			places[k] = i
			out = append(out, MoveGroup{Piece: string(s.piece), Text: ts.texts[t]})
		}
		out[i].To += cellsText(s.to)
	}
	// The shifts, in groups by count or by level, whichever makes fewer
	// (by count when they make as many).
	var best []MoveGroup
	for _, byLevel := range []bool{false, true} {
		var gs []MoveGroup
		for _, s := range singles {
			if s.kind != game.Shift {
				continue
			}
			k := MoveGroup{Text: ts.texts[s.best], Count: s.count}
			if byLevel {
				k = MoveGroup{Text: ts.texts[s.best], Level: s.level}
			}
			i := slices.IndexFunc(gs, func(g MoveGroup) bool { return g.Text == k.Text && g.Count == k.Count && g.Level == k.Level })
			if i < 0 {
				i = len(gs)
				gs = append(gs, k)
			}
			g := &gs[i]
			j := slices.IndexFunc(g.From, func(l string) bool { return l[0] == Alphabet[s.from] })
			if j < 0 {
				j = len(g.From)
				g.From = append(g.From, cellsText(s.from))
			}
			g.From[j] += cellsText(s.to)
		}
		if best == nil || len(gs) < len(best) {
			best = gs
		}
	}
	moves.Shift = best
	// The placings on several cells: one group each when they are every
	// choice of a set, else one group per move.
	for _, g := range out {
		if g.Pick == 0 {
			moves.Place = append(moves.Place, g)
			continue
		}
		p := multi[[2]int{int(g.Piece[0]), g.Pick}]
		if set, ok := placingSet(b, g, p.cells, p.texts); ok {
			moves.Place = append(moves.Place, set)
			continue
		}
		for i, cells := range p.cells {
			moves.Place = append(moves.Place, MoveGroup{Piece: g.Piece, Pick: g.Pick, To: cellsText(cells...), Text: p.texts[i]})
		}
	}
	return moves
}

// templateSet numbers the templates of a position's moves, each written
// once, and counts the moves each fits.
type templateSet struct {
	ids   map[string]int
	texts []string // by number
	used  []int    // by number, how many moves each fits
	buf   []byte
}

// id returns the number of template t, written in the bytes of t.
func (ts *templateSet) id(t []byte) int {
	if i, ok := ts.ids[string(t)]; ok {
		return i
	}
	return ts.add(string(t))
}

// idOf returns the number of template t, a string made already: unlike
// id, it numbers a new one without copying it (the plain notation of
// every move is one).
func (ts *templateSet) idOf(t string) int {
	if i, ok := ts.ids[t]; ok {
		return i
	}
	return ts.add(t)
}

func (ts *templateSet) add(t string) int {
	i := len(ts.texts)
	ts.ids[t] = i
	ts.texts = append(ts.texts, t)
	ts.used = append(ts.used, 0)
	return i
}

// templates appends to out the numbers of the templates of a move's
// notation text, and counts the move for each: text with the last
// occurrence of to's name replaced by {to} and, before it, the first
// occurrence of from's by {from}, with both, either or neither replaced,
// in that order, each once: each writes every move that differs from
// this one by those cells alone, when the game names moves by their
// cells.
func (ts *templateSet) templates(out []int, text, from, to string) []int {
	n := len(out)
	add := func(id int) {
		if !slices.Contains(out[n:], id) {
			out = append(out, id)
			ts.used[id]++
		}
	}
	withFrom := func(b []byte, head string) []byte {
		if j := strings.Index(head, from); from != "" && j >= 0 {
			return append(append(append(b, head[:j]...), "{from}"...), head[j+len(from):]...)
		}
		return append(b, head...)
	}
	b := ts.buf[:0]
	if i := strings.LastIndex(text, to); to != "" && i >= 0 {
		head, tail := text[:i], text[i+len(to):]
		b = append(append(withFrom(b[:0], head), "{to}"...), tail...)
		add(ts.id(b))
		b = withFrom(b[:0], text)
		add(ts.id(b))
		b = append(append(append(b[:0], head...), "{to}"...), tail...)
		add(ts.id(b))
	}
	b = withFrom(b[:0], text)
	add(ts.id(b))
	add(ts.idOf(text))
	ts.buf = b
	return out
}

// placingSet returns the group of g's placings, each on the cells of
// cells[i] (in board order) written texts[i], as one set of cells of
// which every choice of g.Pick (apart or not) is a move, when they are
// exactly that and are written as their cells' names joined by one
// string.
func placingSet(b *game.Board, g MoveGroup, cells [][]int, texts []string) (MoveGroup, bool) {
	names := func(cs []int) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = b.Cells[c].Name
		}
		return out
	}
	first := names(cells[0])
	rest, ok := strings.CutPrefix(texts[0], first[0])
	if !ok {
		return g, false
	}
	i := strings.Index(rest, first[1])
	if i < 0 {
		return g, false
	}
	g.Join, g.Text = rest[:i], "{to}"
	seen := map[int]bool{}
	g.Apart = true
	for k, cs := range cells {
		if strings.Join(names(cs), g.Join) != texts[k] {
			return g, false
		}
		for a, c := range cs {
			seen[c] = true
			for _, d := range cs[a+1:] {
				if b.Topology.Adjacent(b.Size, c, d) {
					g.Apart = false
				}
			}
		}
	}
	var set []int
	for c := range seen {
		set = append(set, c)
	}
	slices.Sort(set)
	if n := len(choices(b.Topology, b.Size, set, g.Pick, g.Apart)); n != len(cells) {
		return g, false
	}
	g.To = cellsText(set...)
	return g, true
}

// choices returns every choice of pick cells of set (in its order), no
// two of them neighbours when apart.
func choices(t game.Topology, size int, set []int, pick int, apart bool) [][]int {
	var out [][]int
	var cur []int
	var walk func(from int)
	walk = func(from int) {
		if len(cur) == pick {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := from; i < len(set); i++ {
			c := set[i]
			if apart && slices.ContainsFunc(cur, func(d int) bool { return t.Adjacent(size, c, d) }) {
				continue
			}
			cur = append(cur, c)
			walk(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	walk(0)
	return out
}

// Names returns the names of the board's cells, in order: a1, b1, …, a2,
// … on a grid, 1 to Size around a ring.
func (b *BoardView) Names() []string {
	if b.Topology == game.Ring.String() {
		out := make([]string, b.Size)
		for i := range out {
			out[i] = strconv.Itoa(i + 1)
		}
		return out
	}
	return game.GridCellNames(b.Size)
}

// Cells spells out the board's cells.
func (b *BoardView) Cells() []CellView {
	names := b.Names()
	out := make([]CellView, len(b.Stacks))
	for i, s := range b.Stacks {
		out[i] = CellView{Name: names[i], Stack: s, Levels: b.Levels[i]}
	}
	for _, m := range markNames {
		for _, c := range b.Marks[m] {
			out[c].Marks = append(out[c].Marks, m)
		}
	}
	return out
}

var markNames = game.Mark(0xff).Names()

// List spells out the legal moves of the view's groups, one by one.
func (v *View) List() []MoveView {
	b := &v.Board
	names := b.Names()
	top := game.Grid
	if b.Topology == game.Ring.String() {
		top = game.Ring
	}
	out := []MoveView{}
	for _, g := range v.Moves.Place {
		if g.Pick == 0 {
			for _, c := range cellsOf(g.To, len(names)) {
				out = append(out, MoveView{Kind: "place", Piece: g.Piece, To: []string{names[c]}, Text: fill(g.Text, "", names[c])})
			}
			continue
		}
		for _, cs := range choices(top, b.Size, cellsOf(g.To, len(names)), g.Pick, g.Apart) {
			to := make([]string, len(cs))
			for i, c := range cs {
				to[i] = names[c]
			}
			out = append(out, MoveView{Kind: "place", Piece: g.Piece, To: to, Text: fill(g.Text, "", strings.Join(to, g.Join))})
		}
	}
	for _, g := range v.Moves.Shift {
		for _, l := range g.From {
			cs := cellsOf(l, min(len(names), len(b.Stacks)))
			if len(cs) == 0 {
				continue
			}
			from := cs[0]
			count := g.Count
			if g.Level > 0 {
				count = len(b.Stacks[from]) - g.Level + 1
			}
			for _, c := range cs[1:] {
				out = append(out, MoveView{Kind: "shift", From: names[from], Count: count, To: []string{names[c]}, Text: fill(g.Text, names[from], names[c])})
			}
		}
	}
	if v.Moves.Pass != "" {
		out = append(out, MoveView{Kind: "pass", Text: v.Moves.Pass})
	}
	return out
}

// Legal returns the notation of the view's legal moves.
func (v *View) Legal() []string {
	var out []string
	for _, m := range v.List() {
		out = append(out, m.Text)
	}
	return out
}

func fill(text, from, to string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "{from}", from), "{to}", to)
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
		Stacks:   make(Stacks, len(b.Cells)),
		Pieces:   make([]PieceView, len(b.Pieces)),
		Reserves: []Reserve{},
		Counts:   []Count{},
		ToMove:   b.ToMove,
	}
	for i, c := range b.Cells {
		out.Stacks[i] = c.Stack
		for _, m := range c.Marks.Names() {
			if out.Marks == nil {
				out.Marks = map[string][]int{}
			}
			out.Marks[m] = append(out.Marks[m], i)
		}
		if len(c.Levels) > 0 {
			if out.Levels == nil {
				out.Levels = map[int][]int{}
			}
			out.Levels[i] = c.Levels
		}
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
