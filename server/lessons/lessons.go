// Package lessons is the site's domain of lessons: short steps that teach
// each game and each of its variants from nothing, as Lichess's "Learn"
// pages teach chess. A step is a position and a goal ("move two pions to
// b2", "top four piles", "make a diam"); the learner makes one move and
// the server judges it with the game's own rules (Check), answering what
// the move missed. The lessons' words are the interface's (its catalogues
// in English, French and Spanish); the server knows only their IDs.
//
// Lessons keep nothing: no store, no account. After the last lesson of a
// game the page offers a first game against the beginner level.
package lessons

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"stax/game"
	"stax/server/httpx"
	"stax/server/view"
)

// The error codes of the lessons' answers, which the UI's catalogue
// translates.
const (
	// CodeNoLesson: no lesson has that ID.
	CodeNoLesson = "no_lesson"
	// CodeBadStep: the lesson has no step of that number.
	CodeBadStep = "bad_step"
	// CodeIllegalMove: the learner's move is not a legal move there.
	CodeIllegalMove = "illegal_move"
)

// The defaults of Config.
const (
	// DefaultMoveEvery and DefaultMoveBurst limit the moves one client
	// address may send.
	DefaultMoveEvery = 200 * time.Millisecond
	DefaultMoveBurst = 30
)

// PlayLevel is the computer level a page offers to play once a lesson is
// done: the weakest searching level.
const PlayLevel = "beginner"

// Config configures the lessons.
type Config struct {
	// Games lists the games the site plays: lessons of other games are
	// not served.
	Games game.Registry
	// Lessons are the lessons served (default Builtin()).
	Lessons []Lesson
	// MoveEvery and MoveBurst limit the moves of one client address
	// (defaults DefaultMoveEvery, DefaultMoveBurst).
	MoveEvery time.Duration
	MoveBurst int
	// Proxies are the trusted reverse proxies, for the per-address limit.
	Proxies httpx.Proxies
	// Now tells the time of the rate limit (default time.Now).
	Now func() time.Time
	// Log receives the lessons' logs; nil discards them.
	Log *slog.Logger
}

// step is a step served, with its variant and position read.
type step struct {
	Step
	g     game.Game
	start game.State
}

// entry is a lesson served.
type entry struct {
	l     Lesson
	title string
	steps []step
}

// Lessons is the site's domain of lessons.
type Lessons struct {
	cfg   Config
	list  []*entry
	byID  map[string]*entry
	moves *httpx.RateLimiter
}

// New returns the lessons' domain. It fails when a lesson of a game the
// site plays cannot be read: a variant or a position its rules refuse.
func New(cfg Config) (*Lessons, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	httpx.SetDefault(&cfg.MoveEvery, DefaultMoveEvery)
	httpx.SetDefault(&cfg.MoveBurst, DefaultMoveBurst)
	if cfg.Lessons == nil {
		cfg.Lessons = Builtin()
	}
	s := &Lessons{cfg: cfg, byID: map[string]*entry{}, moves: httpx.NewRateLimiter(cfg.MoveEvery, cfg.MoveBurst)}
	for _, l := range cfg.Lessons {
		info := cfg.Games.Lookup(l.Game)
		if info == nil {
			continue // a game this site does not play
		}
		if _, dup := s.byID[l.ID]; dup {
			return nil, fmt.Errorf("lessons: two lessons %q", l.ID)
		}
		e := &entry{l: l, title: info.Title}
		for _, st := range l.Steps {
			g, err := cfg.Games.Load(st.spec(l))
			if err != nil {
				return nil, fmt.Errorf("lessons: lesson %s, step %s: %w", l.ID, st.ID, err)
			}
			start, err := g.ParseState(st.Position)
			if err != nil {
				return nil, fmt.Errorf("lessons: lesson %s, step %s: %w", l.ID, st.ID, err)
			}
			e.steps = append(e.steps, step{Step: st, g: g, start: start})
		}
		if len(e.steps) == 0 {
			return nil, fmt.Errorf("lessons: lesson %s has no step", l.ID)
		}
		s.list = append(s.list, e)
		s.byID[l.ID] = e
	}
	// Game by game in the order of the registry, each game's lessons in
	// their own order.
	names := cfg.Games.Names()
	slices.SortStableFunc(s.list, func(a, b *entry) int {
		return slices.Index(names, a.l.Game) - slices.Index(names, b.l.Game)
	})
	return s, nil
}

