package httpx

import (
	"context"
	"testing"
	"time"
)

// TestFairWaiting checks that Waiting counts the requests waiting for a
// slot, and no more once they have one.
func TestFairWaiting(t *testing.T) {
	f := NewFair(1, 10, 10)
	release, err := f.Acquire(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Waiting(); n != 0 {
		t.Fatalf("Waiting with the slot taken and nobody waiting: %d", n)
	}
	got := make(chan func(), 1)
	go func() {
		r, _ := f.Acquire(context.Background(), "b")
		got <- r
	}()
	for deadline := time.Now().Add(5 * time.Second); f.Waiting() != 1; {
		if time.Now().After(deadline) {
			t.Fatalf("Waiting with one request waiting: %d; want 1", f.Waiting())
		}
		time.Sleep(time.Millisecond)
	}
	release()
	(<-got)()
	if n := f.Waiting(); n != 0 {
		t.Fatalf("Waiting once served: %d; want 0", n)
	}
}
