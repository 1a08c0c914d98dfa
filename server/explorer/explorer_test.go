package explorer_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/explorer"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// fakeAnalyst calls every legal move a win in 5 from the table.
type fakeAnalyst struct{}

func (fakeAnalyst) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	var a search.Analysis
	for _, m := range pos.State.Legal(nil) {
		a.Moves = append(a.Moves, search.MoveVerdict{Move: m, Score: search.WinIn(5), Source: search.FromTable})
	}
	a.Exact = true
	return a, nil
}

var base = time.UnixMilli(1_700_000_000_000).UTC()

// played stores a finished two-player Pogo game of moves with outcome.
func played(t *testing.T, st *sqlite.Store, id string, sec int, rated bool, users [2]string, outcome string, moves ...string) {
	t.Helper()
	ctx := context.Background()
	g := &store.Game{ID: id, Spec: "pogo", Status: store.Playing, Created: base, Updated: base, Rated: rated,
		Seats: []store.Seat{{Kind: "human", Name: "a", TokenHash: "ta" + id, Joined: true, User: users[0]}, {Kind: "human", Name: "b", TokenHash: "tb" + id, Joined: true, User: users[1]}},
		End:   store.End{Outcome: "*", Resigned: -1}}
	if err := st.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	at := base.Add(time.Duration(sec) * time.Second)
	for ply, m := range moves {
		if err := st.AppendMove(ctx, id, ply, m, at, nil); err != nil {
			t.Fatal(err)
		}
	}
	if outcome != "" {
		if err := st.Finish(ctx, id, len(moves), store.End{Outcome: outcome, Resigned: -1}, at); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExplorer plays known games into a store, indexes them and checks
// the explorer's counts, results, average ratings and verdicts.
func TestExplorer(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "explorer.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, u := range []string{"u1", "u2"} {
		if err := st.CreateUser(ctx, &store.User{ID: u, Name: u, PasswordHash: "h", Created: base}); err != nil {
			t.Fatal(err)
		}
	}
	none := [2]string{}
	// Two casual games from the start with 1a1-a2: White wins the first
	// and loses the second; a rated draw, whose players had played a
	// rated game before; an aborted game; a game being played; and a
	// casual game that comes back to the start and plays 1a1-a2 twice.
	played(t, st, "a", 1, false, none, "1-0 resignation; Black resigned", "1a1-a2", "1c3-c2")
	played(t, st, "b", 2, false, none, "0-1 resignation; White resigned", "1a1-a2", "1a3-a2")
	played(t, st, "c", 3, true, [2]string{"u1", "u2"}, "1/2-1/2 agreement", "1a1-a2", "1c3-c2", "1a2-a1")
	played(t, st, "d", 4, false, none, "1/2-1/2 aborted", "1a1-a2")
	played(t, st, "e", 5, false, none, "", "1a1-a2")
	played(t, st, "f", 6, false, none, "0-1 resignation; White resigned", "1a1-a2", "1c3-c2", "1a2-a1", "1c2-c3", "1a1-a2")
	// u1 was rated 1600 after an earlier game; u2's first rated game is c.
	if err := st.Rate(ctx, "earlier", base, []store.Rating{{UserID: "u1", Pool: "pogo", Rating: 1600, Deviation: 200, Volatility: 0.06, Games: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Rate(ctx, "c", base.Add(3*time.Second), []store.Rating{
		{UserID: "u1", Pool: "pogo", Rating: 1590, Deviation: 190, Volatility: 0.06, Games: 2},
		{UserID: "u2", Pool: "pogo", Rating: 1510, Deviation: 300, Volatility: 0.06, Games: 1}}); err != nil {
		t.Fatal(err)
	}
	x := explorer.New(explorer.Config{Store: st, Ratings: st, PoolOf: func(g game.Game) string { return g.Info().Name }, Games: games.All(), Analyst: fakeAnalyst{}, Burst: 100})
	n, err := x.IndexMissed(ctx, 0)
	if err != nil || n != 5 {
		t.Fatalf("IndexMissed = %d, %v; want 5 games (a, b, c, d aborted and f; not e, being played)", n, err)
	}
	if n, err := x.IndexMissed(ctx, 0); err != nil || n != 0 {
		t.Fatalf("IndexMissed again = %d, %v; want none", n, err)
	}
	m := http.NewServeMux()
	x.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()
	ask := func(query string, want int) explorer.Answer {
		t.Helper()
		res, err := http.Get(ts.URL + "/api/explorer?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var a explorer.Answer
		json.NewDecoder(res.Body).Decode(&a)
		if res.StatusCode != want {
			t.Fatalf("GET /api/explorer?%s: %d; want %d", query, res.StatusCode, want)
		}
		return a
	}
	start := ask("spec=pogo", 200)
	if start.Games != 4 || len(start.Moves) != 1 || start.Moves[0].Move != "1a1-a2" {
		t.Fatalf("the start: %+v; want 1a1-a2 in 4 games (f counts once)", start)
	}
	first := start.Moves[0]
	if want := (explorer.Stats{Games: 3, Wins: 1, Losses: 2}); first.Casual != want {
		t.Errorf("1a1-a2 in casual games: %+v; want %+v", first.Casual, want)
	}
	if want := (explorer.Stats{Games: 1, Draws: 1, AverageRating: 1600}); first.Rated != want {
		t.Errorf("1a1-a2 in rated games: %+v; want %+v (u1's rating before c)", first.Rated, want)
	}
	if first.Verdict == nil || first.Verdict.Score != search.WinIn(5) || !start.Exact || len(start.Unplayed) == 0 {
		t.Errorf("the verdicts: %+v, exact %v, unplayed %d", first.Verdict, start.Exact, len(start.Unplayed))
	}
	after := ask("spec=pogo&moves=1a1-a2", 200)
	byMove := map[string]explorer.Move{}
	for _, mv := range after.Moves {
		byMove[mv.Move] = mv
	}
	if after.Games != 4 || byMove["1c3-c2"].Games != 3 || byMove["1a3-a2"].Games != 1 || after.Moves[0].Move != "1c3-c2" {
		t.Fatalf("after 1a1-a2: %+v; want 1c3-c2 in 3 games first, 1a3-a2 in 1", after)
	}
	// Black's results: a lost (White won), c drawn, f won.
	c := byMove["1c3-c2"]
	if c.Casual.Wins != 1 || c.Casual.Losses != 1 || c.Rated.Draws != 1 || math.Abs(c.Rated.AverageRating-1500) > 1e-9 {
		t.Errorf("1c3-c2: %+v; want a win and a loss casual, a draw rated by a new player (1500)", c)
	}
	same := ask("spec=pogo&position="+url.QueryEscape("bb,bb,bb/-,-,-/ww,ww,ww w"), 200)
	if same.Games != start.Games {
		t.Errorf("the start given as a position: %d games; want %d", same.Games, start.Games)
	}
	if other := ask("spec="+url.QueryEscape("pogo(u=false)"), 200); other.Games != 0 {
		t.Errorf("another variant: %+v; want no games", other)
	}
	for _, q := range []string{"spec=chess", "spec=pogo&position=nonsense", "spec=pogo&moves=9z9-z9", "spec=pogo&moves=" + strings.Repeat("1a1-a2,", 1001)} {
		ask(q, 400)
	}
}

// TestEntries: a game called off adds nothing, and a position and move
// met twice count once.
func TestEntries(t *testing.T) {
	g, err := games.All().Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{"1a1-a2", "1c3-c2", "1a2-a1", "1c2-c3", "1a1-a2"}
	for _, tc := range []struct {
		outcome string
		want    int
	}{
		{"1-0 resignation", 4},
		{"1/2-1/2 aborted", 0},
	} {
		es, err := explorer.Entries(g, &store.Game{Spec: "pogo", Moves: moves, End: store.End{Outcome: tc.outcome}}, []float64{1500, 0})
		if err != nil || len(es) != tc.want {
			t.Fatalf("Entries(%s) = %+v, %v; want %d", tc.outcome, es, err, tc.want)
		}
		if tc.want > 0 && (es[0].Result != 1 || es[0].Rating != 1500 || es[1].Result != -1 || es[1].Rating != 0) {
			t.Errorf("Entries(%s) = %+v; want White's win at 1500 and Black's loss unrated", tc.outcome, es)
		}
	}
	if _, err := explorer.Entries(g, &store.Game{Spec: "pogo", Moves: []string{"9z9-z9"}, End: store.End{Outcome: "1-0 resignation"}}, nil); err == nil {
		t.Error("Entries of an illegal move: no error")
	}
}
