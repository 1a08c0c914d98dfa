package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/store"
	"stax/server/store/pgtest"
	"stax/server/store/sqlite"
)

// playedGames returns stored games of every family, played with random
// legal moves: finished by the rules, by resignation, and unfinished.
func playedGames(t *testing.T) []*store.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	created := time.UnixMilli(1_700_000_000_000).UTC()
	var out []*store.Game
	specs := []string{"pogo", "pogo(u=false)", "pisola", "pisola(size=8,roofs=true)", "diam", "diam(players=4,teams=true)"}
	for i, spec := range specs {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		for k, how := range []string{"rules", "resigned", "playing"} {
			h := game.NewHistory(g, nil)
			sg := &store.Game{ID: fmt.Sprintf("g%d%d", i, k), Spec: game.SpecOf(g).String(), Created: created, End: store.End{Outcome: "*", Resigned: -1}}
			for p := range g.Players() {
				st := store.Seat{Kind: "human", Name: fmt.Sprint("player ", p), TokenHash: fmt.Sprint("hash", p), InviteHash: fmt.Sprint("inv", p), Joined: p%3 != 2}
				if p%2 == 1 {
					st = store.Seat{Kind: "ai", Level: "easy", Joined: true}
				}
				sg.Seats = append(sg.Seats, st)
			}
			limit := 1000
			if how != "rules" {
				limit = 12
			}
			at := created
			for !h.Over() && h.Ply() < limit {
				moves := h.State().Legal(nil)
				m := moves[rng.IntN(len(moves))]
				sg.Moves = append(sg.Moves, h.State().FormatMove(m))
				if err := h.PlayMove(m); err != nil {
					t.Fatal(err)
				}
				at = at.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
				sg.MoveTimes = append(sg.MoveTimes, at)
			}
			if how == "rules" && !h.Over() {
				t.Fatalf("%s: no end after %d plies", spec, h.Ply())
			}
			if how == "resigned" {
				h.Resign(0, game.ByResignation, g.PlayerName(0)+" resigned")
			}
			sg.Ply, sg.Status, sg.Updated = len(sg.Moves), store.Playing, at
			if o := h.Outcome(); o.Over() {
				sg.Status = store.Finished
				sg.End = store.End{Outcome: o.String(), Resigned: -1}
				if how == "resigned" {
					sg.End.Resigned = 0
				}
			}
			out = append(out, sg)
		}
	}
	return out
}

// TestDBCopy copies a SQLite database with games of every family, two
// accounts and a rated game between them to PostgreSQL and back to a new
// SQLite file: every record arrives identical.
func TestDBCopy(t *testing.T) {
	pg := pgtest.URL(t)
	dir := t.TempDir()
	src, back := filepath.Join(dir, "src.db"), filepath.Join(dir, "back.db")
	want := playedGames(t)
	ctx := context.Background()
	st, err := sqlite.Open(src, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two accounts play the first Pogo game, rated, finished by the rules.
	rated := want[0]
	rated.Rated = true
	for p, u := range []string{"uid-ann", "uid-bob"} {
		if err := st.CreateUser(ctx, &store.User{ID: u, Name: u[4:], PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$" + u, Created: rated.Created}); err != nil {
			t.Fatal(err)
		}
		rated.Seats[p] = store.Seat{Kind: "human", Name: u[4:], TokenHash: fmt.Sprint("hash", p), Joined: true, User: u}
	}
	var moves int
	for _, g := range want {
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		moves += len(g.Moves)
	}
	if err := st.Rate(ctx, rated.ID, rated.Updated, []store.Rating{
		{UserID: "uid-ann", Pool: "pogo", Rating: 1662.3108939062977, Deviation: 290.31896371798047, Volatility: 0.059999, Games: 1},
		{UserID: "uid-bob", Pool: "pogo", Rating: 1337.6891060937023, Deviation: 290.31896371798047, Volatility: 0.059999, Games: 1},
	}); err != nil {
		t.Fatal(err)
	}
	wantAccounts, err := st.ListAccounts(ctx, "", 10)
	if err != nil || len(wantAccounts) != 2 {
		t.Fatalf("accounts of the source: %v, %v", wantAccounts, err)
	}
	st.Close()

	for _, step := range []struct{ from, to string }{{src, pg}, {pg, back}} {
		var out bytes.Buffer
		if err := run(&env{stdout: &out, stderr: io.Discard}, []string{"db", "copy", "--from", step.from, "--to", step.to}); err != nil {
			t.Fatalf("copy %s to %s: %v", step.from, step.to, err)
		}
		wantOut := fmt.Sprintf("copied %d games (%d moves) and 2 accounts (2 ratings, 2 points of rating history)", len(want), moves)
		if !strings.Contains(out.String(), wantOut) || !strings.Contains(out.String(), fmt.Sprintf("all %d games, 2 accounts and 1 marks of rated games checked", len(want))) {
			t.Fatalf("copy printed %q; want %q and the check", out.String(), wantOut)
		}
	}
	st, err = sqlite.Open(back, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.List(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d games came back; want %d", len(got), len(want))
	}
	for i, g := range got {
		if d := store.Diff(g, want[i]); d != "" {
			t.Fatalf("game %s after the round trip: %s", g.ID, d)
		}
	}
	gotAccounts, err := st.ListAccounts(ctx, "", 10)
	if err != nil || len(gotAccounts) != 2 {
		t.Fatalf("accounts after the round trip: %v, %v", gotAccounts, err)
	}
	for i, a := range gotAccounts {
		if w := wantAccounts[i]; a.User != w.User || !reflect.DeepEqual(a.Ratings, w.Ratings) || !reflect.DeepEqual(a.History, w.History) {
			t.Fatalf("account after the round trip: %+v; want %+v", a, w)
		}
	}
	if marks, err := st.RatedGames(ctx, "", 10); err != nil || len(marks) != 1 || marks[0].GameID != rated.ID || !marks[0].At.Equal(rated.Updated) {
		t.Fatalf("rated games after the round trip: %+v, %v; want %s", marks, err, rated.ID)
	}

	// Running a copy again finds everything there already.
	var out bytes.Buffer
	if err := run(&env{stdout: &out, stderr: io.Discard}, []string{"db", "copy", "--from", src, "--to", pg}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("copied 0 games (0 moves) and 0 accounts (0 ratings, 0 points of rating history) from %s to", src)) ||
		!strings.Contains(out.String(), fmt.Sprintf("%d games and 2 accounts were there already", len(want))) {
		t.Fatalf("copying again printed %q", out.String())
	}
}

// TestDBCopyErrors checks the command line's mistakes.
func TestDBCopyErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"db"}, "want a database command"},
		{[]string{"db", "move"}, "want a database command"},
		{[]string{"db", "copy", "--from", "a.db"}, "--from and --to are required"},
		{[]string{"db", "copy", "--from", "a.db", "--to", "a.db"}, "the same database"},
		{[]string{"db", "copy", "--from", filepath.Join(dir, "missing.db"), "--to", filepath.Join(dir, "b.db")}, "no such file"},
	} {
		err := run(&env{stdout: io.Discard, stderr: io.Discard}, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("stax %s: %v; want an error saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
