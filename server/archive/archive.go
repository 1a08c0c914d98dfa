// Package archive serves the games kept: the site's recent games, a
// player's games (those waiting for their move first) and the finished
// games played away from the server (offline, in the browser) that a
// player keeps in their account. Live play serves the games being played;
// the archive asks it only whose turn it is, through [Turns].
package archive

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"stax/game"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/view"
)

// Sessions tells the account of a request (the accounts domain implements
// it).
type Sessions interface {
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// Catalog tells the computer levels of the games (the catalogue
// implements it).
type Catalog interface {
	// Levels returns g's computer levels.
	Levels(g game.Game) []string
	// Known reports whether level is a computer level of g.
	Known(g game.Game, level string) bool
}

// Turns tells whose turn it is in the games being played (live play
// implements it).
type Turns interface {
	// Turn returns the seat to move in game id and its ply, and the
	// account playing that seat ("" for none); ok is false when the game
	// is not being played.
	Turn(ctx context.Context, id string) (seat, ply int, user string, ok bool)
}

// Config configures the archive. Store, Games, Sessions, Catalog and
// Turns are required.
type Config struct {
	// Store keeps the games.
	Store store.Games
	// Users lists an account's games; nil serves none.
	Users store.Users
	// Games lists the games the site plays.
	Games game.Registry
	// Sessions, Catalog and Turns are the neighbouring domains.
	Sessions Sessions
	Catalog  Catalog
	Turns    Turns
	// Proxies are the trusted reverse proxies, for the per-address
	// limit of imports.
	Proxies httpx.Proxies
	// ImportEvery and ImportBurst limit the imports of each address
	// (default: one every 3 s, 20 at once, as new games).
	ImportEvery time.Duration
	ImportBurst int
	// MaxPlies bounds the length of a game imported (default 2,000).
	MaxPlies int
	// Now tells the time (default time.Now).
	Now func() time.Time
	// Log receives the logs; nil discards them.
	Log *slog.Logger
}

// Archive serves the games kept.
type Archive struct {
	cfg     Config
	log     *slog.Logger
	imports *httpx.RateLimiter
}

// New returns the archive.
func New(cfg Config) *Archive {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	httpx.SetDefault(&cfg.ImportEvery, 3*time.Second)
	httpx.SetDefault(&cfg.ImportBurst, 20)
	httpx.SetDefault(&cfg.MaxPlies, 2000)
	return &Archive{cfg: cfg, log: cfg.Log, imports: httpx.NewRateLimiter(cfg.ImportEvery, cfg.ImportBurst)}
}

// Routes adds the archive's routes to m.
func (s *Archive) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/recent", s.handleRecent)
	m.HandleFunc("GET /api/me/games", s.handleMyGames)
	m.HandleFunc("POST /api/games/import", s.handleImport)
}

