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

// FirstMoveWindow is how long a player has for their first move in a
// Fischer game: their clock starts only once they have made it, and a
// player who does not make it in time has the game aborted, unrated, with
// no loss for anyone. (A correspondence game gives the days per move.)
const FirstMoveWindow = 30 * time.Second

// Clock is the clock of a live game.
type Clock struct {
	control store.Clock
	// left is each seat's time at the start of its turn (Fischer).
	left []time.Duration
	// since is when the current turn started: the game's creation, then
	// each move's commit.
	since time.Time
	// moved records the seats that have made their first move: until
	// then a seat's clock does not run.
	moved []bool
	// paused lists the intervals during which no instance served the
	// game (the server's downtime), which no seat is charged for.
	paused []store.Outage
	// stopped is when the game ended for a reason its moves do not show
	// (time, resignation, agreement, abort); zero otherwise.
	stopped time.Time
}

// New returns the clock of a game of players seats under a time control,
// created at start.
func New(control store.Clock, players int, start time.Time) *Clock {
	k := &Clock{control: control, left: make([]time.Duration, players), since: start, moved: make([]bool, players)}
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

// Pause records an outage, an interval during which no instance served
// the game: the time of a turn that falls in it is not charged.
func (k *Clock) Pause(iv store.Outage) {
	if iv.End.After(iv.Start) {
		k.paused = append(k.paused, iv)
	}
}

// pausedIn returns how much of [from, to] no instance served.
func (k *Clock) pausedIn(from, to time.Time) time.Duration {
	var d time.Duration
	for _, iv := range k.paused {
		s, e := later(iv.Start, from), earlier(iv.End, to)
		if e.After(s) {
			d += e.Sub(s)
		}
	}
	return d
}

// pausedSince returns how much time after from no instance served.
func (k *Clock) pausedSince(from time.Time) time.Duration {
	var d time.Duration
	for _, iv := range k.paused {
		if s := later(iv.Start, from); iv.End.After(s) {
			d += iv.End.Sub(s)
		}
	}
	return d
}

// Stop records that the game ended at at for a reason its moves do not
// show, so that State shows the time the seat to move had left then; the
// zero time undoes it.
func (k *Clock) Stop(at time.Time) { k.stopped = at }

// Moved reports whether seat p has made its first move, so that its
// clock runs.
func (k *Clock) Moved(p int) bool { return k.moved[p] }

// Charge records a move by seat p committed at at. A seat's first move is
// not charged (its clock starts with it), nor is the time no instance
// served the game.
func (k *Clock) Charge(p int, at time.Time) {
	if !k.Correspondence() && k.moved[p] {
		used := at.Sub(k.since) - k.pausedIn(k.since, at)
		used -= min(used, LagCompensation)
		k.left[p] += k.control.Increment - used
	}
	k.moved[p] = true
	k.since = at
}

// Deadline returns the moment seat p, to move, runs out of time; before
// its first move, the end of its first-move window (see FirstMoveWindow),
// when the game is aborted instead.
func (k *Clock) Deadline(p int) time.Time {
	var d time.Duration
	switch {
	case k.Correspondence():
		d = time.Duration(k.control.Days) * 24 * time.Hour
	case !k.moved[p]:
		d = FirstMoveWindow
	default:
		d = k.left[p] + LagCompensation
	}
	return k.since.Add(d + k.pausedSince(k.since))
}

// Out reports whether seat p, to move, has run out of time at now: at the
// deadline or after it.
func (k *Clock) Out(p int, now time.Time) bool { return !now.Before(k.Deadline(p)) }

// Limits returns the search limits of a computer seat p that starts
// thinking at now: in a Fischer game, its clock (the time left once what
// the turn has used so far, less the lag allowance, is taken off), so that
// the player spends its share and never runs out; otherwise none, and the
// level plays on its own budget.
func (k *Clock) Limits(p int, now time.Time) search.Limits {
	if k == nil || k.Correspondence() {
		return search.Limits{}
	}
	if !k.moved[p] {
		// The first move is free: the player's own budget, within the
		// window.
		return search.Limits{}
	}
	used := max(now.Sub(k.since)-k.pausedIn(k.since, now)-LagCompensation, 0)
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
	// current turn (Fischer only); once the game is over, the time left at
	// its end (0 for a seat that ran out of time).
	Remaining []int64 `json:"remaining,omitempty"`
	// FirstMove is true while the seat to move has not made its first
	// move: its clock does not run yet, and Deadline is the end of its
	// first-move window, when the game is aborted.
	FirstMove bool `json:"firstMove,omitempty"`
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
		if !k.stopped.IsZero() && !k.Correspondence() && k.moved[toMove] {
			used := k.stopped.Sub(k.since) - k.pausedIn(k.since, k.stopped)
			used -= min(used, LagCompensation)
			cs.Remaining[toMove] = max(k.left[toMove]-used, 0).Milliseconds()
		}
	} else {
		cs.Deadline = k.Deadline(toMove)
		cs.FirstMove = !k.moved[toMove]
	}
	return cs
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
