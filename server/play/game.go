package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"stax/game"
	"stax/game/record"
	"stax/search"
	"stax/server/clock"
	"stax/server/store"
	"stax/server/update"
	"stax/server/view"
)

// room is a game the server holds in memory: its history, seats and the
// connections watching it. Every change goes through its methods, which
// commit to the store before they change anything others can see.
type room struct {
	id   string
	g    game.Game
	spec string

	mu      sync.Mutex // guards everything below
	h       *game.History
	notes   []string // the moves played, in canonical notation
	seats   []seat
	subs    map[*client]struct{}
	created time.Time
	updated time.Time
	lastAt  time.Time // when the last move was played (or the game created)
	// resigned is the seat that resigned or forfeited, or -1.
	resigned int
	// The JSON arrays of the moves and positions so far, without the
	// closing bracket, grown one element per move.
	movesJSON, positionsJSON []byte
	// last lists the cells the last move touched, for the board view.
	last []string
	// msg and upd are the encoded state and update messages, and cur the
	// encoded State without the moves and positions, nil when they must
	// be rebuilt; upd is empty when nothing changed since base.
	msg, upd, cur []byte
	// base is cur as of the last broadcast: what every connection that
	// has had the full state holds, from which updates say what changed.
	base *update.Tree
	// sentPly is the ply of the last broadcast.
	sentPly int
	// watchersSent is when the count of watchers was last sent, and
	// watchersTimer, when not nil, the send of the next one.
	watchersSent  time.Time
	watchersTimer *time.Timer
	// dropped is set when the game leaves the server's memory: whoever
	// still holds it must load it again.
	dropped bool
	// idle is when the last subscriber left (zero while any is connected).
	idle time.Time
	// rated reports whether the game counts for ratings; clk is its
	// clock, nil for none.
	rated bool
	clk   *clock.Clock
	// talk is the game's chat and the players' offers.
	talk talk
	// client is the address the game was created from ("" when unknown,
	// as after a restart): its computer moves are shared fairly with
	// other clients' (store.Jobs).
	client string
	// flagging is set while a flag of the game is being written.
	flagging bool
	// asked is set once the other instances were asked what they know
	// of the room (see rooms.ask): when it is loaded on demand, or when
	// its first connection comes to a room resumed at start.
	asked bool
	// follows are the bot API's followers of the game (follow.go), and
	// followed the last state they were given.
	follows  map[*Follower]struct{}
	followed *Followed
}

// seat is one seat of a room.
type seat struct {
	store.Seat
	connected int // open connections of this instance holding the seat
	// gone is when the seat's last connection, on every instance, went:
	// zero while one is open (or before anyone came).
	gone time.Time
}

// noteGone records when each seat's last connection went, and clears it
// for the seats connected again. The caller holds l.mu.
func (l *room) noteGone(now time.Time) {
	for i := range l.seats {
		switch {
		case l.connected(i):
			l.seats[i].gone = time.Time{}
		case l.seats[i].gone.IsZero():
			l.seats[i].gone = now
		}
	}
}

// moveError is a rejected move or message, sent to the client as an error
// message.
type moveError struct {
	code string
	msg  string
	move string
	// retry is when a refusal for going too fast (CodeRateLimited) may
	// be tried again.
	retry time.Duration
}

func (e *moveError) Error() string { return e.msg }

