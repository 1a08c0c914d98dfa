// Package worker makes the computer moves of the site's games: jobs queued
// in the store, each claimed by one worker among every process sharing the
// store (stax serve and stax worker), so that each move is computed once.
// A worker reads the game from the store, the truth whichever process
// holds it in memory, and commits the move there; the processes holding
// the game learn of it through the store's feed.
package worker

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"stax/game"
	"stax/search"
	"stax/server/clock"
	"stax/server/store"
)

// maxAttempts is how many times a computer move is tried before its seat
// forfeits: a move whose worker keeps dying must not stall the game.
const maxAttempts = 3

// Config configures a Worker.
type Config struct {
	// Store holds the games and the queue of computer moves.
	Store store.Store
	// Games lists the games the worker can play.
	Games game.Registry
	// NewPlayer makes the player of an AI seat (stax passes ai.New).
	NewPlayer func(g game.Game, level string) (search.Player, error)
	// Log receives the worker's logs; nil discards them.
	Log *slog.Logger
	// AIDelay is the least time between a move and a computer's answer,
	// given to the job of a computer that answers a computer.
	AIDelay time.Duration
	// AITimeout bounds one computer move (default 30s); a computer that
	// finds no move in time forfeits. A job's lease is AITimeout and 10s
	// more.
	AITimeout time.Duration
	// Claimed, when not nil, is told how long each job claimed waited
	// after it was due.
	Claimed func(wait time.Duration)
	// PlayerMade, when not nil, is called for each player made.
	PlayerMade func()
	// PerClient is how many computer moves of one client (the address
	// its games are played from) are made at once, among every worker
	// sharing the store (default 1): a client with many games against a
	// strong level does not hold the others' moves.
	PerClient int
}

// Worker makes the computer moves queued in a store: each move is a job
// that one worker claims for a lease, among every worker of every process
// sharing the store, so that each move is computed once; a job whose
// worker died is claimed again when its lease expires. stax serve runs
// workers in its process and stax worker runs them alone.
type Worker struct {
	cfg   Config
	owner string        // names this process's claims
	wake  chan struct{} // a job was queued
}

// New returns a worker; Run makes it work.
func New(cfg Config) *Worker {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.AITimeout <= 0 {
		cfg.AITimeout = 30 * time.Second
	}
	if cfg.PerClient <= 0 {
		cfg.PerClient = 1
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = noPlayers
	}
	host, _ := os.Hostname()
	var b [4]byte
	rand.Read(b[:])
	return &Worker{
		cfg:   cfg,
		owner: fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:])),
		wake:  make(chan struct{}, 1),
	}
}

// Wake tells the worker that a job was queued. It never blocks.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Watch wakes the worker whenever the store reports a queued job, until
// ctx is done.
func (w *Worker) Watch(ctx context.Context) error {
	return w.cfg.Store.Watch(ctx, func(ev store.Event) {
		if ev.Kind == store.EventJob || ev.Kind == store.EventResync {
			w.Wake()
		}
	})
}

// Run makes computer moves on n goroutines until ctx is done. Each
// goroutine keeps the players it made (see aiWorker), so the players'
// memory is bounded by n, whatever the number of games.
func (w *Worker) Run(ctx context.Context, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(ctx, &aiWorker{players: list.New()})
		}()
	}
	wg.Wait()
}

