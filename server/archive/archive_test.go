package archive_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/archive"
	"stax/server/catalog"
	"stax/server/httpx/httpxtest"
	"stax/server/store"
	"stax/server/store/sqlite"
	"stax/server/view"
)

// turns answers whose turn it is in the games being played: the account
// to move by game id.
type turns map[string]string

func (f turns) Turn(_ context.Context, id string) (int, int, string, bool) {
	user, ok := f[id]
	return 1, 7, user, ok
}

// site serves the archive alone, on a store with two accounts.
type site struct {
	url   string
	st    *sqlite.Store
	turns turns
	users httpxtest.Sessions
}

func newSite(t *testing.T) *site {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "archive.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &site{st: st, turns: turns{}, users: httpxtest.Sessions{}}
	for _, name := range []string{"ann", "bob"} {
		u := &store.User{ID: "id-" + name, Name: name, PasswordHash: "x", Created: time.Now().UTC().Truncate(time.Millisecond)}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		s.users[name] = u
	}
	a := archive.New(archive.Config{Store: st, Users: st, Games: games.All(), Sessions: s.users,
		Catalog: catalog.New(catalog.Config{Games: games.All(), Levels: func(game.Game) []string { return []string{"random"} }}), Turns: s.turns})
	m := http.NewServeMux()
	a.Routes(m)
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

// game stores a game of Pogo between ann and bob.
func (s *site) game(t *testing.T, id, status string, at time.Time) {
	t.Helper()
	g := &store.Game{ID: id, Spec: "pogo", Status: status, Created: at, Updated: at,
		Seats: []store.Seat{{Kind: "human", Name: "ann", User: "id-ann", Joined: true}, {Kind: "human", Name: "bob", User: "id-bob", Joined: true}}}
	g.End.Resigned = -1
	if status == store.Finished {
		g.End = store.End{Outcome: "1-0 resign", Resigned: 1}
	}
	if err := s.st.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}

// TestMyGames checks the order of a player's games: those waiting for
// their move first, then the other ongoing ones, then the finished ones;
// and the recent games' limits.
func TestMyGames(t *testing.T) {
	s := newSite(t)
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	s.game(t, "finished", store.Finished, t0.Add(3*time.Minute))
	s.game(t, "bobs-turn", store.Playing, t0.Add(2*time.Minute))
	s.game(t, "anns-turn", store.Playing, t0.Add(time.Minute))
	s.turns["bobs-turn"], s.turns["anns-turn"] = "id-bob", "id-ann"
	var mine struct{ Games []view.Summary }
	httpxtest.Call(t, s.url, "ann", "GET", "/api/me/games", nil, http.StatusOK, &mine)
	var ids []string
	for _, g := range mine.Games {
		ids = append(ids, g.ID)
	}
	if len(ids) != 3 || ids[0] != "anns-turn" || ids[1] != "bobs-turn" || ids[2] != "finished" {
		t.Fatalf("ann's games %v; want anns-turn, bobs-turn, finished", ids)
	}
	if g := mine.Games[0]; !g.YourMove || g.ToMove == nil || *g.ToMove != 1 || g.Ply != 7 {
		t.Fatalf("the game waiting for ann: %+v; want her move, seat 1 at ply 7", g)
	}
	if mine.Games[1].YourMove {
		t.Fatalf("bob's turn shown as ann's: %+v", mine.Games[1])
	}
	httpxtest.Call(t, s.url, "", "GET", "/api/me/games", nil, http.StatusUnauthorized, nil)

	var recent struct{ Games []view.Summary }
	httpxtest.Call(t, s.url, "", "GET", "/api/recent?limit=2", nil, http.StatusOK, &recent)
	if len(recent.Games) != 2 {
		t.Fatalf("%d recent games; want the 2 asked for", len(recent.Games))
	}
	httpxtest.Call(t, s.url, "", "GET", "/api/recent?status=finished", nil, http.StatusOK, &recent)
	if len(recent.Games) != 1 || recent.Games[0].ID != "finished" {
		t.Fatalf("recent finished games %+v; want the finished one", recent.Games)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "status=lost"} {
		httpxtest.Call(t, s.url, "", "GET", "/api/recent?"+q, nil, http.StatusBadRequest, nil)
	}
}

// TestImport checks that a finished game played offline is kept in the
// player's account after its moves replay by the rules, and that an
// unfinished, illegal or mis-seated one, or one from a guest, is refused
// with a clear error.
func TestImport(t *testing.T) {
	s := newSite(t)
	spec := "pogo(maxplies=10)"
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start()
	var moves []string
	for !st.Terminal() && len(moves) < 10 {
		m := st.Legal(nil)[0]
		moves = append(moves, st.FormatMove(m))
		st.Apply(m)
	}
	for _, c := range []struct {
		user string
		req  archive.ImportRequest
		code int
		says string
	}{
		{"", archive.ImportRequest{Spec: spec, Moves: moves, Level: "random"}, http.StatusUnauthorized, "not signed in"},
		{"ann", archive.ImportRequest{Spec: spec, Moves: moves[:3], Level: "random"}, http.StatusBadRequest, "not over"},
		{"ann", archive.ImportRequest{Spec: spec, Moves: append([]string{"9z9-z9"}, moves...), Level: "random"}, http.StatusBadRequest, "move 1"},
		{"ann", archive.ImportRequest{Spec: spec, Moves: moves, Seat: 2, Level: "random"}, http.StatusBadRequest, "seat 2"},
		{"ann", archive.ImportRequest{Spec: spec, Moves: moves, Level: "grandmaster"}, http.StatusBadRequest, "level"},
		{"ann", archive.ImportRequest{Spec: "chess", Moves: moves, Level: "random"}, http.StatusBadRequest, "chess"},
	} {
		code, body := httpxtest.Do(t, s.url, c.user, "POST", "/api/games/import", c.req)
		if code != c.code || !bytes.Contains(body, []byte(c.says)) {
			t.Errorf("import %+v as %q: %d %s; want %d saying %q", c.req, c.user, code, body, c.code, c.says)
		}
	}
	var got archive.ImportResponse
	httpxtest.Call(t, s.url, "ann", "POST", "/api/games/import", archive.ImportRequest{Spec: spec, Moves: moves, Level: "random"}, http.StatusCreated, &got)
	sg, err := s.st.Get(context.Background(), got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sg.Status != store.Finished || sg.Rated || len(sg.Moves) != len(moves) || sg.Seats[0].User != "id-ann" || sg.Seats[1].Level != "random" {
		t.Fatalf("kept %+v; want ann's finished unrated game of %d moves against random", sg, len(moves))
	}
}
