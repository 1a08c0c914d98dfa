package gametest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/game"
)

// CheckBoard checks the board view of a state that offers one (see
// game.Viewer): the cells fit the topology, every piece is of a known kind,
// no stack is taller than the board allows, and every legal move's view
// matches what applying the move does to the board. States without a view
// pass.
func CheckBoard(t *testing.T, s game.State, moves []game.Move) {
	t.Helper()
	v, ok := s.(game.Viewer)
	if !ok {
		return
	}
	pos := s.String()
	b := v.Board()
	checkBoardShape(t, pos, &b)
	if b.ToMove != s.ToMove() {
		t.Errorf("%q: Board().ToMove = %d, want %d", pos, b.ToMove, s.ToMove())
	}
	for _, m := range moves {
		mv := v.ViewMove(m)
		text := s.FormatMove(m)
		c := s.Clone()
		c.Apply(m)
		after := c.(game.Viewer).Board()
		if err := viewMatches(&b, &after, mv); err != "" {
			t.Errorf("%q: move %s viewed as %s: %s", pos, text, mv.String(&b), err)
		}
	}
}

func checkBoardShape(t *testing.T, pos string, b *game.Board) {
	t.Helper()
	want := 0
	switch b.Topology {
	case game.Grid:
		want = b.Size * b.Size
	case game.Ring:
		want = b.Size
	default:
		t.Errorf("%q: Board() has topology %v", pos, b.Topology)
	}
	if len(b.Cells) != want || want == 0 {
		t.Fatalf("%q: Board() has %d cells for a %v of size %d", pos, len(b.Cells), b.Topology, b.Size)
	}
	names := map[string]bool{}
	for i, c := range b.Cells {
		if c.Name == "" || names[c.Name] {
			t.Errorf("%q: cell %d is named %q, empty or twice", pos, i, c.Name)
		}
		names[c.Name] = true
		if b.Height > 0 && len(c.Stack) > b.Height {
			t.Errorf("%q: cell %s holds %d pieces, more than the height %d", pos, c.Name, len(c.Stack), b.Height)
		}
		for j := 0; j < len(c.Stack); j++ {
			if b.Piece(c.Stack[j]) == nil {
				t.Errorf("%q: cell %s holds a piece %q of no listed kind", pos, c.Name, c.Stack[j])
			}
		}
		if c.Marks&game.Roofed != 0 && c.Marks&game.Locked == 0 {
			t.Errorf("%q: cell %s is roofed but not locked", pos, c.Name)
		}
		if c.Marks&(game.Locked|game.Roofed) != 0 && c.Stack == "" {
			t.Errorf("%q: empty cell %s is locked", pos, c.Name)
		}
	}
	for _, p := range b.Pieces {
		if p.Name == "" || p.Player < 0 || p.Player >= game.MaxPlayers {
			t.Errorf("%q: piece %q has name %q and player %d", pos, p.Letter, p.Name, p.Player)
		}
	}
	for _, r := range b.Reserves {
		if b.Piece(r.Piece) == nil || r.Left < 0 {
			t.Errorf("%q: reserve of %q: %d left", pos, r.Piece, r.Left)
		}
	}
	for _, c := range b.Counts {
		if c.Label == "" {
			t.Errorf("%q: a count has no label", pos)
		}
	}
}