// newRoom builds the room of a stored game; outages are the intervals no
// instance served the site, which its clock charges to nobody.
func newRoom(sg *store.Game, g game.Game, outages []store.Outage) (*room, error) {
	var start game.State
	if sg.Start != "" {
		s, err := g.ParseState(sg.Start)
		if err != nil {
			return nil, err
		}
		start = s
	}
	l := &room{
		id:       sg.ID,
		g:        g,
		spec:     sg.Spec,
		h:        game.NewHistory(g, start),
		subs:     map[*client]struct{}{},
		created:  sg.Created,
		updated:  sg.Updated,
		lastAt:   sg.Updated,
		resigned: -1,
	}
	if len(sg.Seats) != g.Players() {
		return nil, fmt.Errorf("game %s has %d seats; %s needs %d", sg.ID, len(sg.Seats), sg.Spec, g.Players())
	}
	for _, st := range sg.Seats {
		l.seats = append(l.seats, seat{Seat: st})
	}
	l.rated = sg.Rated
	if sg.Clock != nil {
		l.clk = clock.New(*sg.Clock, g.Players(), sg.Created)
		for _, o := range outages {
			l.clk.Pause(o)
		}
	}
	timed := len(sg.MoveTimes) == len(sg.Moves)
	l.movesJSON = append(l.movesJSON, '[')
	l.positionsJSON = append(l.positionsJSON, '[')
	l.positionsJSON = appendJSONString(l.positionsJSON, l.h.State().String())
	for i, m := range sg.Moves {
		p := l.h.State().ToMove()
		if _, err := l.applyText(m); err != nil {
			return nil, fmt.Errorf("game %s ply %d: %w", sg.ID, i, err)
		}
		if timed {
			l.lastAt = sg.MoveTimes[i]
			if l.clk != nil {
				l.clk.Charge(p, sg.MoveTimes[i])
			}
		}
	}
	if n := len(sg.MoveTimes); n > 0 && sg.MoveTimes[n-1].After(l.lastAt) {
		l.lastAt = sg.MoveTimes[n-1]
	}
	if stopped, err := l.restoreEnd(sg); err != nil {
		return nil, err
	} else if stopped && l.clk != nil {
		l.clk.Stop(sg.Updated)
	}
	l.sentPly = l.h.Ply()
	return l, nil
}

// restoreEnd ends the game as the stored one ended when its moves do not
// show it (a resignation, forfeit or loss on time): the stored outcome
// restores it exactly. It reports whether it did.
func (l *room) restoreEnd(sg *store.Game) (bool, error) {
	if sg.Status != store.Finished || l.h.Over() {
		return false, nil
	}
	o, err := game.ParseOutcome(sg.End.Outcome)
	if err != nil || !o.Over() || o.Players != l.g.Players() {
		return false, fmt.Errorf("game %s is finished but its stored outcome %q is not one of %s: %v", sg.ID, sg.End.Outcome, sg.Spec, err)
	}
	l.h.End(o)
	l.resigned = sg.End.Resigned
	l.changed()
	return true, nil
}

// lastActive returns when the game last changed: a move, a join, its
// creation. The caller holds l.mu.
func (l *room) lastActive() time.Time {
	if l.updated.After(l.lastAt) {
		return l.updated
	}
	return l.lastAt
}

// applyText plays a move given in notation and records it in the JSON
// caches; it returns the move in canonical notation.
func (l *room) applyText(text string) (string, error) {
	st := l.h.State()
	m, err := st.ParseMove(text)
	if err != nil {
		return "", err
	}
	note := st.FormatMove(m)
	l.last = view.LastCells(st, m)
	if err := l.h.PlayMove(m); err != nil {
		return "", err
	}
	l.notes = append(l.notes, note)
	if len(l.movesJSON) > 1 {
		l.movesJSON = append(l.movesJSON, ',')
	}
	l.movesJSON = appendJSONString(l.movesJSON, note)
	l.positionsJSON = append(l.positionsJSON, ',')
	l.positionsJSON = appendJSONString(l.positionsJSON, l.h.State().String())
	l.changed()
	return note, nil
}

// undoLast takes back the last move, after its commit failed.
func (l *room) undoLast() {
	l.h.Undo()
	l.notes = l.notes[:len(l.notes)-1]
	l.last = nil
	l.movesJSON = trimLastElem(l.movesJSON)
	l.positionsJSON = trimLastElem(l.positionsJSON)
	l.changed()
}

