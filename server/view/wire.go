package view

import (
	"log/slog"
	"stax/game"
	"stax/server/store"
	"stax/server/view/board"
	"time"
)

// Outcome describes how a finished game ended (package board's).
type Outcome = board.Outcome

// Summary is one game of the recent games list.
type Summary struct {
	ID      string        `json:"id"`
	Spec    string        `json:"spec"`
	Title   string        `json:"title"`
	Seats   []SummarySeat `json:"seats"`
	Ply     int           `json:"ply"`
	Status  string        `json:"status"`
	Outcome *Outcome      `json:"outcome"`
	Rated   bool          `json:"rated,omitempty"`
	// ToMove and YourMove are set in GET /api/me/games for ongoing
	// games: the seat to move, and whether it is the caller's.
	ToMove   *int      `json:"toMove,omitempty"`
	YourMove bool      `json:"yourMove,omitempty"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
}

// SummarySeat is a seat in a Summary.
type SummarySeat struct {
	Seat    int    `json:"seat"`
	Kind    string `json:"kind"`
	Level   string `json:"level,omitempty"`
	Name    string `json:"name,omitempty"`
	Joined  bool   `json:"joined"`
	Account bool   `json:"account,omitempty"`
	// Bot reports that the seat's account is a bot.
	Bot bool `json:"bot,omitempty"`
}

// OutcomeOf returns the JSON outcome, nil while the game goes on.
func OutcomeOf(g game.Game, o game.Outcome) *Outcome { return board.OutcomeOf(g, o) }

// PlayerNames returns the names of g's players, seat by seat.
func PlayerNames(g game.Game) []string { return board.PlayerNames(g) }

// Summaries returns the summaries of stored games (read without moves).
func Summaries(games game.Registry, log *slog.Logger, gs []*store.Game) []Summary {
	out := []Summary{}
	for _, sg := range gs {
		sum := Summary{ID: sg.ID, Spec: sg.Spec, Title: sg.Spec, Seats: []SummarySeat{}, Ply: sg.Ply, Status: sg.Status, Rated: sg.Rated, Created: sg.Created, Updated: sg.Updated}
		g, err := games.Load(sg.Spec)
		if err == nil {
			sum.Title = g.Info().Title
		}
		for i, st := range sg.Seats {
			sum.Seats = append(sum.Seats, SummarySeat{Seat: i, Kind: st.Kind, Level: st.Level, Name: st.Name, Joined: st.Joined, Account: st.User != "", Bot: st.Bot})
		}
		if sg.Status == store.Finished && g != nil {
			o, err := game.ParseOutcome(sg.End.Outcome)
			if err != nil {
				log.Error("stored outcome", "game", sg.ID, "err", err)
			} else {
				sum.Outcome = OutcomeOf(g, o)
				// An aborted game counted for nothing.
				sum.Rated = sum.Rated && o.Reason != game.Aborted
			}
		}
		out = append(out, sum)
	}
	return out
}
