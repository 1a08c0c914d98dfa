package play

import (
	"time"

	"stax/game"
	"stax/search"
	"stax/server/store"
)

// LagCompensation is the part of each move's time that the server does not
// charge, for the network between the player and the server: a move is
// charged from the moment the previous move was committed to the moment it
// arrives, less up to this much.
const LagCompensation = 100 * time.Millisecond

// clockState is the clock of a live game. It is a function of the time
// control, the game's creation time and the time each move was committed,
// all of which the store keeps, so a restarted server (or another
// instance) rebuilds it exactly.
type clockState struct {
	c store.Clock
	// left is each seat's time at the start of its turn (Fischer).
	left []time.Duration
	// since is when the current turn started: the game's creation, then
	// each move's commit.
	since time.Time
}

func newClockState(c store.Clock, players int, start time.Time) *clockState {
	k := &clockState{c: c, left: make([]time.Duration, players), since: start}
	for i := range k.left {
		k.left[i] = c.Initial
	}
	return k
}

// turn returns the time allowed for a turn beginning at since.
func (k *clockState) correspondence() bool { return k.c.Days > 0 }

// charge records a move by seat p committed at at.
func (k *clockState) charge(p int, at time.Time) {
	if !k.correspondence() {
		used := at.Sub(k.since)
		used -= min(used, LagCompensation)
		k.left[p] += k.c.Increment - used
	}
	k.since = at
}

// deadline returns the moment seat p, to move, runs out of time.
func (k *clockState) deadline(p int) time.Time {
	if k.correspondence() {
		return k.since.Add(time.Duration(k.c.Days) * 24 * time.Hour)
	}
	return k.since.Add(k.left[p] + LagCompensation)
}

// ClockState is a game's clock in its State.
type ClockState struct {
	// Initial and Increment are the Fischer time control in seconds;
	// Days the correspondence one.
	Initial   float64 `json:"initial,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	// Remaining is each seat's time in milliseconds at the start of the
	// current turn (Fischer only).
	Remaining []int64 `json:"remaining,omitempty"`
	// Since is when the current turn started; Running the seat whose
	// clock runs (-1 once the game is over); Deadline when that seat's
	// time runs out.
	Since    time.Time `json:"since"`
	Running  int       `json:"running"`
	Deadline time.Time `json:"deadline"`
}

// json returns the clock's State.
func (k *clockState) json(toMove int, over bool) *ClockState {
	cs := &ClockState{Initial: k.c.Initial.Seconds(), Increment: k.c.Increment.Seconds(), Days: k.c.Days, Since: k.since, Running: toMove}
	if !k.correspondence() {
		for _, d := range k.left {
			cs.Remaining = append(cs.Remaining, d.Milliseconds())
		}
	}
	if over {
		cs.Running = -1
	} else {
		cs.Deadline = k.deadline(toMove)
	}
	return cs
}

// clockLimits returns the search limits of a computer seat p that starts
// thinking at now: in a Fischer game, its clock (the time left once what
// the turn has used so far, less the lag allowance, is taken off), so that
// the player spends its share and never runs out; otherwise none, and the
// level plays on its own budget.
func (l *room) clockLimits(p int, now time.Time) search.Limits {
	if l.clk == nil || l.clk.correspondence() {
		return search.Limits{}
	}
	used := max(now.Sub(l.clk.since)-LagCompensation, 0)
	left := max(l.clk.left[p]-used, time.Millisecond)
	return search.Limits{Clock: search.Clock{Remaining: left, Increment: l.clk.c.Increment}}
}

// flagged reports whether the seat to move has run out of time at now.
// The caller holds l.mu.
func (l *room) flagged(now time.Time) (int, bool) {
	if l.clk == nil || l.h.Over() {
		return -1, false
	}
	p := l.h.State().ToMove()
	return p, now.After(l.clk.deadline(p))
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
