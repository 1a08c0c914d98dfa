package bots

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"stax/game"
	"stax/server/httpx"
	"stax/server/lobby"
	"stax/server/ratings"
	"stax/server/store"
	"stax/server/view"
)

// An account's event stream (GET /api/stream/event) starts with what a
// program needs after a reconnection or a restart: a gameStart line for
// each unfinished game of the account and a challenge line for each open
// challenge to or from it. Then come, live, the challenges made to it or
// by it, cancelled or declined, and its games as they start and finish.
// The news travels the store's feed as the lobby's does (store.EventNews),
// so that it reaches the stream on whichever instance it is open
// (Deliver).

const (
	// MaxEventStreams bounds the event streams open at once with one
	// token, or one session, on an instance.
	MaxEventStreams = 2
	// StreamQueue bounds the lines waiting for an event stream's reader:
	// a reader that falls this far behind is too slow, and its stream is
	// closed.
	StreamQueue = 64
	// SeenEvery is how often a bot's open event stream records it seen
	// (store.Tokens.BotSeen), and OnlineWithin how recently a bot must
	// have been seen to be online.
	SeenEvery    = time.Minute
	OnlineWithin = 2 * time.Minute
	// maxResumed bounds the unfinished games an event stream starts
	// with, and maxBots the bots GET /api/bots lists.
	maxResumed = 100
	maxBots    = 200
	// endGrace is how long a write under way may still take once its
	// stream is ended: a reader that reads finishes it, one that does
	// not is cut off.
	endGrace = time.Second
)

// Events is the lobby as the event stream sees it (package lobby
// implements it).
type Events interface {
	// Challenges returns the open challenges to or from an account.
	Challenges(ctx context.Context, userID string) ([]*lobby.Seek, error)
	// Attend keeps an account's seeks and challenges while its stream is
	// open, until leave is called.
	Attend(ctx context.Context, userID string) (leave func())
}

// Stored reads the accounts' games (the store implements it).
type Stored interface {
	// Get returns a game with its moves, or store.ErrNotFound.
	Get(ctx context.Context, id string) (*store.Game, error)
	// GamesOf returns up to limit games in which an account holds a
	// seat, with seats but without moves; status filters them when not
	// empty.
	GamesOf(ctx context.Context, userID string, limit int, status string) ([]*store.Game, error)
}

// eventStream is an open event stream: a stream and the lines waiting for
// its reader.
type eventStream struct {
	*stream
	lines chan []byte
}

// send queues a line without blocking; a stream whose queue is full is
// ended as too slow.
func (es *eventStream) send(line []byte) {
	select {
	case es.lines <- line:
	default:
		es.cancel()
	}
}

// handleEvents serves GET /api/stream/event: the signed-in account's
// events, until the reader leaves, the session or token that opened it
// ends, or the server stops.
func (b *Bots) handleEvents(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := b.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "application/x-ndjson")
		return
	}
	st, ok := b.open(w, r, u, ss, b.eventStreams, MaxEventStreams, "event")
	if !ok {
		return
	}
	defer b.done(st)
	es := &eventStream{stream: st, lines: make(chan []byte, StreamQueue)}
	b.mu.Lock()
	if b.events[u.ID] == nil {
		b.events[u.ID] = map[*eventStream]struct{}{}
	}
	b.events[u.ID][es] = struct{}{}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.events[u.ID], es)
		if len(b.events[u.ID]) == 0 {
			delete(b.events, u.ID)
		}
		b.mu.Unlock()
	}()
	// A session that ended while the stream was being set up was not
	// among those Revoke closed: look again.
	if _, _, err := b.cfg.Sessions.Session(r); err != nil {
		httpx.ErrorCode(w, http.StatusUnauthorized, CodeSignedOut, "the token or session ended while the stream opened: "+err.Error())
		return
	}
	// The lines that resume the account's games and challenges are read
	// once the stream is registered, so that no news falls between them
	// and the live lines (news they told already is not told again).
	// Challenges carry their time to the millisecond: one made in the
	// millisecond the stream opened counts as made since.
	opened := b.now().Truncate(time.Millisecond)
	first, err := b.resumption(st.ctx, u.ID)
	if err != nil {
		b.log.Error("event stream: resume", "user", u.ID, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account's games and challenges could not be read")
		return
	}
	if b.cfg.Lobby != nil {
		leave := b.cfg.Lobby.Attend(context.WithoutCancel(r.Context()), u.ID)
		defer leave()
	}
	seen := time.Time{}
	beat := func() {
		// A bot with its stream open is online (GET /api/bots).
		if now := b.now(); u.Bot && b.cfg.Tokens != nil && now.Sub(seen) >= SeenEvery {
			seen = now
			if err := b.cfg.Tokens.BotSeen(context.WithoutCancel(st.ctx), u.ID, now); err != nil {
				b.log.Error("event stream: bot seen", "user", u.ID, "err", err)
			}
		}
	}
	// Whether a challenge whose news comes is still open is read when it
	// comes, and what is going on when the stream has told of too much
	// (see newsFilter).
	challenges := func() ([]string, error) {
		if b.cfg.Lobby == nil {
			return nil, nil
		}
		cs, err := b.cfg.Lobby.Challenges(st.ctx, u.ID)
		ids := make([]string, len(cs))
		for i, c := range cs {
			ids[i] = c.ID
		}
		return ids, err
	}
	f := newNewsFilter(opened, func(id string) bool {
		ids, err := challenges()
		return err == nil && slices.Contains(ids, id)
	}, func() (games, open []string, err error) {
		if b.cfg.Stored != nil {
			gs, err := b.cfg.Stored.GamesOf(st.ctx, u.ID, maxTracked, store.Playing)
			if err != nil {
				return nil, nil, err
			}
			for _, g := range gs {
				games = append(games, g.ID)
			}
		}
		if open, err = challenges(); err != nil {
			return nil, nil, err
		}
		return games, open, nil
	})
	b.serveEvents(w, es, first, f, beat)
}

