package httpx

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFairTurns checks that a client with many requests waiting does not
// hold another's: the slot goes to the waiting clients in turn.
func TestFairTurns(t *testing.T) {
	f := NewFair(1, 100, 50)
	release, err := f.Acquire(context.Background(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 100)
	wait := func(client string) {
		r, err := f.Acquire(context.Background(), client)
		if err != nil {
			t.Error(err)
			return
		}
		got <- client
		r()
	}
	for range 20 {
		go wait("busy")
	}
	for f.waitingOf("busy") < 20 {
		time.Sleep(time.Millisecond)
	}
	go wait("quiet")
	for f.waitingOf("quiet") < 1 {
		time.Sleep(time.Millisecond)
	}
	release()
	// The busy client's first waiter, then the quiet one: not 20 later.
	for i := 0; i < 3; i++ {
		if c := <-got; c == "quiet" {
			return
		}
	}
	t.Fatal("the quiet client waited behind the busy one's crowd")
}

// TestFairBounds checks the waiting room's bounds: per client and in all,
// a request past them is ErrBusy at once; a request whose context ends
// leaves the room.
func TestFairBounds(t *testing.T) {
	f := NewFair(1, 3, 2)
	release, _ := f.Acquire(context.Background(), "a")
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 4)
	for _, c := range []string{"a", "a", "b"} {
		go func() { _, err := f.Acquire(ctx, c); errs <- err }()
	}
	for f.waitingOf("a") < 2 || f.waitingOf("b") < 1 {
		time.Sleep(time.Millisecond)
	}
	if _, err := f.Acquire(context.Background(), "a"); !errors.Is(err, ErrBusy) {
		t.Fatalf("a third waiter of a: %v; want ErrBusy", err)
	}
	if _, err := f.Acquire(context.Background(), "c"); !errors.Is(err, ErrBusy) {
		t.Fatalf("a waiter past the room: %v; want ErrBusy", err)
	}
	cancel()
	for range 3 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Fatalf("a cancelled waiter: %v", err)
		}
	}
	release()
	if r, err := f.Acquire(context.Background(), "c"); err != nil {
		t.Fatalf("after the room emptied: %v", err)
	} else {
		r()
	}
}

// waitingOf returns how many requests of client wait.
func (f *Fair) waitingOf(client string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queues[client])
}
