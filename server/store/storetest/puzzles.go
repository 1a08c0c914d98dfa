package storetest

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"stax/server/store"
)

// Puzzles checks the store.Puzzles part: the puzzles' and the accounts'
// puzzle ratings, the attempts, and that a rated attempt is recorded once.
func Puzzles(t *testing.T, newDB Opener) {
	part{
		{"PuzzleAttempts", testPuzzleAttempts},
		{"ConcurrentAttempts", testConcurrentAttempts},
	}.run(t, newDB)
	t.Run("CopyPuzzles", func(t *testing.T) { testCopyPuzzles(t, opener(t, newDB), opener(t, newDB)) })
}

// puzzles returns the store's store.Puzzles.
func puzzles(t *testing.T, s store.Store) store.Puzzles { return implements[store.Puzzles](t, s) }

func testPuzzleAttempts(t *testing.T, open func() store.Store) {
	s := open()
	a, p := accounts(t, s), puzzles(t, s)
	ctx := context.Background()
	for _, u := range []string{"a", "b"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: u, Name: "N" + u, PasswordHash: "h", Created: base}), nil)
	}
	_, err := p.PuzzlePlayer(ctx, "a")
	check(t, "the puzzle rating of an account without attempts", err, store.ErrNotFound)
	if rs, err := p.PuzzleRatings(ctx); err != nil || len(rs) != 0 {
		t.Fatalf("PuzzleRatings of a new store = %v, %v; want none", rs, err)
	}
	r := func(rating, dev float64, attempts int) store.PuzzleRating {
		return store.PuzzleRating{Rating: rating, Deviation: dev, Volatility: 0.06, Attempts: attempts}
	}
	rated := func(user, puzzle string, sec int, solved bool) store.PuzzleAttempt {
		return store.PuzzleAttempt{UserID: user, PuzzleID: puzzle, At: at(sec), Solved: solved, Rated: true,
			PlayerBefore: 1500, PlayerAfter: 1600, PuzzleBefore: 1200, PuzzleAfter: 1150}
	}
	unrated := func(user, puzzle string, sec int) store.PuzzleAttempt {
		return store.PuzzleAttempt{UserID: user, PuzzleID: puzzle, At: at(sec)}
	}
	check(t, "a's first attempt at p1", p.RecordAttempt(ctx, rated("a", "p1", 1, true), r(1600, 290, 1), r(1150, 240, 1)), nil)
	check(t, "a's second rated attempt at p1", p.RecordAttempt(ctx, rated("a", "p1", 2, false), r(1500, 280, 2), r(1200, 230, 2)), store.ErrConflict)
	check(t, "a's unrated attempt at p1", p.RecordAttempt(ctx, unrated("a", "p1", 3), store.PuzzleRating{}, store.PuzzleRating{}), nil)
	check(t, "an attempt at the same millisecond", p.RecordAttempt(ctx, unrated("a", "p1", 3), store.PuzzleRating{}, store.PuzzleRating{}), store.ErrConflict)
	check(t, "b's attempt with p1's stale count", p.RecordAttempt(ctx, rated("b", "p1", 4, false), r(1400, 290, 1), r(1250, 240, 1)), store.ErrConflict)
	check(t, "b's attempt at p1", p.RecordAttempt(ctx, rated("b", "p1", 5, false), r(1400, 290, 1), r(1250, 230, 2)), nil)
	// A stale count of a's leaves p2 unrated: all or none.
	check(t, "a's attempt with a stale count", p.RecordAttempt(ctx, rated("a", "p2", 6, true), r(1700, 280, 1), r(900, 240, 1)), store.ErrConflict)
	check(t, "an attempt of nobody", p.RecordAttempt(ctx, unrated("nobody", "p1", 7), store.PuzzleRating{}, store.PuzzleRating{}), store.ErrConflict)
	got, err := p.PuzzlePlayer(ctx, "a")
	if want := (store.PuzzleRating{Rating: 1600, Deviation: 290, Volatility: 0.06, Attempts: 1, Updated: at(1)}); err != nil || got != want {
		t.Fatalf("PuzzlePlayer(a) = %+v, %v; want %+v", got, err, want)
	}
	rs, err := p.PuzzleRatings(ctx)
	if want := map[string]store.PuzzleRating{"p1": {Rating: 1250, Deviation: 230, Volatility: 0.06, Attempts: 2, Updated: at(5)}}; err != nil || !reflect.DeepEqual(rs, want) {
		t.Fatalf("PuzzleRatings = %+v, %v; want %+v", rs, err, want)
	}
	ids, err := p.AttemptedPuzzles(ctx, "a")
	if slices.Sort(ids); err != nil || !reflect.DeepEqual(ids, []string{"p1"}) {
		t.Fatalf("AttemptedPuzzles(a) = %v, %v; want [p1]", ids, err)
	}
	list, err := p.PuzzleAttempts(ctx, "a", 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("PuzzleAttempts(a) = %+v, %v; want two", list, err)
	}
	if want := unrated("a", "p1", 3); list[0] != want {
		t.Errorf("a's latest attempt %+v; want %+v", list[0], want)
	}
	if want := rated("a", "p1", 1, true); list[1] != want {
		t.Errorf("a's first attempt %+v; want %+v", list[1], want)
	}
	if list, err := p.PuzzleAttempts(ctx, "a", 1); err != nil || len(list) != 1 || !list[0].At.Equal(at(3)) {
		t.Errorf("PuzzleAttempts(a, 1) = %+v, %v; want the latest", list, err)
	}
	// Deleting an account deletes its puzzle rating and attempts; the
	// puzzles keep theirs.
	check(t, "delete a", a.DeleteUser(ctx, "a", "anonymous"), nil)
	_, err = p.PuzzlePlayer(ctx, "a")
	check(t, "the puzzle rating of a deleted account", err, store.ErrNotFound)
	if list, err := p.PuzzleAttempts(ctx, "a", 10); err != nil || len(list) != 0 {
		t.Errorf("the attempts of a deleted account: %+v, %v; want none", list, err)
	}
	if rs, err := p.PuzzleRatings(ctx); err != nil || rs["p1"].Attempts != 2 {
		t.Errorf("p1's rating after a's account was deleted: %+v, %v; want two attempts", rs["p1"], err)
	}
}

