// Package puzzles is the site's domain of puzzles, played as on Lichess:
// a puzzle page on which the player makes the moves of the solution and
// the server answers with the opponent's replies, a wrong move shown
// wrong with its refutation, hints, a Glicko-2 puzzle rating per player
// and per puzzle (both updated after each rated attempt), a daily puzzle,
// streaks of puzzles growing harder, and the history of a signed-in
// player's attempts. Guests play without a rating.
//
// The puzzles are the program's (package puzzle, proven by its tests); the
// store keeps their ratings and the attempts (store.Puzzles). The server
// referees: the solution never leaves it before the puzzle is solved or
// failed.
package puzzles

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"stax/game"
	"stax/puzzle"
	"stax/rating"
	"stax/search"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/view"
)

// Refuter analyses a position: the puzzles ask it for the best answer to
// a wrong move (stax serve passes the analysis board's analyst, which
// reads Pogo's solved table). Without one a wrong move is only said
// wrong.
type Refuter interface {
	Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error)
}

// Sessions tells who sends a request (the accounts domain implements it).
type Sessions interface {
	// Session returns the request's account, or an error when it has
	// none.
	Session(r *http.Request) (*store.User, *store.Session, error)
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// The error codes of the puzzles' answers, which the UI's catalogue
// translates.
const (
	// CodeNoPuzzle: no puzzle has that ID, or none fits the request.
	CodeNoPuzzle = "no_puzzle"
	// CodeBadLine: the moves sent are not the puzzle's line so far.
	CodeBadLine = "bad_line"
	// CodeIllegalMove: the player's move is not a legal move there.
	CodeIllegalMove = "illegal_move"
	// CodeNoPlayer: no account has that name.
	CodeNoPlayer = "no_player"
)

// The defaults of Config.
const (
	// DefaultRefuteTime bounds the analysis of a wrong move.
	DefaultRefuteTime = 500 * time.Millisecond
	// DefaultMoveEvery and DefaultMoveBurst limit the moves and hints
	// one client address may send.
	DefaultMoveEvery = 200 * time.Millisecond
	DefaultMoveBurst = 30
)

// StartDeviation is the deviation of a puzzle's starting rating: the
// starting ratings are informed guesses (docs/puzzles.md), surer than a
// new player's 350, which the first attempts correct quickly.
const StartDeviation = 250.0

// RatingPeriod is how long a player goes without puzzles for their
// deviation to grow by one Glicko-2 rating period, as in the game pools.
const RatingPeriod = 24 * time.Hour

// ProvisionalDeviation is the deviation above which a puzzle rating is
// shown as provisional, as in the game pools.
const ProvisionalDeviation = 110.0

// refutationPlies bounds the line of a refutation.
const refutationPlies = 9

// candidates is how many puzzles nearest the player's rating the next
// puzzle is drawn from.
const candidates = 12

// streakSteps is how many steps a streak takes from the easiest puzzles
// to the hardest.
const streakSteps = 100

// cacheFor is how long the puzzles' ratings read from the store are
// reused before being read again (other instances change them too).
const cacheFor = 10 * time.Second

// Config configures the puzzles.
type Config struct {
	// Store keeps the ratings and the attempts; nil rates nothing and
	// keeps no history, every player playing as a guest.
	Store store.Puzzles
	// Games lists the games the site plays: puzzles of other games are
	// not served.
	Games game.Registry
	// Puzzles are the puzzles served (default puzzle.Builtin()).
	Puzzles []puzzle.Puzzle
	// Sessions tells who plays.
	Sessions Sessions
	// Users finds an account by its name, for the puzzle rating its
	// profile shows; nil serves no player's rating.
	Users store.Users
	// Refuter, when set, analyses wrong moves; RefuteTime bounds one
	// analysis (default DefaultRefuteTime). Only one analysis runs at
	// once: a wrong move that finds the analyst busy for RefuteTime is
	// answered without a refutation.
	Refuter    Refuter
	RefuteTime time.Duration
	// MoveEvery and MoveBurst limit the moves and hints of one client
	// address (defaults DefaultMoveEvery, DefaultMoveBurst).
	MoveEvery time.Duration
	MoveBurst int
	// Proxies are the trusted reverse proxies, for the per-address limit.
	Proxies httpx.Proxies
	// Now tells the time of attempts and of the daily puzzle (default
	// time.Now).
	Now func() time.Time
	// Log receives the puzzles' logs; nil discards them.
	Log *slog.Logger
}

// entry is a puzzle served, with its game loaded.
type entry struct {
	p puzzle.Puzzle
	g game.Game
}

// Puzzles is the site's domain of puzzles.
type Puzzles struct {
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	list  []*entry // in the order of the sets
	byID  map[string]*entry
	slots chan struct{} // one analysis of a wrong move at a time
	moves *httpx.RateLimiter

	mu      sync.Mutex // guards ratings and read
	ratings map[string]store.PuzzleRating
	read    time.Time // when ratings was read from the store
}

// New returns the puzzles' domain. It fails when the puzzles cannot be
// read.
func New(cfg Config) (*Puzzles, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	httpx.SetDefault(&cfg.RefuteTime, DefaultRefuteTime)
	httpx.SetDefault(&cfg.MoveEvery, DefaultMoveEvery)
	httpx.SetDefault(&cfg.MoveBurst, DefaultMoveBurst)
	if cfg.Puzzles == nil {
		ps, err := puzzle.Builtin()
		if err != nil {
			return nil, fmt.Errorf("puzzles: %w", err)
		}
		cfg.Puzzles = ps
	}
	// The stores keep times to the millisecond: so does the domain, so
	// that a rating read back is not aged by the part of a millisecond
	// the store dropped.
	now := func() time.Time { return cfg.Now().UTC().Truncate(time.Millisecond) }
	s := &Puzzles{cfg: cfg, log: cfg.Log, now: now, byID: map[string]*entry{},
		slots: make(chan struct{}, 1), moves: httpx.NewRateLimiter(cfg.MoveEvery, cfg.MoveBurst)}
	for _, p := range cfg.Puzzles {
		g, err := cfg.Games.Load(p.Spec)
		if err != nil {
			continue // a game this site does not play
		}
		if _, err := g.ParseState(p.Position); err != nil {
			return nil, fmt.Errorf("puzzles: puzzle %s: %w", p.ID, err)
		}
		e := &entry{p: p, g: g}
		s.list = append(s.list, e)
		s.byID[p.ID] = e
	}
	return s, nil
}

// Routes adds the puzzles' routes to m.
func (s *Puzzles) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/puzzles/next", s.handleNext)
	m.HandleFunc("GET /api/puzzles/daily", s.handleDaily)
	m.HandleFunc("GET /api/puzzles/streak", s.handleStreak)
	m.HandleFunc("GET /api/puzzles/me", s.handleMe)
	m.HandleFunc("GET /api/puzzles/themes", s.handleThemes)
	m.HandleFunc("GET /api/puzzles/players/{name}", s.handlePlayer)
	m.HandleFunc("GET /api/puzzles/{id}", s.handleGet)
	m.HandleFunc("POST /api/puzzles/{id}/move", s.handleMove)
	m.HandleFunc("POST /api/puzzles/{id}/hint", s.handleHint)
}