// handleRecent lists the site's recent games, most recent first: ?limit
// (1 to 100, default 20) of them, ?status=playing or finished.
func (s *Archive) handleRecent(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want an integer from 1 to 100", v))
			return
		}
		limit = n
	}
	status := q.Get("status")
	if status != "" && status != store.Playing && status != store.Finished {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("status %q: want playing or finished", status))
		return
	}
	gs, err := s.cfg.Store.Recent(r.Context(), limit, status)
	if err != nil {
		s.log.Error("recent games", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be listed")
		return
	}
	out := struct {
		Games []view.Summary `json:"games"`
	}{Games: view.Summaries(s.cfg.Games, s.log, gs)}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// handleMyGames lists the signed-in player's games: the ongoing ones
// where it is their move first (correspondence games waiting for them),
// then the other ongoing ones, then the finished ones, most recent first.
func (s *Archive) handleMyGames(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	if s.cfg.Users == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	gs, err := s.cfg.Users.GamesOf(r.Context(), u.ID, 100, "")
	if err != nil {
		s.log.Error("my games", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be listed")
		return
	}
	sums := view.Summaries(s.cfg.Games, s.log, gs)
	var mine, playing, finished []view.Summary
	for i, sg := range gs {
		sum := sums[i]
		if sg.Status == store.Finished {
			finished = append(finished, sum)
			continue
		}
		if p, ply, user, ok := s.cfg.Turns.Turn(r.Context(), sg.ID); ok {
			sum.ToMove, sum.Ply = &p, ply
			sum.YourMove = user == u.ID
			if sum.YourMove {
				mine = append(mine, sum)
				continue
			}
		}
		playing = append(playing, sum)
	}
	out := append(append(append([]view.Summary{}, mine...), playing...), finished...)
	httpx.WriteJSON(w, http.StatusOK, struct {
		Games []view.Summary `json:"games"`
	}{out})
}

// ImportRequest is the body of POST /api/games/import: a game played away
// from the server (offline, in the browser, against the computer) and
// finished, to keep in the signed-in player's account.
type ImportRequest struct {
	Spec string `json:"spec"`
	// Start is the starting position, empty for the game's start.
	Start string `json:"start,omitempty"`
	// Moves are the moves in notation, which must end the game by its
	// rules.
	Moves []string `json:"moves"`
	// Seat is the player's seat; Level the computer's, in every other.
	Seat  int    `json:"seat"`
	Level string `json:"level"`
}

// ImportResponse answers an import: the id of the game kept.
type ImportResponse struct {
	ID string `json:"id"`
}

// handleImport keeps a finished game played away from the server in the
// player's account: it replays the moves with the rules (so that only a
// game that was really played and finished is kept), and stores it
// unrated, the player in their seat and the computer's level in the
// others.
func (s *Archive) handleImport(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	if !s.imports.Admit(w, r, s.cfg.Proxies, s.cfg.Now(), "imported games") {
		return
	}
	var req ImportRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	bad := func(format string, args ...any) {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf(format, args...))
	}
	g, err := s.cfg.Games.Load(req.Spec)
	if err != nil {
		bad("%v", err)
		return
	}
	if req.Seat < 0 || req.Seat >= g.Players() {
		bad("seat %d: want a seat from 0 to %d", req.Seat, g.Players()-1)
		return
	}
	if !s.cfg.Catalog.Known(g, req.Level) {
		bad("level %q: want one of %s", req.Level, strings.Join(s.cfg.Catalog.Levels(g), ", "))
		return
	}
	if len(req.Moves) > s.cfg.MaxPlies {
		bad("%d moves: this server keeps games of at most %d plies", len(req.Moves), s.cfg.MaxPlies)
		return
	}
	var start game.State
	if req.Start != "" {
		if start, err = g.ParseState(req.Start); err != nil {
			bad("%v", err)
			return
		}
	}
	h := game.NewHistory(g, start)
	for i, m := range req.Moves {
		if h.Over() {
			bad("move %d (%s): the game was over before it", i+1, m)
			return
		}
		if err := h.Play(m); err != nil {
			bad("move %d: %v", i+1, err)
			return
		}
	}
	if !h.Over() {
		bad("the game is not over: want a finished game")
		return
	}
	now := s.cfg.Now().Truncate(time.Millisecond)
	sg := &store.Game{ID: httpx.NewID(), Spec: game.SpecOf(g).String(), Start: h.Start().String(), Status: store.Finished,
		End: store.End{Outcome: h.Outcome().String(), Resigned: -1}, Created: now, Updated: now}
	if req.Start == "" {
		sg.Start = ""
	}
	st := h.Start()
	for _, m := range h.Moves() {
		sg.Moves = append(sg.Moves, st.FormatMove(m))
		st.Apply(m)
	}
	for i := range g.Players() {
		if i == req.Seat {
			sg.Seats = append(sg.Seats, store.Seat{Kind: "human", Name: u.Name, User: u.ID, Joined: true})
		} else {
			sg.Seats = append(sg.Seats, store.Seat{Kind: "ai", Level: req.Level, Joined: true})
		}
	}
	if err := s.cfg.Store.Create(r.Context(), sg); err != nil {
		s.log.Error("import game", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be saved")
		return
	}
	s.log.Info("game imported", "game", sg.ID, "spec", sg.Spec)
	httpx.WriteJSON(w, http.StatusCreated, ImportResponse{ID: sg.ID})
}
