// Package game declares the interfaces that every stax game implements and
// that search, solvers, the engine protocol and the server use without
// knowing which game they play.
//
// The split follows OpenSpiel's: an [Info] holds the static facts of a game
// (its name and its option schema), a [Game] is one variant of it with every
// option fixed, and a [State] is a position in play. Moves are small values
// ([Move]) whose meaning belongs to the game.
//
// A State sees only the position. Rules that depend on the history of a game
// — repetition and the ply cap — are applied by [History], which sits above
// the state and keeps the hashes of the positions played for the players.
// An [Outcome] says how a game ended; its text form (Outcome.String,
// [ParseOutcome]) reads back exactly and is what the server's stores keep.
package game

import (
	"fmt"
	"strings"
)

// Move is one move of a game, packed into a small value whose layout belongs
// to the game. NoMove is never a legal move.
type Move uint32

// NoMove is the zero Move; no game uses it for a legal move.
const NoMove Move = 0

// Info holds the static facts of a game: its name, a short description and
// the schema of its options. New builds a variant from validated options.
type Info struct {
	// Name is the game's name as written in a spec, e.g. "pogo".
	Name string
	// Title is the display name, e.g. "Pogo".
	Title string
	// Summary is a one-line description of the game.
	Summary string
	// Options lists the options the game accepts, in display order.
	Options []Option
	// New builds the variant for the given options, which the caller has
	// validated and completed with defaults (see Info.Variant).
	New func(opts Options) (Game, error)
}

// Game is one variant of a game: every option fixed. It creates states.
type Game interface {
	// Info returns the static facts of the game.
	Info() *Info
	// Options returns the variant's options, every key present.
	Options() Options
	// Players returns the number of players.
	Players() int
	// PlayerName returns the display name of player p (0-based), e.g.
	// "White" or "Red".
	PlayerName(p int) string
	// MaxMoves returns an upper bound on the number of legal moves in any
	// position, for sizing move buffers.
	MaxMoves() int
	// Repetition returns how many occurrences of a position end the game
	// (the rep option); 0 means repetition never ends it.
	Repetition() int
	// MaxPlies returns the ply cap (the maxplies option); 0 means none.
	MaxPlies() int
	// Start returns the starting position.
	Start() State
	// ParseState parses a position string of docs/rules.md.
	ParseState(s string) (State, error)
}

// State is a position in play. Its methods that take a Move expect a legal
// move of this position; use ParseMove or Legal to obtain one.
type State interface {
	// Game returns the variant the state belongs to.
	Game() Game
	// ToMove returns the player to move (0-based).
	ToMove() int
	// Legal appends the legal moves of the position to dst and returns the
	// extended slice. A terminal position has none.
	Legal(dst []Move) []Move
	// Apply plays a legal move.
	Apply(m Move)
	// Clone returns an independent copy of the state.
	Clone() State
	// Terminal reports whether the game is over by the rules of the
	// position alone (not by repetition or the ply cap).
	Terminal() bool
	// Outcome returns the result of a terminal position, and an outcome
	// whose Reason is NotOver for any other.
	Outcome() Outcome
	// Adjudicate returns the outcome of stopping the game now for a reason
	// outside the position (repetition or the ply cap).
	Adjudicate(reason Reason) Outcome
	// String returns the position string of docs/rules.md.
	String() string
	// ParseMove parses a move in the game's notation and checks that it is
	// legal in this position. Errors are *MoveError.
	ParseMove(s string) (Move, error)
	// FormatMove writes a legal move of this position in the game's
	// notation.
	FormatMove(m Move) string
	// Hash returns a 64-bit hash of the position: equal positions hash
	// equal.
	Hash() uint64
}

// Undoer is implemented by states that can take back moves cheaply.
type Undoer interface {
	// Undo takes back the last move applied with Apply. It panics if no
	// move has been applied since the state was created or cloned.
	Undo()
}

// Perfter is implemented by states with a fast specialised perft.
type Perfter interface {
	// Perft counts the leaves of the move tree of the given depth.
	Perft(depth int) uint64
}

// Result is one player's result in a finished game.
type Result int8

// The results of a player.
const (
	Ongoing Result = iota // the game is not over
	Win
	Loss
	Draw
)