// Sweep forgets the rate limit's clients that have been quiet.
func (s *Puzzles) Sweep(now time.Time) { s.moves.Sweep(now) }

// Count returns the number of puzzles served.
func (s *Puzzles) Count() int { return len(s.list) }

// fastestOnly reports whether a puzzle of main theme t claims only that
// its solution wins fastest: a forced diam (docs/puzzles.md), which a
// slower move may force too.
func fastestOnly(t puzzle.Theme) bool {
	n, ok := t.Moves()
	return ok && t == puzzle.DiamIn(n)
}

// gameName returns the name of a spec's game: "diam" of "diam(drop=any)".
func gameName(spec string) string {
	name, _, _ := strings.Cut(spec, "(")
	return name
}

// startRating returns a puzzle's starting rating.
func startRating(p puzzle.Puzzle) store.PuzzleRating {
	return store.PuzzleRating{Rating: float64(p.Rating), Deviation: StartDeviation, Volatility: rating.DefaultVolatility}
}

// puzzleRatings returns the puzzles' ratings that attempts have changed,
// read from the store at most every cacheFor. The map is never changed
// once returned.
func (s *Puzzles) puzzleRatings(ctx context.Context) map[string]store.PuzzleRating {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.Store == nil {
		return nil
	}
	if s.ratings == nil || s.now().Sub(s.read) >= cacheFor {
		rs, err := s.cfg.Store.PuzzleRatings(ctx)
		if err != nil {
			s.log.Error("puzzle ratings", "err", err)
		} else {
			s.ratings, s.read = rs, s.now()
		}
	}
	return s.ratings
}

