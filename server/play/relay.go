package play

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"stax/server/chat"
	"stax/server/httpx"
	"stax/server/store"
)

// Chat, offers and the players' connections are a live game's news that no
// table keeps, yet several instances sharing the store may each hold some
// of a game's connections. Each instance applies what its own connections
// do to the room it holds, at once, and tells the other instances through
// the store's feed (Store.Announce, an EventRoom carrying a roomNews); an
// instance holding the room applies the news of the others as if it were
// its own, and skips its own news, which it has applied already. An
// instance that loads a room asks the others for what they know of it: the
// offers standing, their connections and the chat so far.
//
// The players' connections are counted per instance: a seat shows
// connected while a connection holds it on this instance or on another
// that told so. Each instance says it is alive every peerRenew
// (EventInstance); the counts of an instance not heard from for peerTTL
// are forgotten, so a seat held only on an instance that died shows
// offline within peerTTL, and at once when the instance stops cleanly.

const (
	// peerRenew is how often an instance tells the others it is alive.
	peerRenew = 10 * time.Second
	// peerTTL is how long the connections an instance told of count
	// without a word from it.
	peerTTL = 30 * time.Second
	// historyBudget bounds, in bytes, the chat lines sent in answer to an
	// ask, so that the news fits store.MaxAnnounce.
	historyBudget = store.MaxAnnounce - 1000
)

// The news of a room (roomNews.What).
const (
	newsChat    = "chat"    // a chat line (Line)
	newsState   = "state"   // the offers standing and the sender's connections
	newsAsk     = "ask"     // the sender loaded the room: tell it what you know
	newsRematch = "rematch" // the rematch (Rematch) has started
)

// The news of an instance (the Move of an EventInstance).
const (
	peerAlive = "alive"
	peerGone  = "gone"
)

// roomNews is what an instance tells the others of a room: the Move of an
// EventRoom.
type roomNews struct {
	// From is the instance that sends it.
	From string `json:"from"`
	What string `json:"what"`
	// Line is a chat line.
	Line *chat.Line `json:"line,omitempty"`
	// Ply is the sender's ply of the game, which the draw and takeback
	// offers are for.
	Ply int `json:"ply"`
	// Offers are the offers standing that the sender knows of.
	Offers map[string][]int `json:"offers,omitempty"`
	// Conns counts the sender's connections holding each seat.
	Conns []int `json:"conns,omitempty"`
	// Lines are the last chat lines of both rooms, oldest first, in
	// answer to an ask.
	Lines []chat.Line `json:"lines,omitempty"`
	// Rematch is the id of the rematch that started.
	Rematch string `json:"rematch,omitempty"`
}

// peers are the other instances this one has heard from.
type peers struct {
	mu    sync.Mutex
	heard map[string]time.Time // by instance id: when last heard from
	// lapsed holds the instances whose connections were forgotten for
	// their silence, and since when, for lapsedKeep.
	lapsed map[string]time.Time
	told   time.Time // when this instance last said it was alive
}

// relay keeps live play's rooms in step across the instances sharing the
// store: it applies the store's feed to the rooms this instance holds
// (sync.go) and tells the other instances what no table keeps: chat,
// offers, connections and this instance's life (relay.go).
type relay struct{ *Live }

// lapsedKeep is how long an instance remembers another it stopped hearing
// from, in case it speaks again.
const lapsedKeep = 10 * time.Minute

// hear records that instance id spoke at now. It reports whether id had
// lapsed: its connections were forgotten although it lives.
func (p *peers) hear(id string, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.heard[id] = now
	if _, ok := p.lapsed[id]; ok {
		delete(p.lapsed, id)
		return true
	}
	return false
}

// hear records that instance id spoke; when it had lapsed (it was silent
// for peerTTL, a pause rather than its end), this instance asks again
// about every room it holds.
func (s relay) hear(id string) {
	if s.peers.hear(id, s.now()) {
		for _, l := range s.inMemory() {
			s.ask(l)
		}
	}
}

// tell sends news of room l to the other instances. The caller holds
// l.mu, so that a room's news leave in the order they happen.
func (s relay) tell(l *room, n roomNews) {
	n.From = s.instance
	b, err := json.Marshal(n)
	if err != nil {
		panic(err) // roomNews holds nothing json cannot encode
	}
	if err := s.store.Announce(s.ctx, store.Event{Kind: store.EventRoom, Game: l.id, Move: string(b)}); err != nil && s.ctx.Err() == nil {
		s.log.Error("tell the other instances", "game", l.id, "news", n.What, "err", err)
	}
}

