// Package analysis is the site's domain of analysis: the analysis board's
// verdicts (POST /api/analyze, live over /ws/analyze), the review of a
// finished game, and positions set up by hand. It runs the searches on a
// bounded set of workers, with a rate limit per client address; the
// searches themselves are the caller's Analyst (stax serve passes the
// computer players).
package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"stax/game"
	"stax/search"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/view"
	"stax/server/view/board"
)

// Analyst analyses positions and reviews games for the analysis board;
// stax serve passes an ai.Config, whose methods these are.
type Analyst interface {
	// Analyze scores every legal move of pos for the player to move.
	Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error)
	// Review marks every move of the game h holds.
	Review(ctx context.Context, h *game.History, opt search.ReviewOptions, progress func(done, total int)) (search.Review, error)
}

// The defaults of the analysis limits (Config.AnalysisWorkers and the
// others).
const (
	DefaultAnalysisWorkers = 1
	DefaultAnalysisTime    = 30 * time.Second
	DefaultReviewTime      = 20 * time.Second
	DefaultAnalyzeEvery    = 2 * time.Second
	DefaultAnalyzeBurst    = 20
)

// quickTime is the search time of POST /api/analyze's answer for the
// games analysed by search: a first estimate, deepened by /ws/analyze.
const quickTime = 500 * time.Millisecond

// slotWait is how long a request waits for an analysis worker before it
// is answered 503.
const slotWait = 10 * time.Second

// maxStreamDepth bounds the depth of a live analysis.
const maxStreamDepth = 40

// reviewsKept bounds the reviews of finished games kept in memory.
const reviewsKept = 64

// AnalyzeRequest is the body of POST /api/analyze and the "start"
// message of /ws/analyze: a position given by its variant, a position
// string (the start when empty) and moves played from it; or by a game of
// the server, once it is over, at a ply (its end when absent).
type AnalyzeRequest struct {
	// Type is "start" or "stop" on /ws/analyze; unused by POST.
	Type     string   `json:"type,omitempty"`
	Spec     string   `json:"spec,omitempty"`
	Position string   `json:"position,omitempty"`
	Moves    []string `json:"moves,omitempty"`
	Game     string   `json:"game,omitempty"`
	Ply      *int     `json:"ply,omitempty"`
}

// Verdict is a move with its value for the player making it, as the
// analysis and the review send it; the browser's engine sends the same.
type Verdict = board.Verdict

// Analysis answers POST /api/analyze and is each "analysis" message of
// /ws/analyze: every legal move with its verdict, best first.
type Analysis = board.Analysis

// withBoard adds the board view, the players' names and the title of h's
// position to a.
func withBoard(a Analysis, h *game.History) Analysis {
	s := h.State()
	a.View = view.Of(s, h.Over(), nil)
	if n := len(h.Moves()); n > 0 && a.View != nil {
		prev := h.Start()
		for _, m := range h.Moves()[:n-1] {
			prev.Apply(m)
		}
		a.View.Last = view.LastCells(prev, h.Moves()[n-1])
	}
	a.PlayerNames = view.PlayerNames(h.Game())
	a.Title = h.Game().Info().Title
	return a
}

// ReviewedMove is one move of GET /api/games/{id}/review.
type ReviewedMove struct {
	Ply    int         `json:"ply"`
	Player int         `json:"player"`
	Move   string      `json:"move"`
	Played Verdict     `json:"played"`
	Best   Verdict     `json:"best"`
	Better []Verdict   `json:"better"`
	Mark   search.Mark `json:"mark"`
	// Symbol is the mark's sign: "?!", "?" or "??".
	Symbol string `json:"symbol,omitempty"`
}

// Review answers GET /api/games/{id}/review.
type Review struct {
	ID         string            `json:"id"`
	Spec       string            `json:"spec"`
	Exact      bool              `json:"exact"`
	Thresholds search.Thresholds `json:"thresholds"`
	Moves      []ReviewedMove    `json:"moves"`
	// Counts are each player's inaccuracies, mistakes and blunders.
	Counts [][3]int `json:"counts"`
}

