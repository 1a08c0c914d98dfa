package play

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"stax/game"
	"stax/server/account"
	"stax/server/catalog"
	"stax/server/httpx"
	"stax/server/store"
)

// handlers serves live play's HTTP routes and game websockets: it reads
// requests and messages and answers them, and leaves the rules, the
// commits and the rooms to Live.
type handlers struct{ *Live }

// lookupError answers the error of Server.get.
func (s handlers) lookupError(w http.ResponseWriter, id string, err error) {
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no game %q", id))
		return
	}
	s.log.Error("load game", "game", id, "err", err)
	httpx.Error(w, http.StatusInternalServerError, "the game could not be loaded")
}

func (s handlers) handleCreate(w http.ResponseWriter, r *http.Request) {
	key := httpx.ClientKey(s.cfg.Proxies.ClientIP(r))
	if ok, retry := s.creates.Allow(key, time.Now()); !ok {
		httpx.TooFast(w, retry, "new games")
		return
	}
	var req CreateRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	bad := func(format string, args ...any) {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(req.Spec) == "" {
		bad("missing spec; want a game spec such as pogo or diam(players=4)")
		return
	}
	g, err := s.variants.load(req.Spec)
	if err != nil {
		bad("%v", err)
		return
	}
	if c := g.MaxPlies(); catalog.Capped(g) && (c == 0 || c > s.cfg.MaxPlies) {
		bad("maxplies=%d: this server plays games of at most %d plies; want maxplies from 1 to %d", c, s.cfg.MaxPlies, s.cfg.MaxPlies)
		return
	}
	start := ""
	if p := strings.TrimSpace(req.Position); p != "" && p != "start" {
		st, err := g.ParseState(p)
		if err != nil {
			bad("%v", err)
			return
		}
		if st.Terminal() {
			bad("position %q: the game is already over there (%s); want a position with moves to play", p, st.Outcome().Describe(g))
			return
		}
		start = st.String()
	}
	u, _, _ := s.cfg.Sessions.Session(r)
	name, err := account.CleanName(req.Name)
	if err != nil {
		bad("%v", err)
		return
	}
	if len(req.Seats) != g.Players() {
		bad("seats: %s has %d players; want %d seats, e.g. [{\"kind\":\"human\"},{\"kind\":\"ai\",\"level\":\"easy\"}]", game.SpecOf(g), g.Players(), g.Players())
		return
	}
	now := s.now().Truncate(time.Millisecond)
	sg := &store.Game{ID: httpx.NewID(), Spec: game.SpecOf(g).String(), Start: start, Status: store.Playing, Created: now, Updated: now}
	sg.End.Resigned = -1
	resp := &CreateResponse{ID: sg.ID, Seats: []int{}, Invites: []Invite{}}
	for i, sr := range req.Seats {
		var st store.Seat
		switch sr.Kind {
		case "human":
			st.Kind = "human"
			if sr.Level != "" {
				bad("seat %d: a human seat has no level", i)
				return
			}
			if sr.Invite {
				inv := httpx.NewSecret()
				st.InviteHash = httpx.HashSecret(inv)
				resp.Invites = append(resp.Invites, Invite{Seat: i, Invite: inv, Link: "/game/" + sg.ID + "#invite=" + inv})
			} else {
				if resp.Token == "" {
					resp.Token = httpx.NewSecret()
				}
				st.TokenHash = httpx.HashSecret(resp.Token)
				st.Name = name
				st.Joined = true
				if u != nil {
					// The seat is the account's, on any device.
					st.Name, st.User = u.Name, u.ID
				}
				resp.Seats = append(resp.Seats, i)
			}
		case "ai":
			st.Kind, st.Level, st.Joined = "ai", sr.Level, true
			if sr.Invite {
				bad("seat %d: an AI seat takes no invite", i)
				return
			}
			if !s.cfg.Catalog.Ready(g, sr.Level) {
				w.Header().Set("Retry-After", "30")
				httpx.Error(w, http.StatusServiceUnavailable, fmt.Sprintf("seat %d: the %s level is still being prepared; choose another level or try again shortly", i, sr.Level))
				return
			}
			// The level is checked here; its player belongs to the
			// worker pool, which makes it when a worker first needs it.
			if levels := s.cfg.Catalog.Levels(g); len(levels) == 0 {
				bad("seat %d: level %q: this server has no computer players; want a human seat", i, sr.Level)
				return
			} else if !s.cfg.Catalog.Known(g, sr.Level) {
				bad("seat %d: unknown level %q; want one of %s, random or greedy", i, sr.Level, strings.Join(levels, ", "))
				return
			}
		default:
			bad("seat %d: kind %q: want human or ai", i, sr.Kind)
			return
		}
		sg.Seats = append(sg.Seats, st)
	}
	if !s.open.add(key, sg.ID, s.cfg.MaxOpenGames) {
		w.Header().Set("Retry-After", "60")
		httpx.Error(w, http.StatusTooManyRequests, fmt.Sprintf("your address has %d unfinished games, the most it may have; finish or resign some first", s.cfg.MaxOpenGames))
		return
	}
	if err := s.store.Create(r.Context(), sg); err != nil {
		s.open.done(sg.ID)
		s.log.Error("create game", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be saved")
		return
	}
	l, err := newRoom(sg, g, nil)
	if err == nil {
		l.client = key // its computer moves are shared fairly with others'
	}
	if err != nil {
		s.open.done(sg.ID)
		s.log.Error("create game", "game", sg.ID, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be started")
		return
	}
	// The server's lock is never taken while a game's is held.
	s.mu.Lock()
	s.games[l.id] = l
	s.mu.Unlock()
	l.mu.Lock()
	resp.State = l.state()
	s.scheduleAI(l)
	s.newsOfSeats(l, NewsStart)
	l.mu.Unlock()
	s.log.Info("game created", "game", l.id, "spec", sg.Spec, "seats", len(sg.Seats), "invites", len(resp.Invites))
	httpx.WriteJSON(w, http.StatusCreated, resp)
}

func (s handlers) handleState(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	l, err := s.acquire(r.Context(), id)
	if err != nil {
		s.lookupError(w, id, err)
		return
	}
	st := l.state()
	l.mu.Unlock()
	httpx.WriteJSON(w, http.StatusOK, st)
}

func (s handlers) handleJoin(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.joins.Admit(w, r, s.cfg.Proxies, time.Now(), "joins") {
		return
	}
	var req JoinRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	name, err := account.CleanName(req.Name)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.Invite == "" {
		httpx.Error(w, http.StatusBadRequest, "missing invite; want the code after #invite= in the invitation link")
		return
	}
	u, _, _ := s.cfg.Sessions.Session(r)
	l, err := s.acquire(r.Context(), id)
	if err != nil {
		s.lookupError(w, id, err)
		return
	}
	defer l.mu.Unlock()
	hash := httpx.HashSecret(strings.TrimSpace(req.Invite))
	p := -1
	for i := range l.seats {
		if l.seats[i].InviteHash == hash {
			p = i
		}
	}
	switch {
	case p < 0:
		httpx.Error(w, http.StatusForbidden, "the invite does not match any seat of this game")
		return
	case l.seats[p].Joined:
		httpx.Error(w, http.StatusConflict, fmt.Sprintf("seat %d (%s) has already been taken", p, l.g.PlayerName(p)))
		return
	}
	token := httpx.NewSecret()
	now := s.now().Truncate(time.Millisecond)
	// A signed-in player's seat is their account's, under its name.
	var user string
	if u != nil {
		user, name = u.ID, u.Name
	}
	if err := s.store.Join(r.Context(), l.id, p, httpx.HashSecret(token), name, user, now); err != nil {
		if errors.Is(err, store.ErrConflict) {
			httpx.Error(w, http.StatusConflict, fmt.Sprintf("seat %d (%s) has already been taken", p, l.g.PlayerName(p)))
			return
		}
		s.log.Error("join", "game", l.id, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the seat could not be saved")
		return
	}
	st := &l.seats[p]
	st.TokenHash, st.Name, st.User, st.Joined = httpx.HashSecret(token), name, user, true
	l.updated = now
	l.changed()
	l.broadcast()
	s.newsOfJoin(l, p)
	s.log.Info("seat joined", "game", l.id, "seat", p)
	httpx.WriteJSON(w, http.StatusOK, JoinResponse{Seat: p, Token: token, State: l.state()})
}

func (s handlers) handleRecord(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	l, err := s.acquire(r.Context(), id)
	if err != nil {
		s.lookupError(w, id, err)
		return
	}
	text := l.record()
	l.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"stax-%s.txt\"", l.id))
	io.WriteString(w, text)
}
