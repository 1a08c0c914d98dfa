package ai

import (
	"context"
	"fmt"
	"math/rand/v2"

	"stax/game"
	"stax/search"
)

// GameOptions sets up one game between players.
type GameOptions struct {
	// Start is the starting position (nil: the game's start).
	Start game.State
	// RandomPlies is the number of uniformly random moves played first,
	// to vary the openings of games between deterministic players.
	RandomPlies int
	// Seed seeds the random opening.
	Seed uint64
	// Limits is passed to every Play call (zero: each player's default).
	Limits search.Limits
}

// PlayGame plays one game of g with seats[p] playing player p, under the
// rules of game.History (repetition, the ply cap), and returns the
// history. Players that implement search.HistorySetter are told the
// earlier positions before each move. A player's error ends the game as a
// forfeit of that player and is returned with the history.
func PlayGame(ctx context.Context, g game.Game, seats []search.Player, opt GameOptions) (*game.History, error) {
	if len(seats) != g.Players() {
		return nil, fmt.Errorf("ai: %d players for a game of %d", len(seats), g.Players())
	}
	h := game.NewHistory(g, opt.Start)
	hashes := []uint64{h.State().Hash()}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x0be))
	var buf []game.Move
	for ply := 0; !h.Over(); ply++ {
		s := h.State()
		var m game.Move
		if ply < opt.RandomPlies {
			buf = s.Legal(buf[:0])
			m = buf[rng.IntN(len(buf))]
		} else {
			p := seats[s.ToMove()]
			if hs, ok := p.(search.HistorySetter); ok {
				hs.SetHistory(hashes[:len(hashes)-1])
			}
			res, err := p.Play(ctx, s, opt.Limits, nil)
			if err != nil {
				h.Resign(s.ToMove(), game.ByForfeit, err.Error())
				return h, err
			}
			m = res.Move
		}
		if err := h.PlayMove(m); err != nil {
			h.Resign(s.ToMove(), game.ByForfeit, fmt.Sprintf("illegal move: %v", err))
			return h, err
		}
		hashes = append(hashes, h.State().Hash())
	}
	return h, nil
}

// Tally counts the results of a match from the first side's point of view.
type Tally struct {
	Wins, Draws, Losses int
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Score returns the first side's score, a win 1 and a draw 1/2, as a
// fraction of the games.
func (t Tally) Score() float64 {
	if t.Games() == 0 {
		return 0
	}
	return (float64(t.Wins) + float64(t.Draws)/2) / float64(t.Games())
}

// Match plays games of level a against level b on g, alternating seats
// (in four-player games a takes seats 0 and 2, or 1 and 3 in turn, and b
// the others), each game opening with a few random plies, and returns the
// tally from a's point of view. Fresh players are made for every game.
func Match(ctx context.Context, g game.Game, a, b string, games int, randomPlies int, seed uint64) (Tally, error) {
	var t Tally
	n := g.Players()
	for i := 0; i < games; i++ {
		seats := make([]search.Player, n)
		aSeat := make([]bool, n)
		for p := 0; p < n; p++ {
			isA := (p+i)%2 == 0
			name := b
			if isA {
				name = a
			}
			pl, err := NewSeeded(g, name, seed+uint64(i*n+p)*7919)
			if err != nil {
				return t, err
			}
			seats[p], aSeat[p] = pl, isA
		}
		h, err := PlayGame(ctx, g, seats, GameOptions{RandomPlies: randomPlies, Seed: seed + uint64(i)})
		if err != nil {
			return t, err
		}
		o := h.Outcome()
		aWon, bWon := false, false
		for p := 0; p < n; p++ {
			if o.Results[p] == game.Win {
				if aSeat[p] {
					aWon = true
				} else {
					bWon = true
				}
			}
		}
		switch {
		case aWon && !bWon:
			t.Wins++
		case bWon && !aWon:
			t.Losses++
		default:
			t.Draws++
		}
	}
	return t, nil
}