// Config configures the analysis.
type Config struct {
	// Analyst analyses positions and reviews games; nil offers none.
	Analyst Analyst
	// Games lists the games the site plays, and Stored keeps them: a
	// finished game is analysed and reviewed as stored.
	Games  game.Registry
	Stored store.Games
	// Workers bounds the analyses and reviews searching at once (default
	// DefaultAnalysisWorkers); a request waits up to 10 s for one, then
	// is answered 503.
	Workers int
	// Time caps one live analysis of /ws/analyze (default
	// DefaultAnalysisTime); ReviewTime is the search time of a whole
	// review (default DefaultReviewTime), shared over its positions.
	Time, ReviewTime time.Duration
	// Every and Burst limit the analyses and reviews one client address
	// may start (defaults DefaultAnalyzeEvery, DefaultAnalyzeBurst).
	Every time.Duration
	Burst int
	// MaxPlies bounds the moves of a position to analyse.
	MaxPlies int
	// Proxies are the trusted reverse proxies, for the per-address limit.
	Proxies httpx.Proxies
	// Sockets admits the websockets of live analyses.
	Sockets *httpx.Sockets
	// Log receives the analysis' logs; nil discards them.
	Log *slog.Logger
}

// Board is the site's analysis board: the domain of analysis. It holds
// the analysis workers, a rate limit per client address, and the reviews
// of finished games already made.
type Board struct {
	cfg    Config
	log    *slog.Logger
	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc

	// slots shares the analysis workers between client addresses, in
	// turn, with a bounded waiting room.
	slots  *httpx.Fair
	starts *httpx.RateLimiter

	mu      sync.Mutex // guards reviews and order
	reviews map[string]*reviewEntry
	order   []string // the reviews kept, oldest first
}

// reviewEntry is a review made or being made; done is closed when it is.
type reviewEntry struct {
	done chan struct{}
	r    *Review
	err  error
}

// New returns the analysis domain.
func New(cfg Config) *Board {
	httpx.SetDefault(&cfg.Workers, DefaultAnalysisWorkers)
	httpx.SetDefault(&cfg.Time, DefaultAnalysisTime)
	httpx.SetDefault(&cfg.ReviewTime, DefaultReviewTime)
	httpx.SetDefault(&cfg.Every, DefaultAnalyzeEvery)
	httpx.SetDefault(&cfg.Burst, DefaultAnalyzeBurst)
	httpx.SetDefault(&cfg.MaxPlies, 2000)
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	a := &Board{
		cfg:     cfg,
		log:     cfg.Log,
		slots:   httpx.NewFair(cfg.Workers, analysisWaiting, analysisWaitingPerClient),
		starts:  httpx.NewRateLimiter(cfg.Every, cfg.Burst),
		reviews: map[string]*reviewEntry{},
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	return a
}

// Routes adds the analysis' routes to m.
func (a *Board) Routes(m *http.ServeMux) {
	m.HandleFunc("POST /api/analyze", a.handleAnalyze)
	m.HandleFunc("POST /api/setup", a.handleSetup)
	m.HandleFunc("GET /ws/analyze", a.handleAnalyzeWS)
	m.HandleFunc("GET /api/games/{id}/review", a.handleReview)
}

// Sweep forgets the rate limit's clients that have been quiet.
func (a *Board) Sweep(now time.Time) { a.starts.Sweep(now) }

// Close stops the reviews being made.
func (a *Board) Close() { a.cancel() }

// take waits for an analysis worker until ctx ends; the function it
// returns gives the worker back.
func (a *Board) take(ctx context.Context, client string) (func(), error) {
	return a.slots.Acquire(ctx, client)
}

// The bounds of the analysis workers' waiting room: past them a request is
// answered busy at once.
const (
	analysisWaiting          = 32
	analysisWaitingPerClient = 2
)

// errBusy is answered when every analysis worker stays busy.
var errBusy = errors.New("every analysis worker is busy; try again shortly")

// takeOrBusy waits up to slotWait for a worker.
func (a *Board) takeOrBusy(ctx context.Context, client string) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, slotWait)
	defer cancel()
	release, err := a.take(ctx, client)
	if err != nil {
		return nil, errBusy
	}
	return release, nil
}

// requestError is a bad analysis request, answered 400 (or Status).
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