// trimLastElem removes the last string element of a JSON array under
// construction.
func trimLastElem(b []byte) []byte {
	// Elements are strings without unescaped quotes inside: find the
	// opening quote of the last one.
	i := len(b) - 2
	for i > 0 && !(b[i] == '"' && b[i-1] != '\\') {
		i--
	}
	b = b[:i]
	if n := len(b); n > 1 && b[n-1] == ',' {
		b = b[:n-1]
	}
	return b
}

// end returns the store's record of the game's ending, or nil while it goes
// on.
func (l *room) end() *store.End {
	o := l.h.Outcome()
	if !o.Over() {
		return nil
	}
	return &store.End{Outcome: o.String(), Resigned: l.resigned}
}

// state builds the State. The caller holds l.mu.
func (l *room) state() *State {
	s := l.stateNow()
	s.Positions = json.RawMessage(append(l.positionsJSON[:len(l.positionsJSON):len(l.positionsJSON)], ']'))
	s.Moves = json.RawMessage(append(l.movesJSON[:len(l.movesJSON):len(l.movesJSON)], ']'))
	return s
}

// stateNow builds the State without the moves and positions so far. The
// caller holds l.mu.
func (l *room) stateNow() *State {
	st := l.h.State()
	over := l.h.Over()
	s := &State{
		ID:          l.id,
		Spec:        l.spec,
		Game:        l.g.Info().Name,
		Title:       l.g.Info().Title,
		Players:     l.g.Players(),
		PlayerNames: view.PlayerNames(l.g),
		Start:       l.h.Start().String(),
		Position:    st.String(),
		Ply:         l.h.Ply(),
		ToMove:      st.ToMove(),
		Status:      store.Playing,
		Outcome:     view.OutcomeOf(l.g, l.h.Outcome()),
		Created:     l.created,
		Updated:     l.updated,
	}
	if n := len(l.notes); n > 0 {
		s.LastMove = l.notes[n-1]
	}
	s.View = view.Of(st, over, l.last)
	if over {
		s.Status = store.Finished
	}
	for i := range l.seats {
		s.Seats = append(s.Seats, l.seatJSON(i))
	}
	// An aborted game counted for nothing.
	s.Rated = l.rated && l.h.Outcome().Reason != game.Aborted
	if l.claimable() {
		s.ClaimAfter = claimAfter(l.clk).Milliseconds()
	}
	if l.clk != nil {
		s.Clock = l.clk.State(st.ToMove(), over)
		// To the millisecond, as the clients count.
		s.Clock.Since, s.Clock.Deadline = s.Clock.Since.Truncate(time.Millisecond), s.Clock.Deadline.Truncate(time.Millisecond)
	}
	s.Created, s.Updated = s.Created.Truncate(time.Millisecond), s.Updated.Truncate(time.Millisecond)
	return s
}

func (l *room) seatJSON(i int) Seat {
	st := &l.seats[i]
	return Seat{
		Seat:      i,
		Kind:      st.Kind,
		Level:     st.Level,
		Name:      st.Name,
		Joined:    st.Joined,
		Connected: l.connected(i),
		Account:   st.User != "",
		Bot:       st.Bot,
		Thinking:  st.Kind == "ai" && !l.h.Over() && l.h.State().ToMove() == i,
		Left:      l.leftSince(i),
	}
}

// changed drops the encoded messages after a change. The caller holds
// l.mu.
func (l *room) changed() {
	l.msg, l.upd, l.cur = nil, nil, nil
}

// stateMsg returns the encoded state message, building it if needed. The
// caller holds l.mu.
func (l *room) stateMsg() []byte {
	if l.msg == nil {
		l.msg = encodeState("state", l.state())
	}
	return l.msg
}

// updateMsg returns the encoded update message: the fields of the State
// that changed since the last broadcast (docs/api.md, "update"), or an
// empty message when none did. Its size is that of the change, not of the
// game. The caller holds l.mu.
func (l *room) updateMsg() []byte {
	if l.upd == nil {
		if l.upd = update.Encode(l.base, update.Parse(l.current())); l.upd == nil {
			l.upd = []byte{} // nothing changed
		}
	}
	return l.upd
}

