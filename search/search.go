// Package search implements game-independent players for stax games: a
// uniformly random baseline, a one-ply greedy baseline, alpha-beta search
// and Monte Carlo tree search. They see a game only through game.State and
// an Evaluator, so every game plays with every player.
//
// A search is bounded by Limits (time, nodes, depth), stops promptly when
// its context is cancelled, and reports its progress through a callback; it
// never prints.
//
// Scores are from the point of view of the player to move at the root. A
// proven win in n plies scores WinScore-n and a proven loss -(WinScore-n);
// heuristic scores stay well inside ±WinScore/2.
//
// Games with more than two sides (four-player Diam without teams) are
// searched with the paranoid reduction by alpha-beta (the player to move
// against a coalition of all the others) and with a reward per player by
// MCTS. In a team game the root player's partners count as the root player.
//
// Repetition and the ply cap are rules of game.History, not of the position.
// A Player is asked to play from a [Position]: the state and the hashes of
// the positions that preceded it in the game, so that alpha-beta scores a
// position that repeats one on the current line or earlier in the game as a
// draw. [Ask] is the one way to ask a player for a move in a game: it
// returns a legal move or a [*PlayError] saying why there is none.
package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"stax/game"
)

// Limits bounds one search; zero fields mean no bound of that kind. A
// Player given all-zero Limits uses its own default budget.
type Limits struct {
	Time  time.Duration
	Nodes int64
	Depth int
	// Clock, when its Remaining time is set, is the mover's clock in a
	// timed game: the search takes its share of it (Clock.Budget), within
	// Time when that is set too.
	Clock Clock
}

// IsZero reports whether no bound is set.
func (l Limits) IsZero() bool {
	return l.Time == 0 && l.Nodes == 0 && l.Depth == 0 && l.Clock.Remaining == 0
}

// Clock is the time left to the mover in a timed game.
type Clock struct {
	// Remaining is the time left on the mover's clock.
	Remaining time.Duration
	// Increment is the time added to it after each of its moves.
	Increment time.Duration
	// MovesToGo is the number of the mover's moves until the next time
	// control; 0 means the rest of the game (sudden death).
	MovesToGo int
}

// clockMoves is the number of moves a sudden-death clock is shared over:
// stax games rarely last longer than that many moves of one player from
// the middle of the game, and the increment pays for the rest.
const clockMoves = 25

// Budget returns the time to spend on the next move: an even share of the
// remaining time over the moves to go (or clockMoves), plus most of the
// increment, never more than half the remaining time (all of it, less the
// safety margin, for the last move before a time control), and always
// leaving a safety margin of a tenth of the clock, at most 300 ms, for the
// moves' transmission and the search's reaction time on a loaded machine.
func (c Clock) Budget() time.Duration {
	margin := min(c.Remaining/10, 300*time.Millisecond)
	left := c.Remaining - margin
	if left <= 0 {
		return time.Millisecond
	}
	moves := clockMoves
	if c.MovesToGo > 0 {
		moves = min(c.MovesToGo, clockMoves)
	}
	b := left/time.Duration(moves) + c.Increment*3/4
	if moves > 1 {
		b = min(b, left/2)
	}
	return max(min(b, left), time.Millisecond)
}

// Budgeted returns l with the clock turned into a time bound: Time becomes
// the smaller of Time (when set) and the clock's budget.
func (l Limits) Budgeted() Limits {
	if l.Clock.Remaining <= 0 {
		return l
	}
	b := l.Clock.Budget()
	if l.Time == 0 || b < l.Time {
		l.Time = b
	}
	l.Clock = Clock{}
	return l
}

// Progress is reported during a search (for engine "info" lines and UIs).
type Progress struct {
	Depth   int
	Score   Score
	Nodes   int64
	Elapsed time.Duration
	PV      []game.Move
}

// Result is a search's answer. Score is from the point of view of the
// player to move.
type Result struct {
	Move    game.Move
	Score   Score
	PV      []game.Move
	Depth   int
	Nodes   int64
	Elapsed time.Duration
}

// WinScore is the score of a win on the spot: a proven win in n plies
// scores WinScore-n, a proven loss -(WinScore-n); heuristic scores stay well
// inside ±WinScore/2.
const WinScore = 1_000_000

// maxHeuristic bounds the scores of evaluation functions.
const maxHeuristic = WinScore / 4

// IsMate reports whether score is a proven win or loss.
func IsMate(score int) bool { return score > WinScore/2 || score < -WinScore/2 }

// Position is what a player is asked to play from: a state, and the hashes
// of the positions that preceded it in the game, oldest first (Prior has
// one hash per move played). A position with no Prior is a game that
// starts there.
type Position struct {
	State game.State
	Prior []uint64
}

// PositionOf returns the position a game is at: its current state and the
// hashes of the earlier positions. It shares h's storage, so it holds until
// h changes; Clone it to keep it longer.
func PositionOf(h *game.History) Position {
	hs := h.Hashes()
	return Position{State: h.State(), Prior: hs[:len(hs)-1]}
}

// Clone returns a copy of p that shares nothing with it.
func (p Position) Clone() Position {
	return Position{State: p.State.Clone(), Prior: slices.Clone(p.Prior)}
}