// serveEvents writes an event stream: its first lines, then the lines
// queued for it, with an empty line whenever it has been silent for
// KeepAlive, leaving out the news f leaves out; beat runs at the start
// and after each write. It returns when the stream is ended or its reader
// fails to read.
func (b *Bots) serveEvents(w http.ResponseWriter, es *eventStream, first [][]byte, f *newsFilter, beat func()) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a reverse proxy passes each line on at once
	w.WriteHeader(http.StatusOK)
	// A stream ended while a write waits for its reader (too slow, or
	// revoked) ends that write within endGrace: each write's deadline is
	// set under mu, and the ending brings it forward, before the handler
	// returns. A write that goes through, and a stream ended between
	// writes, end as an answer does, so that the reader tells the end
	// from a broken connection.
	var mu sync.Mutex
	ended, writing := false, false
	fired := make(chan struct{})
	stop := context.AfterFunc(es.ctx, func() {
		defer close(fired)
		mu.Lock()
		ended = true
		if writing {
			rc.SetWriteDeadline(time.Now().Add(endGrace))
		}
		mu.Unlock()
	})
	defer func() {
		if !stop() {
			<-fired
		}
	}()
	write := func(lines ...[]byte) bool {
		mu.Lock()
		if ended {
			mu.Unlock()
			return false
		}
		writing = true
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		mu.Unlock()
		defer func() {
			mu.Lock()
			writing = false
			mu.Unlock()
		}()
		for _, l := range lines {
			if _, err := w.Write(l); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	if !write(first...) {
		return
	}
	for _, l := range first {
		f.first(l)
	}
	beat()
	keep := time.NewTimer(b.cfg.KeepAlive)
	defer keep.Stop()
	for {
		select {
		case l := <-es.lines:
			// The lines waiting go together.
			lines := make([][]byte, 0, 1)
			for more := true; more && len(lines) < StreamQueue; {
				if f.keep(l) {
					lines = append(lines, l)
				}
				select {
				case l = <-es.lines:
				default:
					more = false
				}
			}
			if len(lines) > 0 && !write(lines...) {
				return
			}
			beat()
		case <-keep.C:
			if !write([]byte{'\n'}) {
				return
			}
			beat()
		case <-es.ctx.Done():
			return
		}
		keep.Reset(b.cfg.KeepAlive)
	}
}

// newsFilter decides which of the live lines an event stream tells. The
// feed's news may come after the stream opened although what it tells
// happened before: the news of a challenge or a game that the first lines
// told already is not told twice; the end of a game whose start the
// stream did not tell (it ended before the stream opened) is not told,
// nor a challenge made before the stream opened that is no longer open
// when its news comes, nor the withdrawal or refusal of one the stream
// did not tell. A challenge made since the stream opened is told, and
// its end, however soon it ended. News told already is not told again.
//
// What it remembers is bounded: past maxTracked games and challenges, it
// forgets those that are no longer going on (a game that ended, or a
// challenge accepted, without news of it here).
type newsFilter struct {
	opened  time.Time       // when the stream opened, before its first lines were read
	told    map[string]bool // the first lines' "type id"
	playing map[string]bool // the games whose start was told, until their end
	asked   map[string]bool // the challenges told, until their end
	// open reports whether a challenge to or from the account is open;
	// current returns the account's games going on and open challenges.
	open    func(id string) bool
	current func() (games, challenges []string, err error)
	max     int
}

// maxTracked bounds the games and challenges an event stream remembers
// having told (newsFilter).
const maxTracked = 1000

func newNewsFilter(opened time.Time, open func(id string) bool, current func() (games, challenges []string, err error)) *newsFilter {
	return &newsFilter{opened: opened, told: map[string]bool{}, playing: map[string]bool{}, asked: map[string]bool{}, open: open, current: current, max: maxTracked}
}

// first notes one of the stream's first lines.
func (f *newsFilter) first(l []byte) {
	typ, id, _ := lineAbout(l)
	if id == "" {
		return
	}
	f.told[typ+" "+id] = true
	f.note(typ, id)
}

// keep reports whether the stream tells a live line, and notes it.
func (f *newsFilter) keep(l []byte) bool {
	typ, id, made := lineAbout(l)
	switch {
	case id == "":
		return true
	case f.told[typ+" "+id]:
		delete(f.told, typ+" "+id)
		return false
	case typ == EventChallenge && f.asked[id],
		typ == EventGameStart && f.playing[id],
		typ == EventGameFinish && !f.playing[id],
		typ == EventChallenge && made.Before(f.opened) && !f.open(id),
		(typ == EventChallengeCanceled || typ == EventChallengeDeclined) && !f.asked[id]:
		return false
	}
	f.note(typ, id)
	return true
}

// note records a line told.
func (f *newsFilter) note(typ, id string) {
	switch typ {
	case EventGameStart:
		f.playing[id] = true
	case EventGameFinish:
		delete(f.playing, id)
	case EventChallenge:
		f.asked[id] = true
	case EventChallengeCanceled, EventChallengeDeclined:
		delete(f.asked, id)
	}
	if len(f.playing)+len(f.asked) > f.max {
		f.forget()
	}
}

// forget keeps only the games and challenges still going on.
func (f *newsFilter) forget() {
	games, challenges, err := f.current()
	if err != nil {
		return
	}
	for _, m := range []struct {
		told map[string]bool
		now  []string
	}{{f.playing, games}, {f.asked, challenges}} {
		for id := range m.told {
			if !slices.Contains(m.now, id) {
				delete(m.told, id)
			}
		}
	}
}

// lineAbout returns the type of an event stream's line, when the
// challenge it is about was made, and the challenge
// or game it is about ("" for neither).
func lineAbout(line []byte) (typ, id string, made time.Time) {
	var ev struct {
		Type      string
		Game      *struct{ ID string }
		Challenge *struct {
			ID      string
			Created time.Time
		}
	}
	if json.Unmarshal(line, &ev) != nil {
		return "", "", time.Time{}
	}
	switch {
	case ev.Challenge != nil:
		return ev.Type, ev.Challenge.ID, ev.Challenge.Created
	case ev.Game != nil:
		return ev.Type, ev.Game.ID, time.Time{}
	}
	return ev.Type, "", time.Time{}
}

// resumption returns the first lines of an account's event stream: a
// gameStart line for each of its unfinished games, a challenge line for
// each open challenge to or from it.
func (b *Bots) resumption(ctx context.Context, userID string) ([][]byte, error) {
	var out [][]byte
	if b.cfg.Stored != nil {
		gs, err := b.cfg.Stored.GamesOf(ctx, userID, maxResumed, store.Playing)
		if err != nil {
			return nil, err
		}
		// The least recently active first.
		for i := len(gs) - 1; i >= 0; i-- {
			ge, err := b.gameEvent(ctx, gs[i].ID, userID)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if ge.Status == store.Playing {
				out = append(out, marshalLine(Event{Type: EventGameStart, Game: ge}))
			}
		}
	}
	if b.cfg.Lobby != nil {
		cs, err := b.cfg.Lobby.Challenges(ctx, userID)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			out = append(out, marshalLine(Event{Type: EventChallenge, Challenge: c}))
		}
	}
	return out, nil
}

