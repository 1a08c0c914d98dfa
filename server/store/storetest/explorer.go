package storetest

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"stax/server/store"
)

// Explorer checks the store.Explorer part: the opening explorer's index,
// the finished games left to index, and that a game is indexed once.
func Explorer(t *testing.T, newDB Opener) {
	part{
		{"Explorer", testExplorer},
		{"ConcurrentIndex", testConcurrentIndex},
	}.run(t, newDB)
}

// explorer returns the store's store.Explorer.
func explorer(t *testing.T, s store.Store) store.Explorer { return implements[store.Explorer](t, s) }

func testExplorer(t *testing.T, open func() store.Store) {
	s := open()
	x := explorer(t, s)
	ctx := context.Background()
	finished := func(id string, sec int, rated bool) {
		g := NewGame(id)
		g.Created, g.Updated, g.Rated = at(0), at(sec), rated
		check(t, "create "+id, s.Create(ctx, g), nil)
		check(t, "move in "+id, s.AppendMove(ctx, id, 0, "1a1-a2", at(sec), nil), nil)
		if sec > 0 {
			check(t, "finish "+id, s.Finish(ctx, id, 1, store.End{Outcome: "1-0 resignation", Resigned: 1}, at(sec)), nil)
		}
	}
	finished("late", 9, false)
	finished("early", 3, true)
	finished("playing", 0, false)
	finished("unrated-yet", 4, true)
	check(t, "rate early", accounts(t, s).Rate(ctx, "early", at(5), nil), nil)
	ids := func() []string {
		t.Helper()
		gs, err := x.Unindexed(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, g := range gs {
			if len(g.Seats) != 2 || len(g.Moves) != 1 {
				t.Fatalf("Unindexed: game %s without its seats or moves: %+v", g.ID, g)
			}
			out = append(out, g.ID)
		}
		return out
	}
	if got := ids(); !reflect.DeepEqual(got, []string{"early", "late"}) {
		t.Fatalf("Unindexed = %v; want [early late] (not a game being played, nor a rated one not rated yet)", got)
	}
	const h1, h2 = uint64(0xfedcba9876543210), uint64(42) // the first beyond int64
	check(t, "index late", x.IndexGame(ctx, "late", "pogo", false, at(10), []store.ExplorerEntry{
		{Hash: h1, Move: "a", Result: 1}, {Hash: h2, Move: "b", Result: -1}}), nil)
	check(t, "index early", x.IndexGame(ctx, "early", "pogo", true, at(11), []store.ExplorerEntry{
		{Hash: h1, Move: "a", Result: -1, Rating: 1500.5}, {Hash: h1, Move: "c", Result: 0, Rating: 1600}, {Hash: h2, Move: "b", Result: 1}}), nil)
	check(t, "index late again", x.IndexGame(ctx, "late", "pogo", false, at(12), []store.ExplorerEntry{{Hash: h1, Move: "a", Result: 1}}), store.ErrConflict)
	check(t, "mark a game without moves", x.IndexGame(ctx, "unrated-yet", "pogo", true, at(12), nil), nil)
	if got := ids(); len(got) != 0 {
		t.Fatalf("Unindexed after indexing = %v; want none", got)
	}
	got, err := x.ExplorerMoves(ctx, "pogo", h1)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(got, func(i, j int) bool { return got[i].Move < got[j].Move || got[i].Move == got[j].Move && !got[i].Rated })
	want := []store.ExplorerMove{
		{Move: "a", Rated: false, Games: 1, Wins: 1},
		{Move: "a", Rated: true, Games: 1, Losses: 1, RatingSum: 1500.5, RatingGames: 1},
		{Move: "c", Rated: true, Games: 1, Draws: 1, RatingSum: 1600, RatingGames: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ExplorerMoves(pogo, h1) = %+v; want %+v", got, want)
	}
	if got, err := x.ExplorerMoves(ctx, "pogo", h2); err != nil || len(got) != 2 || got[0].Games+got[1].Games != 2 {
		t.Fatalf("ExplorerMoves(pogo, h2) = %+v, %v; want b once rated and once casual", got, err)
	}
	if got, err := x.ExplorerMoves(ctx, "diam", h1); err != nil || len(got) != 0 {
		t.Fatalf("ExplorerMoves(diam, h1) = %+v, %v; want none: another game", got, err)
	}
}

// testConcurrentIndex indexes one game from several stores at once: it is
// counted exactly once.
func testConcurrentIndex(t *testing.T, open func() store.Store) {
	stores := []store.Store{open(), open()}
	ctx := context.Background()
	onlyOne(t, "IndexGame", 6, store.ErrConflict, func(i int) error {
		return explorer(t, stores[i%2]).IndexGame(ctx, "g", "pogo", false, at(i), []store.ExplorerEntry{{Hash: 7, Move: "a", Result: 1}})
	})
	if got, err := explorer(t, stores[1]).ExplorerMoves(ctx, "pogo", 7); err != nil || len(got) != 1 || got[0].Games != 1 {
		t.Fatalf("ExplorerMoves = %+v, %v; want one game", got, err)
	}
}
