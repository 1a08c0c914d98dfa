package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"stax/server/store"
)

// implements returns s as a T, one of the interfaces a store may offer
// besides store.Store, failing the test when it does not.
func implements[T any](t *testing.T, s store.Store) T {
	t.Helper()
	v, ok := s.(T)
	if !ok {
		t.Fatalf("%T does not implement %T", s, new(T))
	}
	return v
}

// accounts returns the store's store.Accounts.
func accounts(t *testing.T, s store.Store) store.Accounts { return implements[store.Accounts](t, s) }

// testTerms checks what a game keeps besides its moves: rated, its time
// control, each move's time and the accounts holding its seats.
func testTerms(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	for _, u := range []string{"u1", "u2"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: u, Name: u, PasswordHash: "h", Created: base}), nil)
	}
	g := NewGame("timed")
	g.Rated = true
	g.Clock = &store.Clock{Initial: 90 * time.Second, Increment: 1500 * time.Millisecond}
	g.Seats[0].User = "u1"
	g.Seats[1] = store.Seat{Kind: "human", Name: "u2", TokenHash: "t1", Joined: true, User: "u2"}
	check(t, "create", s.Create(ctx, g), nil)
	check(t, "move 0", s.AppendMove(ctx, "timed", 0, "m0", at(5), nil), nil)
	check(t, "move 1", s.AppendMove(ctx, "timed", 1, "m1", at(9), nil), nil)
	got := mustGet(t, s, "timed")
	g.Moves, g.Ply = []string{"m0", "m1"}, 2
	if d := store.Diff(got, g); d != "" {
		t.Fatalf("Get: %s", d)
	}
	if want := []time.Time{at(5), at(9)}; len(got.MoveTimes) != 2 || !got.MoveTimes[0].Equal(want[0]) || !got.MoveTimes[1].Equal(want[1]) {
		t.Fatalf("move times %v; want %v", got.MoveTimes, want)
	}
	// A seat joined through an invite by a signed-in player is theirs.
	check(t, "create invited", s.Create(ctx, NewGame("invited")), nil)
	check(t, "join as u2", s.Join(ctx, "invited", 1, "tj", "u2", "u2", at(3)), nil)
	if got := mustGet(t, s, "invited").Seats[1]; got.User != "u2" || got.Name != "u2" || got.TokenHash != "tj" || !got.Joined {
		t.Fatalf("seat joined by an account: %+v", got)
	}
	corr := NewGame("corr")
	corr.Clock = &store.Clock{Days: 3}
	corr.Moves, corr.MoveTimes, corr.Ply = []string{"a", "b"}, []time.Time{at(1), at(2)}, 2
	check(t, "create correspondence", s.Create(ctx, corr), nil)
	got = mustGet(t, s, "corr")
	if d := store.Diff(got, corr); d != "" {
		t.Fatalf("Get: %s", d)
	}
	if !got.MoveTimes[1].Equal(at(2)) {
		t.Fatalf("move times %v of a game created with moves; want %v", got.MoveTimes, corr.MoveTimes)
	}
	un, err := s.Unfinished(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range un {
		if d := store.Diff(u, mustGet(t, s, u.ID)); d != "" {
			t.Fatalf("Unfinished %s differs from Get: %s", u.ID, d)
		}
	}
	mine, err := a.GamesOf(ctx, "u2", 10, "")
	if err != nil || len(mine) != 2 || mine[0].ID != "invited" || mine[1].ID != "timed" || mine[1].Seats[1].User != "u2" {
		t.Fatalf("GamesOf(u2) = %v, %v; want the games invited (updated last) and timed, with their seats", mine, err)
	}
	if mine, err := a.GamesOf(ctx, "u2", 10, store.Finished); err != nil || len(mine) != 0 {
		t.Fatalf("GamesOf(u2, finished) = %v, %v; want none", mine, err)
	}
}