// tellState tells the other instances the offers standing and this
// instance's connections to each seat, with the chat so far when history
// is set. The caller holds l.mu.
func (s relay) tellState(l *room, history bool) {
	n := roomNews{What: newsState, Ply: l.h.Ply(), Offers: l.offers(), Conns: make([]int, len(l.seats))}
	for i := range l.seats {
		n.Conns[i] = l.seats[i].connected
	}
	if history {
		n.Lines = l.history(historyBudget)
	}
	s.tell(l, n)
}

// ask asks the other instances what they know of a room this instance has
// just loaded.
func (s relay) ask(l *room) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = true
	s.tell(l, roomNews{What: newsAsk})
}

// askOnce asks the other instances what they know of a room that has
// never asked (one resumed at start). The caller holds l.mu.
func (s relay) askOnce(l *room) {
	if !l.asked {
		l.asked = true
		s.tell(l, roomNews{What: newsAsk})
	}
}

// history returns the last chat lines of both rooms, oldest first, as many
// as fit in budget bytes of JSON. The caller holds l.mu.
func (l *room) history(budget int) []chat.Line {
	return l.talk.chat.History(budget)
}

// followRoom applies another instance's news of a room this instance
// holds.
func (s relay) followRoom(ev store.Event) {
	var n roomNews
	if err := json.Unmarshal([]byte(ev.Move), &n); err != nil {
		s.log.Error("news of a room", "game", ev.Game, "err", err)
		return
	}
	if n.From == s.instance {
		return // applied when it happened
	}
	s.hear(n.From)
	s.mu.Lock()
	l := s.games[ev.Game]
	s.mu.Unlock()
	if l == nil {
		return // asked for when this instance loads it
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dropped {
		return
	}
	switch n.What {
	case newsChat:
		if n.Line != nil {
			l.addLine(*n.Line)
		}
	case newsAsk:
		if l.speaks() {
			s.tellState(l, true)
		}
	case newsState:
		l.mergeLines(n.Lines)
		l.setAway(n.From, n.Conns, s.now())
		s.mergeOffers(l, n.Ply, n.Offers)
	case newsRematch:
		s.deliverRematch(l, n.Rematch)
	}
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
		if roomOf(sub) == line.Room && sub.hears(line) {
			sub.send(msg)
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
			if roomOf(c) != room {
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
func (s relay) mergeOffers(l *room, ply int, offers map[string][]int) {
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

// sweepPeers tells the other instances that this one is alive every
// peerRenew, and forgets the connections of those not heard from for
// peerTTL.
func (s relay) sweepPeers(now time.Time) {
	p := &s.peers
	p.mu.Lock()
	renew := now.Sub(p.told) >= peerRenew
	if renew {
		p.told = now
	}
	var gone []string
	for id, at := range p.heard {
		if now.Sub(at) >= peerTTL {
			gone = append(gone, id)
			delete(p.heard, id)
			p.lapsed[id] = now
		}
	}
	for id, at := range p.lapsed {
		if now.Sub(at) >= lapsedKeep {
			delete(p.lapsed, id)
		}
	}
	p.mu.Unlock()
	if renew {
		s.announceSelf(s.ctx, peerAlive)
	}
	s.forgetPeers(gone)
}

// announceSelf tells the other instances that this one is alive or gone.
func (s relay) announceSelf(ctx context.Context, what string) {
	if err := s.store.Announce(ctx, store.Event{Kind: store.EventInstance, Game: s.instance, Move: what}); err != nil && ctx.Err() == nil {
		s.log.Error("tell the other instances", "news", what, "err", err)
	}
}

// followPeer applies the news of another instance.
func (s relay) followPeer(ev store.Event) {
	if ev.Game == s.instance {
		return
	}
	if ev.Move == peerGone {
		s.peers.mu.Lock()
		delete(s.peers.heard, ev.Game)
		delete(s.peers.lapsed, ev.Game)
		s.peers.mu.Unlock()
		s.forgetPeers([]string{ev.Game})
		return
	}
	s.hear(ev.Game)
}

// forgetPeers forgets the connections that instances gone told of.
func (s relay) forgetPeers(gone []string) {
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
