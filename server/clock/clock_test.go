package clock

import (
	"testing"
	"time"

	"stax/server/store"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// TestFischer checks the arithmetic a player relies on: each seat's first
// move is free, later moves are charged from the previous commit less the
// lag allowance, the increment is added, and the deadline and a
// computer's limits follow.
func TestFischer(t *testing.T) {
	k := New(store.Clock{Initial: 60 * time.Second, Increment: 2 * time.Second}, 2, t0)
	steps := []struct {
		seat     int
		after    time.Duration // since the previous commit
		wantLeft time.Duration // the seat's time after its move
	}{
		{0, 25 * time.Second, 60 * time.Second}, // first moves are free
		{1, 29 * time.Second, 60 * time.Second},
		{0, 5 * time.Second, 62*time.Second - (5*time.Second - LagCompensation)},
		{1, 50 * time.Millisecond, 62 * time.Second}, // within the allowance: nothing charged
		{0, 10 * time.Second, 57100*time.Millisecond + 2*time.Second - (10*time.Second - LagCompensation)},
	}
	at := t0
	for i, s := range steps {
		at = at.Add(s.after)
		k.Charge(s.seat, at)
		if got := k.Left(s.seat); got != s.wantLeft {
			t.Fatalf("step %d: seat %d has %v; want %v", i, s.seat, got, s.wantLeft)
		}
		if k.Since() != at {
			t.Fatalf("step %d: turn began %v; want %v", i, k.Since(), at)
		}
	}
	p := 1
	if want := at.Add(k.Left(p) + LagCompensation); !k.Deadline(p).Equal(want) {
		t.Fatalf("deadline %v; want %v", k.Deadline(p), want)
	}
	if k.Out(p, k.Deadline(p).Add(-time.Millisecond)) || !k.Out(p, k.Deadline(p)) {
		t.Fatal("a seat is out of time at its deadline, not a millisecond before")
	}
	lim := k.Limits(p, at.Add(3*time.Second))
	if want := k.Left(p) - (3*time.Second - LagCompensation); lim.Clock.Remaining != want || lim.Clock.Increment != 2*time.Second {
		t.Fatalf("limits %+v; want %v left and 2s increment", lim.Clock, want)
	}
	if lim := k.Limits(p, at.Add(time.Hour)); lim.Clock.Remaining != time.Millisecond {
		t.Fatalf("limits past the deadline %+v; want the least time, 1ms", lim.Clock)
	}
	st := k.State(p, false)
	if st.Running != p || len(st.Remaining) != 2 || !st.Deadline.Equal(k.Deadline(p)) || st.Initial != 60 || st.Increment != 2 || st.FirstMove {
		t.Fatalf("state %+v", st)
	}
	if st := k.State(p, true); st.Running != -1 || !st.Deadline.IsZero() {
		t.Fatalf("state of a finished game %+v; want no clock running", st)
	}
	// Lost on time: the loser's clock shows 0, not the time left at the
	// start of the turn.
	k.Stop(k.Deadline(p))
	if st := k.State(p, true); st.Remaining[p] != 0 || st.Remaining[1-p] != k.Left(1-p).Milliseconds() {
		t.Fatalf("remaining after a flag %v; want 0 for seat %d", st.Remaining, p)
	}
	// Resigned 3 s into the turn: 3 s less the allowance are gone.
	k.Stop(at.Add(3 * time.Second))
	if st := k.State(p, true); st.Remaining[p] != (k.Left(p) - 2900*time.Millisecond).Milliseconds() {
		t.Fatalf("remaining after a resignation %v", st.Remaining)
	}
}

// TestFirstMove checks that a seat's clock starts only with its first
// move: until then its deadline is the end of its first-move window, from
// when the move became due, even in a game of a few seconds.
func TestFirstMove(t *testing.T) {
	k := New(store.Clock{Initial: 2 * time.Second}, 2, t0)
	if k.Moved(0) || !k.State(0, false).FirstMove {
		t.Fatal("seat 0 has moved before its first move")
	}
	if want := t0.Add(FirstMoveWindow); !k.Deadline(0).Equal(want) {
		t.Fatalf("first deadline %v; want the window, %v", k.Deadline(0), want)
	}
	if k.Out(0, t0.Add(2100*time.Millisecond)) {
		t.Fatal("a 2+0 game's first mover is out of time after 2.1 s")
	}
	if lim := k.Limits(0, t0); lim.Clock.Remaining != 0 {
		t.Fatalf("a computer's first move has clock limits %+v; want none", lim)
	}
	k.Charge(0, t0.Add(20*time.Second))
	if want := t0.Add(20*time.Second + FirstMoveWindow); !k.Deadline(1).Equal(want) {
		t.Fatalf("the second seat's window ends %v; want %v, from the first move", k.Deadline(1), want)
	}
	k.Charge(1, t0.Add(21*time.Second))
	if want := t0.Add(21*time.Second + 2*time.Second + LagCompensation); !k.Deadline(0).Equal(want) || k.State(0, false).FirstMove {
		t.Fatalf("after both first moves seat 0's deadline is %v; want its 2 s from the last move, %v", k.Deadline(0), want)
	}
}

// TestPause checks that the time no instance served the game is charged to
// nobody: not in the deadline of the seat to move, not in its move.
func TestPause(t *testing.T) {
	k := New(store.Clock{Initial: 60 * time.Second}, 2, t0)
	k.Charge(0, t0)
	k.Charge(1, t0)
	// The server was down from 10 s to 17 s after the last move.
	k.Pause(store.Outage{Start: t0.Add(10 * time.Second), End: t0.Add(17 * time.Second)})
	if want := t0.Add(67*time.Second + LagCompensation); !k.Deadline(0).Equal(want) {
		t.Fatalf("deadline %v; want %v, 7 s later", k.Deadline(0), want)
	}
	k.Charge(0, t0.Add(20*time.Second))
	if want := 60*time.Second - (13*time.Second - LagCompensation); k.Left(0) != want {
		t.Fatalf("left %v; want %v: 20 s less the 7 s of downtime", k.Left(0), want)
	}
	// Downtime before the turn began is not the turn's.
	if want := t0.Add(20*time.Second + 60*time.Second + LagCompensation); !k.Deadline(1).Equal(want) {
		t.Fatalf("seat 1's deadline %v; want %v", k.Deadline(1), want)
	}
}

// TestCorrespondence checks days per move: no time is charged, and the
// deadline is the days after the turn began, the first move included.
func TestCorrespondence(t *testing.T) {
	k := New(store.Clock{Days: 3}, 2, t0)
	if want := t0.Add(72 * time.Hour); !k.Deadline(0).Equal(want) {
		t.Fatalf("first deadline %v; want %v", k.Deadline(0), want)
	}
	k.Charge(0, t0.Add(40*time.Hour))
	if want := t0.Add(40*time.Hour + 72*time.Hour); !k.Deadline(1).Equal(want) {
		t.Fatalf("deadline %v; want %v", k.Deadline(1), want)
	}
	if lim := k.Limits(1, t0); lim.Clock.Remaining != 0 {
		t.Fatalf("limits %+v; want none for correspondence", lim)
	}
	if st := k.State(1, false); st.Days != 3 || st.Remaining != nil {
		t.Fatalf("state %+v; want days and no remaining times", st)
	}
}