// stored reads a game of the site as its store holds it (every move is
// committed before anyone sees it): its spec, game, start, moves, and
// whether it is over.
func (s *Board) stored(ctx context.Context, id string) (spec string, g game.Game, start game.State, moves []game.Move, over bool, err error) {
	if !httpx.ValidID(id) || s.cfg.Stored == nil {
		return "", nil, nil, nil, false, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	sg, err := s.cfg.Stored.Get(ctx, id)
	if err != nil {
		return "", nil, nil, nil, false, err
	}
	if g, err = s.cfg.Games.Load(sg.Spec); err != nil {
		return "", nil, nil, nil, false, fmt.Errorf("game %s: %w", id, err)
	}
	start = g.Start()
	if sg.Start != "" {
		if start, err = g.ParseState(sg.Start); err != nil {
			return "", nil, nil, nil, false, fmt.Errorf("game %s: %w", id, err)
		}
	}
	st := start.Clone()
	for i, text := range sg.Moves {
		m, err := st.ParseMove(text)
		if err != nil {
			return "", nil, nil, nil, false, fmt.Errorf("game %s ply %d: %w", id, i, err)
		}
		st.Apply(m)
		moves = append(moves, m)
	}
	return sg.Spec, g, start, moves, sg.Status == store.Finished || st.Terminal(), nil
}

// resolve returns the history an analysis request names. A game of the
// server is analysed only once it is over.
func (s *Board) resolve(ctx context.Context, req AnalyzeRequest) (string, *game.History, error) {
	if req.Game != "" {
		spec, g, start, moves, over, err := s.stored(ctx, req.Game)
		if err != nil {
			return "", nil, &requestError{http.StatusNotFound, fmt.Sprintf("no game %q", req.Game)}
		}
		if !over {
			return "", nil, &requestError{http.StatusForbidden, "the game is not over: it can be analysed when it ends"}
		}
		if req.Ply != nil {
			if *req.Ply < 0 || *req.Ply > len(moves) {
				return "", nil, &requestError{http.StatusBadRequest, fmt.Sprintf("ply %d: the game has plies 0 to %d", *req.Ply, len(moves))}
			}
			moves = moves[:*req.Ply]
		}
		h := game.NewHistory(g, start)
		for _, m := range moves {
			if err := h.PlayMove(m); err != nil {
				return "", nil, err
			}
		}
		return spec, h, nil
	}
	if req.Spec == "" {
		return "", nil, &requestError{http.StatusBadRequest, "missing spec; want e.g. {\"spec\":\"pogo\",\"position\":\"...\"} or {\"game\":\"ID\"}"}
	}
	g, err := s.cfg.Games.Load(req.Spec)
	if err != nil {
		return "", nil, &requestError{http.StatusBadRequest, err.Error()}
	}
	start := g.Start()
	if req.Position != "" {
		if start, err = g.ParseState(req.Position); err != nil {
			return "", nil, &requestError{http.StatusBadRequest, err.Error()}
		}
	}
	if len(req.Moves) > s.cfg.MaxPlies {
		return "", nil, &requestError{http.StatusBadRequest, fmt.Sprintf("%d moves: at most %d", len(req.Moves), s.cfg.MaxPlies)}
	}
	h := game.NewHistory(g, start)
	for i, m := range req.Moves {
		if h.Over() {
			return "", nil, &requestError{http.StatusBadRequest, fmt.Sprintf("move %d (%s): the game is over", i+1, m)}
		}
		if err := h.Play(m); err != nil {
			return "", nil, &requestError{http.StatusBadRequest, fmt.Sprintf("move %d: %v", i+1, err)}
		}
	}
	return req.Spec, h, nil
}

// analysisOf turns an analysis into its wire form.
func analysisOf(spec string, s game.State, a search.Analysis, elapsed time.Duration) Analysis {
	out := Analysis{Spec: spec, Position: s.String(), ToMove: s.ToMove(), Exact: a.Exact, Moves: []Verdict{}, Line: []string{},
		ElapsedMS: elapsed.Milliseconds(), Final: a.Exact}
	for _, v := range a.Moves {
		out.Moves = append(out.Moves, verdictOf(s, v))
		out.Depth = max(out.Depth, v.Depth)
	}
	c := s.Clone()
	for _, m := range a.Line {
		if c.Terminal() {
			break
		}
		out.Line = append(out.Line, c.FormatMove(m))
		c.Apply(m)
	}
	return out
}

func verdictOf(s game.State, v search.MoveVerdict) Verdict {
	return Verdict{Move: s.FormatMove(v.Move), Score: v.Score, Source: v.Source, Exact: v.Source.Exact(), Depth: v.Depth}
}

// overAnalysis is the analysis of a finished position.
func overAnalysis(spec string, h *game.History) Analysis {
	s := h.State()
	return Analysis{Spec: spec, Position: s.String(), ToMove: s.ToMove(), Exact: true, Final: true, Moves: []Verdict{}, Line: []string{},
		Over: h.Outcome().Describe(h.Game())}
}

// handleAnalyze answers POST /api/analyze: every legal move of the
// position with its verdict, exact for Pogo from its table, else a first
// estimate of a short search (/ws/analyze deepens it).
func (s *Board) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Analyst == nil {
		httpx.Error(w, http.StatusNotFound, "this server offers no analysis")
		return
	}
	if !s.starts.Admit(w, r, s.cfg.Proxies, time.Now(), "analyses") {
		return
	}
	var req AnalyzeRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	spec, h, err := s.resolve(r.Context(), req)
	if err != nil {
		analysisError(w, err)
		return
	}
	if h.Over() {
		httpx.WriteJSON(w, http.StatusOK, withBoard(overAnalysis(spec, h), h))
		return
	}
	release, err := s.takeOrBusy(r.Context(), httpx.ClientKey(s.cfg.Proxies.ClientIP(r)))
	if err != nil {
		w.Header().Set("Retry-After", "5")
		httpx.Error(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	defer release()
	start := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), 2*quickTime+time.Second)
	defer cancel()
	a, err := s.cfg.Analyst.Analyze(ctx, search.PositionOf(h), search.AnalyzeOptions{Time: quickTime})
	if err != nil {
		httpx.Error(w, http.StatusServiceUnavailable, "the analysis failed: "+err.Error())
		return
	}
	httpx.WriteJSON(w, http.StatusOK, withBoard(analysisOf(spec, h.State(), a, time.Since(start)), h))
}

