package puzzles_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/puzzle"
	"stax/rating"
	"stax/search"
	"stax/server/httpx/httpxtest"
	"stax/server/puzzles"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// fakeRefuter answers every position with its first legal move, a win
// in 5 for the side to move, and that move alone as the line.
type fakeRefuter struct{ calls int }

func (f *fakeRefuter) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	f.calls++
	m := pos.State.Legal(nil)[0]
	return search.Analysis{Moves: []search.MoveVerdict{{Move: m, Score: search.WinIn(5), Source: search.FromTable}}, Exact: true, Line: []game.Move{m}}, nil
}

// site serves the puzzles alone on a real SQLite store, with fakes of the
// accounts and the analyst, at a clock the test moves.
type site struct {
	ts       *httptest.Server
	refuter  *fakeRefuter
	now      time.Time
	builtin  []puzzle.Puzzle
	puzzles  *puzzles.Puzzles
	sessions httpxtest.Sessions
	store    *sqlite.Store
}

func newSite(t *testing.T) *site {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "puzzles.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &site{refuter: &fakeRefuter{}, now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), sessions: httpxtest.Sessions{}, store: st}
	for _, name := range []string{"ann", "bob", "cy"} {
		u := &store.User{ID: "id-" + name, Name: name, PasswordHash: "x", Created: s.now}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		s.sessions[name] = u
	}
	if s.builtin, err = puzzle.Builtin(); err != nil {
		t.Fatal(err)
	}
	s.puzzles, err = puzzles.New(puzzles.Config{Store: st, Games: games.All(), Sessions: s.sessions, Users: st, Refuter: s.refuter,
		MoveBurst: 1000, Now: func() time.Time { return s.now }})
	if err != nil {
		t.Fatal(err)
	}
	m := http.NewServeMux()
	s.puzzles.Routes(m)
	s.ts = httptest.NewServer(m)
	t.Cleanup(s.ts.Close)
	return s
}

// call sends a request as user ("" for a guest) and decodes the answer
// into out, failing unless the status is want.
func (s *site) call(t *testing.T, user, method, path string, body any, want int, out any) {
	t.Helper()
	httpxtest.Call(t, s.ts.URL, user, method, path, body, want, out)
}

// first returns the first puzzle of a spec with a reply in its solution,
// else its first puzzle.
func (s *site) first(t *testing.T, spec string) puzzle.Puzzle {
	t.Helper()
	var found []puzzle.Puzzle
	for _, p := range s.builtin {
		if p.Spec == spec {
			found = append(found, p)
		}
	}
	for _, p := range found {
		if len(p.Solution) >= 3 {
			return p
		}
	}
	if len(found) > 0 {
		return found[0]
	}
	t.Fatalf("no puzzle of %s", spec)
	return puzzle.Puzzle{}
}

// expected returns the ratings rating.Update gives after a player of pl
// scored score against a puzzle of pz.
func expected(t *testing.T, pl, pz puzzles.Glicko, score float64) (puzzles.Glicko, puzzles.Glicko) {
	t.Helper()
	a := rating.Rating{Rating: pl.Rating, Deviation: pl.Deviation, Volatility: pl.Volatility}
	b := rating.Rating{Rating: pz.Rating, Deviation: pz.Deviation, Volatility: pz.Volatility}
	na, err1 := rating.Update(a, []rating.Result{{Opponent: b, Score: score}}, rating.DefaultTau)
	nb, err2 := rating.Update(b, []rating.Result{{Opponent: a, Score: 1 - score}}, rating.DefaultTau)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	return puzzles.Glicko{Rating: na.Rating, Deviation: na.Deviation, Volatility: na.Volatility},
		puzzles.Glicko{Rating: nb.Rating, Deviation: nb.Deviation, Volatility: nb.Volatility}
}

func near(a, b puzzles.Glicko) bool {
	return math.Abs(a.Rating-b.Rating) < 1e-6 && math.Abs(a.Deviation-b.Deviation) < 1e-6 && math.Abs(a.Volatility-b.Volatility) < 1e-9
}