// Deliver passes news of an account from the store's feed (the lobby's
// news, store.EventNews) to its event streams on this instance, as lines.
func (b *Bots) Deliver(userID, news string) {
	b.mu.Lock()
	n := len(b.events[userID])
	b.mu.Unlock()
	if n == 0 {
		return
	}
	var m lobby.Message
	if err := json.Unmarshal([]byte(news), &m); err != nil {
		b.log.Error("event stream: news", "err", err)
		return
	}
	var ev Event
	switch m.Type {
	case lobby.NewsChallenge, lobby.NewsChallengeSent:
		ev = Event{Type: EventChallenge, Challenge: m.Challenge}
	case lobby.NewsCanceled:
		ev = Event{Type: EventChallengeCanceled, Challenge: m.Challenge}
	case lobby.NewsDeclined:
		ev = Event{Type: EventChallengeDeclined, Challenge: m.Challenge, DeclineReason: m.Reason}
	case lobby.NewsGameStart, lobby.NewsGameFinish:
		ge, err := b.gameEvent(b.ctx, m.Game, userID)
		if err != nil {
			b.log.Error("event stream: read the game", "game", m.Game, "err", err)
			return
		}
		ev = Event{Type: EventGameStart, Game: ge}
		if m.Type == lobby.NewsGameFinish {
			ev.Type = EventGameFinish
		}
	default:
		return // news for the pages (a turn, a draw offered, a seek taken)
	}
	if ev.Game == nil && ev.Challenge == nil {
		return
	}
	l := marshalLine(ev)
	b.mu.Lock()
	defer b.mu.Unlock()
	for es := range b.events[userID] {
		es.send(l)
	}
}