// ratingOf returns a puzzle's rating as of the last read, or its
// starting rating.
func ratingOf(rs map[string]store.PuzzleRating, e *entry) store.PuzzleRating {
	if r, ok := rs[e.p.ID]; ok {
		return r
	}
	return startRating(e.p)
}

// player returns the request's account, nil for a guest.
func (s *Puzzles) player(r *http.Request) *store.User {
	if s.cfg.Sessions == nil || s.cfg.Store == nil {
		return nil
	}
	u, _, err := s.cfg.Sessions.Session(r)
	if err != nil {
		return nil
	}
	return u
}

// playerRating returns an account's puzzle rating as of at: its
// deviation grown by the days since its last rated attempt; a player
// without rated attempts has the starting rating.
func (s *Puzzles) playerRating(ctx context.Context, userID string, at time.Time) (store.PuzzleRating, error) {
	r, err := s.cfg.Store.PuzzlePlayer(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		n := rating.New()
		return store.PuzzleRating{Rating: n.Rating, Deviation: n.Deviation, Volatility: n.Volatility}, nil
	}
	if err != nil {
		return r, err
	}
	if at.After(r.Updated) {
		aged := rating.Age(glicko(r), float64(at.Sub(r.Updated))/float64(RatingPeriod))
		r.Deviation = aged.Deviation
	}
	return r, nil
}

