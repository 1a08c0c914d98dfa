package server

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"

	"stax/game"
	"stax/search"
)

// playersPerWorker bounds the players a worker keeps: one per game variant
// and level it served last. A player holds its search tables (a strongest
// level's table is about 24 MB), so the memory of the computer players is
// bounded by workers × playersPerWorker, whatever the number of games.
const playersPerWorker = 2

// aiQueue is the first-in first-out queue of games whose computer is to
// move. A game is queued once per move, so a game that is always busy
// waits behind every other game once between its moves: none starves.
type aiQueue struct {
	mu    sync.Mutex // guards the fields below
	cond  *sync.Cond // signalled when a job is queued or the server stops
	jobs  []aiJob
	stop  bool
	depth int // the most jobs waiting at once
}

// aiJob is a game waiting for its computer's move.
type aiJob struct {
	room   *room
	queued time.Time
}

func newAIQueue() *aiQueue {
	q := &aiQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *aiQueue) push(j aiJob) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	q.depth = max(q.depth, len(q.jobs))
	q.mu.Unlock()
	q.cond.Signal()
}

// pop waits for the oldest job; ok is false once the queue is stopped.
func (q *aiQueue) pop() (j aiJob, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.jobs) == 0 && !q.stop {
		q.cond.Wait()
	}
	if q.stop {
		return aiJob{}, false
	}
	j = q.jobs[0]
	q.jobs[0] = aiJob{}
	q.jobs = q.jobs[1:]
	return j, true
}

func (q *aiQueue) close() {
	q.mu.Lock()
	q.stop = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// waiting returns the jobs waiting now and the most that ever waited.
func (q *aiQueue) waiting() (now, most int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs), q.depth
}

// aiWorker is one worker of the pool with the players it keeps, most
// recently used first.
type aiWorker struct {
	players *list.List // of *keptPlayer
}

type keptPlayer struct {
	key    string // spec and level
	player search.Player
}

// player returns the worker's player for a variant and level, making it
// (and dropping the least recently used one past playersPerWorker) if the
// worker has none. A player serves every game of its variant and level in
// turn: its tables are keyed by position, so what it learnt in one game
// stays true in the next, and the game's history comes with each position.
func (w *aiWorker) player(s *Server, g game.Game, spec, level string) (search.Player, error) {
	key := spec + " " + level
	for e := w.players.Front(); e != nil; e = e.Next() {
		if k := e.Value.(*keptPlayer); k.key == key {
			w.players.MoveToFront(e)
			return k.player, nil
		}
	}
	for w.players.Len() >= playersPerWorker {
		w.players.Remove(w.players.Back())
	}
	p, err := s.cfg.NewPlayer(g, level)
	if err != nil {
		return nil, err
	}
	w.players.PushFront(&keptPlayer{key: key, player: p})
	s.playersMade.Add(1)
	return p, nil
}

// startWorkers starts the pool's workers.
func (s *Server) startWorkers() {
	for range s.cfg.Workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			w := &aiWorker{players: list.New()}
			for {
				j, ok := s.queue.pop()
				if !ok {
					return
				}
				s.aiWait.add(time.Since(j.queued))
				s.think(w, j.room)
			}
		}()
	}
	context.AfterFunc(s.ctx, s.queue.close)
}

// scheduleAI queues the game for its computer's move, if it is a
// computer's turn and none is queued or thinking, after the AI delay. The
// caller holds l.mu.
func (s *Server) scheduleAI(l *room) {
	if l.h.Over() || l.aiBusy || s.ctx.Err() != nil {
		return
	}
	if l.seats[l.h.State().ToMove()].Kind != "ai" {
		return
	}
	l.aiBusy = true
	queue := func() { s.queue.push(aiJob{room: l, queued: time.Now()}) }
	if wait := time.Until(l.lastAt.Add(s.cfg.AIDelay)); wait > 0 {
		time.AfterFunc(wait, queue)
	} else {
		queue()
	}
}

// think lets worker w's player choose the move of the game's computer
// and plays it.
func (s *Server) think(w *aiWorker, l *room) {
	l.mu.Lock()
	if l.h.Over() || l.seats[l.h.State().ToMove()].Kind != "ai" || s.ctx.Err() != nil {
		l.aiBusy = false
		l.mu.Unlock()
		return
	}
	p := l.h.State().ToMove()
	st := &l.seats[p]
	player, err := w.player(s, l.g, l.spec, st.Level)
	if err != nil {
		l.aiBusy = false
		s.log.Error("make AI player", "game", l.id, "seat", p, "level", st.Level, "err", err)
		s.finish(s.ctx, l, p, game.ByForfeit, "the computer player could not start: "+err.Error())
		l.mu.Unlock()
		return
	}
	pos := search.PositionOf(l.h).Clone()
	ply := l.h.Ply()
	st.thinking = true
	l.changed()
	l.broadcast()
	l.mu.Unlock()

	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.AITimeout)
	start := time.Now()
	res, err := search.Ask(ctx, player, pos, search.Limits{}, nil)
	cancel()

	l.mu.Lock()
	defer l.mu.Unlock()
	st.thinking = false
	l.aiBusy = false
	l.changed()
	if s.ctx.Err() != nil {
		// Shutting down: the game resumes when the server starts again.
		return
	}
	if l.h.Over() || l.h.Ply() != ply {
		l.broadcast()
		s.scheduleAI(l)
		return
	}
	if err != nil {
		s.log.Error("AI move", "game", l.id, "seat", p, "err", err)
		detail := "the computer found no move: " + err.Error()
		switch {
		case errors.Is(err, game.ErrIllegalMove):
			detail = "the computer played an " + err.Error()
		case errors.Is(err, search.ErrNoMove):
			detail = "the computer found no move"
		}
		s.finish(s.ctx, l, p, game.ByForfeit, detail)
		return
	}
	text := pos.State.FormatMove(res.Move)
	s.log.Debug("AI move", "game", l.id, "seat", p, "move", text, "score", res.Score, "depth", res.Depth, "elapsed", time.Since(start))
	if err := s.play(s.ctx, l, []int{p}, text, nil); err != nil {
		// The move is legal (search.Ask checked it): the commit failed.
		s.log.Error("AI move not saved", "game", l.id, "seat", p, "move", text, "err", err)
		l.broadcast()
	}
}
