package bots

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"stax/game"
	"stax/server/chat"
	"stax/server/clock"
	"stax/server/httpx"
	"stax/server/lobby"
	"stax/server/play"
	"stax/server/ratings"
	"stax/server/store"
)

// The game part of the bot API: a stream per game (GET
// /api/bot/game/stream/{id}) and one request per action in it.

// Games is live play as the bot API sees it (package play implements
// it).
type Games interface {
	// Follow subscribes a follower of game id for account u, opened by
	// the session whose token hash is session; the caller closes it.
	Follow(ctx context.Context, id string, u *store.User, session string) (*play.Follower, error)
	// Act does what m asks of game id for account u, as the game
	// websocket's message m would.
	Act(ctx context.Context, id string, u *store.User, m play.Message) error
}

// Ratings tells a player's rating (the ratings domain implements it).
type Ratings interface {
	// Rating returns an account's rating in a pool.
	Rating(ctx context.Context, userID, pool string) (store.Rating, error)
}

// MaxGameStreams bounds the game streams one token or session holds open
// at once, on one instance.
const MaxGameStreams = 16

// writeTimeout bounds the writing of a stream's line: a client that reads
// nothing for that long is closed.
const writeTimeout = 20 * time.Second

// The error codes of the bot API's own refusals; the others are live
// play's (play.CodeNotYourTurn and the like).
const (
	CodeNoGame         = "no_game"
	CodeTooManyStreams = "too_many_streams"
	CodeShuttingDown   = "shutting_down"
	CodeSignedOut      = "signed_out"
)

// stream is an open stream of the bot API.
type stream struct {
	user    string
	session string // the token hash of the token or session that opened it
	key     string // streamKey
	// counts counts the streams of its kind by key (Bots.gameStreams,
	// Bots.eventStreams).
	counts map[string]int
	// ctx ends with the request, or when Revoke or Close end the stream
	// (stop forgets Close's ending).
	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool
	// release gives back the stream's place among the connections.
	release func()
}

// streamKey names the token or session of a request for the bound of its
// streams.
func streamKey(u *store.User, ss *store.Session) string {
	return u.ID + " " + ss.TokenHash
}

// open admits a stream of account u of a kind ("game", "event"): within
// most streams of the kind (counted in counts, b.gameStreams or
// b.eventStreams) for its token or session and within the site's
// connection limits (httpx.Sockets). On a refusal it answers the request;
// otherwise the caller calls done when the stream ends.
func (b *Bots) open(w http.ResponseWriter, r *http.Request, u *store.User, ss *store.Session, counts map[string]int, most int, kind string) (*stream, bool) {
	st := &stream{user: u.ID, session: ss.TokenHash, key: streamKey(u, ss), counts: counts}
	b.mu.Lock()
	switch {
	case b.closing:
		b.mu.Unlock()
		w.Header().Set("Retry-After", "5")
		httpx.ErrorCode(w, http.StatusServiceUnavailable, CodeShuttingDown, "the server is shutting down; reconnect in a moment")
		return nil, false
	case counts[st.key] >= most:
		b.mu.Unlock()
		w.Header().Set("Retry-After", "10")
		httpx.ErrorCode(w, http.StatusTooManyRequests, CodeTooManyStreams, fmt.Sprintf("this token or session has %d %s streams open, the most it may; close one first", most, kind))
		return nil, false
	}
	counts[st.key]++
	st.ctx, st.cancel = context.WithCancel(r.Context())
	st.stop = context.AfterFunc(b.ctx, st.cancel)
	b.streams[st] = struct{}{}
	b.wg.Add(1)
	b.mu.Unlock()
	release, ok := b.cfg.Sockets.Take(w, r)
	if !ok {
		b.done(st)
		return nil, false
	}
	st.release = release
	return st, true
}

// done forgets an ended stream.
func (b *Bots) done(st *stream) {
	if st.release != nil {
		st.release()
	}
	st.stop()
	st.cancel()
	b.mu.Lock()
	delete(b.streams, st)
	if st.counts[st.key]--; st.counts[st.key] <= 0 {
		delete(st.counts, st.key)
	}
	b.mu.Unlock()
	b.wg.Done()
}

