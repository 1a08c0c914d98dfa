package game

import (
	"errors"
	"fmt"
)

// PositionError reports a position string that could not be parsed.
type PositionError struct {
	Game  string // the game's name
	Input string // the position string as given
	Err   error  // what was wrong and what was expected
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("%s position %q: %v", e.Game, e.Input, e.Err)
}

func (e *PositionError) Unwrap() error { return e.Err }

// MoveError reports a move that could not be parsed or is not legal.
type MoveError struct {
	Input string // the move as given
	Err   error  // what was wrong and what was expected
}

func (e *MoveError) Error() string { return fmt.Sprintf("move %q: %v", e.Input, e.Err) }

func (e *MoveError) Unwrap() error { return e.Err }

// ErrIllegalMove is wrapped by the error for a well-formed move that the
// rules do not allow in the position.
var ErrIllegalMove = errors.New("illegal move")

// ErrGameOver is wrapped by the error for a move in a finished game.
var ErrGameOver = errors.New("the game is over")