// Routes adds the lessons' routes to m.
func (s *Lessons) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/lessons", s.handleIndex)
	m.HandleFunc("GET /api/lessons/{id}", s.handleGet)
	m.HandleFunc("POST /api/lessons/{id}/move", s.handleMove)
}

// Sweep forgets the rate limit's clients that have been quiet.
func (s *Lessons) Sweep(now time.Time) { s.moves.Sweep(now) }

// Count returns the number of lessons served.
func (s *Lessons) Count() int { return len(s.list) }

func (e *entry) summary() Summary {
	return Summary{ID: e.l.ID, Game: e.l.Game, Title: e.title, Spec: e.l.Spec, Steps: len(e.steps)}
}

func (s *Lessons) handleIndex(w http.ResponseWriter, r *http.Request) {
	out := Index{Lessons: []Summary{}}
	for _, e := range s.list {
		out.Lessons = append(out.Lessons, e.summary())
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// lesson returns the lesson of the request's path, or answers 404.
func (s *Lessons) lesson(w http.ResponseWriter, r *http.Request) (*entry, bool) {
	e := s.byID[r.PathValue("id")]
	if e == nil {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoLesson, fmt.Sprintf("no lesson %q", r.PathValue("id")))
		return nil, false
	}
	return e, true
}

// next returns the lesson after e of the same game, or nil.
func (s *Lessons) next(e *entry) *entry {
	i := slices.Index(s.list, e)
	if i >= 0 && i+1 < len(s.list) && s.list[i+1].l.Game == e.l.Game {
		return s.list[i+1]
	}
	return nil
}

func (s *Lessons) handleGet(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lesson(w, r)
	if !ok {
		return
	}
	// The first game is the game's basic variant: the spec of its first
	// lesson.
	play := e.l.Spec
	for _, o := range s.list {
		if o.l.Game == e.l.Game {
			play = o.l.Spec
			break
		}
	}
	out := LessonView{Summary: e.summary(), Play: play, Items: []StepView{}}
	if n := s.next(e); n != nil {
		out.Next = n.l.ID
	}
	for _, st := range e.steps {
		pos := st.start.Clone()
		out.Items = append(out.Items, StepView{ID: st.ID, Spec: st.spec(e.l), Position: st.Position, ToMove: pos.ToMove(),
			PlayerNames: view.PlayerNames(st.g), View: view.Of(pos, false, nil), Hint: hint(pos, st.Goal)})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// hint returns the cells a move meeting goal starts from, or for a
// placing the cells it fills: those of the first such move.
func hint(st game.State, goal Goal) []string {
	vw, ok := st.(game.Viewer)
	sol := Solutions(st, goal)
	if !ok || len(sol) == 0 {
		return []string{}
	}
	m, err := st.ParseMove(sol[0])
	if err != nil {
		return []string{}
	}
	b, mv := vw.Board(), vw.ViewMove(m)
	cells := mv.To
	if mv.Kind == game.Shift {
		cells = []int{mv.From}
	}
	out := []string{}
	for _, c := range cells {
		if c >= 0 && c < len(b.Cells) {
			out = append(out, b.Cells[c].Name)
		}
	}
	return out
}

// handleMove judges the learner's move against the step's goal.
func (s *Lessons) handleMove(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lesson(w, r)
	if !ok {
		return
	}
	if !s.moves.Admit(w, r, s.cfg.Proxies, s.cfg.Now(), "lesson moves") {
		return
	}
	var req MoveRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if req.Step < 0 || req.Step >= len(e.steps) {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadStep, fmt.Sprintf("step %d: lesson %s has steps 0 to %d", req.Step, e.l.ID, len(e.steps)-1))
		return
	}
	st := e.steps[req.Step]
	v, err := Check(st.start.Clone(), st.Goal, req.Move)
	if err != nil {
		var me *game.MoveError
		if !errors.As(err, &me) {
			s.cfg.Log.Error("lesson move", "lesson", e.l.ID, "step", st.ID, "err", err)
		}
		httpx.ErrorCode(w, http.StatusBadRequest, CodeIllegalMove, fmt.Sprintf("lesson %s, step %d: %v", e.l.ID, req.Step, err))
		return
	}
	out := MoveResult{Result: Done, Move: v.Move, Position: v.After.String(), Misses: []Miss{}}
	m, _ := v.Before.ParseMove(v.Move)
	out.View = view.Of(v.After, v.After.Terminal(), view.LastCells(v.Before, m))
	out.Outcome = view.OutcomeOf(st.g, v.After.Outcome())
	if !v.OK() {
		out.Result = Missed
		out.Misses = v.Misses
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