// handleGameStream serves GET /api/bot/game/stream/{id}: the game as a
// gameFull line, then a gameState line after every change, chatLine and
// opponentGone lines, until the game's final state; an empty line every
// KeepAlive when there is nothing else to say.
func (b *Bots) handleGameStream(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := b.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	st, ok := b.open(w, r, u, ss, b.gameStreams, MaxGameStreams, "game")
	if !ok {
		return
	}
	defer b.done(st)
	f, err := b.cfg.Games.Follow(st.ctx, id, u, ss.TokenHash)
	if err != nil {
		b.refuse(w, id, err)
		return
	}
	defer f.Close()
	// A session that ended while the stream was being set up was not
	// among those Revoke closed: look again.
	if _, _, err := b.cfg.Sessions.Session(r); err != nil {
		httpx.ErrorCode(w, http.StatusUnauthorized, CodeSignedOut, "the token or session ended while the stream opened: "+err.Error())
		return
	}
	b.serveGame(w, st, f, id)
}

// serveGame writes a game's stream until the game ends, the follower is
// closed or the stream is ended.
func (b *Bots) serveGame(w http.ResponseWriter, st *stream, f *play.Follower, id string) {
	// The server's write timeout bounds an answer's writing: each line
	// of a stream has it anew (writeTimeout).
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a reverse proxy passes each line on at once
	w.WriteHeader(http.StatusOK)
	lines := &gameLines{id: id, seats: f.Seats(), now: b.now}
	lines.players = b.players(st.ctx, f.Game(), f.Players())
	write := func(out []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(out); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	keep := time.NewTimer(b.cfg.KeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-f.Ready():
			state, chat := f.Take()
			out, end := lines.next(state, chat)
			if len(out) > 0 && !write(out) {
				return
			}
			if end {
				return
			}
		case <-keep.C:
			if !write([]byte{'\n'}) {
				return
			}
		case <-f.Done():
			b.log.Debug("game stream closed", "game", id, "user", st.user, "why", f.Err())
			return
		case <-st.ctx.Done():
			return
		}
		keep.Reset(b.cfg.KeepAlive)
	}
}

// gameLines makes the lines of a game stream from its follower's states
// and chat lines.
type gameLines struct {
	id      string
	seats   []int // the account's seats
	players []Player
	now     func() time.Time

	full    bool   // gameFull was made
	last    []byte // the last gameState line made
	gone    bool   // an opponent is gone, as the last opponentGone line said
	pending []chat.Line
}

// next returns the lines that a state (nil for none) and chat lines make,
// and whether the stream ends with them (the state is the final one). The
// chat lines come before the state: they were said before it was taken,
// the newest state, and the final state is the stream's last line.
func (g *gameLines) next(f *play.Followed, lines []chat.Line) (out []byte, end bool) {
	if !g.full && f == nil {
		// The game comes first: the chat waits for it.
		g.pending = append(g.pending, lines...)
		return nil, false
	}
	var st *play.State
	var gs GameState
	if f != nil {
		st = f.State()
		gs = gameState(f, st, g.seats)
	}
	if !g.full {
		g.full = true
		out = append(out, marshalLine(g.gameFull(st, timesNow(gs, st, g.now())))...)
	}
	for _, l := range append(g.pending, lines...) {
		out = append(out, marshalLine(ChatLine{Type: LineChatLine, Username: l.From, Text: l.Text})...)
	}
	g.pending = nil
	if st != nil {
		// Lines that differ only by the time passed are the same state:
		// the line compared is the one with the times as of the turn's
		// start, and the one sent has them as of now.
		line := marshalLine(gs)
		if g.last != nil && !bytes.Equal(line, g.last) {
			out = append(out, marshalLine(timesNow(gs, st, g.now()))...)
		}
		g.last = line
		out = append(out, g.opponentGone(st)...)
		end = st.Status == store.Finished
	}
	return out, end
}

// gameFull returns the first line of the stream.
func (g *gameLines) gameFull(st *play.State, gs GameState) GameFull {
	full := GameFull{Type: LineGameFull, ID: g.id, Spec: st.Spec, Title: st.Title, Rated: st.Rated,
		Players: g.players, Seats: g.seats, Start: st.Start, State: gs}
	if c := st.Clock; c != nil {
		if c.Days > 0 {
			full.Days = c.Days
		} else {
			full.Clock = &lobby.ClockSpec{Initial: c.Initial, Increment: c.Increment}
		}
	}
	return full
}

