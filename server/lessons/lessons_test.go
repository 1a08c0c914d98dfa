package lessons_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/games"
	"stax/server/lessons"
)

// TestBuiltinLessons checks every lesson the site serves with the real
// rules: each step's variant loads and its position parses, its goal is
// reachable (some legal move meets it), and each of its wrong moves is
// refused, either by the rules (with their message) or by the goal (with
// the conditions it missed, each in words).
func TestBuiltinLessons(t *testing.T) {
	all := lessons.Builtin()
	ids := map[string]bool{}
	gamesTaught := map[string]bool{}
	for _, l := range all {
		if ids[l.ID] {
			t.Errorf("two lessons %q", l.ID)
		}
		ids[l.ID] = true
		gamesTaught[l.Game] = true
		if len(l.Steps) == 0 {
			t.Errorf("lesson %s has no step", l.ID)
		}
		stepIDs := map[string]bool{}
		for _, s := range l.Steps {
			name := l.ID + "/" + s.ID
			if stepIDs[s.ID] {
				t.Errorf("%s: two steps %q", l.ID, s.ID)
			}
			stepIDs[s.ID] = true
			spec := cmpOr(s.Spec, l.Spec)
			g, err := games.All().Load(spec)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if g.Info().Name != l.Game {
				t.Errorf("%s: spec %s is not a variant of %s", name, spec, l.Game)
			}
			st, err := g.ParseState(s.Position)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if st.Terminal() {
				t.Errorf("%s: the position is a finished game", name)
				continue
			}
			if sol := lessons.Solutions(st, s.Goal); len(sol) == 0 {
				t.Errorf("%s: no legal move meets the goal %v", name, s.Goal)
			} else {
				t.Logf("%s (%s): %d of %d moves meet %v, e.g. %s", name, spec, len(sol), len(st.Legal(nil)), s.Goal, sol[0])
			}
			if len(s.Wrong) == 0 {
				t.Errorf("%s: no wrong move to check", name)
			}
			for _, w := range s.Wrong {
				v, err := lessons.Check(st.Clone(), s.Goal, w)
				var me *game.MoveError
				switch {
				case err != nil && errors.As(err, &me) && strings.Contains(err.Error(), w):
					t.Logf("%s: %s refused by the rules: %v", name, w, err)
				case err != nil:
					t.Errorf("%s: %s refused with %v, not a move error naming the move", name, w, err)
				case v.OK():
					t.Errorf("%s: the wrong move %s meets the goal %v", name, w, s.Goal)
				default:
					for _, m := range v.Misses {
						if msg := m.Message(); msg == "" || msg == m.Code {
							t.Errorf("%s: %s missed %q with no words", name, w, m.Code)
						}
					}
					t.Logf("%s: %s refused: %v", name, w, v.Misses)
				}
			}
		}
	}
	// Every game is taught, and every option that changes play has a
	// lesson.
	for _, info := range games.All() {
		if !gamesTaught[info.Name] {
			t.Errorf("no lesson teaches %s", info.Name)
		}
	}
	specs := map[string]bool{}
	for _, l := range all {
		specs[l.Spec] = true
		for _, s := range l.Steps {
			specs[s.Spec] = true
		}
	}
	for _, want := range []string{"pogo(u=false)", "pisola(roofs=true)", "diam(players=4)", "diam(players=4,teams=true)", "diam(drop=any)"} {
		if !specs[want] {
			t.Errorf("no lesson plays %s", want)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestCheckGoals checks each kind of condition on positions of the three
// games.
func TestCheckGoals(t *testing.T) {
	for _, tc := range []struct {
		spec, pos string
		goal      lessons.Goal
		move      string
		misses    []string // the codes missed, in order
	}{
		{"pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", lessons.Goal{Count: 1}, "1a1-b1", nil},
		{"pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", lessons.Goal{Count: 1}, "2a1-c1", []string{lessons.MissCount}},
		{"pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", lessons.Goal{Count: 2, From: "c1", To: "b2"}, "1b1-b2", []string{lessons.MissCount, lessons.MissFrom}},
		{"pogo", "bb,bb,bb/-,-,-/ww,ww,ww w", lessons.Goal{To: "b2"}, "2a1-c1", []string{lessons.MissTo}},
		{"pogo", "b,b,b/b,ww,b/b,ww,ww w", lessons.Goal{Top: 4}, "1b2-b3", nil},
		{"pogo", "b,b,b/b,ww,b/b,ww,ww w", lessons.Goal{Top: 4}, "1b1-b2", []string{lessons.MissTop}},
		{"pogo", "-,bw,-/-,wbbw,ww/bbw,-,b w", lessons.Goal{Win: true}, "1c2-c1", nil},
		{"pogo", "-,bw,-/-,wbbw,ww/bbw,-,b w", lessons.Goal{Win: true}, "1b3-a3", []string{lessons.MissWin}},
		{"pisola", "b,w,wbw,-,b,w/w,b,-,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b w", lessons.Goal{Locks: 1, Height: 4}, "c6-c3", nil},
		{"pisola", "b,w,wbw,-,b,w/w,b,-,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b w", lessons.Goal{Locks: 1, Height: 5}, "c6-f6", []string{lessons.MissHeight, lessons.MissLocks}},
		{"pisola", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,- w", lessons.Goal{Place: true, To: "c3"}, "a1+c3", nil},
		{"pisola(roofs=true)", "b,w,wbw,-,b,w/w,b,-,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b w", lessons.Goal{Roofs: 2}, "c6-c3", []string{lessons.MissRoofs}},
		{"diam", "ybg/yr/-/rg/b/g/r/- 1", lessons.Goal{Win: true}, "4:1+", []string{lessons.MissWin, lessons.MissLost}},
		{"diam", "r/-/g/-/-/-/-/- 1", lessons.Goal{Place: true}, "1:1+", []string{lessons.MissPlace}},
	} {
		g, err := games.All().Load(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		st, err := g.ParseState(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		v, err := lessons.Check(st, tc.goal, tc.move)
		if err != nil {
			t.Errorf("%s %s: %v", tc.pos, tc.move, err)
			continue
		}
		var got []string
		for _, m := range v.Misses {
			got = append(got, m.Code)
		}
		if !slices.Equal(got, tc.misses) {
			t.Errorf("Check(%s, %v, %s) misses %v (%v), want %v", tc.pos, tc.goal, tc.move, got, v.Misses, tc.misses)
		}
	}
}

// TestRoutes plays a step through the HTTP routes: the index, a lesson, a
// move that meets the goal, one that misses it and one the rules refuse.
func TestRoutes(t *testing.T) {
	s, err := lessons.New(lessons.Config{Games: games.All()})
	if err != nil {
		t.Fatal(err)
	}
	m := http.NewServeMux()
	s.Routes(m)
	srv := httptest.NewServer(m)
	defer srv.Close()
	call := func(method, path, body string, want int, out any) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d", method, path, res.StatusCode, want)
		}
		if out != nil {
			if err := json.NewDecoder(res.Body).Decode(out); err != nil {
				t.Fatal(err)
			}
		}
	}
	var idx lessons.Index
	call("GET", "/api/lessons", "", 200, &idx)
	var order []string
	for _, l := range idx.Lessons {
		order = append(order, l.ID)
	}
	if len(order) != len(lessons.Builtin()) || order[0] != "pogo" {
		t.Errorf("index %v", order)
	}
	var l lessons.LessonView
	call("GET", "/api/lessons/pogo", "", 200, &l)
	if l.Next != "pogo-u" || l.Play != "pogo" || len(l.Items) != 4 || l.Items[0].View == nil || len(l.Items[0].Hint) == 0 {
		t.Errorf("lesson pogo: next %q play %q, %d steps, hint %v", l.Next, l.Play, len(l.Items), l.Items[0].Hint)
	}
	l = lessons.LessonView{}
	call("GET", "/api/lessons/pogo-u", "", 200, &l)
	if l.Next != "" || l.Play != "pogo" {
		t.Errorf("lesson pogo-u: next %q play %q", l.Next, l.Play)
	}
	var r lessons.MoveResult
	call("POST", "/api/lessons/pogo/move", `{"step": 3, "move": "1c2-c1"}`, 200, &r)
	if r.Result != lessons.Done || r.Outcome == nil || r.View == nil {
		t.Errorf("the winning move: %+v", r)
	}
	r = lessons.MoveResult{}
	call("POST", "/api/lessons/pogo/move", `{"step": 2, "move": "1b1-b2"}`, 200, &r)
	if r.Result != lessons.Missed || len(r.Misses) != 1 || r.Misses[0] != (lessons.Miss{Code: lessons.MissTop, Want: "4", Got: "3"}) {
		t.Errorf("a move missing the goal: %+v", r)
	}
	call("POST", "/api/lessons/pogo-u/move", `{"step": 1, "move": "3a1-b1"}`, 400, nil)
	call("POST", "/api/lessons/pogo/move", `{"step": 9, "move": "1a1-b1"}`, 400, nil)
	call("GET", "/api/lessons/chess", "", 404, nil)
}