func glicko(r store.PuzzleRating) rating.Rating {
	return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

func wireGlicko(r rating.Rating) Glicko {
	return Glicko{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

func wirePlayer(r store.PuzzleRating) *PlayerRating {
	return &PlayerRating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility, Attempts: r.Attempts,
		Provisional: r.Deviation > ProvisionalDeviation}
}

// describe returns the wire form of a puzzle for the request's player.
func (s *Puzzles) describe(r *http.Request, e *entry, u *store.User, attempted bool) (Puzzle, error) {
	st, err := e.g.ParseState(e.p.Position)
	if err != nil {
		return Puzzle{}, err
	}
	pr := ratingOf(s.puzzleRatings(r.Context()), e)
	out := Puzzle{ID: e.p.ID, Spec: e.p.Spec, Game: gameName(e.p.Spec), Title: e.g.Info().Title, Position: e.p.Position,
		ToMove: st.ToMove(), PlayerNames: view.PlayerNames(e.g), Themes: []string{}, Moves: (len(e.p.Solution) + 1) / 2,
		Rating: math.Round(pr.Rating), Plays: pr.Attempts, View: view.Of(st, false, nil), Attempted: attempted}
	for _, t := range e.p.Themes {
		out.Themes = append(out.Themes, string(t))
	}
	if len(e.p.Themes) > 0 {
		out.Fastest = fastestOnly(e.p.Themes[0])
	}
	if u != nil {
		pl, err := s.playerRating(r.Context(), u.ID, s.now())
		if err != nil {
			return Puzzle{}, err
		}
		out.Player = wirePlayer(pl)
	}
	return out, nil
}

// attempted returns the set of the puzzles an account has attempted.
func (s *Puzzles) attempted(ctx context.Context, u *store.User) (map[string]bool, error) {
	if u == nil {
		return nil, nil
	}
	ids, err := s.cfg.Store.AttemptedPuzzles(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// serve answers with a puzzle for the request's player.
func (s *Puzzles) serve(w http.ResponseWriter, r *http.Request, e *entry, u *store.User, fill func(*Puzzle)) {
	done, err := s.attempted(r.Context(), u)
	if err == nil {
		var out Puzzle
		if out, err = s.describe(r, e, u, done[e.p.ID]); err == nil {
			if fill != nil {
				fill(&out)
			}
			httpx.WriteJSON(w, http.StatusOK, out)
			return
		}
	}
	s.log.Error("puzzle", "puzzle", e.p.ID, "err", err)
	httpx.Error(w, http.StatusInternalServerError, "the puzzle could not be read")
}

// filter returns the puzzles of the request's game and theme (query
// parameters game and theme, both optional), or answers 404.
func (s *Puzzles) filter(w http.ResponseWriter, r *http.Request) ([]*entry, bool) {
	q := r.URL.Query()
	gameQ, themeQ := q.Get("game"), q.Get("theme")
	var out []*entry
	for _, e := range s.list {
		if gameQ != "" && gameName(e.p.Spec) != gameQ && e.p.Spec != gameQ {
			continue
		}
		if themeQ != "" && !slices.Contains(e.p.Themes, puzzle.Theme(themeQ)) {
			continue
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPuzzle, fmt.Sprintf("no puzzle of game %q and theme %q; want a game this site plays (pogo, diam, diam(drop=any), pisola) and a theme of docs/puzzles.md", gameQ, themeQ))
		return nil, false
	}
	return out, true
}

// handleNext answers a puzzle to play next: one the player has not
// attempted, drawn among those whose rating is nearest theirs (a guest's
// is the rating parameter, else a new player's); the parameter after
// names the puzzle just played, which is not served again at once.
func (s *Puzzles) handleNext(w http.ResponseWriter, r *http.Request) {
	list, ok := s.filter(w, r)
	if !ok {
		return
	}
	u := s.player(r)
	target := rating.DefaultRating
	if v := r.URL.Query().Get("rating"); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n >= 0 && n <= 4000) {
			httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("rating %q: want a number from 0 to 4000", v))
			return
		}
		target = n
	}
	done, err := s.attempted(r.Context(), u)
	if err == nil && u != nil {
		var pl store.PuzzleRating
		if pl, err = s.playerRating(r.Context(), u.ID, s.now()); err == nil {
			target = pl.Rating
		}
	}
	if err != nil {
		s.log.Error("next puzzle", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the puzzles could not be read")
		return
	}
	after := r.URL.Query().Get("after")
	fresh := make([]*entry, 0, len(list))
	for _, e := range list {
		if !done[e.p.ID] && e.p.ID != after {
			fresh = append(fresh, e)
		}
	}
	if len(fresh) == 0 {
		// Every puzzle attempted: play them again.
		fresh = list
	}
	rs := s.puzzleRatings(r.Context())
	sort.SliceStable(fresh, func(i, j int) bool {
		return math.Abs(ratingOf(rs, fresh[i]).Rating-target) < math.Abs(ratingOf(rs, fresh[j]).Rating-target)
	})
	e := fresh[rand.IntN(min(candidates, len(fresh)))]
	s.serve(w, r, e, u, nil)
}

// Daily returns the daily puzzle of the UTC day of t, the same on every
// instance: a puzzle of two moves of the solver or more (a proven win,
// none of the one-move best-move puzzles), drawn by a hash of the day.
func (s *Puzzles) Daily(t time.Time) (puzzle.Puzzle, bool) {
	var pool []*entry
	for _, e := range s.list {
		if len(e.p.Solution) >= 3 {
			pool = append(pool, e)
		}
	}
	if len(pool) == 0 {
		pool = s.list
	}
	if len(pool) == 0 {
		return puzzle.Puzzle{}, false
	}
	h := fnv.New64a()
	h.Write([]byte("daily " + t.UTC().Format(time.DateOnly)))
	return pool[h.Sum64()%uint64(len(pool))].p, true
}

func (s *Puzzles) handleDaily(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	p, ok := s.Daily(now)
	if !ok {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPuzzle, "this site serves no puzzles")
		return
	}
	s.serve(w, r, s.byID[p.ID], s.player(r), func(out *Puzzle) { out.Daily = now.Format(time.DateOnly) })
}

// handleStreak answers the puzzle of a step of a streak (query step, from
// 0, and seed, any word the page chose when the streak began; game and
// theme optional): the puzzles ordered by rating are cut into
// streakSteps slices, and step n draws one of slice n (the last slice
// beyond), so that a streak grows harder and never meets a puzzle twice.
func (s *Puzzles) handleStreak(w http.ResponseWriter, r *http.Request) {
	list, ok := s.filter(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	step, err := strconv.Atoi(q.Get("step"))
	if err != nil || step < 0 || step > 100000 {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("step %q: want a whole number from 0", q.Get("step")))
		return
	}
	rs := s.puzzleRatings(r.Context())
	sorted := slices.Clone(list)
	sort.SliceStable(sorted, func(i, j int) bool { return ratingOf(rs, sorted[i]).Rating < ratingOf(rs, sorted[j]).Rating })
	width := max(1, len(sorted)/streakSteps)
	lo := min(step*width, len(sorted)-width)
	slice := sorted[lo : lo+width]
	h := fnv.New64a()
	fmt.Fprintf(h, "streak %s %d", q.Get("seed"), step)
	e := slice[h.Sum64()%uint64(len(slice))]
	s.serve(w, r, e, s.player(r), func(out *Puzzle) { out.Step = &step })
}

func (s *Puzzles) handleGet(w http.ResponseWriter, r *http.Request) {
	e := s.byID[r.PathValue("id")]
	if e == nil {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPuzzle, fmt.Sprintf("no puzzle %q", r.PathValue("id")))
		return
	}
	s.serve(w, r, e, s.player(r), nil)
}

