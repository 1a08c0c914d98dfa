package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"stax/game"
	"stax/server/store"
)

const (
	// maxSeeksPerUser bounds the open seeks and challenges of one account.
	maxSeeksPerUser = 10
	// seekGrace is how long a seek posted by an account without a lobby
	// connection waits for one before it is withdrawn.
	seekGrace = time.Minute
	// maxInitial, maxIncrement and maxDays bound a time control.
	maxInitial   = 3 * time.Hour
	maxIncrement = 3 * time.Minute
	maxDays      = 14
)

// ClockSpec is a Fischer time control in seconds.
type ClockSpec struct {
	Initial   float64 `json:"initial"`
	Increment float64 `json:"increment"`
}

// SeekRequest is the body of POST /api/seeks and POST /api/challenges.
type SeekRequest struct {
	Spec string `json:"spec"`
	// Clock is a Fischer clock; Days a correspondence one (days per
	// move); neither means no clock.
	Clock *ClockSpec `json:"clock,omitempty"`
	Days  int        `json:"days,omitempty"`
	Rated bool       `json:"rated"`
	// Seat is the seat the seeker wants: "random" (or empty), or a seat
	// number as a number or a string.
	Seat json.RawMessage `json:"seat,omitempty"`
	// To names the player challenged (POST /api/challenges only).
	To string `json:"to,omitempty"`
}

// Seek is an open seek or a challenge.
type Seek struct {
	ID    string     `json:"id"`
	Owner string     `json:"owner"`
	To    string     `json:"to,omitempty"`
	Spec  string     `json:"spec"`
	Title string     `json:"title"`
	Clock *ClockSpec `json:"clock,omitempty"`
	Days  int        `json:"days,omitempty"`
	Rated bool       `json:"rated"`
	// Seat is the owner's seat, or -1 for a random one.
	Seat int `json:"seat"`
	// Pool is the rating pool of a rated seek.
	Pool string `json:"pool,omitempty"`
	// Rating is the owner's rating in the pool, when it has one.
	Rating  *float64  `json:"rating,omitempty"`
	Created time.Time `json:"created"`

	ownerID, toID string
	start         string // the start position, for rematches
	orphan        time.Time
}

// AcceptResponse answers the acceptance of a seek or challenge.
type AcceptResponse struct {
	Game string `json:"game"`
}

// lobby holds the open seeks and challenges and the lobby's websockets.
// Seeks live in the memory of one server: they are made for players
// waiting at their screen, and go when their owner leaves.
type lobby struct {
	mu    sync.Mutex
	seeks map[string]*Seek
	conns map[string]map[*client]struct{} // lobby websockets by account id
	all   map[*client]string              // every lobby websocket and its account id ("" for guests)
}

func newLobby() *lobby {
	return &lobby{seeks: map[string]*Seek{}, conns: map[string]map[*client]struct{}{}, all: map[*client]string{}}
}