func analysisError(w http.ResponseWriter, err error) {
	var re *requestError
	if errors.As(err, &re) {
		httpx.Error(w, re.status, re.msg)
		return
	}
	httpx.Error(w, http.StatusInternalServerError, "the game could not be replayed")
}

// handleAnalyzeWS serves /ws/analyze: the client sends a "start" message
// (an AnalyzeRequest) and gets "analysis" messages, one per depth, until
// the analysis is exact, proven, at its time cap or stopped by a "stop"
// message or another "start"; then a "done" message. Errors are "error"
// messages with a code, as on the game websockets.
func (s *Board) handleAnalyzeWS(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Analyst == nil {
		httpx.Error(w, http.StatusNotFound, "this server offers no analysis")
		return
	}
	release, ok := s.cfg.Sockets.Take(w, r)
	if !ok {
		return
	}
	defer release()
	conn, ok := s.cfg.Sockets.Accept(w, r)
	if !ok {
		return
	}
	defer conn.Done()
	key := httpx.ClientKey(s.cfg.Proxies.ClientIP(r))

	ctx, cancelConn := context.WithCancel(s.ctx)
	defer cancelConn()
	var wmu sync.Mutex // serialises writes
	send := func(v any) bool {
		wmu.Lock()
		defer wmu.Unlock()
		return conn.WriteMessage(ctx, httpx.Marshal(v)) == nil
	}
	sendError := func(code, msg string) {
		send(errorMsg{Type: "error", Code: code, Message: msg})
	}
	stopPing := conn.KeepAlive()
	var run struct {
		cancel context.CancelFunc
		done   chan struct{}
	}
	stopRun := func() {
		if run.cancel != nil {
			run.cancel()
			<-run.done
			run.cancel = nil
		}
	}
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			break
		}
		var req AnalyzeRequest
		if typ != websocket.MessageText || json.Unmarshal(data, &req) != nil {
			sendError(httpx.CodeBadMessage, "want JSON text messages: {\"type\":\"start\",\"spec\":...} or {\"type\":\"stop\"}")
			continue
		}
		switch req.Type {
		case "stop":
			stopRun()
			continue
		case "start":
		default:
			sendError(httpx.CodeBadMessage, fmt.Sprintf("message type %q: want start or stop", req.Type))
			continue
		}
		stopRun()
		if ok, retry := s.starts.Allow(key, time.Now()); !ok {
			sendError(httpx.CodeRateLimited, fmt.Sprintf("too many analyses from your address; try again in %d s", max(int(retry.Seconds()+0.999), 1)))
			continue
		}
		spec, h, err := s.resolve(ctx, req)
		if err != nil {
			var re *requestError
			if errors.As(err, &re) {
				sendError(httpx.CodeBadMessage, re.msg)
			} else {
				sendError(httpx.CodeServer, "the game could not be replayed")
			}
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, s.cfg.Time)
		run.cancel, run.done = cancel, make(chan struct{})
		go func(done chan struct{}) {
			defer close(done)
			s.stream(rctx, key, spec, h, send, sendError)
		}(run.done)
	}
	stopRun()
	stopPing()
}