// viewMatches reports how the board after a move differs from what the
// move's view says, or "".
func viewMatches(before, after *game.Board, mv game.MoveView) string {
	n := len(before.Cells)
	touched := map[int]bool{}
	switch mv.Kind {
	case game.Pass:
	case game.Place:
		if len(mv.To) == 0 || before.Piece(mv.Piece) == nil {
			return "a placing of no piece or on no cell"
		}
		for _, c := range mv.To {
			if c < 0 || c >= n {
				return "a cell out of the board"
			}
			touched[c] = true
			if after.Cells[c].Stack != before.Cells[c].Stack+string(mv.Piece) {
				return "the cell " + before.Cells[c].Name + " holds " + after.Cells[c].Stack + " after it"
			}
		}
		left := func(b *game.Board) int {
			for _, r := range b.Reserves {
				if r.Piece == mv.Piece {
					return r.Left
				}
			}
			return 0
		}
		if len(before.Reserves) > 0 && len(after.Reserves) > 0 && left(after) != left(before)-len(mv.To) {
			return "the reserve does not shrink by the pieces placed"
		}
	case game.Shift:
		if mv.From < 0 || mv.From >= n || len(mv.To) != 1 || mv.To[0] < 0 || mv.To[0] >= n || mv.To[0] == mv.From {
			return "a shift between cells out of the board"
		}
		from, to := before.Cells[mv.From].Stack, before.Cells[mv.To[0]].Stack
		if mv.Count < 1 || mv.Count > len(from) {
			return "a shift of more pieces than the stack holds"
		}
		moved := from[len(from)-mv.Count:]
		if after.Cells[mv.From].Stack != from[:len(from)-mv.Count] || after.Cells[mv.To[0]].Stack != to+moved {
			return "the stacks after it are " + after.Cells[mv.From].Stack + " and " + after.Cells[mv.To[0]].Stack
		}
		touched[mv.From], touched[mv.To[0]] = true, true
	default:
		return "an unknown kind"
	}
	for i := range before.Cells {
		if !touched[i] && after.Cells[i].Stack != before.Cells[i].Stack {
			return "the cell " + before.Cells[i].Name + " changes though the move does not touch it"
		}
	}
	if strings.Contains(mv.String(before), "#") {
		return "a cell out of the board"
	}
	return ""
}

// BoardText writes the board view of s and the view of each of its legal
// moves as text, for golden files.
func BoardText(s game.State) string {
	v, ok := s.(game.Viewer)
	if !ok {
		return "no board view\n"
	}
	b := v.Board()
	var w strings.Builder
	fmt.Fprintf(&w, "position %s\n", s)
	fmt.Fprintf(&w, "%v of %d, height %d, player %d to move\n", b.Topology, b.Size, b.Height, b.ToMove+1)
	for _, p := range b.Pieces {
		fmt.Fprintf(&w, "piece %c %s of player %d\n", p.Letter, p.Name, p.Player+1)
	}
	for _, c := range b.Cells {
		if c.Stack == "" && c.Marks == 0 {
			continue
		}
		fmt.Fprintf(&w, "cell %s %s", c.Name, c.Stack)
		for _, m := range c.Marks.Names() {
			fmt.Fprintf(&w, " %s", m)
		}
		if len(c.Levels) > 0 {
			fmt.Fprintf(&w, " levels %v", c.Levels)
		}
		w.WriteByte('\n')
	}
	for _, r := range b.Reserves {
		fmt.Fprintf(&w, "reserve %c %d\n", r.Piece, r.Left)
	}
	for _, c := range b.Counts {
		fmt.Fprintf(&w, "count %s %v of %d\n", c.Label, c.Values, c.Of)
	}
	for _, m := range s.Legal(nil) {
		fmt.Fprintf(&w, "move %s %s\n", s.FormatMove(m), v.ViewMove(m).String(&b))
	}
	return w.String()
}

// CheckBoardGolden compares the board views of the positions (position
// strings of g) with the golden file at path, or rewrites the file when
// update is set.
func CheckBoardGolden(t *testing.T, g game.Game, positions []string, path string, update bool) {
	t.Helper()
	var w strings.Builder
	for i, p := range positions {
		s, err := g.ParseState(p)
		if err != nil {
			t.Fatalf("ParseState(%q): %v", p, err)
		}
		if i > 0 {
			w.WriteByte('\n')
		}
		w.WriteString(BoardText(s))
	}
	Golden(t, path, w.String(), update)
}

// Golden compares got with the golden file at path, or, when update is
// set, writes got to it (creating its directory).
func Golden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (rerun with -update and read the diff); got:\n%s", path, got)
	}
}