func testUsers(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	u := &store.User{ID: "id1", Name: "Zoë", PasswordHash: "$argon2id$x", Created: at(1)}
	check(t, "create", a.CreateUser(ctx, u), nil)
	check(t, "create the same name in another case", a.CreateUser(ctx, &store.User{ID: "id2", Name: "ZOË", PasswordHash: "h", Created: at(2)}), store.ErrConflict)
	check(t, "create the same id", a.CreateUser(ctx, &store.User{ID: "id1", Name: "other", PasswordHash: "h", Created: at(2)}), store.ErrConflict)
	for _, name := range []string{"Zoë", "zoë", "ZOË"} {
		got, err := a.UserByName(ctx, name)
		if err != nil || !reflect.DeepEqual(*got, store.User{ID: "id1", Name: "Zoë", PasswordHash: "$argon2id$x", Created: at(1)}) {
			t.Fatalf("UserByName(%q) = %+v, %v; want %+v", name, got, err, u)
		}
	}
	_, err := a.UserByName(ctx, "nobody")
	check(t, "unknown name", err, store.ErrNotFound)
	_, err = a.UserByID(ctx, "nope")
	check(t, "unknown id", err, store.ErrNotFound)
	check(t, "set password", a.SetPassword(ctx, "id1", "new"), nil)
	if got, err := a.UserByID(ctx, "id1"); err != nil || got.PasswordHash != "new" {
		t.Fatalf("after SetPassword: %+v, %v", got, err)
	}
	check(t, "set password of an unknown id", a.SetPassword(ctx, "nope", "new"), store.ErrNotFound)
}

func testSessions(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	check(t, "create user", a.CreateUser(ctx, &store.User{ID: "u", Name: "u", PasswordHash: "h", Created: base}), nil)
	for i := range 3 {
		ss := &store.Session{TokenHash: fmt.Sprint("s", i), UserID: "u", Created: at(i), Expires: at(100 * (i + 1))}
		check(t, "create session", a.CreateSession(ctx, ss), nil)
	}
	check(t, "create a session twice", a.CreateSession(ctx, &store.Session{TokenHash: "s0", UserID: "u", Created: base, Expires: at(1)}), store.ErrConflict)
	got, err := a.Session(ctx, "s1")
	if err != nil || !reflect.DeepEqual(*got, store.Session{TokenHash: "s1", UserID: "u", Created: at(1), Expires: at(200)}) {
		t.Fatalf("Session(s1) = %+v, %v", got, err)
	}
	_, err = a.Session(ctx, "nope")
	check(t, "unknown session", err, store.ErrNotFound)
	check(t, "delete expired", a.DeleteExpiredSessions(ctx, at(150)), nil)
	_, err = a.Session(ctx, "s0")
	check(t, "expired session", err, store.ErrNotFound)
	check(t, "delete others", a.DeleteSessions(ctx, "u", "s2"), nil)
	_, err = a.Session(ctx, "s1")
	check(t, "revoked session", err, store.ErrNotFound)
	_, err = a.Session(ctx, "s2")
	check(t, "kept session", err, nil)
	check(t, "delete session", a.DeleteSession(ctx, "s2"), nil)
	check(t, "delete it again", a.DeleteSession(ctx, "s2"), nil)
	_, err = a.Session(ctx, "s2")
	check(t, "deleted session", err, store.ErrNotFound)
}

func testDeleteUser(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	check(t, "create user", a.CreateUser(ctx, &store.User{ID: "u", Name: "ann", PasswordHash: "h", Created: base}), nil)
	check(t, "create session", a.CreateSession(ctx, &store.Session{TokenHash: "s", UserID: "u", Created: base, Expires: at(100)}), nil)
	g := NewGame("g")
	g.Seats[0].Name, g.Seats[0].User = "ann", "u"
	check(t, "create game", s.Create(ctx, g), nil)
	check(t, "rate", a.Rate(ctx, "g0", at(1), []store.Rating{{UserID: "u", Pool: "pogo", Rating: 1500, Deviation: 300, Volatility: 0.06, Games: 1}}), nil)
	check(t, "delete", a.DeleteUser(ctx, "u", "(deleted)"), nil)
	check(t, "delete again", a.DeleteUser(ctx, "u", "(deleted)"), store.ErrNotFound)
	_, err := a.UserByName(ctx, "ann")
	check(t, "deleted user", err, store.ErrNotFound)
	_, err = a.Session(ctx, "s")
	check(t, "deleted user's session", err, store.ErrNotFound)
	got := mustGet(t, s, "g")
	if got.Seats[0].User != "" || got.Seats[0].Name != "(deleted)" || got.Seats[0].TokenHash != g.Seats[0].TokenHash {
		t.Fatalf("seat after deleting its account: %+v; want it anonymous", got.Seats[0])
	}
	if rs, err := a.Leaderboard(ctx, "pogo", 1000, 10); err != nil || len(rs) != 0 {
		t.Fatalf("leaderboard after deleting the only player: %v, %v", rs, err)
	}
	// The name is free again.
	check(t, "create user again", a.CreateUser(ctx, &store.User{ID: "u2", Name: "Ann", PasswordHash: "h", Created: base}), nil)
}

