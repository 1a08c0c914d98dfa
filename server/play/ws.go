package play

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"stax/server/chat"
	"stax/server/httpx"
	"time"

	"github.com/coder/websocket"
)

// actor is who acts in a game and hears its chat: a websocket's client,
// a request of the bot API or its follower.
type actor struct {
	seats []int     // the seats it may move for
	user  string    // the signed-in account's id, "" for a guest
	name  string    // the signed-in account's name
	mod   Moderator // who the account blocks; nil: nobody
	// chatLimit bounds the actor's chat messages, counted under
	// chatKey: a websocket has a limiter of its own (key ""), the bot
	// API's requests share one keyed by account and game.
	chatLimit *httpx.RateLimiter
	chatKey   string
}

// room returns the chat room the actor speaks in and hears.
func (a *actor) room() string {
	if len(a.seats) > 0 {
		return chat.Players
	}
	return chat.Spectators
}

// client is one websocket connection to a game.
type client struct {
	actor
	synced bool // it has had the full state: send it updates (guarded by the game's lock)
	// session is the token hash of the session that opened the
	// connection, and drop closes it (the session ended).
	session string
	drop    func()
	// Outbox queues the messages waiting to be written; a connection
	// whose queue is full is closed as too slow.
	*httpx.Outbox
}

// send queues a message without blocking.
func (c *client) send(msg []byte) { c.Send(msg) }

func errorMsg(e *moveError) []byte {
	return httpx.Marshal(Message{Type: "error", Code: e.code, Message: e.msg, Move: e.move})
}

func (s handlers) handleWS(w http.ResponseWriter, r *http.Request) {
	release, ok := s.cfg.Sockets.Take(w, r)
	if !ok {
		return
	}
	detached := false
	defer func() {
		if !detached {
			release()
		}
	}()
	id := r.PathValue("id")
	held := s.held(id) != nil
	l, err := s.get(r.Context(), id)
	if err != nil {
		s.lookupError(w, id, err)
		return
	}
	conn, ok := s.cfg.Sockets.Accept(w, r)
	if !ok {
		return
	}

	c := &client{Outbox: conn.Outbox(), actor: actor{chatLimit: httpx.NewRateLimiter(chat.Every, chat.Burst), mod: s.mod}}

	// A signed-in player holds the seats of their account, on any device.
	u, ss, _ := s.cfg.Sessions.Session(r)
	// Signing out (anywhere) closes the websockets the session opened.
	c.drop = func() { conn.CloseWith(websocket.StatusPolicyViolation, "signed out") }

	// Join the game: hello, then the full state, queued under the game's
	// lock so that no broadcast can come between. (The game may have been
	// unloaded since it was looked up: acquire loads it again.)
	if l, err = s.acquire(r.Context(), id); err != nil {
		conn.CloseWith(websocket.StatusInternalError, "the game could not be loaded")
		conn.Done()
		return
	}
	var badToken bool
	if tok := r.URL.Query().Get("token"); tok != "" {
		hash := httpx.HashSecret(tok)
		c.seats = l.seatsOf(hash)
		if len(c.seats) == 0 && held {
			// The seat may have been joined on another instance (a
			// guest's rematch) whose news has not reached this one yet:
			// the game as stored says.
			s.rooms.refresh(l)
			c.seats = l.seatsOf(hash)
		}
		badToken = len(c.seats) == 0
	}
	if c.seats == nil {
		c.seats = []int{}
	}
	if u != nil {
		c.user, c.name, c.session = u.ID, u.Name, ss.TokenHash
	}
	// A bot account plays through the bot API or with a token of its
	// own: its browser (a session, not a token) watches its games.
	if u != nil && (!u.Bot || ss.Token != nil) {
		for i := range l.seats {
			if l.seats[i].User == u.ID && !holds(c.seats, i) {
				c.seats = append(c.seats, i)
				badToken = false
			}
		}
	}
	if held && len(c.seats) > 0 && !l.h.Over() {
		// A player (re)connecting is served the game as stored, should
		// this instance have missed a move of another one.
		s.rooms.catchUp(l)
	}
	c.Send(httpx.Marshal(struct {
		Type  string    `json:"type"`
		Seats []int     `json:"seats"`
		Name  string    `json:"name,omitempty"`
		Now   time.Time `json:"now"`
	}{"hello", c.seats, c.name, s.now()}))
	if badToken {
		c.Send(errorMsg(&moveError{code: CodeBadToken, msg: "the token matches no seat of this game: you are watching as a spectator"}))
	}
	l.subs[c] = struct{}{}
	l.idle = time.Time{}
	// A room resumed at start has not asked the other instances for its
	// chat, offers and connections yet.
	s.rooms.askOnce(l)
	for _, p := range c.seats {
		l.seats[p].connected++
	}
	l.noteGone(s.now())
	if len(c.seats) > 0 {
		l.changed()
		l.broadcast()
		s.rooms.tellState(l, false)
	} else {
		// The full state, with whatever others have not been sent
		// yet sent them as an update.
		l.broadcast()
	}
	l.sendWatchers()
	l.sendTalk(c)
	l.mu.Unlock()
	if c.session != "" {
		// A session that ended while the connection was being set up
		// was not among those Revoke closed: look again.
		if _, _, err := s.cfg.Sessions.Session(r); err != nil {
			c.drop()
		}
	}

	// The connection's life goes on without the request: its handler's
	// goroutine, whose stack grew with the set-up, is let go, and while no
	// message comes no goroutine waits for it (httpx.Socket.Serve).
	detached = true
	stopPing := conn.KeepAlive()
	conn.Serve(func(typ websocket.MessageType, data []byte) {
		s.handleMessage(l, c, typ == websocket.MessageText, data)
	}, func() {
		stopPing()
		s.leave(l, c)
		release()
	})
}

