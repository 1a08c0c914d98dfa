package server_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"stax/puzzle"
	"stax/server/puzzles"
	"stax/server/store/pgtest"
)

// TestPuzzlesTwoInstances runs the puzzles over two servers sharing one
// SQLite database in one process.
func TestPuzzlesTwoInstances(t *testing.T) { testPuzzlesTwoInstances(t, newDB(t)) }

// TestPuzzlesTwoInstancesPostgres runs the puzzles over two servers
// sharing one PostgreSQL database.
func TestPuzzlesTwoInstancesPostgres(t *testing.T) { testPuzzlesTwoInstances(t, pgtest.URL(t)) }

// testPuzzlesTwoInstances checks the puzzles behind the site's guard on a
// real store: a player who solved a puzzle on one instance is not rated
// for it again on the other, another player's attempt there starts from
// the puzzle's rating the first left, and the history is the same on
// both; a guest plays unrated.
func testPuzzlesTwoInstances(t *testing.T, db string) {
	clock := newFakeClock()
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.player("ann"), ts2.player("bob")
	ann.signup("correct horse")
	bob.signup("battery staple")
	ps, err := puzzle.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var p puzzle.Puzzle
	for _, q := range ps {
		if q.Spec == "pogo" && len(q.Solution) == 3 {
			p = q
			break
		}
	}
	move := func(who *player, moves []string) puzzles.MoveResult {
		t.Helper()
		var res puzzles.MoveResult
		who.call("POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: moves}, http.StatusOK, &res)
		return res
	}
	if res := move(ann, p.Solution[:1]); res.Result != puzzles.Right || res.Reply != p.Solution[1] {
		t.Fatalf("ann's first move: %+v", res)
	}
	solved := move(ann, p.Solution)
	if solved.Result != puzzles.Solved || solved.Rating == nil {
		t.Fatalf("ann's last move: %+v; want solved, rated", solved)
	}
	clock.Advance(time.Second)
	if res := move(ann.on(ts2), p.Solution); res.Result != puzzles.Solved || res.Rating != nil {
		t.Fatalf("ann again on the other instance: %+v; want solved, unrated", res)
	}
	failed := move(bob, []string{wrongFirst(t, ts2, p)})
	if failed.Result != puzzles.Wrong || failed.Rating == nil || math.Abs(failed.Rating.PuzzleBefore.Rating-solved.Rating.PuzzleAfter.Rating) > 1e-9 {
		t.Fatalf("bob's failure on the other instance: %+v; want it rated from the puzzle's rating ann left (%v)", failed.Rating, solved.Rating.PuzzleAfter)
	}
	for _, who := range []*player{ann, ann.on(ts2)} {
		var h puzzles.History
		who.call("GET", "/api/puzzles/me", nil, http.StatusOK, &h)
		if len(h.Attempts) != 2 || h.Rating.Attempts != 1 || math.Abs(h.Rating.Rating-solved.Rating.PlayerAfter.Rating) > 1e-9 {
			t.Fatalf("ann's history on %s: %+v; want two attempts, one rated", who.ts.url, h)
		}
	}
	var res puzzles.MoveResult
	ts1.call("POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: p.Solution[:1]}, http.StatusOK, &res)
	if res.Rating != nil {
		t.Fatalf("a guest's move was rated: %+v", res)
	}
	ts1.call("GET", "/api/puzzles/me", nil, http.StatusUnauthorized, nil)
}

// wrongFirst returns a legal first move of p other than the solution's,
// from the puzzle's view as the server sends it.
func wrongFirst(t *testing.T, ts *testServer, p puzzle.Puzzle) string {
	t.Helper()
	var shown puzzles.Puzzle
	ts.call("GET", "/api/puzzles/"+p.ID, nil, http.StatusOK, &shown)
	for _, m := range shown.View.List() {
		if m.Text != p.Solution[0] {
			return m.Text
		}
	}
	t.Fatalf("puzzle %s has no wrong move", p.ID)
	return ""
}