// stream runs a live analysis of h's position: one analysis per depth,
// each sent, until it is exact or proven, ctx ends or the depth bound.
func (s *Board) stream(ctx context.Context, client, spec string, h *game.History, send func(any) bool, sendError func(code, msg string)) {
	defer send(struct {
		Type string `json:"type"`
	}{"done"})
	if h.Over() {
		a := overAnalysis(spec, h)
		a.Type = "analysis"
		send(a)
		return
	}
	release, err := s.take(ctx, client)
	if err != nil {
		if errors.Is(err, httpx.ErrBusy) {
			sendError(httpx.CodeRateLimited, errBusy.Error())
		}
		return
	}
	defer release()
	start := time.Now()
	pos := search.PositionOf(h)
	last := -1
	for depth := 1; depth <= maxStreamDepth; depth++ {
		a, err := s.cfg.Analyst.Analyze(ctx, pos, search.AnalyzeOptions{Depth: depth})
		if expired(ctx) {
			// Cut short: what it found is no deeper than what was sent.
			return
		}
		if err != nil {
			sendError(httpx.CodeServer, "the analysis failed: "+err.Error())
			return
		}
		out := analysisOf(spec, h.State(), a, time.Since(start))
		out.Type = "analysis"
		proven := true
		for _, v := range a.Moves {
			proven = proven && v.Score.IsProven()
		}
		// A search that stops deepening (every move proven, or the game's
		// end within reach) has said all it can.
		out.Final = a.Exact || proven || out.Depth <= last || depth == maxStreamDepth
		if !send(out) || out.Final {
			return
		}
		last = out.Depth
	}
}

// expired reports whether ctx has ended or its deadline has passed (a
// search may stop at its deadline before the context says so).
func expired(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}

