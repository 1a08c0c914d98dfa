package bots

import (
	"stax/server/lobby"
	"stax/server/view"
)

// The lines of the bot API's streams, as docs/bots.md describes them. A
// stream is newline-delimited JSON: one object per line, and an empty line
// as a keep-alive every KeepAlive.

// The types of the event stream's lines (GET /api/stream/event).
const (
	EventGameStart         = "gameStart"
	EventGameFinish        = "gameFinish"
	EventChallenge         = "challenge"
	EventChallengeCanceled = "challengeCanceled"
	EventChallengeDeclined = "challengeDeclined"
)

// Event is one line of an account's event stream.
type Event struct {
	// Type is one of the Event* constants.
	Type string `json:"type"`
	// Game is the game of gameStart and gameFinish.
	Game *GameEvent `json:"game,omitempty"`
	// Challenge is the challenge of the challenge events: one made to the
	// account or by it.
	Challenge *lobby.Seek `json:"challenge,omitempty"`
	// DeclineReason is why the challenge of challengeDeclined was
	// declined, one of lobby.DeclineReasons ("generic" when none was
	// given).
	DeclineReason string `json:"declineReason,omitempty"`
}

// GameEvent describes a game of the account in its event stream.
type GameEvent struct {
	ID    string `json:"id"`
	Spec  string `json:"spec"`
	Rated bool   `json:"rated"`
	// Seat is the account's seat (the first, should it hold several).
	Seat int `json:"seat"`
	// Players names the players, seat by seat.
	Players []Player `json:"players"`
	// IsMyTurn reports whether the account is to move.
	IsMyTurn bool `json:"isMyTurn"`
	// Status is "playing" or "finished".
	Status string `json:"status"`
	// Outcome is the game's outcome once it is finished.
	Outcome *view.Outcome `json:"outcome,omitempty"`
}

// Player is a seat's player.
type Player struct {
	Name string `json:"name"`
	// Kind is "human" (an account or a guest) or "ai" (a computer level
	// of the site, named by Level).
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	// Rating is the player's rating in the game's pool, for an account;
	// Provisional says that it is still provisional (too few games to
	// tell: shown "1500?").
	Rating      *float64 `json:"rating,omitempty"`
	Provisional bool     `json:"provisional,omitempty"`
	// Bot reports that the player is a bot account.
	Bot bool `json:"bot,omitempty"`
}

// The types of the game stream's lines (GET /api/bot/game/stream/{id}).
const (
	LineGameFull     = "gameFull"
	LineGameState    = "gameState"
	LineChatLine     = "chatLine"
	LineOpponentGone = "opponentGone"
)

// GameFull is the first line of a game stream: the game, and its state
// now.
type GameFull struct {
	Type  string `json:"type"` // "gameFull"
	ID    string `json:"id"`
	Spec  string `json:"spec"`
	Title string `json:"title"`
	Rated bool   `json:"rated"`
	// Clock is the time control: nil for none.
	Clock *lobby.ClockSpec `json:"clock,omitempty"`
	// Days is a correspondence game's days per move.
	Days    int      `json:"days,omitempty"`
	Players []Player `json:"players"`
	// Seats lists the seats the account holds (those it moves for).
	Seats []int `json:"seats"`
	// Start is the position the game started from (rules.md's position
	// strings).
	Start string    `json:"start"`
	State GameState `json:"state"`
}

// GameState is the state of a game: every line after gameFull when a
// move is played, a clock changes or the game ends.
type GameState struct {
	Type string `json:"type"` // "gameState"
	// Moves are the moves so far, in notation, separated by spaces.
	Moves string `json:"moves"`
	// Position is the position now, and Ply the number of moves played.
	Position string `json:"position"`
	Ply      int    `json:"ply"`
	// ToMove is the seat to move.
	ToMove int `json:"toMove"`
	// Times is each seat's time left in milliseconds when the line was
	// sent, for a Fischer clock (the clock of the seat to move runs from
	// there; it waits for a seat's first move); Increment its increment in
	// milliseconds.
	Times     []int64 `json:"times,omitempty"`
	Increment int64   `json:"increment,omitempty"`
	// Legal lists the legal moves when one of the account's seats is to
	// move, so that a bot needs no rules of its own.
	Legal []string `json:"legal,omitempty"`
	// Status is "playing" or "finished"; Outcome says how it ended.
	Status  string        `json:"status"`
	Outcome *view.Outcome `json:"outcome,omitempty"`
	// DrawOffer is the seat that offers a draw, when one does.
	DrawOffer *int `json:"drawOffer,omitempty"`
}

// ChatLine is a line of the game's chat.
type ChatLine struct {
	Type     string `json:"type"` // "chatLine"
	Username string `json:"username"`
	Text     string `json:"text"`
}

// OpponentGone says that an opponent's connections all closed (Gone) or
// that it came back; ClaimWinInSeconds is when the account may claim the
// game (POST /api/bot/game/{id}/claim-victory).
type OpponentGone struct {
	Type              string `json:"type"` // "opponentGone"
	Gone              bool   `json:"gone"`
	ClaimWinInSeconds int    `json:"claimWinInSeconds,omitempty"`
}

// OK answers the bot API's actions.
type OK struct {
	OK bool `json:"ok"`
}

// ChatRequest is the body of POST /api/bot/game/{id}/chat: a line for the
// game's players.
type ChatRequest struct {
	Text string `json:"text"`
}
