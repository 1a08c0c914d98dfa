package play

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"stax/game"
	"stax/server/httpx"
	"stax/server/store"
)

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
func (s handlers) handleImport(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	if !s.creates.Admit(w, r, s.cfg.Proxies, s.now(), "new games") {
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
	now := s.now().Truncate(time.Millisecond)
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
	if err := s.store.Create(r.Context(), sg); err != nil {
		s.log.Error("import game", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be saved")
		return
	}
	s.log.Info("game imported", "game", sg.ID, "spec", sg.Spec)
	httpx.WriteJSON(w, http.StatusCreated, ImportResponse{ID: sg.ID})
}
