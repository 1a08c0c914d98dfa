package play

import (
	"context"
	"time"

	"stax/server/store"
)

// ended rates a rated game that has just ended. It runs before the
// caller lets go of the game, so that a player who looks at the profile
// after the game's end sees the new rating. The caller holds l.mu.
func (s *Live) ended(l *room, at time.Time) {
	if !l.h.Over() || !l.rated || s.cfg.Rater == nil {
		return
	}
	seats := make([]store.Seat, len(l.seats))
	for i := range l.seats {
		seats[i] = l.seats[i].Seat
	}
	if err := s.cfg.Rater.RateGame(context.WithoutCancel(s.ctx), l.id, l.g, seats, l.h.Outcome(), at); err != nil {
		s.log.Error("rate game", "game", l.id, "err", err)
	}
}
