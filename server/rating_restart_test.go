package server_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"stax/rating"
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
