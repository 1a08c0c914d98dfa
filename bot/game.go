package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"stax/server/bots"
)

// moveRetry is the wait before a move is sent again after a network
// error.
const moveRetry = 200 * time.Millisecond

// errFinished ends the stream of a game that is over.
var errFinished = errors.New("the game is over")

// gameRun plays one game: it follows the game's stream and, when one of
// the account's seats is to move, has a thought choose the move.
type gameRun struct {
	b      *Bot
	id     string
	spec   string
	cancel context.CancelFunc

	// Set and read by the stream's goroutine only.
	full    *bots.GameFull
	thought *thought
	claim   *time.Timer // claims the victory over a gone opponent
	// declined is the ply at which the bot last declined a draw offered,
	// -1 for none: an offer is answered once.
	declined int

	playerMu sync.Mutex // guards player and stopped: one move is chosen at a time
	player   Player
	stopped  bool // the game is no longer followed: no player starts
	starting bool // the player's start has begun (read and set by the stream's goroutine)

	mu     sync.Mutex // guards posted
	posted int        // the ply of the last move the server took, -1 for none
}

// thought is the choice of the move of one ply, in a goroutine of its
// own so that the stream is read meanwhile.
type thought struct {
	ply    int
	cancel context.CancelFunc
	done   chan struct{}
}

// play follows the game until it is over, the event stream says it is,
// or ctx is done, connecting again after errors.
func (g *gameRun) play(ctx context.Context) {
	defer g.stop()
	bo := g.b.backoff()
	path := "/api/bot/game/stream/" + url.PathEscape(g.id)
	for {
		err := g.b.stream(ctx, path, bo.reset, func(data []byte) error { return g.line(ctx, data, time.Now()) })
		switch {
		case errors.Is(err, errFinished), ctx.Err() != nil:
			return
		case permanent(err):
			g.b.log.Error("the game cannot be followed", "game", g.id, "err", err)
			return
		}
		wait := bo.after(err)
		g.b.log.Warn("the game's stream broke: connecting again", "game", g.id, "err", err, "in", wait.Round(time.Millisecond))
		if !sleep(ctx, wait) {
			return
		}
	}
}

// stop ends the thought under way and the claim, and closes the player.
func (g *gameRun) stop() {
	if g.claim != nil {
		g.claim.Stop()
	}
	if t := g.thought; t != nil {
		t.cancel()
		<-t.done
	}
	g.playerMu.Lock()
	defer g.playerMu.Unlock()
	g.stopped = true
	if g.player != nil {
		if err := g.player.Close(); err != nil {
			g.b.log.Warn("closing the engine", "game", g.id, "err", err)
		}
		g.player = nil
	}
}

// line handles a line of the game's stream, received at the time given.
func (g *gameRun) line(ctx context.Context, data []byte, received time.Time) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		g.b.log.Warn("a line of the game's stream is not JSON", "game", g.id, "err", err)
		return nil
	}
	switch head.Type {
	case bots.LineGameFull:
		var full bots.GameFull
		if err := json.Unmarshal(data, &full); err != nil {
			return fmt.Errorf("the game's first line: %w", err)
		}
		if len(full.Seats) == 0 {
			g.b.log.Warn("the account holds no seat in the game: not following it", "game", g.id)
			return errFinished
		}
		g.full = &full
		if !g.starting {
			// The engine starts while the game begins, so that its
			// start does not take from the first move's time.
			g.starting = true
			go g.startPlayer(ctx, full.Spec)
		}
		return g.state(ctx, full.State, true, received)
	case bots.LineGameState:
		var st bots.GameState
		if err := json.Unmarshal(data, &st); err != nil {
			return fmt.Errorf("a state of the game: %w", err)
		}
		if g.full == nil {
			return errors.New("a state before the game's first line")
		}
		return g.state(ctx, st, false, received)
	case bots.LineChatLine:
		var c bots.ChatLine
		if json.Unmarshal(data, &c) == nil {
			g.b.log.Debug("chat", "game", g.id, "from", c.Username, "text", c.Text)
		}
	case bots.LineOpponentGone:
		var o bots.OpponentGone
		if json.Unmarshal(data, &o) == nil {
			g.opponentGone(ctx, o)
		}
	default:
		g.b.log.Debug("a line of an unknown type, ignored", "game", g.id, "type", head.Type)
	}
	return nil
}

