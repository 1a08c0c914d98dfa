package play

import (
	"context"
	"errors"
	"time"

	"stax/server/store"
)

// feedShards is how many goroutines apply the feed's game events. The
// events of one game always go to the same one, in the feed's order; a
// game whose lock is held (a move of its own being committed, say) then
// holds back only the games of its shard, not every game of the instance,
// which is what made moves that cross instances wait seconds under load.
const feedShards = 32

// feedDepth is how many events may wait for each shard before the feed
// itself waits.
const feedDepth = 256

// feed starts the shards that apply game events and returns the function
// that takes the store's events (see Live.Feed).
func (s relay) feed() func(store.Event) {
	shards := make([]chan store.Event, feedShards)
	for i := range shards {
		ch := make(chan store.Event, feedDepth)
		shards[i] = ch
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for {
				select {
				case <-s.ctx.Done():
					return
				case ev := <-ch:
					s.follow(ev)
				}
			}
		}()
	}
	return func(ev store.Event) {
		switch ev.Kind {
		case store.EventMove, store.EventTakeBack, store.EventJoin, store.EventFinish, store.EventRoom:
			select {
			case shards[shardOf(ev.Game)] <- ev:
			case <-s.ctx.Done():
			}
		default:
			s.follow(ev)
		}
	}
}

// shardOf returns the feed shard of a game id (FNV-1a).
func shardOf(id string) int {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return int(h % feedShards)
}

// follow handles one event of the store's feed: a change committed by this
// process or by another instance sharing the store reaches the games this
// instance holds and their connections.
func (s relay) follow(ev store.Event) {
	switch ev.Kind {
	case store.EventJob:
		if s.worker != nil {
			s.worker.Wake()
		}
		return
	case store.EventRoom:
		s.followRoom(ev)
		return
	case store.EventInstance:
		s.followPeer(ev)
		return
	case store.EventResync:
		if s.worker != nil {
			s.worker.Wake()
		}
		s.mu.Lock()
		held := make([]*room, 0, len(s.games))
		for _, l := range s.games {
			held = append(held, l)
		}
		s.mu.Unlock()
		for _, l := range held {
			l.mu.Lock()
			s.refresh(l)
			l.mu.Unlock()
			// The news of its room may have been lost too.
			s.ask(l)
		}
		return
	}
	s.mu.Lock()
	l := s.games[ev.Game]
	s.mu.Unlock()
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

// refresh rereads a game from the store and takes it as stored: the moves
// it lacks (with their times, which its clock is charged from), the seats
// joined, an ending by resignation, forfeit or time. The caller holds
// l.mu.
func (s relay) refresh(l *room) {
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
func (s relay) catchUp(l *room) {
	sg := s.reread(l)
	if sg == nil || len(sg.Moves) == l.h.Ply() && (sg.Status == store.Finished) == l.h.Over() {
		return
	}
	s.adoptStored(l, sg)
}

// reread returns the game as stored, or nil (logged) when it cannot be
// read.
func (s relay) reread(l *room) *store.Game {
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
func (s relay) adoptStored(l *room, sg *store.Game) {
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