// opponentGone returns an opponentGone line when an opponent left the game
// or came back since the last one (only a live game between two people
// can be claimed: play.State.ClaimAfter).
func (g *gameLines) opponentGone(st *play.State) []byte {
	var left *time.Time
	for _, s := range st.Seats {
		if !slices.Contains(g.seats, s.Seat) && s.Left != nil && (left == nil || s.Left.Before(*left)) {
			left = s.Left
		}
	}
	if (left != nil) == g.gone || st.Status == store.Finished {
		return nil
	}
	g.gone = left != nil
	line := OpponentGone{Type: LineOpponentGone, Gone: g.gone}
	if g.gone {
		wait := left.Add(time.Duration(st.ClaimAfter) * time.Millisecond).Sub(g.now())
		line.ClaimWinInSeconds = int(math.Ceil(max(wait, 0).Seconds()))
	}
	return marshalLine(line)
}

// gameState returns the gameState line of a follower's state, with the
// legal moves when one of seats is to move and the draw offered, while
// the game goes on.
func gameState(f *play.Followed, st *play.State, seats []int) GameState {
	gs := GameState{Type: LineGameState, Moves: strings.Join(f.Moves, " "), Position: st.Position, Ply: st.Ply,
		ToMove: st.ToMove, Status: st.Status, Outcome: st.Outcome}
	if c := st.Clock; c != nil && c.Days == 0 {
		gs.Times = c.Remaining
		gs.Increment = int64(math.Round(c.Increment * 1000))
	}
	if st.Status != store.Playing {
		return gs
	}
	if slices.Contains(seats, st.ToMove) {
		gs.Legal = st.Legal()
	}
	if d := f.Offers["draw"]; len(d) > 0 {
		seat := d[0]
		gs.DrawOffer = &seat
	}
	return gs
}

// timesNow returns gs with the times left as of now: the clock of the
// seat to move has run since its turn began (unless it has not moved yet,
// when its clock waits for its first move). The time left is the clock's
// own deadline, which leaves out the time the site was down, less the
// allowance for lag, which is the server's and not the bot's to spend.
func timesNow(gs GameState, st *play.State, now time.Time) GameState {
	c := st.Clock
	if c == nil || len(gs.Times) == 0 || st.Status != store.Playing || c.FirstMove || c.Running < 0 || c.Running >= len(gs.Times) || c.Deadline.IsZero() {
		return gs
	}
	left := (c.Deadline.Sub(now) - clock.LagCompensation).Milliseconds()
	gs.Times = slices.Clone(gs.Times)
	gs.Times[c.Running] = max(min(left, gs.Times[c.Running]), 0)
	return gs
}

// marshalLine encodes a line of a stream, with its newline.
func marshalLine(v any) []byte {
	return append(httpx.Marshal(v), '\n')
}

// players describes a game's seats for the streams, with the accounts'
// ratings in the game's rating pool when Ratings is set.
func (b *Bots) players(ctx context.Context, g game.Game, seats []store.Seat) []Player {
	pool := ratings.PoolOf(g)
	out := make([]Player, len(seats))
	for i, st := range seats {
		p := Player{Name: st.Name, Kind: st.Kind, Level: st.Level, Bot: st.Bot}
		switch {
		case p.Name == "" && st.Kind == "ai":
			p.Name = st.Level
		case p.Name == "":
			p.Name = g.PlayerName(i)
		}
		if st.User != "" && pool != "" && b.cfg.Ratings != nil {
			if r, err := b.cfg.Ratings.Rating(ctx, st.User, pool); err == nil {
				p.Rating, p.Provisional = &r.Rating, r.Deviation > ratings.ProvisionalDeviation
			} else {
				b.log.Error("bot API: read a player's rating", "user", st.User, "pool", pool, "err", err)
			}
		}
		out[i] = p
	}
	return out
}

// maxMove bounds the length of a move the API reads: every game's
// notation writes its moves in a few characters.
const maxMove = 32

