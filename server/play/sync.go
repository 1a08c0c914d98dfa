package play

import (
	"context"
	"errors"
	"slices"
	"time"

	"stax/server/chat"
	"stax/server/httpx"
	"stax/server/relay"
	"stax/server/store"
)

// rooms are the rooms this instance holds as the relay between instances
// sees them (relay.Rooms): it brings them the store's feed and the other
// instances' news, and live play tells the others through it what no
// table keeps: chat, offers and connections.
type rooms struct{ *Live }

// Follow applies a committed change of a game to the room held here.
func (s rooms) Follow(ev store.Event) {
	l := s.held(ev.Game)
	if l == nil {
		return // loaded from the store when someone asks for it
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev.Kind {
	case store.EventMove:
		switch {
		case ev.Ply < l.h.Ply():
			return // this instance's own move, or one it has read
		case ev.Ply == l.h.Ply() && !l.h.Over() && l.clk == nil:
			// The usual case: the next move, played here as it comes. (A
			// game with a clock is reread, for the move's exact time.)
			mover := l.h.State().ToMove()
			if _, err := l.applyText(ev.Move); err == nil {
				now := s.now().Truncate(time.Millisecond)
				l.updated, l.lastAt = now, now
				l.afterMove(mover)
				l.broadcast()
				if l.h.Over() {
					s.open.done(l.id)
				}
				return
			}
		}
		s.refresh(l) // a gap, or a move this instance cannot play
	case store.EventTakeBack:
		if ev.Ply < l.h.Ply() {
			s.refresh(l)
		}
	case store.EventJoin:
		if ev.Ply >= 0 && ev.Ply < len(l.seats) && !l.seats[ev.Ply].Joined {
			s.refresh(l)
		}
	case store.EventFinish:
		if !l.h.Over() {
			s.refresh(l)
		}
	}
}

// Resync rereads every room held here, and asks the other instances
// about each: the feed may have lost events.
func (s rooms) Resync() {
	for _, l := range s.inMemory() {
		l.mu.Lock()
		s.refresh(l)
		l.mu.Unlock()
		// The news of its room may have been lost too.
		s.ask(l)
	}
}

// AskAll asks the other instances what they know of every room held
// here.
func (s rooms) AskAll() {
	for _, l := range s.inMemory() {
		s.ask(l)
	}
}

// Hear applies another instance's news of a room this instance holds.
func (s rooms) Hear(game string, n relay.News) {
	l := s.held(game)
	if l == nil {
		return // asked for when this instance loads it
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dropped {
		return
	}
	switch n.What {
	case relay.Chat:
		if n.Line != nil {
			l.addLine(*n.Line)
		}
	case relay.Ask:
		if l.speaks() {
			s.tellState(l, true)
		}
	case relay.State:
		l.mergeLines(n.Lines)
		l.setAway(n.From, n.Conns, s.now())
		s.mergeOffers(l, n.Ply, n.Offers)
	case relay.Rematch:
		s.deliverRematch(l, n.Rematch)
	}
}

// refresh rereads a game from the store and takes it as stored: the moves
// it lacks (with their times, which its clock is charged from), the seats
// joined, an ending by resignation, forfeit or time. The caller holds
// l.mu.
func (s rooms) refresh(l *room) {
	if sg := s.reread(l); sg != nil {
		s.adoptStored(l, sg)
	}
}

// catchUp rereads a game this instance already holds and takes it as
// stored only when the store is ahead: more moves, or an ending. A move of
// another instance sharing the store reaches this one through the feed;
// catchUp covers the move whose announcement was lost (its instance died
// between the commit and the announcement), before a player is served the
// game or a seat is flagged. The caller holds l.mu.
func (s rooms) catchUp(l *room) {
	sg := s.reread(l)
	if sg == nil || len(sg.Moves) == l.h.Ply() && (sg.Status == store.Finished) == l.h.Over() {
		return
	}
	s.adoptStored(l, sg)
}

// reread returns the game as stored, or nil (logged) when it cannot be
// read.
func (s rooms) reread(l *room) *store.Game {
	sg, err := s.store.Get(context.WithoutCancel(s.ctx), l.id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Error("refresh game", "game", l.id, "err", err)
		}
		return nil
	}
	return sg
}

// adoptStored takes sg as the game l is, keeping l's connections, and
// tells them. The caller holds l.mu.
func (s rooms) adoptStored(l *room, sg *store.Game) {
	nl, err := s.build(sg)
	if err != nil {
		s.log.Error("refresh game", "game", l.id, "err", err)
		return
	}
	ply, over := l.h.Ply(), l.h.Over()
	l.adopt(nl)
	if l.h.Ply() != ply || l.h.Over() != over {
		l.clearOffers() // the draw and takeback offers were for the position before
	}
	l.broadcast()
	if l.h.Over() {
		s.open.done(l.id)
	}
}

// tell sends news of room l to the other instances. The caller holds
// l.mu, so that a room's news leave in the order they happen.
func (s rooms) tell(l *room, n relay.News) {
	s.relay.Tell(s.ctx, l.id, n)
}

// tellState tells the other instances the offers standing and this
// instance's connections to each seat, with the chat so far when history
// is set. The caller holds l.mu.
func (s rooms) tellState(l *room, history bool) {
	n := relay.News{What: relay.State, Ply: l.h.Ply(), Offers: l.offers(), Conns: make([]int, len(l.seats))}
	for i := range l.seats {
		n.Conns[i] = l.seats[i].connected
	}
	if history {
		n.Lines = l.history(relay.HistoryBudget)
	}
	s.tell(l, n)
}

// ask asks the other instances what they know of a room this instance has
// just loaded.
func (s rooms) ask(l *room) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = true
	s.tell(l, relay.News{What: relay.Ask})
}