// wrongMove returns a legal first move of p that is not the solution's.
func wrongMove(t *testing.T, p puzzle.Puzzle) string {
	t.Helper()
	g, err := games.All().Load(p.Spec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.ParseState(p.Position)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range st.Legal(nil) {
		if text := st.FormatMove(m); text != p.Solution[0] {
			return text
		}
	}
	t.Fatalf("puzzle %s has one legal move", p.ID)
	return ""
}

// TestSolveAndFail solves a puzzle of each game as one player and fails
// it as another: the replies are the solution's, and each first attempt
// changes both ratings as rating.Update says; a second attempt and a
// guest's change nothing.
func TestSolveAndFail(t *testing.T) {
	s := newSite(t)
	// Bob's rating as his last failure left it, and when.
	bobLast := puzzles.Glicko{Rating: rating.DefaultRating, Deviation: rating.DefaultDeviation, Volatility: rating.DefaultVolatility}
	var bobAt time.Time
	for _, spec := range []string{"pogo", "diam", "diam(drop=any)", "pisola"} {
		t.Run(spec, func(t *testing.T) {
			p := s.first(t, spec)
			var shown puzzles.Puzzle
			s.call(t, "ann", "GET", "/api/puzzles/"+p.ID, nil, 200, &shown)
			if shown.Position != p.Position || shown.Moves != (len(p.Solution)+1)/2 || shown.Player == nil || shown.Attempted || shown.View == nil {
				t.Fatalf("puzzle shown %+v", shown)
			}
			annBefore := puzzles.Glicko{Rating: shown.Player.Rating, Deviation: shown.Player.Deviation, Volatility: shown.Player.Volatility}
			puzzleBefore := puzzles.Glicko{Rating: float64(p.Rating), Deviation: puzzles.StartDeviation, Volatility: rating.DefaultVolatility}
			var res puzzles.MoveResult
			for ply := 0; ply < len(p.Solution); ply += 2 {
				s.call(t, "ann", "POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: p.Solution[:ply+1]}, 200, &res)
				if ply+1 < len(p.Solution) && (res.Result != puzzles.Right || res.Reply != p.Solution[ply+1] || res.ReplyView == nil || res.Rating != nil) {
					t.Fatalf("move %d: %+v; want right, answered by %s", ply+1, res, p.Solution[ply+1])
				}
			}
			if res.Result != puzzles.Solved || !slices.Equal(res.Solution, p.Solution) || res.Rating == nil || !res.Rating.Solved {
				t.Fatalf("the last move: %+v; want solved and rated", res)
			}
			annAfter, puzzleAfter := expected(t, annBefore, puzzleBefore, 1)
			if !near(res.Rating.PlayerBefore, annBefore) || !near(res.Rating.PuzzleBefore, puzzleBefore) || !near(res.Rating.PlayerAfter, annAfter) || !near(res.Rating.PuzzleAfter, puzzleAfter) {
				t.Fatalf("ann's rating change %+v; want %v -> %v and the puzzle %v -> %v", res.Rating, annBefore, annAfter, puzzleBefore, puzzleAfter)
			}

			// Bob fails it: the puzzle's rating is the one ann left.
			wrong := wrongMove(t, p)
			calls := s.refuter.calls
			s.call(t, "bob", "POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: []string{wrong}}, 200, &res)
			if res.Result != puzzles.Wrong || res.Move != wrong || !slices.Equal(res.Solution, p.Solution) || res.Rating == nil || res.Rating.Solved {
				t.Fatalf("a wrong move: %+v; want wrong, with the solution, rated", res)
			}
			if res.Refutation == nil || len(res.Refutation.Line) != 1 || res.Refutation.Score != search.WinIn(5) || !res.Refutation.Exact || s.refuter.calls != calls+1 {
				t.Fatalf("the refutation %+v; want the analyst's", res.Refutation)
			}
			// Between two attempts bob's deviation grows (rating.Age).
			bobBefore := bobLast
			if !bobAt.IsZero() {
				aged := rating.Age(rating.Rating{Rating: bobLast.Rating, Deviation: bobLast.Deviation, Volatility: bobLast.Volatility}, float64(s.now.Sub(bobAt))/float64(puzzles.RatingPeriod))
				bobBefore.Deviation = aged.Deviation
			}
			bobAfter, puzzleAfter2 := expected(t, bobBefore, puzzleAfter, 0)
			if !near(res.Rating.PuzzleBefore, puzzleAfter) || !near(res.Rating.PlayerAfter, bobAfter) || !near(res.Rating.PuzzleAfter, puzzleAfter2) {
				t.Fatalf("bob's rating change %+v; want %v -> %v and the puzzle %v -> %v", res.Rating, bobBefore, bobAfter, puzzleAfter, puzzleAfter2)
			}
			if bobAfter.Rating >= bobBefore.Rating || puzzleAfter2.Rating <= puzzleAfter.Rating {
				t.Fatalf("a failure raised bob's rating or lowered the puzzle's")
			}
			bobLast, bobAt = bobAfter, s.now

			// Ann again, and a guest: unrated.
			s.now = s.now.Add(time.Second)
			s.call(t, "ann", "POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: []string{wrong}}, 200, &res)
			if res.Result != puzzles.Wrong || res.Rating != nil {
				t.Fatalf("ann's second attempt: %+v; want unrated", res)
			}
			s.call(t, "", "POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: p.Solution[:1]}, 200, &res)
			if res.Result == puzzles.Wrong || res.Rating != nil {
				t.Fatalf("a guest's move: %+v; want right or solved, unrated", res)
			}
			s.call(t, "ann", "GET", "/api/puzzles/"+p.ID, nil, 200, &shown)
			if !shown.Attempted || shown.Plays != 2 || shown.Rating != math.Round(puzzleAfter2.Rating) {
				t.Fatalf("the puzzle after two rated attempts: %+v; want attempted, 2 plays, rating %.0f", shown, puzzleAfter2.Rating)
			}
			s.now = s.now.Add(time.Minute)
		})
	}
	var h puzzles.History
	s.call(t, "ann", "GET", "/api/puzzles/me", nil, 200, &h)
	if len(h.Attempts) != 8 || h.Rating.Attempts != 4 || h.Attempts[0].Solved || h.Attempts[0].Rated || !h.Attempts[1].Rated || !h.Attempts[1].Solved || h.Attempts[1].Spec != "pisola" {
		t.Fatalf("ann's history: %+v; want 8 attempts, 4 rated, latest first", h)
	}
	s.call(t, "", "GET", "/api/puzzles/me", nil, 401, nil)
	// Anyone reads a player's puzzle rating, for their profile.
	var pr puzzles.PlayerRating
	s.call(t, "", "GET", "/api/puzzles/players/ANN", nil, 200, &pr)
	if pr.Rating != h.Rating.Rating || pr.Attempts != 4 {
		t.Fatalf("ann's puzzle rating for her profile: %+v; want %+v", pr, h.Rating)
	}
	pr = puzzles.PlayerRating{}
	s.call(t, "", "GET", "/api/puzzles/players/cy", nil, 200, &pr)
	if pr.Attempts != 0 || pr.Rating != 1500 {
		t.Fatalf("cy's puzzle rating: %+v; want 1500 and no attempts", pr)
	}
	s.call(t, "", "GET", "/api/puzzles/players/nobody", nil, 404, nil)
}

// TestHint names the cells of the next move, and fails a first attempt.
func TestHint(t *testing.T) {
	s := newSite(t)
	p := s.first(t, "pogo")
	var hint puzzles.Hint
	s.call(t, "cy", "POST", "/api/puzzles/"+p.ID+"/hint", puzzles.HintRequest{Moves: []string{}}, 200, &hint)
	// A Pogo move "2a1-b1" starts from a1.
	if from := strings.TrimLeft(strings.Split(p.Solution[0], "-")[0], "0123456789"); !slices.Equal(hint.Cells, []string{from}) {
		t.Fatalf("hint %+v; want [%s]", hint, from)
	}
	if hint.Rating == nil || hint.Rating.Solved || hint.Rating.PlayerAfter.Rating >= hint.Rating.PlayerBefore.Rating {
		t.Fatalf("a hint's rating change %+v; want a failure", hint.Rating)
	}
	var res puzzles.MoveResult
	s.call(t, "cy", "POST", "/api/puzzles/"+p.ID+"/move", puzzles.MoveRequest{Moves: p.Solution[:1]}, 200, &res)
	if res.Result != puzzles.Right || res.Rating != nil {
		t.Fatalf("after a hint: %+v", res)
	}
	s.call(t, "", "POST", "/api/puzzles/"+p.ID+"/hint", puzzles.HintRequest{Moves: p.Solution[:2]}, 200, &hint)
	if hint.Rating != nil || len(hint.Cells) != 1 {
		t.Fatalf("a guest's hint %+v", hint)
	}
	// A streak's moves and a replay's are neither rated nor recorded.
	q := s.first(t, "diam")
	for _, mode := range []string{"streak", "replay"} {
		s.call(t, "cy", "POST", "/api/puzzles/"+q.ID+"/move", puzzles.MoveRequest{Moves: []string{wrongMove(t, q)}, Mode: mode}, 200, &res)
		if res.Result != puzzles.Wrong || res.Rating != nil {
			t.Fatalf("a wrong move in mode %s: %+v; want wrong, unrated", mode, res)
		}
	}
	var h puzzles.History
	s.call(t, "cy", "GET", "/api/puzzles/me", nil, 200, &h)
	if len(h.Attempts) != 1 || h.Attempts[0].Puzzle != p.ID {
		t.Fatalf("cy's history %+v; want the hint's attempt alone", h)
	}
}

// TestBadRequests: what the player sends never panics and is answered
// with a code.
func TestBadRequests(t *testing.T) {
	s := newSite(t)
	p := s.first(t, "pogo")
	for _, tc := range []struct {
		name, path string
		body       any
		status     int
		code       string
	}{
		{"unknown puzzle", "/api/puzzles/pnope/move", puzzles.MoveRequest{Moves: []string{"x"}}, 404, puzzles.CodeNoPuzzle},
		{"no moves", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{}, 400, puzzles.CodeBadLine},
		{"an even line", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{Moves: p.Solution[:2]}, 400, puzzles.CodeBadLine},
		{"another line", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{Moves: []string{wrongMove(t, p), p.Solution[1], p.Solution[2]}}, 400, puzzles.CodeBadLine},
		{"too long", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{Moves: append(slices.Clone(p.Solution), "a", "b")}, 400, puzzles.CodeBadLine},
		{"not a move", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{Moves: []string{"9z9-q0"}}, 400, puzzles.CodeIllegalMove},
		{"not JSON", "/api/puzzles/" + p.ID + "/move", "moves", 400, ""},
		{"an odd hint line", "/api/puzzles/" + p.ID + "/hint", puzzles.HintRequest{Moves: p.Solution[:1]}, 400, puzzles.CodeBadLine},
		{"a hint past the end", "/api/puzzles/" + p.ID + "/hint", puzzles.HintRequest{Moves: append(slices.Clone(p.Solution), "x")}, 400, puzzles.CodeBadLine},
		{"an unknown game", "/api/puzzles/next?game=chess", nil, 404, puzzles.CodeNoPuzzle},
		{"an unknown theme", "/api/puzzles/streak?step=0&theme=mate", nil, 404, puzzles.CodeNoPuzzle},
		{"a bad step", "/api/puzzles/streak?step=-1", nil, 400, ""},
		{"a bad mode", "/api/puzzles/" + p.ID + "/move", puzzles.MoveRequest{Moves: p.Solution[:1], Mode: "blitz"}, 400, ""},
		{"a bad rating", "/api/puzzles/next?rating=NaN", nil, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "POST"
			if tc.body == nil {
				method = "GET"
			}
			var e struct{ Error, Code string }
			s.call(t, "ann", method, tc.path, tc.body, tc.status, &e)
			if e.Code != tc.code || e.Error == "" {
				t.Errorf("answer %+v; want code %q and a message", e, tc.code)
			}
		})
	}
}

// TestChoosing: the next puzzle is one not attempted, near the player's
// rating and of the game asked for; the daily puzzle is the day's; a
// streak grows harder.
func TestChoosing(t *testing.T) {
	s := newSite(t)
	var p puzzles.Puzzle
	s.call(t, "", "GET", "/api/puzzles/next?game=diam&rating=700", nil, 200, &p)
	if p.Game != "diam" || !strings.HasPrefix(p.Themes[0], "diam-in-1") || p.Player != nil {
		t.Fatalf("a guest's diam puzzle near 700: %+v; want a diam in 1", p)
	}
	if !p.Fastest {
		t.Errorf("a diam puzzle does not say that it asks only for the fastest win")
	}
	s.call(t, "ann", "GET", "/api/puzzles/next?game=pogo&theme=win-in-3", nil, 200, &p)
	if p.Fastest {
		t.Errorf("a Pogo win in 3 says that another move may win too")
	}
	if p.Game != "pogo" || !slices.Contains(p.Themes, "win-in-3") || p.Player == nil || p.Attempted {
		t.Fatalf("ann's win in 3: %+v", p)
	}
	var themes puzzles.Themes
	s.call(t, "", "GET", "/api/puzzles/themes", nil, 200, &themes)
	counts := map[string]int{}
	for _, g := range themes.Games {
		counts[g.Game] = g.Puzzles
		for _, th := range g.Themes {
			counts[g.Game+" "+th.Theme] = th.Puzzles
		}
	}
	if counts["pogo"] != 2000 || counts["pogo win-in-2"] != 600 || counts["diam"] != 400 || counts["diam diam-in-1"] != 80 || counts["pisola best-move"] != 100 {
		t.Errorf("the themes: %v; want the counts of docs/puzzles.md", counts)
	}
	var d1, d2, d3 puzzles.Puzzle
	s.call(t, "", "GET", "/api/puzzles/daily", nil, 200, &d1)
	s.call(t, "", "GET", "/api/puzzles/daily", nil, 200, &d2)
	s.now = s.now.Add(24 * time.Hour)
	s.call(t, "", "GET", "/api/puzzles/daily", nil, 200, &d3)
	if d1.ID != d2.ID || d1.Daily != "2026-11-25" || d3.Daily != "2026-11-26" || d1.Moves < 2 {
		t.Fatalf("daily puzzles %s %s %s on %s, %s", d1.ID, d2.ID, d3.ID, d1.Daily, d3.Daily)
	}
	var first, last puzzles.Puzzle
	s.call(t, "", "GET", "/api/puzzles/streak?step=0&seed=abc", nil, 200, &first)
	s.call(t, "", "GET", "/api/puzzles/streak?step=99&seed=abc", nil, 200, &last)
	if first.Step == nil || *first.Step != 0 || first.Rating >= last.Rating {
		t.Fatalf("a streak from %v (%v) to %v: want it harder", first.Rating, first.Step, last.Rating)
	}
	// Every Pogo puzzle attempted but one: next is that one.
	s.now = s.now.Add(time.Hour)
	var keep string
	for _, b := range s.builtin {
		if b.Spec == "pogo" && keep == "" {
			keep = b.ID
		}
	}
	for i, b := range s.builtin {
		if b.Spec != "pogo" || b.ID == keep {
			continue
		}
		s.now = s.now.Add(time.Millisecond)
		if err := s.store.RecordAttempt(context.Background(), store.PuzzleAttempt{UserID: "id-bob", PuzzleID: b.ID, At: s.now.Add(time.Duration(i))}, store.PuzzleRating{}, store.PuzzleRating{}); err != nil {
			t.Fatal(err)
		}
	}
	s.call(t, "bob", "GET", "/api/puzzles/next?game=pogo", nil, 200, &p)
	if p.ID != keep {
		t.Fatalf("bob's next puzzle %s; want %s, the only one left", p.ID, keep)
	}
}