// handleMove serves POST /api/bot/game/{id}/move/{move}, with ?ply=N the
// ply the move is meant for: a move sent again after a reconnection is
// refused as stale instead of being played twice.
func (b *Bots) handleMove(w http.ResponseWriter, r *http.Request) {
	m := play.Message{Type: "move", Move: r.PathValue("move")}
	if len(m.Move) > maxMove {
		// Not quoted back: the path may be as long as a request's header.
		httpx.ErrorCode(w, http.StatusBadRequest, play.CodeIllegalMove, fmt.Sprintf("a move of %d bytes: want a move in the game's notation, a few characters (e.g. 1a1-a2)", len(m.Move)))
		return
	}
	if q := r.URL.Query().Get("ply"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 {
			httpx.ErrorCode(w, http.StatusBadRequest, play.CodeBadMessage, fmt.Sprintf("ply %q: want the ply of the gameState the move answers, a number from 0, e.g. ?ply=12", q))
			return
		}
		m.Ply = &n
	}
	b.act(w, r, m)
}

// handleResign serves POST /api/bot/game/{id}/resign: the account's seat
// to move resigns, or its first seat.
func (b *Bots) handleResign(w http.ResponseWriter, r *http.Request) {
	b.act(w, r, play.Message{Type: "resign"})
}

// handleDraw serves POST /api/bot/game/{id}/draw/yes (offer a draw, or
// accept the one offered) and .../draw/no (decline the one offered).
func (b *Bots) handleDraw(w http.ResponseWriter, r *http.Request) {
	switch a := r.PathValue("answer"); a {
	case "yes":
		b.act(w, r, play.Message{Type: "draw"})
	case "no":
		b.act(w, r, play.Message{Type: "decline", Offer: "draw"})
	default:
		httpx.ErrorCode(w, http.StatusBadRequest, play.CodeBadMessage, fmt.Sprintf("draw/%s: want draw/yes (offer a draw, or accept the one offered) or draw/no (decline it)", a))
	}
}

// handleChat serves POST /api/bot/game/{id}/chat: a line for the game's
// players.
func (b *Bots) handleChat(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, httpx.MaxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, play.CodeBadMessage, `bad JSON body: `+err.Error()+`; want {"text": "good game"}`)
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		httpx.ErrorCode(w, http.StatusBadRequest, play.CodeBadMessage, `bad JSON body: something follows the object; want one object, {"text": "good game"}`)
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		httpx.ErrorCode(w, http.StatusBadRequest, play.CodeBadMessage, `a chat line needs text, e.g. {"text": "good game"}`)
		return
	}
	b.act(w, r, play.Message{Type: "chat", Text: req.Text})
}

// handleAbort serves POST /api/bot/game/{id}/abort: the game is called
// off before its second move.
func (b *Bots) handleAbort(w http.ResponseWriter, r *http.Request) {
	b.act(w, r, play.Message{Type: "abort"})
}

// handleClaim serves POST /api/bot/game/{id}/claim-victory: the game is
// won from an opponent who left a live game long enough ago.
func (b *Bots) handleClaim(w http.ResponseWriter, r *http.Request) {
	b.act(w, r, play.Message{Type: "claim", Offer: "win"})
}

// act has live play do m in the request's game for its account, and
// answers {"ok": true} or the refusal.
func (b *Bots) act(w http.ResponseWriter, r *http.Request, m play.Message) {
	u, _, ok := b.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if err := b.cfg.Games.Act(r.Context(), id, u, m); err != nil {
		b.refuse(w, id, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, OK{OK: true})
}

// refuse answers live play's refusal of an action or a stream: its code
// with the status that fits it.
func (b *Bots) refuse(w http.ResponseWriter, id string, err error) {
	var coded interface{ Code() string }
	var slow interface{ RetryAfter() time.Duration }
	switch {
	case errors.As(err, &coded):
		if errors.As(err, &slow) && slow.RetryAfter() > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(slow.RetryAfter().Seconds()))))
		}
		httpx.ErrorCode(w, statusOf(coded.Code()), coded.Code(), err.Error())
	case errors.Is(err, store.ErrNotFound):
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoGame, fmt.Sprintf("no game %q", id))
	default:
		b.log.Error("bot API: load a game", "game", id, "err", err)
		httpx.ErrorCode(w, http.StatusInternalServerError, play.CodeServer, "the game could not be loaded")
	}
}

// statusOf returns the HTTP status of a refusal of live play's.
func statusOf(code string) int {
	switch code {
	case play.CodeBadMessage, play.CodeIllegalMove:
		return http.StatusBadRequest
	case play.CodeNotYourSeat, play.CodeMuted:
		return http.StatusForbidden
	case play.CodeNotYourTurn, play.CodeStale, play.CodeFlagged, play.CodeGameOver:
		return http.StatusConflict
	case play.CodeRateLimited:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}