// leave takes a client whose connection closed out of the room.
func (s handlers) leave(l *room, c *client) {
	l.mu.Lock()
	delete(l.subs, c)
	if len(l.subs) == 0 {
		l.idle = s.now()
	}
	for _, p := range c.seats {
		l.seats[p].connected--
	}
	l.noteGone(s.now())
	if s.cfg.Sockets.Stopping().Err() == nil {
		if len(c.seats) > 0 {
			l.changed()
			l.broadcast()
			s.rooms.tellState(l, false)
		}
		l.sendWatchers()
	}
	l.mu.Unlock()
	c.Close()
}

// handleMessage handles one message of a client: a move or a resignation.
// Anything wrong is answered with an error message to that client alone.
func (s handlers) handleMessage(l *room, c *client, text bool, data []byte) {
	if !text {
		s.reply(l, c, &moveError{code: CodeBadMessage, msg: "want JSON text messages"})
		return
	}
	start := time.Now()
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		s.reply(l, c, &moveError{code: CodeBadMessage, msg: "bad JSON: " + err.Error()})
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var me *moveError
	if errors.As(s.act(l, &c.actor, m, start), &me) {
		c.send(errorMsg(me))
	}
}

// act does what a message asks of a game for an actor: a move, a
// resignation, a chat line, an offer and its answers, an abort, a claim.
// It is the one way to act in a game, for a websocket's messages and the
// bot API's requests alike; start is when the message or request arrived,
// from which a move's latency is counted. The caller holds l.mu.
func (s handlers) act(l *room, a *actor, m Message, start time.Time) error {
	switch m.Type {
	case "move":
		if m.Move == "" {
			return &moveError{code: CodeBadMessage, msg: `a move message needs a move, e.g. {"type":"move","move":"1a1-a2"}`}
		}
		err := s.play(s.ctx, l, a.seats, m.Move, m.Ply)
		if err == nil {
			s.moveLat.Add(time.Since(start))
		}
		return err
	case "resign":
		return s.resignSeat(s.ctx, l, a.seats, m.Seat)
	case "chat":
		return s.chat(l, a, m.Text)
	case offerDraw, offerTakeback, offerRematch:
		return s.offer(l, a, m.Type)
	case "abort":
		return s.abort(l, a)
	case "withdraw", "decline":
		return s.withdraw(l, a, m.Offer, m.Type == "withdraw")
	case "claim":
		return s.claim(l, a, m.Offer)
	}
	return &moveError{code: CodeBadMessage, msg: fmt.Sprintf("unknown message type %q; want move, resign, chat, draw, takeback, rematch, withdraw, decline, claim or abort", m.Type)}
}

// reply sends an error to one client.
func (s handlers) reply(l *room, c *client, e *moveError) {
	l.mu.Lock()
	c.send(errorMsg(e))
	l.mu.Unlock()
}
