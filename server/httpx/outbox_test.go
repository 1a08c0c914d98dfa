package httpx

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// writer is a socket's write as an outbox sees it, which may be held up
// or fail.
type writer struct {
	mu     sync.Mutex
	got    []string
	hold   chan struct{} // when not nil, each write waits for it
	failAt int           // the write that fails (1-based), 0 for none
}

func (w *writer) write(msg []byte) error {
	if w.hold != nil {
		<-w.hold
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got = append(w.got, string(msg))
	if len(w.got) == w.failAt {
		return errors.New("broken pipe")
	}
	return nil
}

func (w *writer) written() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.got...)
}

func newTestOutbox(n int, w *writer, slow, fail func()) *Outbox {
	o := NewOutbox(n, slow)
	o.write, o.fail = w.write, fail
	return o
}

// TestOutboxOrder checks that the messages are written in the order they
// were sent, that Close waits for the last to be written, and that a
// closed outbox takes nothing more.
func TestOutboxOrder(t *testing.T) {
	w := &writer{}
	o := newTestOutbox(1000, w, func() { t.Error("slow called") }, func() { t.Error("fail called") })
	var want []string
	for i := range 500 {
		msg := fmt.Sprint(i)
		want = append(want, msg)
		o.Send([]byte(msg))
	}
	o.Close()
	o.Send([]byte("after"))
	got := w.written()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("written %d messages %v…; want the 500 sent, in order", len(got), got[:min(5, len(got))])
	}
}

// TestOutboxSlow checks that a full queue calls slow once and drops what
// comes after, without blocking the sender.
func TestOutboxSlow(t *testing.T) {
	w := &writer{hold: make(chan struct{})}
	slow := 0
	o := newTestOutbox(2, w, func() { slow++ }, func() {})
	for range 10 {
		o.Send([]byte("x")) // the first is taken by the writer, held
	}
	if slow != 1 {
		t.Fatalf("slow called %d times; want once", slow)
	}
	close(w.hold)
	o.Close()
	if n := len(w.written()); n > 1 {
		t.Fatalf("%d messages written after the overflow; want at most the one being written", n)
	}
}

// TestOutboxFail checks that a failed write calls fail, once, and that
// nothing more is written.
func TestOutboxFail(t *testing.T) {
	w := &writer{failAt: 2}
	failed := 0
	o := newTestOutbox(100, w, func() {}, func() { failed++ })
	for range 5 {
		o.Send([]byte("x"))
	}
	o.Close()
	if failed != 1 || len(w.written()) != 2 {
		t.Fatalf("fail called %d times, %d written; want once after the second", failed, len(w.written()))
	}
}

// TestOutboxIdle checks that idle outboxes hold no goroutine: the writer
// ends when the queue is empty.
func TestOutboxIdle(t *testing.T) {
	before := runtime.NumGoroutine()
	var boxes []*Outbox
	for range 1000 {
		o := newTestOutbox(10, &writer{}, func() {}, func() {})
		o.Send([]byte("hello"))
		boxes = append(boxes, o)
	}
	for _, o := range boxes {
		o.Close()
	}
	// The writers end once their queue is written: wait for that.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine()-before > 10 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine() - before; n > 10 {
		t.Fatalf("%d goroutines left by 1000 idle outboxes; want none", n)
	}
}
