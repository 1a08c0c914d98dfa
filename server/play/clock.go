package play

import (
	"time"

	"stax/game"
	"stax/search"
)

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
	s.catchUp(l)
	if q, out := l.flagged(s.now()); !out || q != p {
		return false
	}
	// When another server ended the game first, finish rereads it.
	if err := s.finish(s.ctx, l, p, game.ByTime, l.g.PlayerName(p)+" ran out of time"); err != nil {
		s.log.Debug("flag", "game", l.id, "seat", p, "err", err)
	}
	return true
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
func (s *Live) checkClocks() {
	now := s.now()
	for _, l := range s.inMemory() {
		l.mu.Lock()
		if p, ok := l.flagged(now); ok {
			s.flag(l, p)
		}
		l.mu.Unlock()
	}
}

// clockTick is how often the server looks for flags.
const clockTick = 100 * time.Millisecond

// clockLoop flags games that ran out of time, until the server closes.
func (s *Live) clockLoop() {
	defer s.wg.Done()
	t := time.NewTicker(clockTick)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.CheckClocks()
		}
	}
}

// CheckClocks flags the games whose player to move has run out of time
// and forgets the other instances that have gone quiet. With Config.Now
// set, Live does this only when called; otherwise every 100 ms.
func (s *Live) CheckClocks() {
	s.checkClocks()
	s.sweepPeers(s.now())
}

// inMemory returns the games in memory.
func (s *Live) inMemory() []*room {
	s.mu.Lock()
	defer s.mu.Unlock()
	ls := make([]*room, 0, len(s.games))
	for _, l := range s.games {
		ls = append(ls, l)
	}
	return ls
}