// askOnce asks the other instances what they know of a room that has
// never asked (one resumed at start). The caller holds l.mu.
func (s rooms) askOnce(l *room) {
	if !l.asked {
		l.asked = true
		s.tell(l, relay.News{What: relay.Ask})
	}
}

// history returns the last chat lines of both rooms, oldest first, as many
// as fit in budget bytes of JSON. The caller holds l.mu.
func (l *room) history(budget int) []chat.Line {
	return l.talk.chat.History(budget)
}

// speaks reports whether this instance has anything to tell of the room:
// connections of players, offers or chat. The caller holds l.mu.
func (l *room) speaks() bool {
	for i := range l.seats {
		if l.seats[i].connected > 0 {
			return true
		}
	}
	return len(l.offers()) > 0 || l.talk.chat.Len() > 0
}

// addLine keeps a chat line and sends it to the room's connections of its
// chat room. The caller holds l.mu.
func (l *room) addLine(line chat.Line) {
	if !l.talk.chat.Add(line) {
		return
	}
	msg := httpx.Marshal(line)
	for sub := range l.subs {
		if sub.room() == line.Room && sub.hears(line) {
			sub.send(msg)
		}
	}
	for f := range l.follows {
		if f.room() == line.Room && f.hears(line) {
			f.hear(line)
		}
	}
}

// mergeLines adds the chat lines another instance had before this one
// loaded the room to those it has, in time order, each line once. The
// caller holds l.mu.
func (l *room) mergeLines(got []chat.Line) {
	for _, room := range l.talk.chat.Merge(got) {
		// Connections that came before the history get it now.
		msg := httpx.Marshal(ChatLog{Type: "chatlog", Room: room, Lines: l.talk.chat.Lines(room), Offers: l.offers()})
		for c := range l.subs {
			if c.room() != room {
				continue
			}
			if c.mod != nil && c.user != "" {
				// A signed-in connection gets the lines it hears.
				c.send(httpx.Marshal(ChatLog{Type: "chatlog", Room: room, Lines: c.heard(l.talk.chat.Lines(room)), Offers: l.offers()}))
				continue
			}
			c.send(msg)
		}
	}
}

// setAway records another instance's connections to each seat, and tells
// this instance's connections when a seat's mark changes. The caller
// holds l.mu.
func (l *room) setAway(from string, conns []int, now time.Time) {
	if conns != nil && len(conns) != len(l.seats) {
		return
	}
	before := l.marks()
	if slices.ContainsFunc(conns, func(n int) bool { return n > 0 }) {
		if l.talk.away == nil {
			l.talk.away = map[string][]int{}
		}
		l.talk.away[from] = conns
	} else {
		delete(l.talk.away, from)
	}
	l.noteGone(now)
	if l.marks() != before {
		l.changed()
		l.broadcast()
	}
}

// marks returns which seats show connected, a bit per seat. The caller
// holds l.mu.
func (l *room) marks() uint64 {
	var m uint64
	for i := range l.seats {
		if l.connected(i) {
			m |= 1 << i
		}
	}
	return m
}

// connected reports whether a connection holds seat i, on this instance
// or on another. The caller holds l.mu.
func (l *room) connected(i int) bool {
	if l.seats[i].connected > 0 {
		return true
	}
	for _, conns := range l.talk.away {
		if conns[i] > 0 {
			return true
		}
	}
	return false
}

// mergeOffers adds the offers another instance knows of to those standing
// here: draws and takebacks offered at this ply (after catching up with
// the store should the sender be ahead), rematches once the game is over.
// When the offers of every player are in, the offer is carried out here
// too: its commit is conditional (a finish, a takeback of one ply, the
// creation of one rematch id), so of instances doing it at once exactly
// one succeeds. The caller holds l.mu.
func (s rooms) mergeOffers(l *room, ply int, offers map[string][]int) {
	if len(offers) == 0 {
		return
	}
	if ply > l.h.Ply() || len(offers[offerRematch]) > 0 && !l.h.Over() {
		s.catchUp(l)
	}
	added := false
	for _, kind := range []string{offerDraw, offerTakeback, offerRematch} {
		seats := offers[kind]
		switch {
		case len(seats) == 0:
			continue
		case kind == offerRematch && (!l.h.Over() || l.talk.rematch != ""):
			continue
		case kind != offerRematch && (l.h.Over() || ply != l.h.Ply()):
			continue
		}
		for _, p := range seats {
			if p >= 0 && p < len(l.seats) && l.seats[p].Kind == "human" && l.addOffer(kind, p) {
				added = true
			}
		}
	}
	if !added {
		return
	}
	for _, kind := range []string{offerDraw, offerTakeback, offerRematch} {
		if l.agreed(kind) {
			var me *moveError
			if err := s.carryOut(l, kind); errors.As(err, &me) && me.code == CodeServer {
				s.log.Error("carry out an offer", "game", l.id, "offer", kind, "err", err)
			}
			return
		}
	}
	l.sendOffers()
}

// Forget forgets the connections that the instances gone told of.
func (s rooms) Forget(gone []string) {
	if len(gone) == 0 {
		return
	}
	for _, l := range s.inMemory() {
		l.mu.Lock()
		for _, id := range gone {
			if _, ok := l.talk.away[id]; ok {
				l.setAway(id, nil, s.now())
			}
		}
		l.mu.Unlock()
	}
}