// current returns the encoded State without the moves and positions so
// far. The caller holds l.mu.
func (l *room) current() []byte {
	if l.cur == nil {
		b, err := json.Marshal(l.stateNow())
		if err != nil {
			panic(err) // the State holds nothing json cannot encode
		}
		l.cur = b
	}
	return l.cur
}

func encodeState(typ string, st *State) []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // the State holds nothing json cannot encode
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, `{"type":"`...)
	out = append(out, typ...)
	out = append(out, `","state":`...)
	out = append(out, b...)
	return append(out, '}')
}

// broadcast sends the change to every subscriber: the full state to a
// connection that has not had it yet (and to all after a takeback), an
// update to the others, when something changed. Every full state a
// connection gets is sent here, so that the updates after it are the
// change from what it holds. The caller holds l.mu.
func (l *room) broadcast() {
	if ply := l.h.Ply(); ply != l.sentPly && ply != l.sentPly+1 {
		// Moves were taken back: an update cannot say so, so everyone
		// gets the full state.
		for c := range l.subs {
			c.synced = false
		}
	}
	l.sentPly = l.h.Ply()
	if len(l.subs) == 0 {
		// No connection holds the state: the next to come gets it whole,
		// and the base of its updates is made then. A room nobody watches
		// (as every room a moment after a crowd left) keeps no copy of it.
		l.base, l.upd = nil, nil
		l.tellFollowers(false)
		return
	}
	for c := range l.subs {
		if !c.synced {
			c.send(l.stateMsg())
			c.synced = true
		} else if upd := l.updateMsg(); len(upd) > 0 {
			c.send(upd)
		}
	}
	// Only the encoded state is kept (the same bytes as cur): the many
	// rooms between moves hold no parsed copy of it, nor the update just
	// sent, which every synced connection now holds.
	l.base = update.Parse(l.current())
	l.upd = []byte{}
	l.tellFollowers(false)
}

// tellFollowers gives the game's followers its state when it changed
// since they were last given it, or when force is set (the offers, which
// the State does not show, changed). The caller holds l.mu.
func (l *room) tellFollowers(force bool) {
	if len(l.follows) == 0 {
		return
	}
	cur := l.current()
	if !force && l.followed != nil && &l.followed.state[0] == &cur[0] {
		return // the same encoded state: nothing changed
	}
	offers := l.offers()
	for k, v := range offers {
		offers[k] = slices.Clone(v)
	}
	l.followed = &Followed{state: cur, Moves: slices.Clone(l.notes), Offers: offers}
	for f := range l.follows {
		f.offer(l.followed)
	}
}

// seatsOf returns the seats whose token hash is hash.
func (l *room) seatsOf(hash string) []int {
	var out []int
	for i := range l.seats {
		if hash != "" && l.seats[i].TokenHash == hash {
			out = append(out, i)
		}
	}
	return out
}

func holds(seats []int, s int) bool {
	for _, x := range seats {
		if x == s {
			return true
		}
	}
	return false
}

