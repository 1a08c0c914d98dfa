package clock

import (
	"testing"
	"time"

	"stax/server/store"
)

// TestFischer checks the arithmetic a player relies on: each move is
// charged from the previous commit less the lag allowance, the increment
// is added, and the deadline and a computer's limits follow.
func TestFischer(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	k := New(store.Clock{Initial: 60 * time.Second, Increment: 2 * time.Second}, 2, t0)
	steps := []struct {
		seat     int
		after    time.Duration // since the previous commit
		wantLeft time.Duration // the seat's time after its move
	}{
		{0, 5 * time.Second, 60*time.Second + 2*time.Second - (5*time.Second - LagCompensation)},
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
	if k.Out(p, k.Deadline(p)) || !k.Out(p, k.Deadline(p).Add(time.Millisecond)) {
		t.Fatal("a seat is out of time just after its deadline, not at it")
	}
	lim := k.Limits(p, at.Add(3*time.Second))
	if want := k.Left(p) - (3*time.Second - LagCompensation); lim.Clock.Remaining != want || lim.Clock.Increment != 2*time.Second {
		t.Fatalf("limits %+v; want %v left and 2s increment", lim.Clock, want)
	}
	if lim := k.Limits(p, at.Add(time.Hour)); lim.Clock.Remaining != time.Millisecond {
		t.Fatalf("limits past the deadline %+v; want the least time, 1ms", lim.Clock)
	}
	st := k.State(p, false)
	if st.Running != p || len(st.Remaining) != 2 || !st.Deadline.Equal(k.Deadline(p)) || st.Initial != 60 || st.Increment != 2 {
		t.Fatalf("state %+v", st)
	}
	if st := k.State(p, true); st.Running != -1 || !st.Deadline.IsZero() {
		t.Fatalf("state of a finished game %+v; want no clock running", st)
	}
}

// TestCorrespondence checks days per move: no time is charged, and the
// deadline is the days after the turn began.
func TestCorrespondence(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	k := New(store.Clock{Days: 3}, 2, t0)
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
