package httpx

import (
	"context"
	"errors"
	"sync"
)

// ErrBusy is Fair.Acquire's answer when a client, or every client, has as
// many requests waiting as it may: the caller answers 503 with Retry-After.
var ErrBusy = errors.New("the server is busy; try again shortly")

// Fair shares a number of slots (password hashes being computed, analyses
// searching) between clients, so that no client's crowd of requests holds
// another's: the waiting clients are served in turn (round robin over
// clients, first come first served within one), and the waiting room is
// bounded, in all and per client.
type Fair struct {
	mu         sync.Mutex
	free       int
	queues     map[string][]chan struct{} // the waiters of each client
	order      []string                   // the clients with waiters, in turn
	waiting    int
	maxWaiting int
	perClient  int
}

// NewFair returns a Fair of slots slots, with at most maxWaiting requests
// waiting in all and perClient of one client.
func NewFair(slots, maxWaiting, perClient int) *Fair {
	return &Fair{free: slots, queues: map[string][]chan struct{}{}, maxWaiting: maxWaiting, perClient: perClient}
}

// Acquire takes a slot for client, waiting for its turn until ctx ends. It
// returns ErrBusy at once when the waiting room is full for the client,
// and ctx's error when ctx ends first. The caller calls release once done.
func (f *Fair) Acquire(ctx context.Context, client string) (release func(), err error) {
	f.mu.Lock()
	if f.free > 0 && f.waiting == 0 {
		f.free--
		f.mu.Unlock()
		return f.release, nil
	}
	if f.waiting >= f.maxWaiting || len(f.queues[client]) >= f.perClient {
		f.mu.Unlock()
		return nil, ErrBusy
	}
	ch := make(chan struct{}, 1)
	if len(f.queues[client]) == 0 {
		f.order = append(f.order, client)
	}
	f.queues[client] = append(f.queues[client], ch)
	f.waiting++
	f.mu.Unlock()
	select {
	case <-ch:
		return f.release, nil
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queues[client]
	for i, c := range q {
		if c == ch {
			f.queues[client] = append(q[:i:i], q[i+1:]...)
			f.waiting--
			if len(f.queues[client]) == 0 {
				f.drop(client)
			}
			return nil, ctx.Err()
		}
	}
	// The slot was handed over just as ctx ended: pass it on.
	f.mu.Unlock()
	f.release()
	f.mu.Lock()
	return nil, ctx.Err()
}

// release gives a slot back: to the next client in turn, or to the pool.
func (f *Fair) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.waiting == 0 {
		f.free++
		return
	}
	client := f.order[0]
	f.order = f.order[1:]
	q := f.queues[client]
	ch := q[0]
	f.queues[client] = q[1:]
	f.waiting--
	if len(f.queues[client]) > 0 {
		f.order = append(f.order, client) // its next request waits its turn
	} else {
		delete(f.queues, client)
	}
	ch <- struct{}{}
}

// drop takes a client without waiters out of the turn. The caller holds
// f.mu.
func (f *Fair) drop(client string) {
	delete(f.queues, client)
	for i, c := range f.order {
		if c == client {
			f.order = append(f.order[:i:i], f.order[i+1:]...)
			return
		}
	}
}
