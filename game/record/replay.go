package record

import (
	"errors"
	"fmt"

	"stax/game"
)

// ReplayError reports a record that does not replay: a move that is not
// legal where the record plays it, or tags that disagree with the moves.
type ReplayError struct {
	Ply  int    // the ply of the move, from 1; 0 when the error is not a move's
	Move string // the move as recorded
	Err  error
}

func (e *ReplayError) Error() string {
	if e.Ply == 0 {
		return "replay: " + e.Err.Error()
	}
	return fmt.Sprintf("replay: ply %d, move %s: %v", e.Ply, e.Move, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// ErrNoGame is returned by Game and Replay for a record without a Game tag.
var ErrNoGame = errors.New("the record has no Game tag naming the game, e.g. [Game \"pogo\"]")

// Game loads the variant the record's Game tag names.
func (r *Record) Game(reg game.Registry) (game.Game, error) {
	spec := r.Get(TagGame)
	if spec == "" {
		return nil, ErrNoGame
	}
	return reg.Load(spec)
}

// Start returns the record's starting position: its Position tag parsed,
// or the variant's start when it has none.
func (r *Record) Start(g game.Game) (game.State, error) {
	pos := r.Get(TagPosition)
	if pos == "" || pos == "start" || pos == "startpos" {
		return g.Start(), nil
	}
	return g.ParseState(pos)
}

// Replay loads the record's game, plays every move from its starting
// position, and applies a recorded resignation, forfeit or loss on time
// (the Termination tag with the Result tag). Errors name the ply and the
// move. It also checks that a finished game's Result tag agrees with the
// moves, and that a FinalPosition tag, when present, is the position
// reached.
func (r *Record) Replay(reg game.Registry) (*game.History, error) {
	g, err := r.Game(reg)
	if err != nil {
		return nil, &ReplayError{Err: err}
	}
	start, err := r.Start(g)
	if err != nil {
		return nil, &ReplayError{Err: err}
	}
	h := game.NewHistory(g, start)
	for i, m := range r.Moves {
		if err := h.Play(m); err != nil {
			var me *game.MoveError
			if errors.As(err, &me) {
				err = me.Err
			}
			who := g.PlayerName(h.State().ToMove())
			return h, &ReplayError{Ply: i + 1, Move: m, Err: fmt.Errorf("%s to move: %w", who, err)}
		}
	}
	result := r.Get(TagResult)
	if result == "" {
		result = "*"
	}
	if f := r.Get(TagFinalPosition); f != "" && f != h.State().String() {
		return h, &ReplayError{Err: fmt.Errorf("the moves reach %q, not the FinalPosition %q", h.State().String(), f)}
	}
	if h.Over() {
		if got := h.Outcome().ResultString(); result != "*" && result != got {
			return h, &ReplayError{Err: fmt.Errorf("the moves end the game %s (%s), not %s as the Result tag says", got, h.Outcome().Describe(g), result)}
		}
		return h, nil
	}
	if result == "*" {
		return h, nil
	}
	res, err := ParseResult(result, g.Players())
	if err != nil {
		return h, &ReplayError{Err: err}
	}
	reason, detail := ParseTermination(r.Get(TagTermination))
	switch reason {
	case game.ByResignation, game.ByTime, game.ByForfeit, game.ByAgreement, game.Aborted:
	default:
		return h, &ReplayError{Err: fmt.Errorf("the Result tag says %s but the moves do not end the game, and the Termination %q is not resignation, time, forfeit, agreement or aborted", result, r.Get(TagTermination))}
	}
	o := game.Outcome{Players: g.Players(), Results: res, Reason: reason, Detail: detail}
	if agreed := reason == game.ByAgreement || reason == game.Aborted; agreed && len(o.Winners()) > 0 {
		return h, &ReplayError{Err: fmt.Errorf("the Result tag %s has a winner, which a game ended by %s cannot have", result, reason)}
	} else if !agreed && len(o.Winners()) == 0 {
		return h, &ReplayError{Err: fmt.Errorf("the Result tag %s has no winner, which a %s cannot give", result, reason)}
	}
	h.End(o)
	return h, nil
}