// state handles a state of the game: the end of the game, or a turn of
// the account's. full says that it is the state of the stream's first
// line.
func (g *gameRun) state(ctx context.Context, st bots.GameState, full bool, received time.Time) error {
	if t := g.thought; t != nil {
		// A thought about another ply, or in a game over, is moot.
		if t.ply != st.Ply || st.Status != "playing" {
			t.cancel()
		}
		if t.ended() {
			g.thought = nil
		}
	}
	if st.Status != "playing" {
		result := ""
		if st.Outcome != nil {
			result = st.Outcome.Description
		}
		g.b.log.Info("game over", "game", g.id, "spec", g.spec, "plies", st.Ply, "result", result)
		return errFinished
	}
	if by := st.DrawOffer; by != nil && !slices.Contains(g.full.Seats, *by) && g.declined != st.Ply {
		// An engine of the protocol says nothing of draws: the offer is
		// declined, so that the player who made it is not left waiting.
		g.declined = st.Ply
		go g.declineDraw(ctx, *by, st.Ply)
	}
	if t := g.thought; t != nil && t.ply == st.Ply {
		return nil // the move of this ply is being chosen
	}
	if !slices.Contains(g.full.Seats, st.ToMove) || len(st.Legal) == 0 {
		return nil
	}
	g.mu.Lock()
	posted := g.posted
	g.mu.Unlock()
	// The server took the move of this ply: a state of the same ply that
	// follows (a draw offer) is not a new turn. Only a stream's first
	// line at that ply, after a reconnection, says that the move is still
	// to be made.
	if posted == st.Ply && !full {
		return nil
	}
	// A thought cancelled above ends before this one takes the player.
	tctx, cancel := context.WithCancel(ctx)
	t := &thought{ply: st.Ply, cancel: cancel, done: make(chan struct{})}
	prev := g.thought
	g.thought = t
	turn := g.turn(st, received)
	go func() {
		defer close(t.done)
		defer cancel()
		if prev != nil {
			<-prev.done
		}
		g.think(tctx, ctx, turn, st.Ply)
	}()
	return nil
}

// declineDraw declines the draw that seat by offered at a ply.
func (g *gameRun) declineDraw(ctx context.Context, by, ply int) {
	g.b.log.Info("declining a draw offer", "game", g.id, "seat", by, "ply", ply)
	path := "/api/bot/game/" + url.PathEscape(g.id) + "/draw/no"
	if err := g.b.request(ctx, http.MethodPost, path, nil, nil); err != nil && ctx.Err() == nil {
		g.b.log.Warn("the draw offer could not be declined", "game", g.id, "err", err)
	}
}

// ended reports whether the thought has ended.
func (t *thought) ended() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// turn makes the Turn of a state received at the time given.
func (g *gameRun) turn(st bots.GameState, received time.Time) Turn {
	t := Turn{Game: g.id, Spec: g.full.Spec, Start: g.full.Start, Moves: strings.Fields(st.Moves), Seat: st.ToMove, Legal: st.Legal}
	if len(st.Times) > st.ToMove {
		left := time.Duration(st.Times[st.ToMove]) * time.Millisecond
		t.Clocks = make([]time.Duration, len(st.Times))
		for i, ms := range st.Times {
			t.Clocks[i] = time.Duration(ms) * time.Millisecond
		}
		t.Clocks[st.ToMove] = max(left-time.Since(received), 0)
		t.Increment = time.Duration(st.Increment) * time.Millisecond
		t.Deadline = received.Add(left - clockMargin(left))
		return t
	}
	t.MoveTime = g.b.cfg.MoveTime
	if t.MoveTime > 0 {
		t.Deadline = received.Add(t.MoveTime + max(time.Second, t.MoveTime))
	} else {
		t.Deadline = received.Add(noClockTimeout)
	}
	return t
}