func testRatings(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	for _, u := range []string{"a", "b", "c"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: u, Name: "N" + u, PasswordHash: "h", Created: base}), nil)
	}
	r := func(u, pool string, rating, dev float64, games int) store.Rating {
		return store.Rating{UserID: u, Pool: pool, Rating: rating, Deviation: dev, Volatility: 0.06, Games: games}
	}
	check(t, "rate g1", a.Rate(ctx, "g1", at(1), []store.Rating{r("a", "pogo", 1662.3, 290.3, 1), r("b", "pogo", 1337.7, 290.3, 1)}), nil)
	check(t, "rate g1 again", a.Rate(ctx, "g1", at(2), []store.Rating{r("a", "pogo", 1, 1, 2), r("b", "pogo", 1, 1, 2)}), store.ErrConflict)
	check(t, "rate with a stale count", a.Rate(ctx, "g2", at(2), []store.Rating{r("a", "pogo", 1700, 250, 2), r("b", "pogo", 1300, 250, 1)}), store.ErrConflict)
	// The failed Rate changed nothing, not even a's rating, and g2 can
	// still be rated.
	check(t, "rate g2", a.Rate(ctx, "g2", at(3), []store.Rating{r("a", "pogo", 1700, 250, 2), r("c", "pogo", 1400, 100, 1)}), nil)
	check(t, "rate g3", a.Rate(ctx, "g3", at(4), []store.Rating{r("a", "diam", 1500, 200, 1), r("c", "diam", 1500, 200, 1)}), nil)
	got, err := a.Ratings(ctx, "a")
	if err != nil || len(got) != 2 || got[0].Pool != "diam" || got[1].Pool != "pogo" || got[1].Rating != 1700 || got[1].Games != 2 || got[1].Name != "Na" || !got[1].Updated.Equal(at(3)) {
		t.Fatalf("Ratings(a) = %+v, %v", got, err)
	}
	if got, err := a.Ratings(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Fatalf("Ratings(nobody) = %+v, %v; want none", got, err)
	}
	lb, err := a.Leaderboard(ctx, "pogo", 1000, 10)
	var names []string
	for _, x := range lb {
		names = append(names, x.Name)
	}
	if err != nil || !reflect.DeepEqual(names, []string{"Na", "Nc", "Nb"}) {
		t.Fatalf("Leaderboard(pogo) = %v, %v; want [Na Nc Nb]", names, err)
	}
	lb, err = a.Leaderboard(ctx, "pogo", 260, 1)
	if err != nil || len(lb) != 1 || lb[0].Name != "Na" {
		t.Fatalf("Leaderboard(pogo, deviation <= 260, 1) = %v, %v; want [Na]", lb, err)
	}
	h, err := a.RatingHistory(ctx, "a", "pogo")
	if err != nil || len(h) != 2 || h[0].GameID != "g1" || h[0].Rating != 1662.3 || !h[0].At.Equal(at(1)) || h[1].GameID != "g2" || h[1].Deviation != 250 {
		t.Fatalf("RatingHistory(a, pogo) = %+v, %v", h, err)
	}
}