// play checks and plays a move for a connection holding seats (the AI
// passes its own seat). ply, when not nil, is the ply the sender believes
// current. It commits the move before anyone sees it. The caller holds
// l.mu.
func (s *Live) play(ctx context.Context, l *room, seats []int, text string, ply *int) error {
	if l.h.Over() {
		return &moveError{code: CodeGameOver, msg: "the game is over: " + l.h.Outcome().Describe(l.g), move: text}
	}
	if len(seats) == 0 {
		return &moveError{code: CodeNotYourSeat, msg: "this connection holds no seat (no token, or a wrong one): spectators cannot move", move: text}
	}
	if ply != nil && *ply != l.h.Ply() {
		return &moveError{code: CodeStale, msg: fmt.Sprintf("the move was sent for ply %d but the game is at ply %d; it was not played", *ply, l.h.Ply()), move: text}
	}
	toMove := l.h.State().ToMove()
	if !holds(seats, toMove) {
		return &moveError{code: CodeNotYourTurn, msg: fmt.Sprintf("it is %s's turn (seat %d), not yours", l.g.PlayerName(toMove), toMove), move: text}
	}
	now := s.now().Truncate(time.Millisecond)
	if p, out := l.flagged(now); out {
		if s.flag(l, p) {
			if l.h.Outcome().Reason == game.Aborted {
				return &moveError{code: CodeFlagged, msg: "your first move did not arrive in time: the game was aborted", move: text}
			}
			return &moveError{code: CodeFlagged, msg: "your time ran out before the move arrived; it was not played", move: text}
		}
		// The game had moved on on another server: the sender sees it.
		return &moveError{code: CodeStale, msg: "the game has moved on since; the move was not played", move: text}
	}
	note, err := l.applyText(text)
	if err != nil {
		msg := err.Error()
		var me *game.MoveError
		if errors.As(err, &me) && !errors.Is(err, game.ErrIllegalMove) {
			msg = "illegal move: " + msg
		}
		return &moveError{code: CodeIllegalMove, msg: msg, move: text}
	}
	t0 := time.Now()
	// A move the server has taken is committed even if the server is
	// shutting down meanwhile.
	if err := s.store.AppendMove(context.WithoutCancel(ctx), l.id, l.h.Ply()-1, note, now, l.end()); err != nil {
		l.undoLast()
		if errors.Is(err, store.ErrConflict) {
			// Another server stored a move at this ply first: catch up
			// with it, and tell the sender, who sees the new state.
			s.rooms.refresh(l)
			if l.h.Over() {
				// The game ended meanwhile (a flag, a resignation): the
				// store took one of the two.
				return &moveError{code: CodeGameOver, msg: "the game ended before the move arrived: " + l.h.Outcome().Describe(l.g), move: text}
			}
			return &moveError{code: CodeStale, msg: "another move was played first; it was not played", move: text}
		}
		s.log.Error("store move", "game", l.id, "move", note, "err", err)
		return &moveError{code: CodeServer, msg: "the server could not save the move; it was not played", move: text}
	}
	s.commitLat.Add(time.Since(t0))
	l.updated, l.lastAt = now, now
	if l.h.Over() {
		s.open.done(l.id)
	}
	if l.clk != nil {
		l.clk.Charge(toMove, now)
	}
	s.ended(l, now)
	l.afterMove(toMove)
	l.changed()
	l.broadcast()
	s.scheduleAI(l)
	s.newsOfMove(l, toMove)
	return nil
}

// resignSeat resigns one of seats for a connection. The caller holds l.mu.
func (s *Live) resignSeat(ctx context.Context, l *room, seats []int, which *int) error {
	if l.h.Over() {
		return &moveError{code: CodeGameOver, msg: "the game is over: " + l.h.Outcome().Describe(l.g)}
	}
	if len(seats) == 0 {
		return &moveError{code: CodeNotYourSeat, msg: "this connection holds no seat (no token, or a wrong one): spectators cannot resign"}
	}
	p := seats[0]
	switch {
	case which != nil:
		if !holds(seats, *which) {
			return &moveError{code: CodeNotYourSeat, msg: fmt.Sprintf("you do not hold seat %d", *which)}
		}
		p = *which
	case holds(seats, l.h.State().ToMove()):
		p = l.h.State().ToMove()
	}
	return s.finish(ctx, l, p, game.ByResignation, l.g.PlayerName(p)+" resigned")
}

// finish ends the game with seat p resigning or forfeiting. The caller
// holds l.mu.
func (s *Live) finish(ctx context.Context, l *room, p int, reason game.Reason, detail string) error {
	return s.conclude(ctx, l, func() { l.h.Resign(p, reason, detail) }, p, "the resignation")
}

