package play

import (
	"context"
	"stax/game"
	"stax/server/httpx"
	"stax/server/store"
	"time"
)

// StartGame creates and starts a game between accounts, players[i] in
// seat i, and returns its id (the lobby starts the games it pairs).
func (s *Live) StartGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (string, error) {
	l, err := s.startGame(ctx, spec, start, players, rated, clock)
	if err != nil {
		return "", err
	}
	return l.id, nil
}

// startGame creates and starts a game between accounts, players[i] in
// seat i.
func (s *Live) startGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (*room, error) {
	g, err := s.cfg.Games.Load(spec)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Millisecond)
	sg := &store.Game{ID: httpx.NewID(), Spec: game.SpecOf(g).String(), Start: start, Status: store.Playing, Created: now, Updated: now, Rated: rated, Clock: clock}
	sg.End.Resigned = -1
	for _, u := range players {
		sg.Seats = append(sg.Seats, store.Seat{Kind: "human", Name: u.Name, User: u.ID, Joined: true})
	}
	if err := s.store.Create(ctx, sg); err != nil {
		return nil, err
	}
	l, err := newRoom(sg, g)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.games[l.id] = l
	s.mu.Unlock()
	s.log.Info("game started", "game", l.id, "spec", sg.Spec, "rated", rated)
	return l, nil
}