// EventStreams returns the number of event streams open on this instance.
func (b *Bots) EventStreams() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, ess := range b.events {
		n += len(ess)
	}
	return n
}

// gameEvent describes a stored game to the account userID.
func (b *Bots) gameEvent(ctx context.Context, id, userID string) (*GameEvent, error) {
	if b.cfg.Stored == nil {
		return nil, fmt.Errorf("game %s: %w", id, store.ErrNoAccounts)
	}
	sg, err := b.cfg.Stored.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := b.cfg.Registry.Load(sg.Spec)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	ge := &GameEvent{ID: sg.ID, Spec: sg.Spec, Rated: sg.Rated, Seat: -1, Players: b.players(ctx, g, sg.Seats), Status: sg.Status}
	for i, st := range sg.Seats {
		if st.User == userID && ge.Seat < 0 {
			ge.Seat = i
		}
	}
	if sg.Status == store.Finished {
		o, err := game.ParseOutcome(sg.End.Outcome)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", id, err)
		}
		ge.Outcome = view.OutcomeOf(g, o)
		ge.Rated = ge.Rated && o.Reason != game.Aborted
		return ge, nil
	}
	h, err := replay(g, sg)
	if err != nil {
		return nil, err
	}
	if p := h.State().ToMove(); p >= 0 && p < len(sg.Seats) {
		ge.IsMyTurn = userID != "" && sg.Seats[p].User == userID
	}
	return ge, nil
}

// replay plays a stored game's moves from its start.
func replay(g game.Game, sg *store.Game) (*game.History, error) {
	var start game.State
	if sg.Start != "" {
		st, err := g.ParseState(sg.Start)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", sg.ID, err)
		}
		start = st
	}
	h := game.NewHistory(g, start)
	for i, m := range sg.Moves {
		if err := h.Play(m); err != nil {
			return nil, fmt.Errorf("game %s ply %d: %w", sg.ID, i, err)
		}
	}
	return h, nil
}

// BotList answers GET /api/bots.
type BotList struct {
	Bots []BotInfo `json:"bots"`
}

// BotInfo is a bot account in GET /api/bots.
type BotInfo struct {
	Name string `json:"name"`
	// Online reports that the bot had its event stream open within
	// OnlineWithin; Seen is when it last had (absent: never).
	Online bool       `json:"online"`
	Seen   *time.Time `json:"seen,omitempty"`
	// Ratings are its ratings, one per pool it played rated games in,
	// and Games the rated games it played in all.
	Ratings []BotRating `json:"ratings"`
	Games   int         `json:"games"`
}

// BotRating is a bot's rating in one pool.
type BotRating struct {
	Pool        string  `json:"pool"`
	Rating      float64 `json:"rating"`
	Provisional bool    `json:"provisional,omitempty"`
	Games       int     `json:"games"`
}

// handleBots serves GET /api/bots: the bot accounts, those seen most
// recently first.
func (b *Bots) handleBots(w http.ResponseWriter, r *http.Request) {
	if b.cfg.Tokens == nil {
		httpx.Error(w, http.StatusNotImplemented, "this server keeps no bot accounts")
		return
	}
	us, err := b.cfg.Tokens.Bots(r.Context(), maxBots)
	if err != nil {
		b.log.Error("bots", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the bots could not be listed")
		return
	}
	now := b.now()
	out := BotList{Bots: []BotInfo{}}
	for _, u := range us {
		bi := BotInfo{Name: u.Name, Ratings: []BotRating{}}
		if !u.Seen.IsZero() {
			seen := u.Seen
			bi.Seen = &seen
			bi.Online = now.Sub(seen) <= OnlineWithin
		}
		for _, pool := range ratings.PoolNames() {
			if b.cfg.Ratings == nil {
				break
			}
			rt, err := b.cfg.Ratings.Rating(r.Context(), u.ID, pool)
			if err != nil {
				b.log.Error("bots: ratings", "err", err)
				httpx.Error(w, http.StatusInternalServerError, "the bots' ratings could not be read")
				return
			}
			if rt.Games > 0 {
				bi.Ratings = append(bi.Ratings, BotRating{Pool: pool, Rating: rt.Rating, Provisional: rt.Deviation > ratings.ProvisionalDeviation, Games: rt.Games})
				bi.Games += rt.Games
			}
		}
		out.Bots = append(out.Bots, bi)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
