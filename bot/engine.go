package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"stax/engine"
)

// Engine chooses a bot's moves. The bot asks it for one Player per game,
// so that games played at once never share a search.
type Engine interface {
	// NewPlayer returns the player of one game of the variant spec (its
	// canonical spec, e.g. "pisola(size=8)").
	NewPlayer(ctx context.Context, spec string) (Player, error)
}

// Player chooses the moves of one game. The bot calls its methods from
// one goroutine at a time.
type Player interface {
	// Move returns the move to play at t, in the game's notation, by
	// t.Deadline. Cancelling ctx asks it to return sooner.
	Move(ctx context.Context, t Turn) (string, error)
	// Close releases the player (an engine's process is asked to quit).
	Close() error
}

// Turn is what a player is told when one of its seats is to move.
type Turn struct {
	// Game is the game's id and Spec its variant.
	Game, Spec string
	// Start is the position the game started from (a position string of
	// docs/rules.md), and Moves the moves played since, in notation.
	Start string
	Moves []string
	// Seat is the seat to move, from 0.
	Seat int
	// Legal lists the legal moves.
	Legal []string
	// Clocks is each seat's time left in a game with a Fischer clock,
	// the mover's counted down to the moment the turn was made, and
	// Increment the time added after each move; Clocks is nil in a game
	// without one (correspondence, or no clock).
	Clocks    []time.Duration
	Increment time.Duration
	// MoveTime is the thinking time of a move in a game without a
	// Fischer clock (0: the engine's own budget).
	MoveTime time.Duration
	// Deadline is when the move must be chosen, so that it reaches the
	// server before the mover's clock runs out: the clock less a margin
	// for the network and the machine (clockMargin).
	Deadline time.Time
}

// clockMargin returns the part of the time left on a clock that a bot
// keeps for sending its move and for a loaded machine: a tenth of it,
// from 150 ms to 1 s, but never more than half of it.
func clockMargin(left time.Duration) time.Duration {
	m := min(max(left/10, 150*time.Millisecond), time.Second)
	return min(m, left/2)
}

// noClockTimeout bounds the wait for a move in a game without a Fischer
// clock when the engine thinks on its own budget (MoveTime 0), as stax
// match does.
const noClockTimeout = 30 * time.Second

// handshakeTimeout bounds the start of an engine's process, as stax match
// does.
const handshakeTimeout = 10 * time.Second

// Process is an Engine that runs a program speaking the engine protocol
// (docs/protocol.md): one process for each game, started when the game
// starts and asked to quit when it ends. Before each move it sends the
// game's position with every move so far, then go with the seats' clocks
// (time1 MS inc1 MS ...) in a game with a Fischer clock, or go movetime
// MS (plain go for MoveTime 0) in one without. A search still running
// when the move is nearly due is stopped; an engine that fails (it
// crashes, hangs, answers an error) is killed and started again at the
// next move.
type Process struct {
	// Command is the program and its arguments.
	Command []string
}

// NewPlayer starts the engine's process for a game.
func (p *Process) NewPlayer(ctx context.Context, spec string) (Player, error) {
	if len(p.Command) == 0 {
		return nil, errors.New("the engine's command is empty")
	}
	pp := &processPlayer{argv: p.Command, spec: spec}
	if err := pp.start(); err != nil {
		return nil, err
	}
	return pp, nil
}

// processPlayer plays one game with an engine process.
type processPlayer struct {
	argv []string
	spec string

	mu    sync.Mutex     // guards c and fresh
	c     *engine.Client // nil: not running (started at the next move)
	fresh bool           // the process has not been told the game yet
}

// start starts the process.
func (pp *processPlayer) start() error {
	c, err := engine.Start(pp.argv, handshakeTimeout)
	if err != nil {
		return fmt.Errorf("engine %s: %w", pp.argv[0], err)
	}
	pp.mu.Lock()
	pp.c, pp.fresh = c, true
	pp.mu.Unlock()
	return nil
}

// Move sets the position up and asks the engine for its move.
func (pp *processPlayer) Move(ctx context.Context, t Turn) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	pp.mu.Lock()
	running := pp.c != nil
	pp.mu.Unlock()
	if !running {
		if err := pp.start(); err != nil {
			return "", err
		}
	}
	pp.mu.Lock()
	c, fresh := pp.c, pp.fresh
	pp.fresh = false
	pp.mu.Unlock()
	newgame := ""
	if fresh {
		newgame = t.Spec
	}
	pos := "startpos"
	if t.Start != "" {
		pos = t.Start
	}
	left := time.Until(t.Deadline)
	if err := c.Setup(newgame, nil, pos, t.Moves, max(left, time.Millisecond)); err != nil {
		return "", pp.fault(err)
	}
	hard := max(time.Until(t.Deadline), time.Millisecond)
	// The search is stopped a little before the deadline, so that its
	// bestmove still comes in time: a quarter of the time left, at most
	// 300 ms, is left for that.
	soft := hard - min(hard/4, 300*time.Millisecond)
	res, err := c.GoStop(goParams(t), soft, hard)
	if err != nil {
		return "", pp.fault(err)
	}
	return res.Move, nil
}

// goParams returns the parameters of the go command for a turn.
func goParams(t Turn) string {
	if t.Clocks != nil {
		var b strings.Builder
		for i, left := range t.Clocks {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "time%d %d inc%d %d", i+1, max(left.Milliseconds(), 0), i+1, t.Increment.Milliseconds())
		}
		return b.String()
	}
	if t.MoveTime > 0 {
		return fmt.Sprintf("movetime %d", t.MoveTime.Milliseconds())
	}
	return ""
}

// fault kills the process after an engine's error, so that the next move
// starts a new one, and returns the error.
func (pp *processPlayer) fault(err error) error {
	pp.mu.Lock()
	c := pp.c
	pp.c = nil
	pp.mu.Unlock()
	if c != nil {
		c.Kill()
	}
	return fmt.Errorf("engine %s: %w", pp.argv[0], err)
}

// Close asks the process to quit.
func (pp *processPlayer) Close() error {
	pp.mu.Lock()
	c := pp.c
	pp.c = nil
	pp.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.Close()
}
