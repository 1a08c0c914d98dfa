package server_test

import (
	"context"
	"math"
	"net/http"
	"sync"
	"testing"
	"time"

	"stax/rating"
	"stax/server"
	"stax/server/ratings"
	"stax/server/store"
)

// TestRatedOnRestart: a rated game that finished without its rating (the
// server stopped between the two) is rated when servers start again, once,
// though two start together on the database and it restarts once more.
func TestRatedOnRestart(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts := startAccounts(t, db, clock)
	ts.annAndBob()
	acct := ts.store.(store.Accounts)
	ctx := context.Background()
	var seats []store.Seat
	for _, name := range []string{"ann", "bob"} {
		u, err := acct.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, store.Seat{Kind: "human", Name: name, User: u.ID, Joined: true})
	}
	ended := clock.Now().Truncate(time.Millisecond)
	// What a server leaves when it stops right after committing the end:
	// the game finished (bob resigned), no rating. Another, aborted, has
	// nothing to rate.
	for _, g := range []*store.Game{
		{ID: "unrated", Spec: "pogo", Seats: seats, Rated: true, Status: store.Finished, End: store.End{Outcome: "1-0 resignation; Black resigned", Resigned: 1}, Created: ended, Updated: ended},
		{ID: "aborted", Spec: "pogo", Seats: seats, Rated: true, Status: store.Finished, End: store.End{Outcome: "1/2-1/2 aborted", Resigned: -1}, Created: ended, Updated: ended},
	} {
		if err := ts.store.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	ts.stop()

	// Two servers start together on the database.
	var wg sync.WaitGroup
	started := make([]*testServer, 2)
	for i := range started {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started[i] = startAccounts(t, db, clock)
		}()
	}
	wg.Wait()
	if started[0] == nil || started[1] == nil {
		t.FailNow()
	}
	check := func(when string, p *player) {
		t.Helper()
		wantAnn, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 1}}, rating.DefaultTau)
		wantBob, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0}}, rating.DefaultTau)
		for _, tc := range []struct {
			name string
			want rating.Rating
		}{{"ann", wantAnn}, {"bob", wantBob}} {
			var prof ratings.Profile
			p.call("GET", "/api/users/"+tc.name, nil, http.StatusOK, &prof)
			if len(prof.Ratings) != 1 {
				t.Fatalf("%s: %s has ratings %+v; want one", when, tc.name, prof.Ratings)
			}
			r := prof.Ratings[0]
			if r.Games != 1 || r.Rating != tc.want.Rating || r.Deviation != tc.want.Deviation || len(r.History) != 1 || r.History[0].Game != "unrated" || !r.History[0].At.Equal(ended) {
				t.Fatalf("%s: %s: %+v; want %v after the one game, rated as of its end", when, tc.name, r, tc.want)
			}
		}
	}
	check("after two servers started", started[0].player("x"))
	for _, ts := range started {
		ts.stop()
	}
	ts = startAccounts(t, db, clock)
	check("after another restart", ts.player("x"))
	gs, err := ts.store.(store.Accounts).Unrated(ctx, 10)
	if err != nil || len(gs) != 0 {
		t.Fatalf("games still unrated: %v, %v; want none (the aborted one settled)", gs, err)
	}
}

// seatsOf returns the seats of ann (0) and bob (1) in a stored game.
func seatsOf(t *testing.T, ts *testServer, names ...string) []store.Seat {
	t.Helper()
	var seats []store.Seat
	for _, name := range names {
		u, err := ts.store.(store.Accounts).UserByName(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, store.Seat{Kind: "human", Name: name, User: u.ID, Joined: true})
	}
	return seats
}

