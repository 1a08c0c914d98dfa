package bot

import (
	"context"
	"fmt"

	"stax/game"
	"stax/search"
)

// Search is an Engine that plays in the bot's own process with a computer
// player (a search.Player, such as a level of package ai): no process is
// started. In a game with a Fischer clock the player spends its share of
// the clock (search.Clock); in one without, MoveTime or its own budget.
type Search struct {
	// Registry holds the games the players play.
	Registry game.Registry
	// Computer returns a fresh computer player for a variant.
	Computer func(g game.Game) (search.Player, error)
}

// NewPlayer loads the variant and makes its player.
func (s *Search) NewPlayer(ctx context.Context, spec string) (Player, error) {
	g, err := s.Registry.Load(spec)
	if err != nil {
		return nil, err
	}
	p, err := s.Computer(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	return &searchPlayer{g: g, p: p}, nil
}

// searchPlayer plays one game in-process.
type searchPlayer struct {
	g game.Game
	p search.Player
}

// Move replays the game and searches its position until the deadline at
// the latest.
func (sp *searchPlayer) Move(ctx context.Context, t Turn) (string, error) {
	start := sp.g.Start()
	if t.Start != "" {
		var err error
		if start, err = sp.g.ParseState(t.Start); err != nil {
			return "", fmt.Errorf("the game's start position: %w", err)
		}
	}
	h := game.NewHistory(sp.g, start)
	for i, m := range t.Moves {
		if err := h.Play(m); err != nil {
			return "", fmt.Errorf("the game's move %d (%s): %w", i+1, m, err)
		}
	}
	var lim search.Limits
	if t.Clocks != nil && t.Seat < len(t.Clocks) {
		lim.Clock = search.Clock{Remaining: t.Clocks[t.Seat], Increment: t.Increment}
	} else {
		lim.Time = t.MoveTime
	}
	ctx, cancel := context.WithDeadline(ctx, t.Deadline)
	defer cancel()
	pos := search.PositionOf(h)
	res, err := search.Ask(ctx, sp.p, pos, lim, nil)
	if err != nil {
		return "", err
	}
	return pos.State.FormatMove(res.Move), nil
}

// Close does nothing: the player holds no resource but memory.
func (sp *searchPlayer) Close() error { return nil }