// replay plays line from the puzzle's position, checking that its moves
// but the last are the solution's: it returns the position before the
// last move, which it does not play.
func replay(e *entry, line []string) (game.State, error) {
	st, err := e.g.ParseState(e.p.Position)
	if err != nil {
		return nil, err
	}
	if len(line) == 0 || len(line) > len(e.p.Solution) {
		return nil, fmt.Errorf("%d moves: want 1 to %d, the line so far and the player's move", len(line), len(e.p.Solution))
	}
	for i, text := range line[:len(line)-1] {
		if text != e.p.Solution[i] {
			return nil, fmt.Errorf("move %d %q: the line so far is %s", i+1, text, strings.Join(e.p.Solution[:i+1], " "))
		}
		m, err := st.ParseMove(text)
		if err != nil {
			return nil, err
		}
		st.Apply(m)
	}
	return st, nil
}

// handleMove judges the player's move: right (with the opponent's reply),
// solved, or wrong (with the refutation); a first attempt of a signed-in
// player is rated once it is solved or failed.
func (s *Puzzles) handleMove(w http.ResponseWriter, r *http.Request) {
	e := s.byID[r.PathValue("id")]
	if e == nil {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPuzzle, fmt.Sprintf("no puzzle %q", r.PathValue("id")))
		return
	}
	if !s.moves.Admit(w, r, s.cfg.Proxies, s.now(), "puzzle moves") {
		return
	}
	var req MoveRequest
	if !httpx.ReadJSON(w, r, &req) || !validMode(w, req.Mode) {
		return
	}
	if len(req.Moves)%2 != 1 {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadLine, fmt.Sprintf("%d moves: want an odd number, the line so far and the player's move", len(req.Moves)))
		return
	}
	st, err := replay(e, req.Moves)
	if err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadLine, fmt.Sprintf("puzzle %s: %v", e.p.ID, err))
		return
	}
	ply := len(req.Moves) - 1
	m, err := st.ParseMove(req.Moves[ply])
	if err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeIllegalMove, fmt.Sprintf("puzzle %s: %v", e.p.ID, err))
		return
	}
	out := MoveResult{Move: st.FormatMove(m)}
	before := st.Clone()
	st.Apply(m)
	out.Position = st.String()
	out.View = view.Of(st, st.Terminal(), view.LastCells(before, m))
	switch {
	case out.Move != e.p.Solution[ply]:
		out.Result = Wrong
		out.Solution = e.p.Solution
		out.Refutation = s.refute(r.Context(), e, req.Moves[:ply], m)
	case ply+1 == len(e.p.Solution):
		out.Result = Solved
		out.Solution = e.p.Solution
	default:
		out.Result = Right
		out.Reply = e.p.Solution[ply+1]
		reply, err := st.ParseMove(out.Reply)
		if err != nil {
			s.log.Error("puzzle reply", "puzzle", e.p.ID, "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the puzzle's reply could not be played")
			return
		}
		at := st.Clone()
		st.Apply(reply)
		out.ReplyPosition = st.String()
		out.ReplyView = view.Of(st, st.Terminal(), view.LastCells(at, reply))
	}
	if out.Result != Right && req.Mode == "" {
		if u := s.player(r); u != nil {
			change, err := s.attempt(r.Context(), e, u, out.Result == Solved)
			if err != nil {
				s.log.Error("puzzle attempt", "puzzle", e.p.ID, "err", err)
				httpx.Error(w, http.StatusInternalServerError, "the attempt could not be recorded")
				return
			}
			out.Rating = change
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// handleHint names the cells of the next move of the solution. For a
// signed-in player's first attempt it fails the attempt: a hint is a
// look at the solution.
func (s *Puzzles) handleHint(w http.ResponseWriter, r *http.Request) {
	e := s.byID[r.PathValue("id")]
	if e == nil {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPuzzle, fmt.Sprintf("no puzzle %q", r.PathValue("id")))
		return
	}
	if !s.moves.Admit(w, r, s.cfg.Proxies, s.now(), "puzzle hints") {
		return
	}
	var req HintRequest
	if !httpx.ReadJSON(w, r, &req) || !validMode(w, req.Mode) {
		return
	}
	if len(req.Moves)%2 != 0 || len(req.Moves) >= len(e.p.Solution) {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadLine, fmt.Sprintf("%d moves: want an even number below %d, the line so far", len(req.Moves), len(e.p.Solution)))
		return
	}
	line := append(slices.Clone(req.Moves), e.p.Solution[len(req.Moves)])
	st, err := replay(e, line)
	if err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadLine, fmt.Sprintf("puzzle %s: %v", e.p.ID, err))
		return
	}
	out := Hint{Cells: hintCells(st, e.p.Solution[len(req.Moves)])}
	if req.Mode == "" {
		if u := s.player(r); u != nil {
			change, err := s.attempt(r.Context(), e, u, false)
			if err != nil {
				s.log.Error("puzzle hint", "puzzle", e.p.ID, "err", err)
				httpx.Error(w, http.StatusInternalServerError, "the attempt could not be recorded")
				return
			}
			out.Rating = change
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// validMode answers 400 unless mode is a mode of MoveRequest.
func validMode(w http.ResponseWriter, mode string) bool {
	if mode == "" || mode == "streak" || mode == "replay" {
		return true
	}
	httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("mode %q: want none, streak or replay", mode))
	return false
}

// hintCells returns the cell a move starts from, or the cells a placing
// fills.
func hintCells(st game.State, text string) []string {
	v := view.Of(st, false, nil)
	if v == nil {
		return []string{}
	}
	for _, mv := range v.List() {
		if mv.Text != text {
			continue
		}
		if mv.From != "" {
			return []string{mv.From}
		}
		return slices.Clone(mv.To)
	}
	return []string{}
}

// refute asks the analyst for the best answer to the wrong move m played
// after line, or returns nil when there is no analyst, it is busy or it
// fails.
func (s *Puzzles) refute(ctx context.Context, e *entry, line []string, m game.Move) *Refutation {
	if s.cfg.Refuter == nil {
		return nil
	}
	start, err := e.g.ParseState(e.p.Position)
	if err != nil {
		return nil
	}
	h := game.NewHistory(e.g, start)
	for _, text := range line {
		if err := h.Play(text); err != nil {
			return nil
		}
	}
	if err := h.PlayMove(m); err != nil || h.Over() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RefuteTime*3)
	defer cancel()
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return nil
	}
	// Prove lets a game with a proof-number solver (two-player Diam) prove
	// the refutation; the others ignore it.
	opt := search.AnalyzeOptions{Time: s.cfg.RefuteTime, Prove: true}
	a, err := s.cfg.Refuter.Analyze(ctx, search.PositionOf(h), opt)
	if err != nil || len(a.Moves) == 0 {
		if err != nil {
			s.log.Warn("refute a wrong puzzle move", "puzzle", e.p.ID, "err", err)
		}
		return nil
	}
	best := a.Best()
	out := &Refutation{Line: []string{}, Score: best.Score, Exact: best.Source != search.FromSearch,
		StillWins: best.Score.Proven == game.Loss}
	moves := a.Line
	if len(moves) == 0 || moves[0] != best.Move {
		moves = []game.Move{best.Move}
	}
	st := h.State().Clone()
	for _, mv := range moves[:min(len(moves), refutationPlies)] {
		if st.Terminal() {
			break
		}
		out.Line = append(out.Line, st.FormatMove(mv))
		st.Apply(mv)
	}
	return out
}