// TestRatedInEndOrder: two rated games left unrated by an instance that
// stopped are rated by the instance still running, without a restart, in
// the order they ended and each with the ratings of its end (ann's second
// game uses her rating after the first, aged by the day between them),
// before a later game of theirs.
func TestRatedInEndOrder(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	// No sweep during the test: the next game's end rates the games left
	// unrated, as the running instance's janitor would within a minute.
	ts := startServer(t, db, server.Config{Now: clock.Now, PasswordParams: cheapPasswords, SweepEvery: time.Hour})
	ann, bob := ts.annAndBob()
	ctx := context.Background()
	seats := seatsOf(t, ts, "ann", "bob")
	first := clock.Now().Truncate(time.Millisecond)
	second := first.Add(24 * time.Hour)
	// The second game is written first: the order is the games' ends.
	for _, g := range []*store.Game{
		{ID: "second", Spec: "pogo", Seats: seats, Rated: true, Status: store.Finished, End: store.End{Outcome: "0-1 resignation; White resigned", Resigned: 0}, Created: second, Updated: second},
		{ID: "first", Spec: "pogo", Seats: seats, Rated: true, Status: store.Finished, End: store.End{Outcome: "1-0 resignation; Black resigned", Resigned: 1}, Created: first, Updated: first},
	} {
		if err := ts.store.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(48 * time.Hour)
	a1, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 1}}, rating.DefaultTau)
	b1, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0}}, rating.DefaultTau)
	a1d, b1d := rating.Age(a1, 1), rating.Age(b1, 1)
	a2, _ := rating.Update(a1d, []rating.Result{{Opponent: b1d, Score: 0}}, rating.DefaultTau)
	// A rated game ends on the running instance (ann resigns): the two
	// left unrated are rated first, in the order they ended.
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "rated": true, "days": 7, "seat": 0})
	wa := ann.game(id)
	wa.hello()
	wa.send(map[string]any{"type": "resign"})
	wa.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	var prof ratings.Profile
	ts.call("GET", "/api/users/ann", nil, http.StatusOK, &prof)
	if len(prof.Ratings) != 1 || prof.Ratings[0].Games != 3 {
		t.Fatalf("ann's ratings %+v; want the three games rated", prof.Ratings)
	}
	h := prof.Ratings[0].History
	if len(h) != 3 || h[0].Game != "first" || h[1].Game != "second" || h[2].Game != id || !h[1].At.Equal(second) {
		t.Fatalf("ann's history %+v; want first, second, then the game just ended, dated at their ends", h)
	}
	if math.Abs(h[1].Rating-a2.Rating) > 1e-9 || math.Abs(h[1].Deviation-a2.Deviation) > 1e-9 {
		t.Fatalf("ann after the second game %v/%v; want %v (her rating after the first, a day older)", h[1].Rating, h[1].Deviation, a2)
	}
}

// TestRatingsAge: a rating left alone grows less certain by a rating
// period a day, as Glicko-2 prescribes, in profiles and before the next
// game; the leaderboard leaves out players inactive for a month.
func TestRatingsAge(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ts.annAndBob()
	ctx := context.Background()
	seats := seatsOf(t, ts, "ann", "bob")
	settled := func(id string, r float64) store.Rating {
		return store.Rating{UserID: id, Pool: "pogo", Rating: r, Deviation: 60, Volatility: 0.06, Games: 1}
	}
	now := clock.Now().Truncate(time.Millisecond)
	if err := ts.store.(store.Accounts).Rate(ctx, "seed", now, []store.Rating{settled(seats[0].User, 1900), settled(seats[1].User, 1700)}); err != nil {
		t.Fatal(err)
	}
	board := func() []string {
		var lb struct{ Ratings []ratings.PoolRating }
		ts.call("GET", "/api/leaderboard/pogo", nil, http.StatusOK, &lb)
		var names []string
		for _, r := range lb.Ratings {
			names = append(names, r.Name)
		}
		return names
	}
	if got := board(); len(got) != 2 {
		t.Fatalf("leaderboard %v; want ann and bob", got)
	}
	clock.Advance(10 * 24 * time.Hour)
	var prof ratings.Profile
	ts.call("GET", "/api/users/ann", nil, http.StatusOK, &prof)
	want := rating.Age(rating.Rating{Rating: 1900, Deviation: 60, Volatility: 0.06}, 10)
	if r := prof.Ratings[0]; math.Abs(r.Deviation-want.Deviation) > 1e-9 || r.Rating != 1900 {
		t.Fatalf("ann after 10 idle days: %v/%v; want %v", r.Rating, r.Deviation, want)
	}
	clock.Advance(21 * 24 * time.Hour)
	if got := board(); len(got) != 0 {
		t.Fatalf("leaderboard after a month without games %v; want nobody", got)
	}
}