// Player chooses moves. Play never modifies pos (it clones the state),
// honours ctx cancellation promptly (returns the best move found so far if
// it has one, else ctx.Err()), calls report (may be nil) from the calling
// goroutine or serialised, and never prints. Players that count
// repetitions read pos.Prior; the others ignore it.
type Player interface {
	Play(ctx context.Context, pos Position, lim Limits, report func(Progress)) (Result, error)
}

// Ask asks p for its move from pos within lim and checks the answer: the
// result it returns has a legal move of pos.State, or the error is a
// *PlayError saying why there is none (the player failed, panicked, gave no
// move or an illegal one). The callers usually end the game as the
// player's forfeit; ctx's cancellation shows as a PlayError wrapping
// ctx.Err(). A position without legal moves returns ErrNoMoves. The player
// is handed a copy of the state, so that it cannot change the caller's.
func Ask(ctx context.Context, p Player, pos Position, lim Limits, report func(Progress)) (res Result, err error) {
	legal := pos.State.Legal(nil)
	if len(legal) == 0 {
		return Result{}, ErrNoMoves
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error: %v", r)
			}
		}()
		res, err = p.Play(ctx, Position{State: pos.State.Clone(), Prior: pos.Prior}, lim, report)
	}()
	switch {
	case err != nil:
		return res, &PlayError{Move: res.Move, Err: err}
	case res.Move == game.NoMove:
		return res, &PlayError{Err: ErrNoAnswer}
	case !slices.Contains(legal, res.Move):
		return res, &PlayError{Move: res.Move, Err: game.ErrIllegalMove}
	}
	return res, nil
}

// PlayError is the error of Ask when a player gives no legal move. Err is
// the player's own error, ErrNoAnswer, or game.ErrIllegalMove with the move
// given in Move.
type PlayError struct {
	Move game.Move
	Err  error
}

func (e *PlayError) Error() string {
	if errors.Is(e.Err, game.ErrIllegalMove) {
		return fmt.Sprintf("illegal move (code %#x)", uint32(e.Move))
	}
	return e.Err.Error()
}

func (e *PlayError) Unwrap() error { return e.Err }

// ErrNoAnswer is wrapped by the PlayError of a player that answered
// without a move and without an error. (ErrNoMoves is another thing: the
// position has no legal moves to ask for.)
var ErrNoAnswer = errors.New("the player gave no move")

// Resources is implemented by players whose thread count and memory can
// be set (the threads and hash options of the engine protocol).
type Resources interface {
	// SetThreads sets the number of threads a search uses (at least 1).
	SetThreads(n int)
	// SetHashSize bounds the player's search tables to about mb
	// megabytes.
	SetHashSize(mb int)
}

// Evaluator scores positions that are not over. Evaluate returns the value
// of s for player p (0-based): positive is good for p. Scores must stay
// within ±WinScore/4. In a two-side game Evaluate(s, p) should be
// -Evaluate(s, q) for opponents p and q.
type Evaluator interface {
	Evaluate(s game.State, p int) int
}

// EvalFunc adapts a function to the Evaluator interface.
type EvalFunc func(s game.State, p int) int

// Evaluate calls f(s, p).
func (f EvalFunc) Evaluate(s game.State, p int) int { return f(s, p) }

// Zero is the Evaluator that scores every position 0.
var Zero Evaluator = EvalFunc(func(game.State, int) int { return 0 })

// ErrNoMoves is returned by Play for a position without legal moves.
var ErrNoMoves = errNoMoves{}

type errNoMoves struct{}

func (errNoMoves) Error() string { return "search: the position has no legal moves" }

// sides tells which players play with the root player.
type sides struct {
	players int
	root    int
	teams   game.Teams
}

func newSides(s game.State) sides {
	g := s.Game()
	sd := sides{players: g.Players(), root: s.ToMove()}
	if t, ok := g.(game.Teams); ok {
		sd.teams = t
	}
	return sd
}

// friend reports whether p plays on the root player's side.
func (sd sides) friend(p int) bool {
	if p == sd.root {
		return true
	}
	return sd.teams != nil && sd.teams.SameTeam(p, sd.root)
}

// exact reports whether the game is a contest of two sides, so that the
// paranoid reduction is exact and scores do not depend on the root player.
func (sd sides) exact() bool {
	if sd.players == 2 {
		return true
	}
	for p := 0; p < sd.players; p++ {
		if p != sd.root && sd.friend(p) {
			return true
		}
	}
	return false
}

// outcomeValue returns +1, -1 or 0: the outcome for the root's side.
// In a non-team game of more than two, any other player's win is a loss.
func (sd sides) outcomeValue(o game.Outcome) int {
	return o.Value(sd.root)
}

// deadline returns the time a search must stop by, or the zero time.
func deadline(ctx context.Context, start time.Time, lim Limits) time.Time {
	var d time.Time
	if lim.Time > 0 {
		d = start.Add(lim.Time)
	}
	if cd, ok := ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	return d
}

// expClamp returns e^x for x <= 0, clamped below to avoid denormals.
func expClamp(x float64) float64 {
	if x < -40 {
		return 0
	}
	return math.Exp(x)
}
