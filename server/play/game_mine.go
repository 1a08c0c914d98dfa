package play

import (
	"context"
	"net/http"

	"stax/server/account"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/view"
)

// ForgetAccount anonymises a deleted account's seats in the games in
// memory, as DeleteUser did in the store.
func (s *Live) ForgetAccount(ctx context.Context, id string) {
	for _, l := range s.inMemory() {
		l.mu.Lock()
		changed := false
		for i := range l.seats {
			if l.seats[i].User == id {
				l.seats[i].User, l.seats[i].Name = "", account.DeletedName
				changed = true
			}
		}
		if changed {
			l.changed()
			l.broadcast()
		}
		l.mu.Unlock()
	}
}

// handleMyGames lists the signed-in player's games: the ongoing ones
// where it is their move first (correspondence games waiting for them),
// then the other ongoing ones, then the finished ones, most recent first.
func (s *Live) handleMyGames(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.cfg.Sessions.SignedIn(w, r)
	if !ok {
		return
	}
	if s.cfg.Users == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	gs, err := s.cfg.Users.GamesOf(r.Context(), u.ID, 100, "")
	if err != nil {
		s.log.Error("my games", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be listed")
		return
	}
	sums := view.Summaries(s.cfg.Games, s.log, gs)
	var mine, playing, finished []view.Summary
	for i, sg := range gs {
		sum := sums[i]
		if sg.Status == store.Finished {
			finished = append(finished, sum)
			continue
		}
		if l, err := s.get(r.Context(), sg.ID); err == nil {
			l.mu.Lock()
			p := l.h.State().ToMove()
			sum.ToMove = &p
			sum.Ply = l.h.Ply()
			yours := !l.h.Over() && l.seats[p].User == u.ID
			l.mu.Unlock()
			sum.YourMove = yours
			if yours {
				mine = append(mine, sum)
				continue
			}
		}
		playing = append(playing, sum)
	}
	out := append(append(append([]view.Summary{}, mine...), playing...), finished...)
	httpx.WriteJSON(w, http.StatusOK, struct {
		Games []view.Summary `json:"games"`
	}{out})
}
