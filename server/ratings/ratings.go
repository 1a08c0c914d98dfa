// Package ratings is the site's domain of ratings: the rating pools, the
// Glicko-2 rating of finished rated games (each game its own rating
// period), the players' profiles with their rating history, and the
// leaderboards.
package ratings

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"stax/game"
	"stax/rating"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/view"
)

// The rating pools: a pool is one variant, named here, of the games the
// server plays. Only a game of a pool's exact variant (default options
// apart from the board size) between two accounts can be rated. 4-player
// Diam is unrated: a sound rating of teams and of four-player free-for-all
// results needs more than Glicko-2's two-player results.
var pools = []struct{ name, spec, title string }{
	{"pogo", "pogo", "Pogo"},
	{"pisola6", "pisola", "Pisola 6x6"},
	{"pisola8", "pisola(size=8)", "Pisola 8x8"},
	{"diam", "diam", "Diam, 2 players"},
}

// Pool is a rating pool in GET /api/pools.
type Pool struct {
	Pool  string `json:"pool"`
	Spec  string `json:"spec"`
	Title string `json:"title"`
}

// handlePools lists the rating pools of the games this server plays.
func (s *Ratings) handlePools(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Pools []Pool `json:"pools"`
	}{[]Pool{}}
	for _, p := range pools {
		if _, err := s.games.Load(p.spec); err == nil {
			out.Pools = append(out.Pools, Pool{p.name, p.spec, p.title})
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// Config configures the ratings.
type Config struct {
	// Ratings keeps the ratings and Users the accounts they belong to;
	// with either nil the site rates nothing and its rating routes
	// answer 501.
	Ratings store.Ratings
	Users   store.Users
	// Games lists the games the site plays.
	Games game.Registry
	// Now tells the time ratings age to (default time.Now).
	Now func() time.Time
	// Log receives the ratings' logs; nil discards them.
	Log *slog.Logger
}

// Ratings is the site's domain of ratings.
type Ratings struct {
	store store.Ratings // nil when the site keeps no accounts
	users store.Users
	games game.Registry
	now   func() time.Time
	log   *slog.Logger
	// rating serialises this instance's ratings, so that the games it
	// rates are rated in the order they ended.
	rating sync.Mutex
}

// New returns the ratings domain.
func New(cfg Config) *Ratings {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Ratings{games: cfg.Games, log: cfg.Log, now: func() time.Time { return cfg.Now().UTC() }}
	if cfg.Ratings != nil && cfg.Users != nil {
		s.store, s.users = cfg.Ratings, cfg.Users
	}
	return s
}

// Routes adds the ratings' routes to m.
func (s *Ratings) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/users/{name}", s.handleUser)
	m.HandleFunc("GET /api/leaderboard/{pool}", s.handleLeaderboard)
	m.HandleFunc("GET /api/pools", s.handlePools)
}

// ProvisionalDeviation is the deviation above which a rating is shown as
// provisional ("1500?") and left off the leaderboards: about where a new
// player stands after some ten games.
const ProvisionalDeviation = 110.0

// PoolNames returns the names of the rating pools.
func PoolNames() []string {
	out := make([]string, len(pools))
	for i, p := range pools {
		out[i] = p.name
	}
	return out
}

// PoolOf returns the rating pool of a game, "" if it is unrated.
func PoolOf(g game.Game) string {
	if g.Players() != 2 {
		return ""
	}
	spec := game.SpecOf(g).String()
	for _, p := range pools {
		if p.spec == spec {
			return p.name
		}
	}
	return ""
}

// RatingPeriod is the rating period of Glicko-2 for the time a player
// goes without games: a day, as on Lichess. Each game is a rating period
// of its own; between games, a player's deviation grows by one period per
// day (fractions of a day count), so that a rating left alone becomes less
// certain.
const RatingPeriod = 24 * time.Hour

// LeaderboardActive is how recently a player must have played a rated
// game of a pool to be on its leaderboard.
const LeaderboardActive = 30 * 24 * time.Hour

// aged returns a stored rating as of at: its deviation grown by the rating
// periods since it was last updated.
func aged(r store.Rating, at time.Time) store.Rating {
	if r.Updated.IsZero() || !at.After(r.Updated) {
		return r
	}
	g := rating.Age(rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}, float64(at.Sub(r.Updated))/float64(RatingPeriod))
	r.Deviation = g.Deviation
	return r
}