// list returns the seeks a user sees: the open seeks and the challenges
// from or to them, oldest first. The caller holds lb.mu.
func (lb *lobby) list(userID string) []*Seek {
	out := []*Seek{}
	for _, sk := range lb.seeks {
		if sk.toID == "" || sk.toID == userID || sk.ownerID == userID {
			out = append(out, sk)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// lobbyMsg is a lobby websocket message.
type lobbyMsg struct {
	Type  string  `json:"type"`
	Seeks []*Seek `json:"seeks,omitempty"`
	Game  string  `json:"game,omitempty"`
	Seek  string  `json:"seek,omitempty"`
	By    string  `json:"by,omitempty"`
}

// publish sends every lobby connection its list. The caller holds lb.mu.
func (lb *lobby) publish() {
	msgs := map[string][]byte{}
	for c, uid := range lb.all {
		m := msgs[uid]
		if m == nil {
			m = encodeMsg(lobbyMsg{Type: "seeks", Seeks: lb.list(uid)})
			msgs[uid] = m
		}
		c.send(m)
	}
}

// notify sends a message to every lobby connection of an account. The
// caller holds lb.mu.
func (lb *lobby) notify(userID string, m lobbyMsg) {
	b := encodeMsg(m)
	for c := range lb.conns[userID] {
		c.send(b)
	}
}

// forget withdraws a deleted account's seeks.
func (lb *lobby) forget(userID string) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for id, sk := range lb.seeks {
		if sk.ownerID == userID || sk.toID == userID {
			delete(lb.seeks, id)
		}
	}
	lb.publish()
}

// sweep withdraws the seeks whose owner has had no lobby connection for
// seekGrace.
func (lb *lobby) sweep(now time.Time) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	changed := false
	for id, sk := range lb.seeks {
		if !sk.orphan.IsZero() && now.Sub(sk.orphan) >= seekGrace {
			delete(lb.seeks, id)
			changed = true
		}
	}
	if changed {
		lb.publish()
	}
}

// parseSeek checks a seek request and returns the seek it describes.
func (s *Server) parseSeek(req *SeekRequest) (*Seek, game.Game, error) {
	if strings.TrimSpace(req.Spec) == "" {
		return nil, nil, errors.New("missing spec; want a game spec such as pogo or pisola(size=8)")
	}
	g, err := s.cfg.Games.Load(req.Spec)
	if err != nil {
		return nil, nil, err
	}
	if g.Players() != 2 {
		return nil, nil, fmt.Errorf("%s has %d players: the lobby pairs two players; invite the others with a link from the home page", game.SpecOf(g), g.Players())
	}
	sk := &Seek{ID: newID(), Spec: game.SpecOf(g).String(), Title: g.Info().Title, Rated: req.Rated, Seat: -1}
	switch {
	case req.Clock != nil && req.Days != 0:
		return nil, nil, errors.New("want a clock or days per move, not both")
	case req.Clock != nil:
		c := *req.Clock
		initial := time.Duration(c.Initial * float64(time.Second))
		increment := time.Duration(c.Increment * float64(time.Second))
		if c.Initial != c.Initial || initial < 0 || initial > maxInitial || c.Increment != c.Increment || increment < 0 || increment > maxIncrement || initial+increment < time.Second {
			return nil, nil, fmt.Errorf("clock %v+%v: want an initial time of 0 to %v seconds and an increment of 0 to %v seconds, not both 0",
				c.Initial, c.Increment, maxInitial.Seconds(), maxIncrement.Seconds())
		}
		sk.Clock = &c
	case req.Days != 0:
		if req.Days < 1 || req.Days > maxDays {
			return nil, nil, fmt.Errorf("days %d: want 1 to %d days per move", req.Days, maxDays)
		}
		sk.Days = req.Days
	}
	if req.Rated {
		pool := poolOf(g)
		if pool == "" {
			return nil, nil, fmt.Errorf("%s is not rated (ratings are kept for %s); make the seek unrated", sk.Spec, strings.Join(poolNames(), ", "))
		}
		sk.Pool = pool
	}
	if len(req.Seat) > 0 {
		var v any
		if err := json.Unmarshal(req.Seat, &v); err != nil {
			return nil, nil, fmt.Errorf("seat: %v", err)
		}
		str := fmt.Sprint(v)
		if str != "random" && str != "" {
			n, err := strconv.Atoi(str)
			if err != nil || n < 0 || n >= g.Players() {
				return nil, nil, fmt.Errorf("seat %s: want \"random\" or a seat from 0 to %d", req.Seat, g.Players()-1)
			}
			sk.Seat = n
		}
	}
	return sk, g, nil
}

// clock returns the store's time control of a seek.
func (sk *Seek) clock() *store.Clock {
	switch {
	case sk.Clock != nil:
		return &store.Clock{
			Initial:   time.Duration(sk.Clock.Initial * float64(time.Second)).Truncate(time.Millisecond),
			Increment: time.Duration(sk.Clock.Increment * float64(time.Second)).Truncate(time.Millisecond),
		}
	case sk.Days > 0:
		return &store.Clock{Days: sk.Days}
	}
	return nil
}

func (s *Server) handlePostSeek(w http.ResponseWriter, r *http.Request) {
	s.postSeek(w, r, false)
}

func (s *Server) handlePostChallenge(w http.ResponseWriter, r *http.Request) {
	s.postSeek(w, r, true)
}

func (s *Server) postSeek(w http.ResponseWriter, r *http.Request, challenge bool) {
	u, _, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var req SeekRequest
	if !readJSON(w, r, &req) {
		return
	}
	sk, _, err := s.parseSeek(&req)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	sk.Owner, sk.ownerID = u.Name, u.ID
	sk.Created = s.now()
	switch {
	case challenge && req.To == "":
		httpError(w, http.StatusBadRequest, `missing "to": the name of the player challenged`)
		return
	case !challenge && req.To != "":
		httpError(w, http.StatusBadRequest, `a seek is open to everyone; challenge a player with POST /api/challenges`)
		return
	case challenge:
		to, err := s.acct.store.UserByName(r.Context(), req.To)
		if errors.Is(err, store.ErrNotFound) {
			httpError(w, http.StatusNotFound, fmt.Sprintf("no player named %q", req.To))
			return
		}
		if err != nil {
			s.log.Error("challenge", "err", err)
			httpError(w, http.StatusInternalServerError, "the player could not be looked up")
			return
		}
		if to.ID == u.ID {
			httpError(w, http.StatusBadRequest, "you cannot challenge yourself")
			return
		}
		sk.To, sk.toID = to.Name, to.ID
	}
	if sk.Pool != "" {
		if rt, err := s.rating(r.Context(), u.ID, sk.Pool); err == nil && rt.Games > 0 {
			v := rt.Rating
			sk.Rating = &v
		}
	}
	lb := s.lobby
	lb.mu.Lock()
	defer lb.mu.Unlock()
	n := 0
	for _, x := range lb.seeks {
		if x.ownerID == u.ID {
			n++
		}
	}
	if n >= maxSeeksPerUser {
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("you have %d open seeks and challenges, the most one may; cancel some", n))
		return
	}
	if len(lb.conns[u.ID]) == 0 {
		sk.orphan = s.now()
	}
	lb.seeks[sk.ID] = sk
	lb.publish()
	if sk.toID != "" {
		lb.notify(sk.toID, lobbyMsg{Type: "challenge", Seek: sk.ID, By: u.Name})
	}
	writeJSON(w, http.StatusCreated, sk)
}