// handleReview answers GET /api/games/{id}/review: every move of a
// finished game with its verdict, the best move's and its mark. It is
// made once per game (then kept among the last reviewsKept) on an
// analysis worker.
func (s *Board) handleReview(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Analyst == nil {
		httpx.Error(w, http.StatusNotFound, "this server offers no analysis")
		return
	}
	id := r.PathValue("id")
	spec, g, start, moves, over, err := s.stored(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no game %q", id))
		return
	}
	if err != nil {
		s.log.Error("load game", "game", id, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be loaded")
		return
	}
	if !over {
		httpx.Error(w, http.StatusForbidden, "the game is not over: it can be reviewed when it ends")
		return
	}
	e, mine := s.entry(id)
	if mine {
		if !s.starts.Admit(w, r, s.cfg.Proxies, time.Now(), "analyses") {
			s.fail(id, e, errors.New("rate limited"))
			return
		}
		go s.makeReview(id, httpx.ClientKey(s.cfg.Proxies.ClientIP(r)), e, spec, g, start, moves)
	}
	select {
	case <-e.done:
	case <-r.Context().Done():
		return
	}
	if e.err != nil {
		if errors.Is(e.err, errBusy) {
			w.Header().Set("Retry-After", "5")
		}
		httpx.Error(w, http.StatusServiceUnavailable, "the review could not be made: "+e.err.Error())
		return
	}
	httpx.WriteJSON(w, http.StatusOK, e.r)
}

// entry returns the review entry of game id, and whether the caller is to
// make it (it was not made or being made).
func (a *Board) entry(id string) (*reviewEntry, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.reviews[id]; ok {
		return e, false
	}
	e := &reviewEntry{done: make(chan struct{})}
	a.reviews[id] = e
	a.order = append(a.order, id)
	if len(a.order) > reviewsKept {
		old := a.order[0]
		a.order = a.order[1:]
		delete(a.reviews, old)
	}
	return e, true
}

// fail ends a review entry with err and forgets it, so that the next
// request tries again.
func (a *Board) fail(id string, e *reviewEntry, err error) {
	a.mu.Lock()
	if a.reviews[id] == e {
		delete(a.reviews, id)
	}
	a.mu.Unlock()
	e.err = err
	close(e.done)
}

// makeReview makes the review of a finished game on an analysis worker,
// within ReviewTime: each position gets an even share of it (between
// 20 ms and 300 ms), Pogo with its table none.
func (s *Board) makeReview(id, client string, e *reviewEntry, spec string, g game.Game, start game.State, moves []game.Move) {
	ctx, cancel := context.WithTimeout(s.ctx, slotWait+2*s.cfg.ReviewTime)
	defer cancel()
	release, err := s.takeOrBusy(ctx, client)
	if err != nil {
		s.fail(id, e, err)
		return
	}
	defer release()
	h := game.NewHistory(g, start)
	for _, m := range moves {
		if err := h.PlayMove(m); err != nil {
			s.fail(id, e, err)
			return
		}
	}
	per := s.cfg.ReviewTime / time.Duration(max(len(moves), 1))
	per = min(max(per, 20*time.Millisecond), 300*time.Millisecond)
	rv, err := s.cfg.Analyst.Review(ctx, h, search.ReviewOptions{Time: per}, nil)
	if err != nil {
		s.fail(id, e, err)
		return
	}
	out := &Review{ID: id, Spec: spec, Exact: rv.Exact, Thresholds: rv.Thresholds, Moves: []ReviewedMove{}}
	st := h.Start()
	for _, m := range rv.Moves {
		rm := ReviewedMove{Ply: m.Ply, Player: m.Player, Move: st.FormatMove(m.Move), Played: verdictOf(st, m.Played),
			Best: verdictOf(st, m.Best), Better: []Verdict{}, Mark: m.Mark, Symbol: m.Mark.Symbol()}
		for _, b := range m.Better {
			rm.Better = append(rm.Better, verdictOf(st, b))
		}
		out.Moves = append(out.Moves, rm)
		st.Apply(m.Move)
	}
	for p := 0; p < g.Players(); p++ {
		n := rv.Counts(p)
		out.Counts = append(out.Counts, [3]int{n[search.Inaccuracy], n[search.Mistake], n[search.Blunder]})
	}
	e.r = out
	close(e.done)
}

// errorMsg is an error message of /ws/analyze, as on the game websockets.
type errorMsg struct {
	Type    string `json:"type"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// SetupRequest is the body of POST /api/setup: a position set up by hand,
// as the stacks of the board view's cells (in its order, bottom to top,
// "" for an empty cell) and the player to move.
type SetupRequest struct {
	Spec   string   `json:"spec"`
	Stacks []string `json:"stacks"`
	ToMove int      `json:"toMove"`
}

// Setup answers POST /api/setup: the position string and its view.
type Setup struct {
	Position string     `json:"position"`
	View     *view.View `json:"view"`
}

// handleSetup answers POST /api/setup: the position of a board set up by
// hand, read by the game's own parser (its message when it refuses it).
func (s *Board) handleSetup(w http.ResponseWriter, r *http.Request) {
	var req SetupRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	g, err := s.cfg.Games.Load(req.Spec)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	c, ok := g.(game.Composer)
	if !ok {
		httpx.Error(w, http.StatusNotFound, g.Info().Title+" positions cannot be set up by hand; type a position string")
		return
	}
	st, err := c.Compose(req.Stacks, req.ToMove)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.WriteJSON(w, http.StatusOK, Setup{Position: st.String(), View: view.Of(st, st.Terminal(), nil)})
}