// Rating returns an account's rating in a pool as of now, its deviation
// grown by the time since its last game; a player without rated games
// there has the starting rating and Games 0.
func (s *Ratings) Rating(ctx context.Context, userID, pool string) (store.Rating, error) {
	r, err := s.stored(ctx, userID, pool)
	return aged(r, s.now()), err
}

// stored returns an account's rating in a pool as the store keeps it.
func (s *Ratings) stored(ctx context.Context, userID, pool string) (store.Rating, error) {
	rs, err := s.store.Ratings(ctx, userID)
	if err != nil {
		return store.Rating{}, err
	}
	for _, r := range rs {
		if r.Pool == pool {
			return r, nil
		}
	}
	n := rating.New()
	return store.Rating{UserID: userID, Pool: pool, Rating: n.Rating, Deviation: n.Deviation, Volatility: n.Volatility}, nil
}

// RateGame updates the ratings of a finished rated game's two players:
// each game is its own rating period, with τ = rating.DefaultTau. It is
// safe to call from several servers at once: the store rates a game once.
// It retries when another game changed a player's rating meanwhile.
func (s *Ratings) RateGame(ctx context.Context, id string, g game.Game, seats []store.Seat, o game.Outcome, at time.Time) error {
	if s.store == nil {
		return nil
	}
	// The games that ended before this one and are not rated yet (their
	// instance stopped before it rated them) are rated first, in the
	// order they ended: this one is among them, unless a page of them
	// was not enough.
	s.rateMissed(ctx)
	s.rating.Lock()
	defer s.rating.Unlock()
	return s.rate(ctx, id, g, seats, o, at)
}

// rate rates one finished game as of its end. The caller holds s.rating.
func (s *Ratings) rate(ctx context.Context, id string, g game.Game, seats []store.Seat, o game.Outcome, at time.Time) error {
	pool := PoolOf(g)
	if pool == "" || o.Reason == game.Aborted || len(seats) != 2 || seats[0].User == "" || seats[1].User == "" || seats[0].User == seats[1].User {
		// Nothing to rate (an aborted game, a deleted account): mark the
		// game settled, so that the start of a server does not take it up
		// again.
		if err := s.store.Rate(ctx, id, at, nil); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
		return nil
	}
	var score float64
	switch o.Results[0] {
	case game.Win:
		score = 1
	case game.Draw:
		score = 0.5
	}
	for attempt := 0; ; attempt++ {
		// The ratings of the moment the game ended: as stored (no later
		// game is rated before it), aged to its end.
		a, err1 := s.stored(ctx, seats[0].User, pool)
		b, err2 := s.stored(ctx, seats[1].User, pool)
		a, b = aged(a, at), aged(b, at)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		na, nb, err := ratePair(a, b, score)
		if err != nil {
			return err
		}
		err = s.store.Rate(ctx, id, at, []store.Rating{na, nb})
		if err == nil || !errors.Is(err, store.ErrConflict) || attempt >= 5 {
			return err
		}
		// The game was rated already (by another server), or a rating
		// changed meanwhile: if the former, the next Rate says so again.
		if rs, herr := s.store.RatingHistory(ctx, seats[0].User, pool); herr == nil {
			for _, p := range rs {
				if p.GameID == id {
					return nil
				}
			}
		}
	}
}

// unratedPage is how many unrated games rateMissed reads at once.
const unratedPage = 100

// RateMissed rates the finished rated games whose rating was never
// written (a server stopped between a game's end and its rating), in the
// order they ended. The store's mark of a rated game makes each count
// once, however many servers start together.
func (s *Ratings) RateMissed(ctx context.Context) {
	if s.store == nil {
		return
	}
	if rated, failed := s.rateMissed(ctx); rated > 0 || failed > 0 {
		s.log.Info("rated the games left unrated", "rated", rated, "failed", failed)
	}
}

