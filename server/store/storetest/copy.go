package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"stax/server/store"
)

// testCopy copies one store into another: every game and account (with
// its ratings and rating history, its bot mark and its API tokens) arrives
// identical, so do the marks of
// the games rated, copying again skips them all, and a clashing game or
// account stops the copy.
func testCopy(t *testing.T, openFrom, openTo func() store.Store) {
	from, to := openFrom(), openTo()
	ctx := context.Background()
	fa, ta := accounts(t, from), accounts(t, to)
	const users = 205 // more than one page
	for i := range users {
		u := fmt.Sprintf("u%03d", i)
		check(t, "create user", fa.CreateUser(ctx, &store.User{ID: u, Name: "N" + u, PasswordHash: "h" + u, Created: at(i)}), nil)
		check(t, "session", fa.CreateSession(ctx, &store.Session{TokenHash: "s" + u, UserID: u, Created: at(i), Expires: at(i + 1000)}), nil)
	}
	rate := func(g string, when int, pool string, games int, users ...string) {
		var rs []store.Rating
		for k, u := range users {
			rs = append(rs, store.Rating{UserID: u, Pool: pool, Rating: 1500.25 + float64(k*when), Deviation: 200.5, Volatility: 0.06, Games: games})
		}
		check(t, "rate "+g, fa.Rate(ctx, g, at(when), rs), nil)
	}
	rate("c004", 5, "pogo", 1, "u001", "u002")
	rate("c014", 6, "pogo", 2, "u001", "u002")
	rate("c024", 7, "diam", 1, "u001", "u200")
	check(t, "mark c034 rated", fa.Rate(ctx, "c034", at(8), nil), nil)
	// A bot with a token, seen; a player refusing rated games against
	// bots, with two tokens, one used.
	ftk, ttk := tokens(t, from), tokens(t, to)
	check(t, "make u010 a bot", ftk.SetBot(ctx, "u010"), nil)
	check(t, "u010 seen", ftk.BotSeen(ctx, "u010", at(11)), nil)
	check(t, "u011 refuses rated games against bots", ftk.SetBotsRated(ctx, "u011", false), nil)
	for i, tok := range []store.Token{
		{ID: "k1", UserID: "u010", Hash: "hk1", Description: "engine", Scopes: []string{store.ScopeBot}, Created: at(12)},
		{ID: "k2", UserID: "u011", Hash: "hk2", Description: "read", Scopes: []string{store.ScopeRead}, Created: at(13)},
		{ID: "k3", UserID: "u011", Hash: "hk3", Description: "", Scopes: []string{store.ScopeRead, store.ScopeChallenge}, Created: at(14)},
	} {
		check(t, "create token", ftk.CreateToken(ctx, &tok), nil)
		if i == 1 {
			check(t, "use token", ftk.TokenUsed(ctx, tok.ID, at(15)), nil)
		}
	}
	fm, tm := implements[store.Moderation](t, from), implements[store.Moderation](t, to)
	check(t, "block", fm.Block(ctx, "u001", "u002"), nil)
	check(t, "block", fm.Block(ctx, "u001", "u200"), nil)
	check(t, "mute", fm.Restrict(ctx, store.Restriction{UserID: "u003", Muted: true}), nil)
	check(t, "report", fm.AddReport(ctx, &store.Report{ID: "r1", Reporter: "u001", Target: "u002", Game: "c004", Chat: "Nu002: rude", Reason: "insult", Created: at(3)}), nil)
	check(t, "report", fm.AddReport(ctx, &store.Report{ID: "r2", Reporter: "u004", Reason: "spam", Created: at(4)}), nil)
	check(t, "close report", fm.CloseReport(ctx, "r1", "warned", at(5)), nil)
	var moves int
	for i := range 230 { // more than one page
		g := NewGame(fmt.Sprintf("c%03d", i))
		g.Created, g.Updated = at(i), at(i)
		check(t, "create", from.Create(ctx, g), nil)
		for p := range i % 5 {
			var end *store.End
			if i%10 == 4 && p == 3 {
				end = &store.End{Outcome: "0-1 rules; Black wins", Resigned: -1}
			}
			check(t, "move", from.AppendMove(ctx, g.ID, p, fmt.Sprint("m", p), at(i+p), end), nil)
			moves++
		}
		if i%7 == 0 {
			check(t, "join", from.Join(ctx, g.ID, 1, "t", "bob", "u-bob", at(i+1)), nil)
		}
	}
	n, err := store.Copy(ctx, from, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Games != 230 || n.Moves != moves || n.Checked != 230 || n.Skipped != 0 {
		t.Fatalf("copied %+v; want 230 games, %d moves, 230 checked", n, moves)
	}
	if n.Accounts != users || n.AccountsChecked != users || n.Ratings != 4 || n.RatingPoints != 6 || n.RatedGames != 4 {
		t.Fatalf("copied %+v; want %d accounts with 4 ratings and 6 points of history, 4 rated games", n, users)
	}
	if n.Blocks != 2 || n.Restrictions != 1 || n.Reports != 2 {
		t.Fatalf("copied %+v; want 2 blocks, 1 restriction and 2 reports", n)
	}
	if rs, err := tm.Reports(ctx, false, 10); err != nil || len(rs) != 1 || rs[0].ID != "r2" {
		t.Fatalf("open reports in the copy: %+v, %v; want r2 alone", rs, err)
	}
	for _, u := range []string{"u001", "u200"} {
		want, err := fa.Ratings(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ta.Ratings(ctx, u); err != nil || !sameRatings(got, want) {
			t.Fatalf("ratings of %s in the copy: %+v, %v; want %+v", u, got, err, want)
		}
	}
	if h, err := ta.RatingHistory(ctx, "u001", "pogo"); err != nil || len(h) != 2 || h[1].GameID != "c014" || !h[1].At.Equal(at(6)) || h[1].Rating != 1500.25 {
		t.Fatalf("rating history of u001 in the copy: %+v, %v", h, err)
	}
	if u, err := ta.UserByName(ctx, "nu007"); err != nil || u.ID != "u007" || u.PasswordHash != "hu007" || !u.Created.Equal(at(7)) {
		t.Fatalf("account u007 in the copy: %+v, %v", u, err)
	}
	if n.Tokens != 3 {
		t.Fatalf("copied %+v; want 3 API tokens", n)
	}
	for _, name := range []string{"nu010", "nu011"} {
		want, err := fa.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ta.UserByName(ctx, name)
		if err != nil || got.Bot != want.Bot || got.NoRatedBots != want.NoRatedBots || !got.Seen.Equal(want.Seen) {
			t.Fatalf("account %s in the copy: %+v, %v; want %+v", name, got, err, want)
		}
		wantTokens, err := ftk.TokensOf(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		gotTokens, err := ttk.TokensOf(ctx, want.ID)
		if err != nil || len(gotTokens) != len(wantTokens) {
			t.Fatalf("tokens of %s in the copy: %v, %v; want %d", name, gotTokens, err, len(wantTokens))
		}
		for i := range wantTokens {
			if d := sameToken(gotTokens[i], wantTokens[i]); d != "" {
				t.Fatalf("token of %s in the copy: %s", name, d)
			}
		}
	}
	// Sessions stay behind: everyone signs in again on the new database.
	check(t, "session in the copy", func() error { _, err := ta.Session(ctx, "su007"); return err }(), store.ErrNotFound)
	// The marks of the games rated came along: none is rated twice.
	check(t, "rate c034 in the copy", ta.Rate(ctx, "c034", at(9), nil), store.ErrConflict)
	n, err = store.Copy(ctx, from, to, nil)
	if err != nil || n.Games != 0 || n.Skipped != 230 || n.Checked != 230 || n.Accounts != 0 || n.AccountsSkipped != users || n.RatedGames != 4 || n.Reports != 0 {
		t.Fatalf("copying again: %+v, %v; want 230 games and %d accounts skipped", n, err, users)
	}
	check(t, "create a clashing account", ta.CreateUser(ctx, &store.User{ID: "v1", Name: "Nu3", PasswordHash: "h", Created: base}), nil)
	check(t, "create it in the source", fa.CreateUser(ctx, &store.User{ID: "u3", Name: "Nu3", PasswordHash: "h", Created: base}), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "another account with this name") {
		t.Fatalf("copy onto a destination holding another account of the same name: %v", err)
	}
	check(t, "delete it", ta.DeleteUser(ctx, "v1", "gone"), nil)
	check(t, "change a password in the source", fa.SetPassword(ctx, "u005", "other"), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "u005") {
		t.Fatalf("copy onto a destination holding a different account: %v; want an error naming it", err)
	}
	check(t, "change it back", fa.SetPassword(ctx, "u005", "hu005"), nil)
	if n, err := store.Copy(ctx, from, to, nil); err != nil || n.Accounts != 1 {
		t.Fatalf("copy of one new account: %+v, %v", n, err)
	}
	check(t, "create in the destination", to.Create(ctx, NewGame("zzz")), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "zzz") {
		t.Fatalf("copy onto a destination holding another game: %v; want an error naming it", err)
	}
	check(t, "move in the source", from.AppendMove(ctx, "c001", 1, "m1", at(99), nil), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "c001") {
		t.Fatalf("copy onto a destination holding a different game: %v; want an error naming it", err)
	}
}

// sameRatings reports whether two lists of ratings are the same, times
// compared as instants.
func sameRatings(a, b []store.Rating) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x := a[i]
		if !x.Updated.Equal(b[i].Updated) {
			return false
		}
		x.Updated = b[i].Updated
		if x != b[i] {
			return false
		}
	}
	return true
}