// testConcurrentRate rates one game from several stores at once: it is
// rated exactly once.
func testConcurrentRate(t *testing.T, open func() store.Store) {
	stores := []store.Store{open(), open()}
	ctx := context.Background()
	check(t, "create user", accounts(t, stores[0]).CreateUser(ctx, &store.User{ID: "a", Name: "a", PasswordHash: "h", Created: base}), nil)
	onlyOne(t, "Rate", 6, store.ErrConflict, func(i int) error {
		return accounts(t, stores[i%2]).Rate(ctx, "g", at(i), []store.Rating{{UserID: "a", Pool: "pogo", Rating: float64(1500 + i), Deviation: 300, Volatility: 0.06, Games: 1}})
	})
	if h, err := accounts(t, stores[1]).RatingHistory(ctx, "a", "pogo"); err != nil || len(h) != 1 {
		t.Fatalf("history %v, %v; want one point", h, err)
	}
}

func testTakeBack(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "take back with no move", s.TakeBack(ctx, "g", 0), store.ErrConflict)
	for p, m := range []string{"a", "b", "c"} {
		check(t, "move", s.AppendMove(ctx, "g", p, m, at(p), nil), nil)
	}
	check(t, "take back a move that is not the last", s.TakeBack(ctx, "g", 1), store.ErrConflict)
	check(t, "take back a ply past the end", s.TakeBack(ctx, "g", 3), store.ErrConflict)
	check(t, "take back the last move", s.TakeBack(ctx, "g", 2), nil)
	g := mustGet(t, s, "g")
	if g.Ply != 2 || !reflect.DeepEqual(g.Moves, []string{"a", "b"}) || len(g.MoveTimes) != 2 {
		t.Fatalf("after the takeback: ply %d moves %q times %v", g.Ply, g.Moves, g.MoveTimes)
	}
	check(t, "play again at the ply taken back", s.AppendMove(ctx, "g", 2, "d", at(9), nil), nil)
	check(t, "finish", s.Finish(ctx, "g", store.End{Outcome: "1-0 resignation; Black resigned", Resigned: 1}, at(10)), nil)
	check(t, "take back in a finished game", s.TakeBack(ctx, "g", 2), store.ErrConflict)
	check(t, "take back in an unknown game", s.TakeBack(ctx, "nope", 0), store.ErrConflict)
}

// onlyOne makes n calls of fn at once and fails the test unless exactly
// one succeeds and each other fails with lose.
func onlyOne(t *testing.T, what string, n int, lose error, fn func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, lose):
			t.Fatalf("%s: %v; want nil or %v", what, err, lose)
		}
	}
	if wins != 1 {
		t.Fatalf("%d of %d %s calls made at once succeeded; want exactly 1", wins, n, what)
	}
}

// testUnrated finds the finished rated games whose rating was never
// written, earliest finished first, and forgets each once Rate marks it.
func testUnrated(t *testing.T, open func() store.Store) {
	s := open()
	a := accounts(t, s)
	ctx := context.Background()
	mk := func(id string, rated bool, finished int) {
		g := NewGame(id)
		g.Rated = rated
		g.Created, g.Updated = at(0), at(finished)
		if finished > 0 {
			g.Status, g.End = store.Finished, store.End{Outcome: "1-0 resignation", Resigned: 1}
		}
		check(t, "create "+id, s.Create(ctx, g), nil)
	}
	mk("late", true, 9)
	mk("early", true, 3)
	mk("playing", true, 0)
	mk("casual", false, 4)
	mk("marked", true, 5)
	check(t, "rate marked", a.Rate(ctx, "marked", at(6), nil), nil)
	ids := func() []string {
		gs, err := a.Unrated(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, g := range gs {
			if len(g.Seats) != 2 {
				t.Fatalf("Unrated: game %s without its seats", g.ID)
			}
			out = append(out, g.ID)
		}
		return out
	}
	if got := ids(); !reflect.DeepEqual(got, []string{"early", "late"}) {
		t.Fatalf("Unrated = %v; want [early late]", got)
	}
	check(t, "rate early", a.Rate(ctx, "early", at(10), nil), nil)
	if got := ids(); !reflect.DeepEqual(got, []string{"late"}) {
		t.Fatalf("Unrated after rating early = %v; want [late]", got)
	}
}