func (s *Server) handleGetSeeks(w http.ResponseWriter, r *http.Request) {
	uid := ""
	if u, _, err := s.session(r); err == nil {
		uid = u.ID
	}
	spec := r.URL.Query().Get("game")
	s.lobby.mu.Lock()
	list := s.lobby.list(uid)
	s.lobby.mu.Unlock()
	out := []*Seek{}
	for _, sk := range list {
		if spec == "" || sk.Spec == spec || strings.HasPrefix(sk.Spec, spec+"(") {
			out = append(out, sk)
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Seeks []*Seek `json:"seeks"`
	}{out})
}

// takeSeek removes the seek id for its acceptor (or decliner or canceller,
// as by says), answering the errors itself.
func (s *Server) takeSeek(w http.ResponseWriter, id, userID string, by string) *Seek {
	lb := s.lobby
	lb.mu.Lock()
	defer lb.mu.Unlock()
	sk := lb.seeks[id]
	switch {
	case sk == nil:
		httpError(w, http.StatusNotFound, fmt.Sprintf("no open seek or challenge %q: it was cancelled, taken by someone else, or withdrawn when its owner left", id))
		return nil
	case by == "accept" && sk.ownerID == userID:
		httpError(w, http.StatusConflict, "this is your own seek; another player must accept it (or cancel it)")
		return nil
	case (by == "accept" || by == "decline") && sk.toID != "" && sk.toID != userID:
		httpError(w, http.StatusForbidden, fmt.Sprintf("this challenge is for %s", sk.To))
		return nil
	case by == "decline" && sk.toID == "":
		httpError(w, http.StatusBadRequest, "only a challenge can be declined; a seek is simply left alone")
		return nil
	case by == "cancel" && sk.ownerID != userID:
		httpError(w, http.StatusForbidden, "only its owner can cancel a seek")
		return nil
	}
	delete(lb.seeks, id)
	lb.publish()
	return sk
}

func (s *Server) handleAcceptSeek(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	sk := s.takeSeek(w, r.PathValue("id"), u.ID, "accept")
	if sk == nil {
		return
	}
	owner := &store.User{ID: sk.ownerID, Name: sk.Owner}
	seat := sk.Seat
	if seat < 0 {
		seat = rand.IntN(2)
	}
	players := []*store.User{owner, u}
	if seat == 1 {
		players = []*store.User{u, owner}
	}
	l, err := s.startGame(r.Context(), sk.Spec, sk.start, players, sk.Rated, sk.clock())
	if err != nil {
		s.log.Error("start game", "err", err)
		httpError(w, http.StatusInternalServerError, "the game could not be started")
		return
	}
	s.lobby.mu.Lock()
	s.lobby.notify(sk.ownerID, lobbyMsg{Type: "started", Game: l.id, Seek: sk.ID, By: u.Name})
	s.lobby.mu.Unlock()
	writeJSON(w, http.StatusCreated, AcceptResponse{Game: l.id})
}

