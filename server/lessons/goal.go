package lessons

import (
	"fmt"
	"slices"
	"strings"

	"stax/game"
)

// Goal is what a step asks of the learner's move: every condition set
// must hold after it (the zero value of a field asks nothing). The
// conditions read the position through the game API alone (the board
// view, the outcome), so that the real rules of each game judge them.
type Goal struct {
	// Win: the move wins the game for the mover (or the mover's team).
	Win bool
	// Place: the move places pieces from the reserve.
	Place bool
	// Count: the move takes this many pieces (a shift's block; for Diam,
	// the moved piece and those it carries).
	Count int
	// From: the move takes its pieces from this cell.
	From string
	// To: the move puts pieces on this cell.
	To string
	// Top: after the move the mover's pieces top at least this many
	// cells.
	Top int
	// Height: the stack the move lands on is at least this tall after it.
	Height int
	// Locks: the move locks at least this many stacks (Pisola).
	Locks int
	// Roofs: after the move the mover has at least this many roofed
	// stacks (Pisola's roofs).
	Roofs int
}

// String writes the goal's conditions for tests and messages, e.g.
// "count 2, to b2".
func (g Goal) String() string {
	var parts []string
	if g.Win {
		parts = append(parts, "win")
	}
	if g.Place {
		parts = append(parts, "place")
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"count", g.Count}, {"top", g.Top}, {"height", g.Height}, {"locks", g.Locks}, {"roofs", g.Roofs}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c.name, c.n))
		}
	}
	if g.From != "" {
		parts = append(parts, "from "+g.From)
	}
	if g.To != "" {
		parts = append(parts, "to "+g.To)
	}
	if len(parts) == 0 {
		return "any move"
	}
	return strings.Join(parts, ", ")
}

// The codes of a Miss, one per condition of a Goal, and Lost for a move
// that ends the game without winning it.
const (
	MissWin    = "win"
	MissPlace  = "place"
	MissCount  = "count"
	MissFrom   = "from"
	MissTo     = "to"
	MissTop    = "top"
	MissHeight = "height"
	MissLocks  = "locks"
	MissRoofs  = "roofs"
	MissLost   = "lost"
)

// Miss is one condition of a goal that a move did not meet: its code,
// what the goal wants and what the move did (a number or a cell, as the
// condition counts; for MissLost, the winners' seats from 0 separated by
// commas, or "draw").
type Miss struct {
	Code string `json:"code"`
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
}

