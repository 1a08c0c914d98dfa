package play

import (
	"encoding/json"
	"stax/server/clock"
	"stax/server/httpx"
	"stax/server/view"
	"time"
)

// The JSON objects of the API, as docs/server.md describes them.

// State is the full state of a game: the answer to GET /api/games/{id} and
// the body of every websocket state message.
type State struct {
	ID          string          `json:"id"`
	Spec        string          `json:"spec"`
	Game        string          `json:"game"`
	Title       string          `json:"title"`
	Players     int             `json:"players"`
	PlayerNames []string        `json:"playerNames"`
	Seats       []Seat          `json:"seats"`
	Start       string          `json:"start"`
	Position    string          `json:"position"`
	Positions   json.RawMessage `json:"positions,omitempty"` // absent from updates
	Moves       json.RawMessage `json:"moves,omitempty"`     // absent from updates
	LastMove    string          `json:"lastMove"`
	Ply         int             `json:"ply"`
	ToMove      int             `json:"toMove"`
	Status      string          `json:"status"`
	Outcome     *view.Outcome   `json:"outcome"`
	// View is the board view, with the legal moves (none once the game
	// is over).
	View  *view.View   `json:"view,omitempty"`
	Rated bool         `json:"rated"`
	Clock *clock.State `json:"clock,omitempty"`
	// ClaimAfter, in a live game between people, is how long (ms) a
	// player must have left before their opponent may claim the game
	// (a claim message): the win, or a draw.
	ClaimAfter int64     `json:"claimAfter,omitempty"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
}

// Legal returns the legal moves of the state's position in notation,
// spelled out from its view: none once the game is over.
func (s *State) Legal() []string {
	if s.View == nil {
		return nil
	}
	return s.View.Legal()
}

// Seat describes one seat of a game.
type Seat struct {
	Seat      int    `json:"seat"`
	Kind      string `json:"kind"`
	Level     string `json:"level,omitempty"`
	Name      string `json:"name,omitempty"`
	Joined    bool   `json:"joined"`
	Connected bool   `json:"connected"`
	// Account reports whether the seat belongs to an account (Name is
	// then the account's name).
	Account bool `json:"account,omitempty"`
	// Bot reports that the seat's account is a bot.
	Bot      bool `json:"bot,omitempty"`
	Thinking bool `json:"thinking,omitempty"`
	// Left is when the seat's player left a live game (their last
	// connection closed); its opponent may claim the game ClaimAfter
	// later.
	Left *time.Time `json:"left,omitempty"`
}

// CreateRequest is the body of POST /api/games.
type CreateRequest struct {
	Spec     string        `json:"spec"`
	Position string        `json:"position"`
	Name     string        `json:"name"`
	Seats    []SeatRequest `json:"seats"`
}

// SeatRequest asks for one seat in a CreateRequest.
type SeatRequest struct {
	Kind   string `json:"kind"`
	Level  string `json:"level,omitempty"`
	Invite bool   `json:"invite,omitempty"`
}

// CreateResponse answers POST /api/games.
type CreateResponse struct {
	ID      string   `json:"id"`
	Token   string   `json:"token,omitempty"`
	Seats   []int    `json:"seats"`
	Invites []Invite `json:"invites"`
	State   *State   `json:"state"`
}

// Invite is the invitation to one open seat.
type Invite struct {
	Seat   int    `json:"seat"`
	Invite string `json:"invite"`
	Link   string `json:"link"`
}

// JoinRequest is the body of POST /api/games/{id}/join.
type JoinRequest struct {
	Invite string `json:"invite"`
	Name   string `json:"name"`
}

// JoinResponse answers POST /api/games/{id}/join.
type JoinResponse struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	State *State `json:"state"`
}

// Message is a websocket message in either direction; Type says which
// fields are used.
type Message struct {
	Type    string          `json:"type"`
	Seats   []int           `json:"seats,omitempty"`
	State   json.RawMessage `json:"state,omitempty"`
	Code    string          `json:"code,omitempty"`
	Message string          `json:"message,omitempty"`
	Move    string          `json:"move,omitempty"`
	Ply     *int            `json:"ply,omitempty"`
	Seat    *int            `json:"seat,omitempty"`
	Text    string          `json:"text,omitempty"`
	// Offer is the kind of offer a withdraw or decline message is about.
	Offer string `json:"offer,omitempty"`
}

// The error codes of websocket error messages.
const (
	CodeBadToken    = "bad_token"
	CodeBadMessage  = httpx.CodeBadMessage
	CodeNotYourSeat = "not_your_seat"
	CodeNotYourTurn = "not_your_turn"
	CodeIllegalMove = "illegal_move"
	CodeStale       = "stale"
	CodeFlagged     = "flagged"
	CodeRateLimited = httpx.CodeRateLimited
	CodeGameOver    = "game_over"
	CodeServer      = httpx.CodeServer
)