// testConcurrentAttempts records the first attempt of an account at a
// puzzle from several stores at once: it is rated exactly once.
func testConcurrentAttempts(t *testing.T, open func() store.Store) {
	stores := []store.Store{open(), open()}
	ctx := context.Background()
	check(t, "create user", accounts(t, stores[0]).CreateUser(ctx, &store.User{ID: "a", Name: "a", PasswordHash: "h", Created: base}), nil)
	onlyOne(t, "RecordAttempt", 6, store.ErrConflict, func(i int) error {
		return puzzles(t, stores[i%2]).RecordAttempt(ctx, store.PuzzleAttempt{UserID: "a", PuzzleID: "p", At: at(i), Solved: true, Rated: true},
			store.PuzzleRating{Rating: float64(1500 + i), Deviation: 300, Volatility: 0.06, Attempts: 1},
			store.PuzzleRating{Rating: float64(1200 - i), Deviation: 200, Volatility: 0.06, Attempts: 1})
	})
	if list, err := puzzles(t, stores[1]).PuzzleAttempts(ctx, "a", 10); err != nil || len(list) != 1 {
		t.Fatalf("attempts %+v, %v; want one", list, err)
	}
}

// testCopyPuzzles copies one store into another: the puzzles' ratings and
// the accounts' puzzle ratings and attempts arrive identical, copying
// again skips them, and a clashing record stops the copy.
func testCopyPuzzles(t *testing.T, openFrom, openTo func() store.Store) {
	from, to := openFrom(), openTo()
	ctx := context.Background()
	fp, tp := puzzles(t, from), puzzles(t, to)
	for _, u := range []string{"u1", "u2", "u3"} {
		check(t, "create user", accounts(t, from).CreateUser(ctx, &store.User{ID: u, Name: "N" + u, PasswordHash: "h", Created: base}), nil)
	}
	r := func(rating float64, attempts int) store.PuzzleRating {
		return store.PuzzleRating{Rating: rating, Deviation: 200.5, Volatility: 0.06, Attempts: attempts}
	}
	rated := func(user, puzzle string, sec int) store.PuzzleAttempt {
		return store.PuzzleAttempt{UserID: user, PuzzleID: puzzle, At: at(sec), Solved: sec%2 == 0, Rated: true, PlayerBefore: 1500, PlayerAfter: 1500.5 + float64(sec), PuzzleBefore: 1200, PuzzleAfter: 1190.25}
	}
	check(t, "u1 at p1", fp.RecordAttempt(ctx, rated("u1", "p1", 1), r(1510, 1), r(1190, 1)), nil)
	check(t, "u1 at p2", fp.RecordAttempt(ctx, rated("u1", "p2", 2), r(1520, 2), r(900, 1)), nil)
	check(t, "u1 at p1 again", fp.RecordAttempt(ctx, store.PuzzleAttempt{UserID: "u1", PuzzleID: "p1", At: at(3)}, store.PuzzleRating{}, store.PuzzleRating{}), nil)
	check(t, "u2 at p1", fp.RecordAttempt(ctx, rated("u2", "p1", 4), r(1400, 1), r(1250, 2)), nil)
	n, err := store.Copy(ctx, from, to, nil)
	if err != nil || n.PuzzleRatings != 2 || n.PuzzlePlayers != 2 || n.PuzzleAttempts != 4 || n.PuzzlePlayersChecked != 2 {
		t.Fatalf("copied %+v, %v; want 2 puzzle ratings, 2 players with 4 attempts, 2 checked", n, err)
	}
	want, _ := fp.PuzzleRatings(ctx)
	if got, err := tp.PuzzleRatings(ctx); err != nil || len(got) != 2 || got["p1"].Rating != 1250 || !got["p1"].Updated.Equal(want["p1"].Updated) {
		t.Fatalf("puzzle ratings in the copy: %+v, %v; want %+v", got, err, want)
	}
	if got, err := tp.PuzzlePlayer(ctx, "u1"); err != nil || got.Rating != 1520 || got.Attempts != 2 || !got.Updated.Equal(at(2)) {
		t.Fatalf("u1's puzzle rating in the copy: %+v, %v", got, err)
	}
	if list, err := tp.PuzzleAttempts(ctx, "u1", 10); err != nil || len(list) != 3 || list[0].Rated || !list[2].At.Equal(at(1)) || list[2].PlayerAfter != 1501.5 {
		t.Fatalf("u1's attempts in the copy: %+v, %v", list, err)
	}
	n, err = store.Copy(ctx, from, to, nil)
	if err != nil || n.PuzzleRatings != 0 || n.PuzzlePlayers != 0 || n.PuzzlePlayersChecked != 2 {
		t.Fatalf("copying again: %+v, %v; want nothing copied, 2 checked", n, err)
	}
	check(t, "u2 at p2", fp.RecordAttempt(ctx, store.PuzzleAttempt{UserID: "u2", PuzzleID: "p2", At: at(5)}, store.PuzzleRating{}, store.PuzzleRating{}), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "u2") {
		t.Fatalf("copy onto a destination holding other puzzles of u2: %v; want an error naming u2", err)
	}
}