// rateMissed rates the finished rated games not rated yet, in the order
// they ended, and counts those rated and those that failed.
func (s *Ratings) rateMissed(ctx context.Context) (rated, failures int) {
	failed := map[string]bool{}
	for {
		gs, err := s.store.Unrated(ctx, unratedPage+len(failed))
		if err != nil {
			s.log.Error("find the games left unrated", "err", err)
			return rated, len(failed)
		}
		progress := false
		for _, sg := range gs {
			if failed[sg.ID] {
				continue
			}
			progress = true
			s.rating.Lock()
			err := s.rateStored(ctx, sg)
			s.rating.Unlock()
			if err != nil {
				failed[sg.ID] = true
				s.log.Error("rate a game left unrated", "game", sg.ID, "err", err)
				continue
			}
			rated++
		}
		if !progress || len(gs) < unratedPage+len(failed) {
			return rated, len(failed)
		}
	}
}

// rateStored rates a stored finished game, as of its end. The caller
// holds s.rating.
func (s *Ratings) rateStored(ctx context.Context, sg *store.Game) error {
	g, err := s.games.Load(sg.Spec)
	if err != nil {
		return err
	}
	o, err := game.ParseOutcome(sg.End.Outcome)
	if err != nil {
		return err
	}
	if !o.Over() {
		return fmt.Errorf("outcome %q: the game is marked finished but its outcome is not an end", sg.End.Outcome)
	}
	return s.rate(ctx, sg.ID, g, sg.Seats, o, sg.Updated)
}

// ratePair returns the new ratings of two players after a game in which
// the first scored score (1, 0.5 or 0).
func ratePair(a, b store.Rating, score float64) (store.Rating, store.Rating, error) {
	ra := rating.Rating{Rating: a.Rating, Deviation: a.Deviation, Volatility: a.Volatility}
	rb := rating.Rating{Rating: b.Rating, Deviation: b.Deviation, Volatility: b.Volatility}
	na, err1 := rating.Update(ra, []rating.Result{{Opponent: rb, Score: score}}, rating.DefaultTau)
	nb, err2 := rating.Update(rb, []rating.Result{{Opponent: ra, Score: 1 - score}}, rating.DefaultTau)
	if err := errors.Join(err1, err2); err != nil {
		return a, b, err
	}
	a.Rating, a.Deviation, a.Volatility, a.Games = na.Rating, na.Deviation, na.Volatility, a.Games+1
	b.Rating, b.Deviation, b.Volatility, b.Games = nb.Rating, nb.Deviation, nb.Volatility, b.Games+1
	return a, b, nil
}

// PoolRating is a rating in a profile or a leaderboard.
type PoolRating struct {
	Pool string `json:"pool"`
	Name string `json:"name,omitempty"`
	// Bot reports that the player is a bot account (leaderboards only).
	Bot         bool    `json:"bot,omitempty"`
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
	// History is the rating after each rated game, oldest first (profiles
	// only).
	History []RatingPoint `json:"history,omitempty"`
	// Results counts the rated games of the pool the player won, lost
	// and drew (profiles only).
	Results *Results `json:"results,omitempty"`
}

// Results counts a player's rated games of a pool won, lost and drawn,
// among their last maxCounted finished games.
type Results struct {
	Won   int `json:"won"`
	Lost  int `json:"lost"`
	Drawn int `json:"drawn"`
}

// maxCounted is how many of a player's most recent finished games a
// profile reads to count the games won, lost and drawn per pool.
const maxCounted = 2000

// RatingPoint is one point of a rating history.
type RatingPoint struct {
	Game      string    `json:"game"`
	At        time.Time `json:"at"`
	Rating    float64   `json:"rating"`
	Deviation float64   `json:"deviation"`
}

// Profile answers GET /api/users/{name}.
type Profile struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Bot reports that the account is a bot.
	Bot     bool           `json:"bot,omitempty"`
	Ratings []PoolRating   `json:"ratings"`
	Games   []view.Summary `json:"games"`
}

func poolRating(r store.Rating) PoolRating {
	return PoolRating{Pool: r.Pool, Name: r.Name, Bot: r.Bot, Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility, Games: r.Games,
		Provisional: r.Deviation > ProvisionalDeviation}
}