// conclude ends the game for a reason the moves do not show: end ends the
// history (a resignation, a loss on time, an agreed draw, an abort),
// resigned is the seat that resigned or forfeited (or -1), what names the
// ending for an error. The ending is committed before anyone sees it. The
// caller holds l.mu.
func (s *Live) conclude(ctx context.Context, l *room, end func(), resigned int, what string) error {
	end()
	l.resigned = resigned
	now := s.now().Truncate(time.Millisecond)
	if l.clk != nil {
		l.clk.Stop(now)
	}
	if err := s.store.Finish(context.WithoutCancel(ctx), l.id, l.h.Ply(), *l.end(), now); err != nil {
		l.h.Undo()
		l.resigned = -1
		if l.clk != nil {
			l.clk.Stop(time.Time{})
		}
		l.changed()
		if errors.Is(err, store.ErrConflict) {
			// The game ended on another server meanwhile.
			s.rooms.refresh(l)
			return &moveError{code: CodeGameOver, msg: "the game ended before the resignation arrived"}
		}
		s.log.Error("store finish", "game", l.id, "err", err)
		return &moveError{code: CodeServer, msg: "the server could not save " + what}
	}
	l.updated = now
	s.open.done(l.id)
	s.ended(l, now)
	l.changed()
	l.broadcast()
	return nil
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\"\\<>&") && isPlainASCII(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	enc, _ := json.Marshal(s)
	return append(b, enc...)
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// clockLimits returns the search limits of a computer seat p that starts
// thinking at now (see clock.Clock.Limits).
func (l *room) clockLimits(p int, now time.Time) search.Limits {
	return l.clk.Limits(p, now)
}

// flagged reports whether the seat to move has run out of time at now.
// The caller holds l.mu.
func (l *room) flagged(now time.Time) (int, bool) {
	if l.clk == nil || l.h.Over() {
		return -1, false
	}
	p := l.h.State().ToMove()
	return p, l.clk.Out(p, now)
}

// flag ends the game of a seat that ran out of time: it loses (in
// 4-player Diam the seat loses and the others share the win, or with
// teams its team loses: the game does not go on with three). Of several
// servers holding the game, the first to commit the ending wins; the
// others read it back. It reports whether the game as stored had the seat
// to move out of time. The caller holds l.mu.
func (s *Live) flag(l *room, p int) bool {
	// The seat may have moved on another server sharing the store, whose
	// announcement this one missed: only the game as stored is flagged.
	s.rooms.catchUp(l)
	if q, out := l.flagged(s.now()); !out || q != p {
		return false
	}
	// When another server ended the game first, finish rereads it.
	var err error
	if l.clk.Moved(p) {
		err = s.finish(s.ctx, l, p, game.ByTime, l.g.PlayerName(p)+" ran out of time")
	} else {
		// A player who never made a first move loses nothing, and nor
		// does their opponent: the game is called off.
		o := game.Drawn(l.g.Players(), game.Aborted, fmt.Sprintf("%s made no first move within %s", l.seatName(p), firstMoveWindow(l.clk)))
		err = s.conclude(s.ctx, l, func() { l.h.End(o) }, -1, "the abort")
	}
	if err != nil {
		s.log.Debug("flag", "game", l.id, "seat", p, "err", err)
	}
	return true
}

// firstMoveWindow says how long a player has for their first move.
func firstMoveWindow(k *clock.Clock) string {
	if d := k.Control().Days; d > 0 {
		if d == 1 {
			return "a day"
		}
		return fmt.Sprintf("%d days", d)
	}
	return fmt.Sprintf("%d seconds", int(clock.FirstMoveWindow.Seconds()))
}

// seatName returns the name a seat plays under: its player's, or the
// seat's own (White, Black…) for a guest without one.
func (l *room) seatName(p int) string {
	if n := l.seats[p].Name; n != "" {
		return n
	}
	return l.g.PlayerName(p)
}

// adopt takes the game as another live copy holds it (read back from the
// store), keeping its own connections. The caller holds l.mu.
func (l *room) adopt(nl *room) {
	conns := make([]int, len(l.seats))
	for i := range l.seats {
		conns[i] = l.seats[i].connected
	}
	l.h, l.notes, l.seats = nl.h, nl.notes, nl.seats
	for i := range l.seats {
		l.seats[i].connected = conns[i]
	}
	l.movesJSON, l.positionsJSON, l.last = nl.movesJSON, nl.positionsJSON, nl.last
	l.resigned, l.clk, l.updated, l.lastAt = nl.resigned, nl.clk, nl.updated, nl.lastAt
	l.changed()
}

// checkClocks flags every game in memory whose player to move has run out
// of time. The server runs it every clockTick.
func (s *Live) checkClocks(wait bool) {
	now := s.now()
	var flags sync.WaitGroup
	defer func() {
		if wait {
			flags.Wait()
		}
	}()
	for _, l := range s.inMemory() {
		if !l.mu.TryLock() {
			// A game busy with a write (a move, a slow database) is looked
			// at on the next tick, or by the move itself: no game's clock
			// waits behind another's. A caller that waits (CheckClocks)
			// has it looked at once free, without waiting for it.
			if wait {
				s.wg.Add(1)
				go func() {
					defer s.wg.Done()
					l.mu.Lock()
					defer l.mu.Unlock()
					if _, out := l.flagged(now); out && !l.flagging {
						s.flagStored(l)
					}
				}()
			}
			continue
		}
		_, out := l.flagged(now)
		flagging := out && l.flagging
		if out && !flagging {
			l.flagging = true
		}
		l.mu.Unlock()
		if !out || flagging {
			continue
		}
		// The flag writes to the store: each on its own, so that one slow
		// write does not hold the others.
		s.wg.Add(1)
		flags.Add(1)
		go func() {
			defer s.wg.Done()
			defer flags.Done()
			l.mu.Lock()
			defer l.mu.Unlock()
			l.flagging = false
			s.flagStored(l)
		}()
	}
}

// flagStored flags the seat to move if it has run out of time in the game
// as stored: this instance may have missed a move, and then another seat
// may be the one out of time. The caller holds l.mu.
func (s *Live) flagStored(l *room) {
	s.rooms.catchUp(l)
	if q, out := l.flagged(s.now()); out {
		s.flag(l, q)
	}
}

// record returns the game's record in the text format of docs/records.md.
// The caller holds l.mu.
func (l *room) record() string {
	tags := []record.Tag{record.DateTag(l.created)}
	for i := range l.seats {
		st := &l.seats[i]
		who := record.Seat{Kind: record.Human, Name: st.Name}
		if st.Kind == "ai" {
			who = record.Seat{Kind: record.Level, Name: st.Level}
		}
		tags = append(tags, who.Tag(i))
	}
	tags = append(tags, record.Tag{Name: "Site", Value: "stax server, game " + l.id})
	r := record.FromHistory(l.h, tags...)
	r.Set(record.TagFinalPosition, l.h.State().String())
	return r.String()
}

// ended rates a rated game that has just ended and tells its players'
// accounts (NewsFinish). It runs before the caller lets go of the game,
// so that a player who looks at the profile after the game's end sees
// the new rating. The caller holds l.mu.
func (s *Live) ended(l *room, at time.Time) {
	if !l.h.Over() {
		return
	}
	if l.rated && s.cfg.Rater != nil {
		seats := make([]store.Seat, len(l.seats))
		for i := range l.seats {
			seats[i] = l.seats[i].Seat
		}
		if err := s.cfg.Rater.RateGame(context.WithoutCancel(s.ctx), l.id, l.g, seats, l.h.Outcome(), at); err != nil {
			s.log.Error("rate game", "game", l.id, "err", err)
		}
	}
	s.newsOfSeats(l, NewsFinish)
}
