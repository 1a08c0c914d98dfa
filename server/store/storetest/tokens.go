package storetest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"stax/server/store"
)

// Tokens checks the store.Tokens part: personal API tokens, bot accounts
// and a player's choice about rated games against bots.
func Tokens(t *testing.T, newDB Opener) {
	part{
		{"Tokens", testTokens},
		{"Bots", testBots},
		{"DeletedAccountTokens", testDeletedAccountTokens},
	}.run(t, newDB)
}

// tokens returns the store's store.Tokens.
func tokens(t *testing.T, s store.Store) store.Tokens { return implements[store.Tokens](t, s) }

// sameToken reports how two tokens differ, times compared as instants,
// or "" when they do not.
func sameToken(got, want *store.Token) string {
	g, w := *got, *want
	if !g.Created.Equal(w.Created) || !g.Used.Equal(w.Used) {
		return fmt.Sprintf("created %v used %v; want %v, %v", g.Created, g.Used, w.Created, w.Used)
	}
	g.Created, g.Used = w.Created, w.Used
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("%+v; want %+v", g, w)
	}
	return ""
}

func testTokens(t *testing.T, open func() store.Store) {
	s := open()
	a, tk := accounts(t, s), tokens(t, s)
	ctx := context.Background()
	for _, u := range []string{"ann", "bob"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: u, Name: u, PasswordHash: "h", Created: base}), nil)
	}
	made := []*store.Token{
		{ID: "t1", UserID: "ann", Hash: "h1", Description: "my bot", Scopes: []string{store.ScopeRead, store.ScopePlay}, Created: at(1)},
		{ID: "t2", UserID: "ann", Hash: "h2", Description: "", Scopes: []string{store.ScopeBot}, Created: at(3)},
		{ID: "t3", UserID: "ann", Hash: "h3", Description: "scripts", Scopes: []string{store.ScopeRead}, Created: at(2)},
		{ID: "t4", UserID: "bob", Hash: "h4", Description: "bob's", Scopes: []string{store.ScopeChallenge, store.ScopeRead}, Created: at(4)},
	}
	for _, tok := range made {
		check(t, "create token "+tok.ID, tk.CreateToken(ctx, tok), nil)
	}
	check(t, "create a token with an id taken", tk.CreateToken(ctx, &store.Token{ID: "t1", UserID: "bob", Hash: "h9", Scopes: []string{"read"}, Created: at(5)}), store.ErrConflict)
	check(t, "create a token with a hash taken", tk.CreateToken(ctx, &store.Token{ID: "t9", UserID: "bob", Hash: "h1", Scopes: []string{"read"}, Created: at(5)}), store.ErrConflict)
	check(t, "create a token of an unknown account", tk.CreateToken(ctx, &store.Token{ID: "t9", UserID: "nobody", Hash: "h9", Scopes: []string{"read"}, Created: at(5)}), store.ErrNotFound)

	for _, tok := range made {
		got, err := tk.TokenByHash(ctx, tok.Hash)
		if err != nil {
			t.Fatalf("TokenByHash(%s): %v", tok.Hash, err)
		}
		if d := sameToken(got, tok); d != "" {
			t.Fatalf("TokenByHash(%s): %s", tok.Hash, d)
		}
	}
	_, err := tk.TokenByHash(ctx, "nope")
	check(t, "unknown hash", err, store.ErrNotFound)

	list := func(user string) []string {
		t.Helper()
		ts, err := tk.TokensOf(ctx, user)
		if err != nil {
			t.Fatalf("TokensOf(%s): %v", user, err)
		}
		ids := []string{}
		for _, x := range ts {
			ids = append(ids, x.ID)
		}
		return ids
	}
	if got, want := list("ann"), []string{"t2", "t3", "t1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("TokensOf(ann) = %v; want %v, newest first", got, want)
	}
	if got := list("nobody"); len(got) != 0 {
		t.Fatalf("TokensOf(nobody) = %v; want none", got)
	}

	// A token is used, to the minute; the last use is kept.
	check(t, "use t1", tk.TokenUsed(ctx, "t1", at(60)), nil)
	check(t, "use t1 again", tk.TokenUsed(ctx, "t1", at(120)), nil)
	check(t, "use a token that is gone", tk.TokenUsed(ctx, "gone", at(120)), nil)
	if got, err := tk.TokenByHash(ctx, "h1"); err != nil || !got.Used.Equal(at(120)) {
		t.Fatalf("t1 after use: %+v, %v; want used at %v", got, err, at(120))
	}

	// One deletes only one's own tokens.
	_, err = tk.DeleteToken(ctx, "bob", "t1")
	check(t, "bob deletes ann's token", err, store.ErrNotFound)
	if _, err := tk.TokenByHash(ctx, "h1"); err != nil {
		t.Fatalf("ann's token after bob tried to delete it: %v", err)
	}
	gone, err := tk.DeleteToken(ctx, "ann", "t1")
	if err != nil {
		t.Fatalf("ann deletes t1: %v", err)
	}
	want := *made[0]
	want.Used = at(120)
	if d := sameToken(gone, &want); d != "" {
		t.Fatalf("DeleteToken returned %s", d)
	}
	_, err = tk.DeleteToken(ctx, "ann", "t1")
	check(t, "delete it again", err, store.ErrNotFound)
	_, err = tk.TokenByHash(ctx, "h1")
	check(t, "deleted token", err, store.ErrNotFound)
	if got, want := list("ann"), []string{"t2", "t3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("TokensOf(ann) after deleting t1 = %v; want %v", got, want)
	}
	if got, want := list("bob"), []string{"t4"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("TokensOf(bob) = %v; want %v", got, want)
	}
}