func (s *Ratings) handleUser(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	name := r.PathValue("name")
	u, err := s.users.UserByName(r.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no player named %q", name))
		return
	}
	if err != nil {
		s.log.Error("user", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the player could not be read")
		return
	}
	p := Profile{Name: u.Name, Created: u.Created, Bot: u.Bot, Ratings: []PoolRating{}, Games: []view.Summary{}}
	rs, err := s.store.Ratings(r.Context(), u.ID)
	if err != nil {
		s.log.Error("ratings", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the ratings could not be read")
		return
	}
	results, err := s.results(r.Context(), u.ID)
	if err != nil {
		s.log.Error("games of", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be read")
		return
	}
	now := s.now()
	for _, rt := range rs {
		pr := poolRating(aged(rt, now))
		pr.Name, pr.Bot = "", false
		h, err := s.store.RatingHistory(r.Context(), u.ID, rt.Pool)
		if err != nil {
			s.log.Error("rating history", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the ratings could not be read")
			return
		}
		pr.Results = &Results{}
		for _, pt := range h {
			pr.History = append(pr.History, RatingPoint{Game: pt.GameID, At: pt.At, Rating: pt.Rating, Deviation: pt.Deviation})
			switch results[pt.GameID] {
			case game.Win:
				pr.Results.Won++
			case game.Loss:
				pr.Results.Lost++
			case game.Draw:
				pr.Results.Drawn++
			}
		}
		p.Ratings = append(p.Ratings, pr)
	}
	gs, err := s.users.GamesOf(r.Context(), u.ID, 20, r.URL.Query().Get("status"))
	if err != nil {
		s.log.Error("games of", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be read")
		return
	}
	p.Games = view.Summaries(s.games, s.log, gs)
	httpx.WriteJSON(w, http.StatusOK, p)
}

func (s *Ratings) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	pool := r.PathValue("pool")
	known := false
	for _, p := range pools {
		known = known || p.name == pool
	}
	if !known {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no rating pool %q; want one of %v", pool, PoolNames()))
		return
	}
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 200 {
			httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want an integer from 1 to 200", v))
			return
		}
		limit = n
	}
	now := s.now()
	rs, err := s.store.Leaderboard(r.Context(), pool, ProvisionalDeviation, now.Add(-LeaderboardActive), limit)
	if err != nil {
		s.log.Error("leaderboard", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the leaderboard could not be read")
		return
	}
	out := struct {
		Pool    string       `json:"pool"`
		Ratings []PoolRating `json:"ratings"`
	}{pool, []PoolRating{}}
	for _, rt := range rs {
		// A rating that has aged past provisional since its last game
		// goes below the established ones until its player plays again.
		if rt = aged(rt, now); rt.Deviation <= ProvisionalDeviation {
			out.Ratings = append(out.Ratings, poolRating(rt))
		}
	}
	// On a young site few ratings are established: the provisional ones
	// follow them, marked, so that the board is not empty.
	if len(out.Ratings) < limit {
		more, err := s.store.Leaderboard(r.Context(), pool, math.MaxFloat64, now.Add(-LeaderboardActive), limit)
		if err != nil {
			s.log.Error("leaderboard", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the leaderboard could not be read")
			return
		}
		for _, rt := range more {
			if rt = aged(rt, now); rt.Deviation > ProvisionalDeviation && len(out.Ratings) < limit {
				out.Ratings = append(out.Ratings, poolRating(rt))
			}
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// results returns the player's result in each of their last maxCounted
// finished rated games, by game id.
func (s *Ratings) results(ctx context.Context, userID string) (map[string]game.Result, error) {
	gs, err := s.users.GamesOf(ctx, userID, maxCounted, store.Finished)
	if err != nil {
		return nil, err
	}
	out := map[string]game.Result{}
	for _, g := range gs {
		if !g.Rated {
			continue
		}
		o, err := game.ParseOutcome(g.End.Outcome)
		if err != nil {
			continue
		}
		for i, st := range g.Seats {
			if st.User == userID && i < o.Players {
				out[g.ID] = o.Results[i]
			}
		}
	}
	return out, nil
}
