// Package explorer is the site's opening explorer: for any position, the
// moves the site's finished games played from it, with how often, how
// those games ended for the player who moved and the players' average
// rating, the rated games and the casual ones apart; beside them the
// exact verdict of each move where the server knows it (Pogo's solved
// table, Diam's proof-number solver). The index is kept in the store by
// position hash (store.Explorer): the finished games are indexed as they
// come (IndexMissed, which the site runs every minute and stax db explore
// runs over a whole database), each once whatever the instances.
package explorer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"

	"stax/game"
	"stax/rating"
	"stax/search"
	"stax/server/httpx"
	"stax/server/store"
)

// Analyst analyses positions: the explorer asks it for the verdicts of
// the moves (stax serve passes the analysis board's analyst).
type Analyst interface {
	Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error)
}

// RatingHistories gives a player's ratings after each rated game of a
// pool (the store's Ratings implements it).
type RatingHistories interface {
	RatingHistory(ctx context.Context, userID, pool string) ([]store.RatingPoint, error)
}

// The defaults of Config.
const (
	DefaultVerdictTime = 300 * time.Millisecond
	DefaultEvery       = 100 * time.Millisecond
	DefaultBurst       = 30
)

// maxMoves bounds the moves of a request's line.
const maxMoves = 1000

// Config configures the explorer.
type Config struct {
	// Store keeps the index; nil offers no explorer (501).
	Store store.Explorer
	// Ratings and PoolOf give the players' ratings before a rated game
	// (PoolOf names a game's rating pool, "" for none); either nil counts
	// no ratings.
	Ratings RatingHistories
	PoolOf  func(game.Game) string
	// Games lists the games the site plays.
	Games game.Registry
	// Analyst, when set, gives the verdicts of the moves; VerdictTime
	// bounds its search (default DefaultVerdictTime).
	Analyst     Analyst
	VerdictTime time.Duration
	// Every and Burst limit the requests of one client address (defaults
	// DefaultEvery, DefaultBurst).
	Every time.Duration
	Burst int
	// Proxies are the trusted reverse proxies, for the per-address limit.
	Proxies httpx.Proxies
	// Log receives the explorer's logs; nil discards them.
	Log *slog.Logger
}

// Explorer is the site's opening explorer.
type Explorer struct {
	cfg      Config
	log      *slog.Logger
	slots    chan struct{} // one analysis at a time
	requests *httpx.RateLimiter
	indexing chan struct{} // one IndexMissed at a time
}

// New returns the explorer.
func New(cfg Config) *Explorer {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	httpx.SetDefault(&cfg.VerdictTime, DefaultVerdictTime)
	httpx.SetDefault(&cfg.Every, DefaultEvery)
	httpx.SetDefault(&cfg.Burst, DefaultBurst)
	return &Explorer{cfg: cfg, log: cfg.Log, slots: make(chan struct{}, 1), requests: httpx.NewRateLimiter(cfg.Every, cfg.Burst),
		indexing: make(chan struct{}, 1)}
}

// Routes adds the explorer's routes to m.
func (x *Explorer) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/explorer", x.handle)
}

// Sweep forgets the rate limit's clients that have been quiet.
func (x *Explorer) Sweep(now time.Time) { x.requests.Sweep(now) }

// indexPage is how many games IndexMissed reads at once.
const indexPage = 100

// IndexMissed indexes the finished games not indexed yet, earliest
// finished first, up to limit of them (no limit when limit ≤ 0), and
// returns how many it indexed. A game that cannot be read (an unknown
// game, a move the rules refuse) is marked indexed without moves and
// logged; only an error of the store stops it. Several calls at once,
// here or on other instances, share the work: a game is indexed once.
func (x *Explorer) IndexMissed(ctx context.Context, limit int) (int, error) {
	if x.cfg.Store == nil {
		return 0, nil
	}
	select {
	case x.indexing <- struct{}{}:
		defer func() { <-x.indexing }()
	default:
		return 0, nil // another call of this instance is at it
	}
	done := 0
	for limit <= 0 || done < limit {
		gs, err := x.cfg.Store.Unindexed(ctx, indexPage)
		if err != nil {
			return done, err
		}
		for _, sg := range gs {
			err := x.index(ctx, sg)
			switch {
			case errors.Is(err, store.ErrConflict):
				// Indexed meanwhile by another instance.
			case err != nil:
				return done, err
			default:
				done++
			}
		}
		if len(gs) < indexPage {
			break
		}
	}
	return done, nil
}