func testBots(t *testing.T, open func() store.Store) {
	s := open()
	a, tk := accounts(t, s), tokens(t, s)
	ctx := context.Background()
	for _, u := range []string{"ann", "botb", "bota", "botc"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: "id-" + u, Name: u, PasswordHash: "h", Created: base}), nil)
	}
	user := func(name string) *store.User {
		t.Helper()
		u, err := a.UserByName(ctx, name)
		if err != nil {
			t.Fatalf("UserByName(%s): %v", name, err)
		}
		byID, err := a.UserByID(ctx, u.ID)
		if err != nil || !reflect.DeepEqual(byID, u) {
			t.Fatalf("UserByID(%s) = %+v, %v; want %+v as by name", u.ID, byID, err, u)
		}
		return u
	}
	if u := user("ann"); u.Bot || u.NoRatedBots || !u.Seen.IsZero() {
		t.Fatalf("a new account: %+v; want no bot, accepting rated games against bots, never seen", u)
	}
	// A game between ann and botb, made before botb became a bot.
	g := NewGame("g")
	g.Seats[0].Name, g.Seats[0].User = "ann", "id-ann"
	g.Seats[1] = store.Seat{Kind: "human", Name: "botb", TokenHash: "tb", Joined: true, User: "id-botb"}
	check(t, "create game", s.Create(ctx, g), nil)
	check(t, "rate", a.Rate(ctx, "g0", at(1), []store.Rating{
		{UserID: "id-ann", Pool: "pogo", Rating: 1500, Deviation: 50, Volatility: 0.06, Games: 1},
		{UserID: "id-botb", Pool: "pogo", Rating: 1600, Deviation: 50, Volatility: 0.06, Games: 1},
	}), nil)

	for _, name := range []string{"botb", "bota", "botc"} {
		check(t, "make "+name+" a bot", tk.SetBot(ctx, "id-"+name), nil)
	}
	check(t, "make botb a bot again", tk.SetBot(ctx, "id-botb"), nil)
	check(t, "make an unknown account a bot", tk.SetBot(ctx, "nobody"), store.ErrNotFound)
	if u := user("botb"); !u.Bot {
		t.Fatalf("botb after SetBot: %+v; want a bot", u)
	}
	if u := user("ann"); u.Bot {
		t.Fatalf("ann: %+v; want no bot", u)
	}

	// The seats of a bot's account say so, however the games are read.
	for what, seats := range map[string]func() []store.Seat{
		"Get": func() []store.Seat { return mustGet(t, s, "g").Seats },
		"GamesOf": func() []store.Seat {
			gs, err := a.GamesOf(ctx, "id-ann", 10, "")
			if err != nil || len(gs) != 1 {
				t.Fatalf("GamesOf(ann) = %v, %v; want g", gs, err)
			}
			return gs[0].Seats
		},
		"Recent": func() []store.Seat {
			gs, err := s.Recent(ctx, 10, "")
			if err != nil || len(gs) != 1 {
				t.Fatalf("Recent = %v, %v; want g", gs, err)
			}
			return gs[0].Seats
		},
		"Unfinished": func() []store.Seat {
			gs, err := s.Unfinished(ctx)
			if err != nil || len(gs) != 1 {
				t.Fatalf("Unfinished = %v, %v; want g", gs, err)
			}
			return gs[0].Seats
		},
	} {
		if got := seats(); len(got) != 2 || got[0].Bot || !got[1].Bot {
			t.Errorf("%s: seats %+v; want the second, botb's, marked a bot", what, got)
		}
	}
	// So do its ratings.
	if rs, err := a.Leaderboard(ctx, "pogo", 100, at(0), 10); err != nil || len(rs) != 2 || rs[0].Name != "botb" || !rs[0].Bot || rs[1].Bot {
		t.Fatalf("leaderboard: %+v, %v; want botb, a bot, then ann", rs, err)
	}
	if rs, err := a.Ratings(ctx, "id-botb"); err != nil || len(rs) != 1 || !rs[0].Bot {
		t.Fatalf("Ratings(botb) = %+v, %v; want one, of a bot", rs, err)
	}

	// A player's choice about rated games against bots.
	check(t, "ann refuses rated games against bots", tk.SetBotsRated(ctx, "id-ann", false), nil)
	if u := user("ann"); !u.NoRatedBots {
		t.Fatalf("ann after refusing: %+v", u)
	}
	check(t, "ann accepts them again", tk.SetBotsRated(ctx, "id-ann", true), nil)
	if u := user("ann"); u.NoRatedBots {
		t.Fatalf("ann after accepting: %+v", u)
	}
	check(t, "an unknown account's choice", tk.SetBotsRated(ctx, "nobody", true), store.ErrNotFound)

	// The bots, those seen most recently first, then those never seen by
	// name; a person is never among them, even seen.
	names := func(limit int) []string {
		t.Helper()
		us, err := tk.Bots(ctx, limit)
		if err != nil {
			t.Fatalf("Bots(%d): %v", limit, err)
		}
		out := []string{}
		for _, u := range us {
			if !u.Bot {
				t.Fatalf("Bots: %+v is not a bot", u)
			}
			out = append(out, u.Name)
		}
		return out
	}
	if got, want := names(10), []string{"bota", "botb", "botc"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Bots before any was seen = %v; want %v", got, want)
	}
	check(t, "botc seen", tk.BotSeen(ctx, "id-botc", at(10)), nil)
	check(t, "botb seen", tk.BotSeen(ctx, "id-botb", at(20)), nil)
	check(t, "ann seen", tk.BotSeen(ctx, "id-ann", at(30)), nil)
	check(t, "an unknown account seen", tk.BotSeen(ctx, "nobody", at(30)), store.ErrNotFound)
	if got, want := names(10), []string{"botb", "botc", "bota"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Bots = %v; want %v", got, want)
	}
	if got, want := names(2), []string{"botb", "botc"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Bots(2) = %v; want %v", got, want)
	}
	if u := user("botb"); !u.Seen.Equal(at(20)) {
		t.Fatalf("botb: seen %v; want %v", u.Seen, at(20))
	}
	if u := user("ann"); !u.Seen.IsZero() {
		t.Fatalf("ann, a person, seen %v; want never", u.Seen)
	}
}

