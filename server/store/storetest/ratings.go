package storetest

import (
	"context"
	"reflect"
	"testing"

	"stax/server/store"
)

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
	lb, err := a.Leaderboard(ctx, "pogo", 1000, at(0), 10)
	var names []string
	for _, x := range lb {
		names = append(names, x.Name)
	}
	if err != nil || !reflect.DeepEqual(names, []string{"Na", "Nc", "Nb"}) {
		t.Fatalf("Leaderboard(pogo) = %v, %v; want [Na Nc Nb]", names, err)
	}
	lb, err = a.Leaderboard(ctx, "pogo", 260, at(0), 1)
	if err != nil || len(lb) != 1 || lb[0].Name != "Na" {
		t.Fatalf("Leaderboard(pogo, deviation <= 260, 1) = %v, %v; want [Na]", lb, err)
	}
	// b was last rated at 1 s: a leaderboard of those active since 2 s
	// leaves b out.
	lb, err = a.Leaderboard(ctx, "pogo", 1000, at(2), 10)
	if err != nil || len(lb) != 2 || lb[0].Name != "Na" || lb[1].Name != "Nc" {
		t.Fatalf("Leaderboard(pogo, active since 2 s) = %v, %v; want [Na Nc]", lb, err)
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
