package storetest

import (
	"context"
	"fmt"
	"reflect"
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
	// Names that look alike are one name.
	check(t, "create alice", a.CreateUser(ctx, &store.User{ID: "al1", Name: "alice", PasswordHash: "h", Created: base}), nil)
	for _, name := range []string{"aIice", "a1ice", "ALICE"} {
		check(t, "create "+name, a.CreateUser(ctx, &store.User{ID: "al2", Name: name, PasswordHash: "h", Created: base}), store.ErrConflict)
	}
	check(t, "create rnary", a.CreateUser(ctx, &store.User{ID: "m1", Name: "rnary", PasswordHash: "h", Created: base}), nil)
	check(t, "create mary", a.CreateUser(ctx, &store.User{ID: "m2", Name: "mary", PasswordHash: "h", Created: base}), store.ErrConflict)
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
	if rs, err := a.Leaderboard(ctx, "pogo", 1000, at(0), 10); err != nil || len(rs) != 0 {
		t.Fatalf("leaderboard after deleting the only player: %v, %v", rs, err)
	}
	// The name is retired, in any case; others are free.
	check(t, "take the deleted account's name", a.CreateUser(ctx, &store.User{ID: "u2", Name: "Ann", PasswordHash: "h", Created: base}), store.ErrConflict)
	check(t, "take another name", a.CreateUser(ctx, &store.User{ID: "u2", Name: "Anna", PasswordHash: "h", Created: base}), nil)
}