// index indexes one finished game. A game that cannot be read (a game
// this site no longer plays, a move its rules refuse) is marked indexed
// without moves, so that it is not taken up again.
func (x *Explorer) index(ctx context.Context, sg *store.Game) error {
	g, err := x.cfg.Games.Load(sg.Spec)
	if err != nil {
		x.log.Warn("explorer: a game left out", "game", sg.ID, "err", err)
		return x.cfg.Store.IndexGame(ctx, sg.ID, sg.Spec, sg.Rated, sg.Updated, nil)
	}
	before, err := x.ratingsBefore(ctx, g, sg)
	if err != nil {
		return err
	}
	entries, err := Entries(g, sg, before)
	if err != nil {
		x.log.Warn("explorer: a game left out", "game", sg.ID, "err", err)
		entries = nil
	}
	return x.cfg.Store.IndexGame(ctx, sg.ID, game.SpecOf(g).String(), sg.Rated, sg.Updated, entries)
}

// ratingsBefore returns each seat's rating before a rated game (0 where
// unknown), from the rating histories: the rating after the game before
// it, or a new player's for a player's first game.
func (x *Explorer) ratingsBefore(ctx context.Context, g game.Game, sg *store.Game) ([]float64, error) {
	out := make([]float64, len(sg.Seats))
	if !sg.Rated || x.cfg.Ratings == nil || x.cfg.PoolOf == nil {
		return out, nil
	}
	pool := x.cfg.PoolOf(g)
	if pool == "" {
		return out, nil
	}
	for i, seat := range sg.Seats {
		if seat.User == "" {
			continue
		}
		h, err := x.cfg.Ratings.RatingHistory(ctx, seat.User, pool)
		if err != nil {
			return nil, err
		}
		for k, p := range h {
			if p.GameID == sg.ID {
				out[i] = rating.DefaultRating
				if k > 0 {
					out[i] = h[k-1].Rating
				}
				break
			}
		}
	}
	return out, nil
}

// Entries returns what a finished game adds to the index: each move with
// the hash of the position it was played from, the game's result for its
// player and that player's rating (before[seat], 0 when unknown). A
// position and move met twice in the game count once. A game called off
// (aborted) adds nothing.
func Entries(g game.Game, sg *store.Game, before []float64) ([]store.ExplorerEntry, error) {
	o, err := game.ParseOutcome(sg.End.Outcome)
	if err != nil {
		return nil, err
	}
	if !o.Over() || o.Reason == game.Aborted {
		return nil, nil
	}
	st := g.Start()
	if sg.Start != "" {
		if st, err = g.ParseState(sg.Start); err != nil {
			return nil, err
		}
	}
	type key struct {
		hash uint64
		move string
	}
	seen := map[key]bool{}
	var out []store.ExplorerEntry
	for i, text := range sg.Moves {
		m, err := st.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		k := key{st.Hash(), st.FormatMove(m)}
		mover := st.ToMove()
		if !seen[k] {
			seen[k] = true
			e := store.ExplorerEntry{Hash: k.hash, Move: k.move}
			switch o.Results[mover] {
			case game.Win:
				e.Result = 1
			case game.Loss:
				e.Result = -1
			}
			if mover < len(before) {
				e.Rating = before[mover]
			}
			out = append(out, e)
		}
		st.Apply(m)
	}
	return out, nil
}

// Stats is what the games of one kind (rated or casual) played from a
// position with one move.
type Stats struct {
	Games int `json:"games"`
	// Wins, Draws and Losses are the games' results for the player who
	// made the move.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// AverageRating is the movers' average rating before the games,
	// over those where it is known (rated games), 0 when none.
	AverageRating float64 `json:"averageRating,omitempty"`
}

// Verdict is a move's value for the player making it, where the server
// knows it exactly.
type Verdict struct {
	Score  search.Score  `json:"score"`
	Source search.Source `json:"source"`
}