func (s *Server) handleDeclineSeek(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	sk := s.takeSeek(w, r.PathValue("id"), u.ID, "decline")
	if sk == nil {
		return
	}
	s.lobby.mu.Lock()
	s.lobby.notify(sk.ownerID, lobbyMsg{Type: "declined", Seek: sk.ID, By: u.Name})
	s.lobby.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) handleCancelSeek(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if s.takeSeek(w, r.PathValue("id"), u.ID, "cancel") == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// startGame creates and starts a game between accounts, players[i] in
// seat i.
func (s *Server) startGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (*room, error) {
	g, err := s.cfg.Games.Load(spec)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Millisecond)
	sg := &store.Game{ID: newID(), Spec: game.SpecOf(g).String(), Start: start, Status: store.Playing, Created: now, Updated: now, Rated: rated, Clock: clock}
	sg.End.Resigned = -1
	for _, u := range players {
		sg.Seats = append(sg.Seats, store.Seat{Kind: "human", Name: u.Name, User: u.ID, Joined: true})
	}
	if err := s.store.Create(ctx, sg); err != nil {
		return nil, err
	}
	l, err := newRoom(sg, g)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.games[l.id] = l
	s.mu.Unlock()
	s.log.Info("game started", "game", l.id, "spec", sg.Spec, "rated", rated)
	return l, nil
}

// handleLobbyWS serves the lobby's websocket: the list of seeks whenever
// it changes, and news of one's own seeks and challenges. An account's
// seeks are withdrawn when its last lobby connection closes.
func (s *Server) handleLobbyWS(w http.ResponseWriter, r *http.Request) {
	release, ok := s.takeConn(w, r)
	if !ok {
		return
	}
	defer release()
	uid := ""
	if u, _, err := s.session(r); err == nil {
		uid = u.ID
	}
	conn, ok := s.acceptWS(w, r)
	if !ok {
		return
	}
	s.wg.Add(1)
	defer s.wg.Done()
	c := &client{out: make(chan []byte, s.cfg.SendQueue)}
	var closeOnce sync.Once
	closeWith := func(code websocket.StatusCode, reason string) {
		closeOnce.Do(func() { go conn.Close(code, reason) })
	}
	c.slow = func() { closeWith(websocket.StatusPolicyViolation, "too slow") }
	stop := context.AfterFunc(s.ctx, func() { closeWith(websocket.StatusGoingAway, "server shutting down") })
	defer stop()

	lb := s.lobby
	lb.mu.Lock()
	lb.all[c] = uid
	if uid != "" {
		if lb.conns[uid] == nil {
			lb.conns[uid] = map[*client]struct{}{}
		}
		lb.conns[uid][c] = struct{}{}
		for _, sk := range lb.seeks {
			if sk.ownerID == uid {
				sk.orphan = time.Time{}
			}
		}
	}
	c.send(encodeMsg(lobbyMsg{Type: "seeks", Seeks: lb.list(uid)}))
	lb.mu.Unlock()

	done := make(chan struct{})
	go func() {
		defer close(done)
		for msg := range c.out {
			if err := conn.Write(context.Background(), websocket.MessageText, msg); err != nil {
				conn.CloseNow()
				for range c.out {
				}
				return
			}
		}
	}()
	for {
		// The lobby takes no messages; reading notices the close.
		if _, _, err := conn.Read(context.Background()); err != nil {
			break
		}
	}
	lb.mu.Lock()
	delete(lb.all, c)
	if uid != "" {
		delete(lb.conns[uid], c)
		if len(lb.conns[uid]) == 0 {
			delete(lb.conns, uid)
			for id, sk := range lb.seeks {
				if sk.ownerID == uid {
					delete(lb.seeks, id)
				}
			}
			lb.publish()
		}
	}
	lb.mu.Unlock()
	close(c.out)
	<-done
	closeWith(websocket.StatusNormalClosure, "")
}
