package engine

import "time"

// Clock is the time a Client and the match runner measure moves and wait
// by: SystemClock, or in tests a fake clock that moves only when told, so
// that a timeout happens when the test says and never because the
// machine is slow.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// After returns a channel that receives the time once d has passed,
	// and a function that stops the wait, reporting whether it stopped
	// it before it fired.
	After(d time.Duration) (<-chan time.Time, func() bool)
}

// SystemClock is the clock of the system: time.Now and time.NewTimer.
var SystemClock Clock = systemClock{}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) After(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}
