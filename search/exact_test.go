package search_test

import (
	"context"
	"fmt"
	"testing"

	"stax/game"
	"stax/internal/testgame"
	"stax/search"
)

// exact returns the value of every position reachable from s, by plain
// negamax over tic-tac-toe: a win in n plies scores WinScore-n, a loss in
// n -(WinScore-n) and a draw 0, for the side to move, the winner hurrying
// and the loser holding out.
func exact(s *testgame.State, memo map[string]int) int {
	key := s.String()
	if v, ok := memo[key]; ok {
		return v
	}
	var v int
	if s.Terminal() {
		v = s.Outcome().Value(s.ToMove()) * search.WinScore
	} else {
		v = -search.WinScore - 1
		for _, m := range s.Legal(nil) {
			s.Apply(m)
			child := -exact(s, memo)
			s.Undo()
			switch {
			case child > search.WinScore/2:
				child--
			case child < -search.WinScore/2:
				child++
			}
			v = max(v, child)
		}
	}
	memo[key] = v
	return v
}

// TestExactTicTacToe checks that alpha-beta, searching to the end with no
// evaluation, solves tic-tac-toe exactly: from every reachable position
// (every seventh under -short) its score is the position's exact value and
// its move keeps that value.
func TestExactTicTacToe(t *testing.T) {
	g, err := testgame.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	memo := map[string]int{}
	if v := exact(g.NewStart(), memo); v != 0 {
		t.Fatalf("the start's value is %d; tic-tac-toe is a draw", v)
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	// With late move reductions, every line still reaches the end of the
	// game when the depth allows a reduction at each of its 9 plies.
	for _, tc := range []struct{ reduce, depth int }{{0, 9}, {2, 18}} {
		t.Run(fmt.Sprintf("reduce=%d", tc.reduce), func(t *testing.T) {
			exactFrom(t, g, memo, step, tc.reduce, tc.depth)
		})
	}
}

// exactFrom checks alpha-beta with the given Reduce and depth on every
// step-th position of memo.
func exactFrom(t *testing.T, g *testgame.Game, memo map[string]int, step, reduce, depth int) {
	ab := search.NewAlphaBeta(search.Zero, 16, 1)
	ab.Reduce = reduce
	checked, wins, losses := 0, 0, 0
	i := 0
	for key, want := range memo {
		i++
		if i%step != 0 {
			continue
		}
		st, err := g.ParseState(key)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*testgame.State)
		if s.Terminal() {
			continue
		}
		res, err := ab.Play(context.Background(), search.Position{State: s}, search.Limits{Depth: depth}, nil)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if res.Score.Int() != want {
			t.Errorf("%s: score %v; exact value %d", key, res.Score, want)
		}
		if got := moveValue(s, res.Move, memo); got != want {
			t.Errorf("%s: move %s is worth %d; the position %d", key, s.FormatMove(res.Move), got, want)
		}
		checked++
		switch {
		case want > 0:
			wins++
		case want < 0:
			losses++
		}
	}
	if checked < 400/step || wins == 0 || losses == 0 {
		t.Errorf("checked %d positions (%d won, %d lost): too few", checked, wins, losses)
	}
}

// moveValue returns the exact value of m for the side that plays it.
func moveValue(s *testgame.State, m game.Move, memo map[string]int) int {
	c := s.Clone().(*testgame.State)
	c.Apply(m)
	v := -exact(c, memo)
	switch {
	case v > search.WinScore/2:
		v--
	case v < -search.WinScore/2:
		v++
	}
	return v
}

// TestMCTSTicTacToe checks that MCTS finds the only winning move, and the
// only move that does not lose, in small tic-tac-toe positions.
func TestMCTSTicTacToe(t *testing.T) {
	g, _ := testgame.New(nil)
	for _, tc := range []struct{ pos, want string }{
		{"x-o/-x-/o-- x", "c1"}, // completes the diagonal
		{"xx-/-o-/--- o", "c3"}, // blocks x's row
		{"x-x/-o-/--- o", "b3"}, // blocks x's row in the middle
	} {
		st, err := g.ParseState(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		m := search.NewMCTS(search.Zero, 1)
		m.Decisive = true
		res, err := m.Play(context.Background(), search.Position{State: st}, search.Limits{Nodes: 20_000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.FormatMove(res.Move); got != tc.want {
			t.Errorf("%s: MCTS plays %s; want %s", tc.pos, got, tc.want)
		}
	}
}