// Move is a move of an explorer's answer.
type Move struct {
	Move string `json:"move"`
	// Games is the rated and casual games together.
	Games  int   `json:"games"`
	Rated  Stats `json:"rated"`
	Casual Stats `json:"casual"`
	// Verdict is the exact verdict of the move, when the server knows it.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// Answer answers GET /api/explorer: the moves played from a position,
// most played first.
type Answer struct {
	Spec     string `json:"spec"`
	Position string `json:"position"`
	ToMove   int    `json:"toMove"`
	// Games counts the games that reached the position and went on from
	// it.
	Games int    `json:"games"`
	Moves []Move `json:"moves"`
	// Exact is true when every legal move's verdict is known (Pogo from
	// its table); Unplayed then lists the legal moves no game played,
	// with their verdicts, best first.
	Exact    bool   `json:"exact,omitempty"`
	Unplayed []Move `json:"unplayed,omitempty"`
	// ElapsedMS is how long the store took to answer.
	ElapsedMS float64 `json:"elapsedMs"`
}

func (x *Explorer) handle(w http.ResponseWriter, r *http.Request) {
	if x.cfg.Store == nil {
		httpx.Error(w, http.StatusNotImplemented, "this server keeps no opening explorer")
		return
	}
	if !x.requests.Admit(w, r, x.cfg.Proxies, time.Now(), "explorer requests") {
		return
	}
	q := r.URL.Query()
	g, err := x.cfg.Games.Load(q.Get("spec"))
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("spec %q: %v", q.Get("spec"), err))
		return
	}
	st := g.Start()
	if p := q.Get("position"); p != "" {
		if st, err = g.ParseState(p); err != nil {
			httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("position %q: %v", p, err))
			return
		}
	}
	h := game.NewHistory(g, st)
	if ms := q.Get("moves"); ms != "" {
		list := strings.Split(ms, ",")
		if len(list) > maxMoves {
			httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("%d moves: at most %d", len(list), maxMoves))
			return
		}
		for i, m := range list {
			if h.Over() {
				httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("move %d %q: the game is over", i+1, m))
				return
			}
			if err := h.Play(m); err != nil {
				httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("move %d %q: %v", i+1, m, err))
				return
			}
		}
	}
	cur := h.State()
	spec := game.SpecOf(g).String()
	start := time.Now()
	rows, err := x.cfg.Store.ExplorerMoves(r.Context(), spec, cur.Hash())
	elapsed := time.Since(start)
	if err != nil {
		x.log.Error("explorer", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the explorer could not be read")
		return
	}
	out := Answer{Spec: spec, Position: cur.String(), ToMove: cur.ToMove(), Moves: []Move{}, ElapsedMS: float64(elapsed.Microseconds()) / 1000}
	byMove := map[string]*Move{}
	for _, row := range rows {
		m := byMove[row.Move]
		if m == nil {
			m = &Move{Move: row.Move}
			byMove[row.Move] = m
		}
		s := Stats{Games: row.Games, Wins: row.Wins, Draws: row.Draws, Losses: row.Losses}
		if row.RatingGames > 0 {
			s.AverageRating = row.RatingSum / float64(row.RatingGames)
		}
		if row.Rated {
			m.Rated = s
		} else {
			m.Casual = s
		}
		m.Games += row.Games
		out.Games += row.Games
	}
	for _, m := range byMove {
		out.Moves = append(out.Moves, *m)
	}
	sort.Slice(out.Moves, func(i, j int) bool {
		a, b := out.Moves[i], out.Moves[j]
		return a.Games > b.Games || a.Games == b.Games && a.Move < b.Move
	})
	// The analyst is asked only about positions the games went on from:
	// the analysis board gives the others' verdicts.
	if !h.Over() && len(out.Moves) > 0 {
		x.verdicts(r.Context(), h, &out)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// verdicts adds the exact verdicts the analyst knows within VerdictTime:
// every move's in a game with a solved table (Pogo), the proven ones in a
// game with a solver (two-player Diam); a search's estimates are left
// out.
func (x *Explorer) verdicts(ctx context.Context, h *game.History, out *Answer) {
	if x.cfg.Analyst == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*x.cfg.VerdictTime)
	defer cancel()
	select {
	case x.slots <- struct{}{}:
		defer func() { <-x.slots }()
	case <-ctx.Done():
		return
	}
	a, err := x.cfg.Analyst.Analyze(ctx, search.PositionOf(h), search.AnalyzeOptions{Time: x.cfg.VerdictTime, Prove: true})
	if err != nil {
		x.log.Warn("explorer verdicts", "err", err)
		return
	}
	st := h.State()
	played := map[string]int{}
	for i, m := range out.Moves {
		played[m.Move] = i
	}
	for _, v := range a.Moves {
		if v.Source == search.FromSearch {
			continue
		}
		text := st.FormatMove(v.Move)
		vd := &Verdict{Score: v.Score, Source: v.Source}
		if i, ok := played[text]; ok {
			out.Moves[i].Verdict = vd
		} else if a.Exact {
			out.Unplayed = append(out.Unplayed, Move{Move: text, Verdict: vd})
		}
	}
	out.Exact = a.Exact
}