// attempt rates a signed-in player's attempt at a puzzle when it is their
// first, and records it either way; it returns the change of the ratings
// of a rated attempt, nil otherwise. It retries when another attempt
// changed either rating meanwhile.
func (s *Puzzles) attempt(ctx context.Context, e *entry, u *store.User, solved bool) (*RatingChange, error) {
	at := s.now()
	score := 0.0
	if solved {
		score = 1
	}
	for try := 0; ; try++ {
		done, err := s.attempted(ctx, u)
		if err != nil {
			return nil, err
		}
		if done[e.p.ID] {
			err := s.cfg.Store.RecordAttempt(ctx, store.PuzzleAttempt{UserID: u.ID, PuzzleID: e.p.ID, At: at, Solved: solved}, store.PuzzleRating{}, store.PuzzleRating{})
			if errors.Is(err, store.ErrConflict) {
				err = nil // an attempt recorded at the same millisecond
			}
			return nil, err
		}
		pl, err := s.playerRating(ctx, u.ID, at)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.read = time.Time{} // read the puzzles' ratings afresh
		s.mu.Unlock()
		pz := ratingOf(s.puzzleRatings(ctx), e)
		np, err1 := rating.Update(glicko(pl), []rating.Result{{Opponent: glicko(pz), Score: score}}, rating.DefaultTau)
		nz, err2 := rating.Update(glicko(pz), []rating.Result{{Opponent: glicko(pl), Score: 1 - score}}, rating.DefaultTau)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		newPlayer := store.PuzzleRating{Rating: np.Rating, Deviation: np.Deviation, Volatility: np.Volatility, Attempts: pl.Attempts + 1, Updated: at}
		newPuzzle := store.PuzzleRating{Rating: nz.Rating, Deviation: nz.Deviation, Volatility: nz.Volatility, Attempts: pz.Attempts + 1, Updated: at}
		a := store.PuzzleAttempt{UserID: u.ID, PuzzleID: e.p.ID, At: at, Solved: solved, Rated: true,
			PlayerBefore: pl.Rating, PlayerAfter: np.Rating, PuzzleBefore: pz.Rating, PuzzleAfter: nz.Rating}
		err = s.cfg.Store.RecordAttempt(ctx, a, newPlayer, newPuzzle)
		if err == nil {
			// The map read is shared with the requests under way and never
			// changed: the next request reads the ratings again.
			s.mu.Lock()
			s.read = time.Time{}
			s.mu.Unlock()
			return &RatingChange{Solved: solved, PlayerBefore: wireGlicko(glicko(pl)), PlayerAfter: wireGlicko(np),
				PuzzleBefore: wireGlicko(glicko(pz)), PuzzleAfter: wireGlicko(nz)}, nil
		}
		if !errors.Is(err, store.ErrConflict) || try >= 5 {
			return nil, err
		}
		at = at.Add(time.Millisecond)
	}
}