func testDeletedAccountTokens(t *testing.T, open func() store.Store) {
	s := open()
	a, tk := accounts(t, s), tokens(t, s)
	ctx := context.Background()
	for _, u := range []string{"ann", "bob"} {
		check(t, "create user", a.CreateUser(ctx, &store.User{ID: u, Name: u, PasswordHash: "h", Created: base}), nil)
		check(t, "create token", tk.CreateToken(ctx, &store.Token{ID: "t-" + u, UserID: u, Hash: "h-" + u, Scopes: []string{store.ScopeBot}, Created: at(1)}), nil)
	}
	check(t, "make ann a bot", tk.SetBot(ctx, "ann"), nil)
	check(t, "delete ann", a.DeleteUser(ctx, "ann", "(deleted)"), nil)
	_, err := tk.TokenByHash(ctx, "h-ann")
	check(t, "a deleted account's token", err, store.ErrNotFound)
	if ts, err := tk.TokensOf(ctx, "ann"); err != nil || len(ts) != 0 {
		t.Fatalf("TokensOf(ann) after deleting her: %v, %v; want none", ts, err)
	}
	if bots, err := tk.Bots(ctx, 10); err != nil || len(bots) != 0 {
		t.Fatalf("Bots after deleting the only one: %v, %v; want none", bots, err)
	}
	if _, err := tk.TokenByHash(ctx, "h-bob"); err != nil {
		t.Fatalf("bob's token after deleting ann: %v", err)
	}
}
