package enginetest

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// Clock is a fake engine.Clock: its time moves only by Advance, so that a
// test decides when a timeout happens. Tests wait on its state (the waits
// pending) rather than for wall-clock time to pass.
type Clock struct {
	mu      sync.Mutex
	changed *sync.Cond // broadcast when a wait starts, stops or fires
	now     time.Time
	waits   map[*wait]bool // pending
	started int            // waits started, in all
}

type wait struct {
	at time.Time
	c  chan time.Time
}

// NewClock returns a fake clock at a fixed date.
func NewClock() *Clock {
	c := &Clock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), waits: map[*wait]bool{}}
	c.changed = sync.NewCond(&c.mu)
	return c
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives the time once the clock has been
// advanced by d, and a function that stops the wait.
func (c *Clock) After(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &wait{at: c.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		w.c <- c.now
		return w.c, func() bool { return false }
	}
	c.waits[w] = true
	c.started++
	c.changed.Broadcast()
	return w.c, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		pending := c.waits[w]
		delete(c.waits, w)
		c.changed.Broadcast()
		return pending
	}
}

// Advance moves the clock on by d and fires the waits that end by then.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for w := range c.waits {
		if !w.at.After(c.now) {
			w.c <- c.now
			delete(c.waits, w)
		}
	}
	c.changed.Broadcast()
}

// Pending returns the number of waits started and neither stopped nor
// fired.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waits)
}

// Started returns the number of waits started so far.
func (c *Clock) Started() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started
}

// WaitPending blocks until at least n waits are pending.
func (c *Clock) WaitPending(t testing.TB, n int) {
	t.Helper()
	c.waitFor(t, fmt.Sprintf("%d waits pending", n), func() bool { return len(c.waits) >= n })
}

// WaitStarted blocks until at least n waits have been started in all:
// with n one more than Started returned, until the code under test waits
// again.
func (c *Clock) WaitStarted(t testing.TB, n int) {
	t.Helper()
	c.waitFor(t, fmt.Sprintf("%d waits started", n), func() bool { return c.started >= n })
}

// waitFor blocks until ok, called with c.mu held, holds. It fails the
// test if that takes more than a minute, which means that the code under
// test will never wait so (a generous bound: nothing here measures the
// machine's speed).
func (c *Clock) waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	stuck := false
	timer := time.AfterFunc(time.Minute, func() {
		c.mu.Lock()
		stuck = true
		c.changed.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() && !stuck {
		c.changed.Wait()
	}
	if !ok() {
		t.Errorf("fake clock: want %s; still not so after a minute (%d pending, %d started)", what, len(c.waits), c.started)
	}
}

// AdvanceWhenPending waits until a wait is pending, then advances the
// clock by d: the way to make the one wait under test time out (when no
// other wait is pending).
func (c *Clock) AdvanceWhenPending(t testing.TB, d time.Duration) {
	t.Helper()
	c.WaitPending(t, 1)
	c.Advance(d)
}