// historyLimit is how many attempts GET /api/puzzles/me lists.
const historyLimit = 100

// handleMe answers the signed-in player's puzzle rating and latest
// attempts.
func (s *Puzzles) handleMe(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Store == nil || s.cfg.Sessions == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	u, _, ok := s.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	pl, err := s.playerRating(r.Context(), u.ID, s.now())
	var list []store.PuzzleAttempt
	if err == nil {
		list, err = s.cfg.Store.PuzzleAttempts(r.Context(), u.ID, historyLimit)
	}
	if err != nil {
		s.log.Error("puzzle history", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the puzzle history could not be read")
		return
	}
	out := History{Rating: *wirePlayer(pl), Attempts: []Attempt{}}
	for _, a := range list {
		at := Attempt{Puzzle: a.PuzzleID, At: a.At, Solved: a.Solved, Rated: a.Rated, Themes: []string{}}
		if a.Rated {
			at.PlayerBefore, at.PlayerAfter = a.PlayerBefore, a.PlayerAfter
		}
		if e := s.byID[a.PuzzleID]; e != nil {
			at.Spec = e.p.Spec
			for _, t := range e.p.Themes {
				at.Themes = append(at.Themes, string(t))
			}
		}
		out.Attempts = append(out.Attempts, at)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// handleThemes lists the games that have puzzles, with their themes and
// how many puzzles each has, in the order of the sets.
func (s *Puzzles) handleThemes(w http.ResponseWriter, r *http.Request) {
	out := Themes{Games: []GameThemes{}}
	index := map[string]int{}
	for _, e := range s.list {
		name := gameName(e.p.Spec)
		i, ok := index[name]
		if !ok {
			i = len(out.Games)
			index[name] = i
			out.Games = append(out.Games, GameThemes{Game: name, Title: e.g.Info().Title, Themes: []ThemeCount{}})
		}
		gt := &out.Games[i]
		gt.Puzzles++
		for _, t := range e.p.Themes {
			k := slices.IndexFunc(gt.Themes, func(c ThemeCount) bool { return c.Theme == string(t) })
			if k < 0 {
				gt.Themes = append(gt.Themes, ThemeCount{Theme: string(t)})
				k = len(gt.Themes) - 1
			}
			gt.Themes[k].Puzzles++
		}
	}
	for i := range out.Games {
		slices.SortStableFunc(out.Games[i].Themes, func(a, b ThemeCount) int { return strings.Compare(a.Theme, b.Theme) })
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// handlePlayer answers the puzzle rating of the account named in the
// path, for its profile: a player without rated attempts has the starting
// rating and no attempts.
func (s *Puzzles) handlePlayer(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Store == nil || s.cfg.Users == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	u, err := s.cfg.Users.UserByName(r.Context(), r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoPlayer, fmt.Sprintf("no player %q", r.PathValue("name")))
		return
	}
	var pl store.PuzzleRating
	if err == nil {
		pl, err = s.playerRating(r.Context(), u.ID, s.now())
	}
	if err != nil {
		s.log.Error("puzzle rating of a player", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the puzzle rating could not be read")
		return
	}
	httpx.WriteJSON(w, http.StatusOK, wirePlayer(pl))
}