func (r Result) String() string {
	switch r {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return "ongoing"
}

// Value returns +1 for a win, -1 for a loss and 0 otherwise.
func (r Result) Value() int {
	switch r {
	case Win:
		return 1
	case Loss:
		return -1
	}
	return 0
}

// Reason says why a game ended.
type Reason uint8

// The reasons a game ends.
const (
	NotOver       Reason = iota
	ByRules              // the position itself ends the game (see the game's Detail)
	ByRepetition         // the same position occurred rep times
	ByPlyCap             // the ply cap was reached
	ByResignation        // a player resigned
	ByTime               // a player ran out of time
	ByForfeit            // a player forfeited (illegal move, crash, abandonment)
	ByAgreement          // the players agreed to a draw
	Aborted              // the game was called off before it really began: a draw that counts for nothing
)

var reasonNames = [...]string{"not over", "rules", "repetition", "ply cap", "resignation", "time", "forfeit", "agreement", "aborted"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", r)
}

// MaxPlayers is the largest number of players of any stax game.
const MaxPlayers = 4

// Outcome is the result of a game for every player, with scores where the
// game has them. It is a plain value: it never allocates.
type Outcome struct {
	// Players is the number of players; entries beyond it are unused.
	Players int
	// Results holds each player's result.
	Results [MaxPlayers]Result
	// Scores holds each player's score where HasScores is set (squares or
	// roofs in Pisola).
	Scores    [MaxPlayers]int
	HasScores bool
	// Reason says why the game ended.
	Reason Reason
	// Detail says in words how the rules ended it, e.g. "every stack topped
	// by White" or "diam at level 3".
	Detail string
}

// Over reports whether the outcome is a finished game.
func (o Outcome) Over() bool { return o.Reason != NotOver }

// Winners returns the players who won, in seat order.
func (o Outcome) Winners() []int {
	var w []int
	for p := 0; p < o.Players; p++ {
		if o.Results[p] == Win {
			w = append(w, p)
		}
	}
	return w
}

// IsDraw reports whether the game ended with no winner.
func (o Outcome) IsDraw() bool {
	return o.Over() && len(o.Winners()) == 0
}

// Value returns +1, -1 or 0 for player p.
func (o Outcome) Value(p int) int { return o.Results[p].Value() }

// Describe writes the outcome in words using the variant's player names,
// e.g. "White wins (every stack topped by White)".
func (o Outcome) Describe(g Game) string {
	if !o.Over() {
		return "game in progress"
	}
	var b strings.Builder
	w := o.Winners()
	switch {
	case o.Reason == Aborted:
		// Called off: nobody won, and it is not a draw either.
		b.WriteString("aborted")
	case len(w) == 0:
		b.WriteString("draw")
	case len(w) == 1:
		b.WriteString(g.PlayerName(w[0]) + " wins")
	default:
		names := make([]string, len(w))
		for i, p := range w {
			names[i] = g.PlayerName(p)
		}
		b.WriteString(strings.Join(names, " and ") + " win")
	}
	var why []string
	if o.Detail != "" {
		why = append(why, o.Detail)
	} else if o.Reason != ByRules && o.Reason != Aborted {
		why = append(why, o.Reason.String())
	}
	if o.HasScores {
		sc := make([]string, o.Players)
		for p := 0; p < o.Players; p++ {
			sc[p] = fmt.Sprint(o.Scores[p])
		}
		why = append(why, "score "+strings.Join(sc, "-"))
	}
	if len(why) > 0 {
		b.WriteString(" (" + strings.Join(why, ", ") + ")")
	}
	return b.String()
}

// ResultString returns the result in PGN style: "1-0", "0-1" and "1/2-1/2"
// for two players; for more, one field per player separated by "-" with 1
// for a win, 0 for a loss and 1/2 for a draw. It returns "*" for a game in
// progress.
func (o Outcome) ResultString() string {
	if !o.Over() {
		return "*"
	}
	parts := make([]string, o.Players)
	for p := 0; p < o.Players; p++ {
		switch o.Results[p] {
		case Win:
			parts[p] = "1"
		case Loss:
			parts[p] = "0"
		default:
			parts[p] = "1/2"
		}
	}
	return strings.Join(parts, "-")
}

// Decided returns an outcome in which the players in winners win and every
// other player loses.
func Decided(players int, reason Reason, detail string, winners ...int) Outcome {
	o := Outcome{Players: players, Reason: reason, Detail: detail}
	for p := 0; p < players; p++ {
		o.Results[p] = Loss
	}
	for _, w := range winners {
		o.Results[w] = Win
	}
	return o
}

// Drawn returns an outcome in which every player draws.
func Drawn(players int, reason Reason, detail string) Outcome {
	o := Outcome{Players: players, Reason: reason, Detail: detail}
	for p := 0; p < players; p++ {
		o.Results[p] = Draw
	}
	return o
}

// Resigned returns the outcome of player p resigning (or forfeiting, with
// reason ByForfeit): in a two-player game the opponent wins; with more
// players, p loses and the others share the win, partners of p excepted by
// the teams function when it is not nil.
func Resigned(g Game, p int, reason Reason, detail string, sameTeam func(a, b int) bool) Outcome {
	var winners []int
	for q := 0; q < g.Players(); q++ {
		if q == p || (sameTeam != nil && sameTeam(p, q)) {
			continue
		}
		winners = append(winners, q)
	}
	return Decided(g.Players(), reason, detail, winners...)
}

// Teams is implemented by games in which players form teams.
type Teams interface {
	// SameTeam reports whether players a and b play on one team.
	SameTeam(a, b int) bool
}