// think chooses the move of a turn within tctx, the thought's context,
// and sends it within ctx, the game's: once chosen, a move is sent even if
// a state comes meanwhile (the server refuses it if the game moved on).
// When the engine fails or answers a move that is not legal, it sends the
// first legal move rather than lose on time, and says so in the log.
func (g *gameRun) think(tctx, ctx context.Context, t Turn, ply int) {
	g.playerMu.Lock()
	move, err := g.choose(tctx, t)
	g.playerMu.Unlock()
	if tctx.Err() != nil {
		return
	}
	if err == nil && !slices.Contains(t.Legal, move) {
		err = fmt.Errorf("the engine's move %q is not legal (legal: %s)", move, strings.Join(t.Legal, " "))
	}
	if err != nil {
		g.b.log.Warn("the engine gave no move: playing the first legal one", "game", g.id, "ply", ply, "move", t.Legal[0], "err", err)
		move = t.Legal[0]
	}
	path := fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", url.PathEscape(g.id), url.PathEscape(move), ply)
	for {
		err := g.b.request(ctx, http.MethodPost, path, nil, nil)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return
		}
		// A network error, a busy server (429, 503) is tried again
		// while the clock allows; the server refusing the move (the game
		// moved on, it is over) is final: the stream tells what
		// happened.
		if permanent(err) || time.Now().After(t.Deadline) {
			g.b.log.Warn("the move was not taken", "game", g.id, "ply", ply, "move", move, "err", err)
			return
		}
		wait := moveRetry
		var ae *APIError
		if errors.As(err, &ae) && ae.RetryAfter > 0 {
			wait = ae.RetryAfter
		}
		if time.Now().Add(wait).After(t.Deadline) {
			g.b.log.Warn("the move was not taken, and the clock allows no second try", "game", g.id, "ply", ply, "move", move, "err", err)
			return
		}
		g.b.log.Warn("sending the move failed: sending it again", "game", g.id, "ply", ply, "move", move, "err", err, "in", wait)
		if !sleep(ctx, wait) {
			return
		}
	}
	g.mu.Lock()
	g.posted = ply
	g.mu.Unlock()
	g.b.log.Debug("moved", "game", g.id, "ply", ply, "move", move)
}

// startPlayer starts the game's player, unless it is started already or
// the game is no longer followed. A failure is logged: the first move
// tries again.
func (g *gameRun) startPlayer(ctx context.Context, spec string) {
	g.playerMu.Lock()
	defer g.playerMu.Unlock()
	if g.player != nil || g.stopped {
		return
	}
	p, err := g.b.cfg.Engine.NewPlayer(ctx, spec)
	if err != nil {
		g.b.log.Warn("the engine did not start", "game", g.id, "err", err)
		return
	}
	g.player = p
}

// choose asks the player for the move, starting the player first when
// there is none (its start at the game's start failed).
// g.playerMu must be held.
func (g *gameRun) choose(ctx context.Context, t Turn) (string, error) {
	if g.player == nil {
		p, err := g.b.cfg.Engine.NewPlayer(ctx, t.Spec)
		if err != nil {
			return "", err
		}
		g.player = p
	}
	return g.player.Move(ctx, t)
}

// opponentGone claims the victory once an opponent that left has stayed
// away for as long as the server asks, unless it comes back first.
func (g *gameRun) opponentGone(ctx context.Context, o bots.OpponentGone) {
	if g.claim != nil {
		g.claim.Stop()
		g.claim = nil
	}
	if !o.Gone {
		g.b.log.Info("the opponent is back", "game", g.id)
		return
	}
	wait := time.Duration(o.ClaimWinInSeconds) * time.Second
	g.b.log.Info("the opponent left: claiming the victory if it stays away", "game", g.id, "in", wait)
	g.claim = time.AfterFunc(wait, func() {
		path := "/api/bot/game/" + url.PathEscape(g.id) + "/claim-victory"
		if err := g.b.request(ctx, http.MethodPost, path, nil, nil); err != nil {
			if ctx.Err() == nil {
				g.b.log.Warn("the claim of the victory failed", "game", g.id, "err", err)
			}
			return
		}
		g.b.log.Info("claimed the victory", "game", g.id)
	})
}
