package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"stax/games"
	"stax/server"
	"stax/server/play"
	"stax/server/view"
)

// TestView checks the board views of GET /api/view, which replays and the
// rules' diagrams draw from.
func TestView(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	get := func(spec, pos, move string, want int) *view.View {
		t.Helper()
		q := url.Values{"spec": {spec}, "position": {pos}, "move": {move}}
		var v view.View
		ts.call("GET", "/api/view?"+q.Encode(), nil, want, &v)
		return &v
	}
	cell := func(v *view.View, name string) view.CellView {
		t.Helper()
		for _, c := range v.Board.Cells() {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no cell %s in %+v", name, v.Board)
		return view.CellView{}
	}

	v := get("pogo", "", "", http.StatusOK)
	if v.Board.Topology != "grid" || v.Board.Size != 3 || len(v.Board.Stacks) != 9 || cell(v, "a1").Stack != "ww" || cell(v, "c3").Stack != "bb" {
		t.Errorf("Pogo's start: %+v", v.Board)
	}
	if l := v.List(); len(l) != 16 || l[0].Text != "1a1-b1" || l[0].Kind != "shift" || l[0].From != "a1" || l[0].Count != 1 || !slices.Equal(l[0].To, []string{"b1"}) {
		t.Errorf("Pogo's first moves: %+v from %+v", l, v.Moves)
	}

	const locked = "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w"
	v = get("pisola", locked, "d6-d2", http.StatusOK)
	if c := cell(v, "d4"); !slices.Equal(c.Marks, []string{"locked"}) {
		t.Errorf("Pisola's d4: %+v, want locked", c)
	}
	if c := cell(v, "d2"); c.Stack != "bwbw" {
		t.Errorf("Pisola's d2 after d6-d2: %+v", c)
	}
	if !slices.Equal(v.Last, []string{"d6", "d2"}) {
		t.Errorf("last move cells %v, want [d6 d2]", v.Last)
	}
	if len(v.Board.Counts) == 0 || v.Board.Counts[0].Label == "" {
		t.Errorf("Pisola's counts: %+v", v.Board.Counts)
	}

	v = get("pisola", "", "", http.StatusOK)
	if len(v.Board.Reserves) != 2 || v.Board.Reserves[0] != (view.Reserve{Piece: "w", Left: 18}) {
		t.Errorf("Pisola's reserves at the start: %+v", v.Board.Reserves)
	}
	if l := v.List(); len(l) == 0 || l[0].Kind != "place" || l[0].Piece != "w" || len(l[0].To) != 2 {
		t.Errorf("Pisola's first move: %+v", l[0])
	}

	v = get("diam", "gr/-/y/-/b/g/-/- 1", "1:2+", http.StatusOK)
	if v.Board.Topology != "ring" || v.Board.Size != 8 || v.Board.Height != 4 {
		t.Errorf("Diam's board: %+v", v.Board)
	}
	if c := cell(v, "2"); c.Stack != "r" || !slices.Equal(v.Last, []string{"1", "2"}) {
		t.Errorf("Diam after 1:2+: cell 2 %+v, last %v", c, v.Last)
	}
	v = get("diam", "gr/-/y/-/br/g/-/- 2", "", http.StatusOK)
	if c := cell(v, "5"); !slices.Equal(c.Marks, []string{"highlighted"}) || !slices.Equal(c.Levels, []int{2}) || len(v.List()) != 0 {
		t.Errorf("Diam's diam: cell 5 %+v, moves %+v", c, v.Moves)
	}

	// Bad input is refused with a message.
	get("nogame", "", "", http.StatusBadRequest)
	get("pogo", "not a position", "", http.StatusBadRequest)
	get("pogo", "", "3a1-c3", http.StatusBadRequest)
}

// TestStateView checks that a game's state carries the view of its
// position, with the legal moves of the rules, and the last move's cells.
func TestStateView(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	id, tokens := ts.twoPlayerGame("diam")
	c := ts.dial("seat 0", id, tokens[0])
	c.hello()
	c.waitPly(0)
	c.move("r@3", 0)
	c.waitPly(1)
	var st play.State
	ts.call("GET", "/api/games/"+id, nil, http.StatusOK, &st)
	if st.View == nil {
		t.Fatal("the state has no view")
	}
	if !slices.Equal(st.View.Last, []string{"3"}) || st.View.Board.Stacks[2] != "r" {
		t.Errorf("view after r@3: last %v, cell 3 %q", st.View.Last, st.View.Board.Stacks[2])
	}
	g, _ := games.Load("diam")
	pos, _ := g.ParseState(st.Position)
	var want []string
	for _, m := range pos.Legal(nil) {
		want = append(want, pos.FormatMove(m))
	}
	got := st.Legal()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the view's moves %v differ from the legal moves %v", got, want)
	}
}
