// Package clock is the arithmetic of a game's clock: Fischer (an initial
// time, plus an increment after each move) or correspondence (days per
// move). A clock is a function of the time control, the game's creation
// and the time each move was committed, all of which the store keeps, so
// that a restarted server, another instance or a worker computing a
// computer's move rebuilds it exactly.
package clock

import (
	"time"

	"stax/search"
	"stax/server/store"
)

// LagCompensation is the part of each move's time that the server does not
// charge, for the network between the player and the server: a move is
// charged from the moment the previous move was committed to the moment it
// arrives, less up to this much.
const LagCompensation = 100 * time.Millisecond

// Clock is the clock of a live game.
type Clock struct {
	control store.Clock
	// left is each seat's time at the start of its turn (Fischer).
	left []time.Duration
	// since is when the current turn started: the game's creation, then
	// each move's commit.
	since time.Time
}

// New returns the clock of a game of players seats under a time control,
// created at start.
func New(control store.Clock, players int, start time.Time) *Clock {
	k := &Clock{control: control, left: make([]time.Duration, players), since: start}
	for i := range k.left {
		k.left[i] = control.Initial
	}
	return k
}

// Control returns the clock's time control.
func (k *Clock) Control() store.Clock { return k.control }

// Correspondence reports whether the clock counts days per move.
func (k *Clock) Correspondence() bool { return k.control.Days > 0 }

// Since returns when the current turn started.
func (k *Clock) Since() time.Time { return k.since }

// Left returns seat p's time at the start of its turn (Fischer).
func (k *Clock) Left(p int) time.Duration { return k.left[p] }

// SetLeft sets seat p's time at the start of its turn (for tests and
// adjustments).
func (k *Clock) SetLeft(p int, d time.Duration) { k.left[p] = d }

// Charge records a move by seat p committed at at.
func (k *Clock) Charge(p int, at time.Time) {
	if !k.Correspondence() {
		used := at.Sub(k.since)
		used -= min(used, LagCompensation)
		k.left[p] += k.control.Increment - used
	}
	k.since = at
}

// Deadline returns the moment seat p, to move, runs out of time.
func (k *Clock) Deadline(p int) time.Time {
	if k.Correspondence() {
		return k.since.Add(time.Duration(k.control.Days) * 24 * time.Hour)
	}
	return k.since.Add(k.left[p] + LagCompensation)
}

// Out reports whether seat p, to move, has run out of time at now.
func (k *Clock) Out(p int, now time.Time) bool { return now.After(k.Deadline(p)) }

// Limits returns the search limits of a computer seat p that starts
// thinking at now: in a Fischer game, its clock (the time left once what
// the turn has used so far, less the lag allowance, is taken off), so that
// the player spends its share and never runs out; otherwise none, and the
// level plays on its own budget.
func (k *Clock) Limits(p int, now time.Time) search.Limits {
	if k == nil || k.Correspondence() {
		return search.Limits{}
	}
	used := max(now.Sub(k.since)-LagCompensation, 0)
	left := max(k.left[p]-used, time.Millisecond)
	return search.Limits{Clock: search.Clock{Remaining: left, Increment: k.control.Increment}}
}

// State is a game's clock in its state message.
type State struct {
	// Initial and Increment are the Fischer time control in seconds;
	// Days the correspondence one.
	Initial   float64 `json:"initial,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	// Remaining is each seat's time in milliseconds at the start of the
	// current turn (Fischer only).
	Remaining []int64 `json:"remaining,omitempty"`
	// Since is when the current turn started; Running the seat whose
	// clock runs (-1 once the game is over); Deadline when that seat's
	// time runs out.
	Since    time.Time `json:"since"`
	Running  int       `json:"running"`
	Deadline time.Time `json:"deadline"`
}

// State returns the clock's wire form with seat toMove's clock running,
// or none running once the game is over.
func (k *Clock) State(toMove int, over bool) *State {
	cs := &State{Initial: k.control.Initial.Seconds(), Increment: k.control.Increment.Seconds(), Days: k.control.Days, Since: k.since, Running: toMove}
	if !k.Correspondence() {
		for _, d := range k.left {
			cs.Remaining = append(cs.Remaining, d.Milliseconds())
		}
	}
	if over {
		cs.Running = -1
	} else {
		cs.Deadline = k.Deadline(toMove)
	}
	return cs
}