// loop claims and makes jobs; with none ready it sleeps until one is due,
// a job is queued, or a second has passed (a lease may expire meanwhile).
func (w *Worker) loop(ctx context.Context, aw *aiWorker) {
	lease := w.cfg.AITimeout + 10*time.Second
	for ctx.Err() == nil {
		job, wait, err := w.cfg.Store.ClaimJob(ctx, w.owner, lease, w.cfg.PerClient)
		if err != nil {
			if ctx.Err() == nil {
				w.cfg.Log.Error("claim a computer move", "err", err)
			}
			wait = time.Second
		}
		if job != nil {
			if w.cfg.Claimed != nil {
				w.cfg.Claimed(max(time.Since(job.Due), 0))
			}
			w.do(ctx, aw, job)
			// Let the other goroutines of a woken worker look too.
			w.Wake()
			continue
		}
		if wait <= 0 || wait > time.Second {
			wait = time.Second
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// do makes the move of one job: it reads the game from the store (the
// truth, whichever process holds it in memory), asks the seat's player,
// and commits the move; the processes holding the game learn of it through
// the store's feed.
func (w *Worker) do(ctx context.Context, aw *aiWorker, job *store.Job) {
	log := w.cfg.Log.With("game", job.Game, "ply", job.Ply, "attempt", job.Attempts)
	done := func() {
		if err := w.cfg.Store.DoneJob(context.WithoutCancel(ctx), job.ID, w.owner); err != nil {
			log.Warn("finish a computer move's job", "err", err)
		}
	}
	sg, err := w.cfg.Store.Get(ctx, job.Game)
	if err != nil {
		log.Error("load a game for its computer move", "err", err)
		if errors.Is(err, store.ErrNotFound) {
			done()
		}
		return
	}
	g, err := w.cfg.Games.Load(sg.Spec)
	if err != nil {
		log.Error("load a game for its computer move", "err", err)
		done()
		return
	}
	var outages []store.Outage
	if sg.Clock != nil {
		// The downtime the game spanned is charged to nobody.
		if outages, err = w.cfg.Store.Outages(ctx, sg.Created); err != nil {
			log.Error("load a game's downtime for its computer move", "err", err)
			return
		}
	}
	h, clk, err := replay(sg, g, outages)
	if err != nil {
		log.Error("load a game for its computer move", "err", err)
		done()
		return
	}
	seat := h.State().ToMove()
	if sg.Status == store.Finished || h.Over() || h.Ply() != job.Ply || sg.Seats[seat].Kind != "ai" {
		// The game moved on (a resignation, or the move was made by a
		// worker whose lease expired just before it committed).
		done()
		return
	}
	forfeit := func(detail string) {
		h.Resign(seat, game.ByForfeit, detail)
		end := store.End{Outcome: h.Outcome().String(), Resigned: seat}
		err := w.cfg.Store.Finish(context.WithoutCancel(ctx), job.Game, h.Ply(), end, time.Now().UTC().Truncate(time.Millisecond))
		if err != nil && !errors.Is(err, store.ErrConflict) {
			log.Error("record a computer's forfeit", "err", err)
			return
		}
		done()
	}
	if job.Attempts > maxAttempts {
		log.Error("computer move failed too often", "attempts", job.Attempts)
		forfeit(fmt.Sprintf("the computer player failed %d times", maxAttempts))
		return
	}
	p, err := aw.player(&w.cfg, g, sg.Spec, sg.Seats[seat].Level)
	if err != nil {
		log.Error("make a computer player", "level", sg.Seats[seat].Level, "err", err)
		forfeit("the computer player could not start: " + err.Error())
		return
	}
	pos := search.PositionOf(h).Clone()
	tctx, cancel := context.WithTimeout(ctx, w.cfg.AITimeout)
	start := time.Now()
	res, err := search.Ask(tctx, p, pos, clk.Limits(seat, start), nil)
	cancel()
	if ctx.Err() != nil {
		// Shutting down: give the job back for another worker, or this
		// one after a restart.
		if err := w.cfg.Store.ReleaseJob(context.WithoutCancel(ctx), job.ID, w.owner); err != nil {
			log.Warn("give back a computer move", "err", err)
		}
		return
	}
	if err != nil {
		log.Error("computer move", "err", err)
		detail := "the computer found no move: " + err.Error()
		if errors.Is(err, game.ErrIllegalMove) {
			detail = "the computer played an " + err.Error()
		}
		forfeit(detail)
		return
	}
	text := pos.State.FormatMove(res.Move)
	if err := h.Play(text); err != nil {
		log.Error("computer move is illegal", "move", text, "err", err)
		forfeit("illegal move " + text)
		return
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	var end *store.End
	if h.Over() {
		end = &store.End{Outcome: h.Outcome().String(), Resigned: -1}
	}
	err = w.cfg.Store.AppendMove(context.WithoutCancel(ctx), job.Game, job.Ply, text, now, end)
	switch {
	case errors.Is(err, store.ErrConflict):
		log.Warn("computer move was not needed: the game moved on", "move", text)
	case err != nil:
		// Not done: the job is tried again when its lease expires.
		log.Error("store a computer move", "move", text, "err", err)
		return
	default:
		log.Debug("computer move", "move", text, "score", res.Score, "depth", res.Depth, "elapsed", time.Since(start))
		if !h.Over() && sg.Seats[h.State().ToMove()].Kind == "ai" {
			// A computer answers a computer.
			if err := w.cfg.Store.AddJob(context.WithoutCancel(ctx), job.Game, h.Ply(), job.Client, w.cfg.AIDelay); err != nil {
				log.Error("queue a computer move", "err", err)
			}
		}
	}
	done()
}

// noPlayers is the NewPlayer of a server configured without computer
// players.
func noPlayers(g game.Game, level string) (search.Player, error) {
	return nil, fmt.Errorf("level %q: this server has no computer players; want a human seat", level)
}

// replay rebuilds a stored game's history and clock (nil for none) from
// its moves and their times and the site's outages, as the live game
// holds them.
func replay(sg *store.Game, g game.Game, outages []store.Outage) (*game.History, *clock.Clock, error) {
	var start game.State
	if sg.Start != "" {
		st, err := g.ParseState(sg.Start)
		if err != nil {
			return nil, nil, err
		}
		start = st
	}
	if len(sg.Seats) != g.Players() {
		return nil, nil, fmt.Errorf("game %s has %d seats; %s needs %d", sg.ID, len(sg.Seats), sg.Spec, g.Players())
	}
	h := game.NewHistory(g, start)
	var clk *clock.Clock
	if sg.Clock != nil {
		clk = clock.New(*sg.Clock, g.Players(), sg.Created)
		for _, o := range outages {
			clk.Pause(o)
		}
	}
	timed := len(sg.MoveTimes) == len(sg.Moves)
	for i, m := range sg.Moves {
		p := h.State().ToMove()
		if err := h.Play(m); err != nil {
			return nil, nil, fmt.Errorf("game %s ply %d: %w", sg.ID, i, err)
		}
		if timed && clk != nil {
			clk.Charge(p, sg.MoveTimes[i])
		}
	}
	return h, clk, nil
}
