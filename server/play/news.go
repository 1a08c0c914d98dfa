package play

import "context"

// SetNotifier makes n the bearer of the players' news of their games (see
// Notifier). It is called while the site is wired, before it serves;
// without one, players learn of moves and offers only on the game's page.
func (s *Live) SetNotifier(n Notifier) { s.notifier.Store(&n) }

// notify sends news through the Notifier, if there is one.
func (s *Live) notify(userID, kind string, l *room, by string) {
	if n := s.notifier.Load(); n != nil {
		(*n).Notify(context.WithoutCancel(s.ctx), userID, kind, l.id, by, l.g.Info().Title)
	}
}

// newsOfMove tells the player whose move it now is, after seat mover's
// move, when the game is played by correspondence or without a clock
// (a player of a Fischer clock is on the game's page), the seat is an
// account's and another account made the move. The caller holds l.mu.
func (s *Live) newsOfMove(l *room, mover int) {
	if s.notifier.Load() == nil || l.h.Over() || (l.clk != nil && l.clk.Control().Days == 0) {
		return
	}
	next := l.seats[l.h.State().ToMove()]
	if next.Kind != "human" || next.User == "" || next.User == l.seats[mover].User {
		return
	}
	s.notify(next.User, NewsTurn, l, l.seatName(mover))
}

// newsOfDraw tells the accounts of the human seats that have not offered a
// draw that seat by offered one. The caller holds l.mu.
func (s *Live) newsOfDraw(l *room, by int) {
	if s.notifier.Load() == nil {
		return
	}
	told := map[string]bool{l.seats[by].User: true}
	for _, p := range l.humans() {
		u := l.seats[p].User
		if u == "" || told[u] || holds(l.talk.offers[offerDraw], p) {
			continue
		}
		told[u] = true
		s.notify(u, NewsDraw, l, l.seatName(by))
	}
}