// Message writes the miss in English, for the API's messages and the
// tests (the interface writes it from its code in the visitor's
// language).
func (m Miss) Message() string {
	switch m.Code {
	case MissWin:
		return "the move does not win"
	case MissPlace:
		return "the move does not place a piece from the reserve"
	case MissCount:
		return fmt.Sprintf("the move takes %s pieces; the goal wants %s", m.Got, m.Want)
	case MissFrom:
		return fmt.Sprintf("the move starts from %s; the goal wants %s", or(m.Got, "no cell"), m.Want)
	case MissTo:
		return fmt.Sprintf("the move goes to %s; the goal wants %s", or(m.Got, "no cell"), m.Want)
	case MissTop:
		return fmt.Sprintf("after the move your pieces top %s cells; the goal wants %s", m.Got, m.Want)
	case MissHeight:
		return fmt.Sprintf("the move makes a stack of %s; the goal wants %s", m.Got, m.Want)
	case MissLocks:
		return fmt.Sprintf("the move locks %s stacks; the goal wants %s", m.Got, m.Want)
	case MissRoofs:
		return fmt.Sprintf("after the move you have %s roofs; the goal wants %s", m.Got, m.Want)
	case MissLost:
		if m.Got == "draw" {
			return "the move ends the game in a draw"
		}
		return "the move ends the game and the seats " + m.Got + " (from 0) win"
	}
	return m.Code
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Verdict is the judgement of a move: the move as the game writes it, the
// position after it and the conditions it missed (none when the goal is
// met).
type Verdict struct {
	Move   string
	Before game.State // the position before the move
	After  game.State // the position after it
	Misses []Miss
}

// OK reports whether the move meets the goal.
func (v Verdict) OK() bool { return len(v.Misses) == 0 }

// Check judges the move text played from st against goal. It fails with
// the rules' error (a *game.MoveError) when the move is not legal there.
func Check(st game.State, goal Goal, text string) (Verdict, error) {
	m, err := st.ParseMove(text)
	if err != nil {
		return Verdict{}, err
	}
	return judge(st, goal, m), nil
}

// judge judges the legal move m of st.
func judge(st game.State, goal Goal, m game.Move) Verdict {
	mover := st.ToMove()
	after := st.Clone()
	after.Apply(m)
	v := Verdict{Move: st.FormatMove(m), Before: st, After: after}
	miss := func(code, want, got string) { v.Misses = append(v.Misses, Miss{Code: code, Want: want, Got: got}) }
	num := func(n int) string { return fmt.Sprint(n) }

	var mv game.MoveView
	var before, board game.Board
	viewer, isViewer := st.(game.Viewer)
	if isViewer {
		mv = viewer.ViewMove(m)
		before = viewer.Board()
	}
	if av, ok := after.(game.Viewer); ok {
		board = av.Board()
	}
	cellName := func(b game.Board, i int) string {
		if i >= 0 && i < len(b.Cells) {
			return b.Cells[i].Name
		}
		return ""
	}

	o := after.Outcome()
	won := o.Over() && slices.Contains(o.Winners(), mover)
	if goal.Win && !won {
		miss(MissWin, "", "")
	}
	if o.Over() && !won {
		who := "draw"
		if w := o.Winners(); len(w) > 0 {
			var seats []string
			for _, p := range w {
				seats = append(seats, num(p))
			}
			who = strings.Join(seats, ",")
		}
		miss(MissLost, "", who)
	}
	if goal.Place && mv.Kind != game.Place {
		miss(MissPlace, "", "")
	}
	if goal.Count > 0 {
		got := mv.Count
		if mv.Kind == game.Place {
			got = 0
		}
		if got != goal.Count {
			miss(MissCount, num(goal.Count), num(got))
		}
	}
	if goal.From != "" {
		got := ""
		if mv.Kind == game.Shift {
			got = cellName(before, mv.From)
		}
		if got != goal.From {
			miss(MissFrom, goal.From, got)
		}
	}
	if goal.To != "" {
		var to []string
		for _, i := range mv.To {
			to = append(to, cellName(before, i))
		}
		if !slices.Contains(to, goal.To) {
			miss(MissTo, goal.To, strings.Join(to, " "))
		}
	}
	if goal.Top > 0 {
		if got := tops(board, mover); got < goal.Top {
			miss(MissTop, num(goal.Top), num(got))
		}
	}
	if goal.Height > 0 {
		got := 0
		if len(mv.To) > 0 {
			if i := mv.To[0]; i < len(board.Cells) {
				got = len(board.Cells[i].Stack)
			}
		}
		if got < goal.Height {
			miss(MissHeight, num(goal.Height), num(got))
		}
	}
	if goal.Locks > 0 {
		if got := locked(board) - locked(before); got < goal.Locks {
			miss(MissLocks, num(goal.Locks), num(got))
		}
	}
	if goal.Roofs > 0 {
		if got := roofs(board, mover); got < goal.Roofs {
			miss(MissRoofs, num(goal.Roofs), num(got))
		}
	}
	return v
}

// owner returns the player who owns the top piece of cell c, or -1.
func owner(b game.Board, c game.Cell) int {
	if p := b.Piece(c.Top()); p != nil {
		return p.Player
	}
	return -1
}

// tops counts the cells whose top piece is player p's.
func tops(b game.Board, p int) int {
	n := 0
	for _, c := range b.Cells {
		if c.Stack != "" && owner(b, c) == p {
			n++
		}
	}
	return n
}

// locked counts the locked stacks, roofed ones included.
func locked(b game.Board) int {
	n := 0
	for _, c := range b.Cells {
		if c.Marks&(game.Locked|game.Roofed) != 0 {
			n++
		}
	}
	return n
}

// roofs counts the roofed stacks of player p's colour.
func roofs(b game.Board, p int) int {
	n := 0
	for _, c := range b.Cells {
		if c.Marks&game.Roofed != 0 && owner(b, c) == p {
			n++
		}
	}
	return n
}

// Solutions returns the legal moves of st that meet goal, in the game's
// notation.
func Solutions(st game.State, goal Goal) []string {
	var out []string
	for _, m := range st.Legal(nil) {
		if v := judge(st, goal, m); v.OK() {
			out = append(out, v.Move)
		}
	}
	return out
}
