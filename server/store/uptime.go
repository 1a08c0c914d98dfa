package store

import (
	"context"
	"time"
)

// Beat is an instance's last sign of life: when it last said it served the
// site, and whether it said it was stopping.
type Beat struct {
	Instance string
	At       time.Time
	Gone     bool
}

// Outage is an interval during which no instance served the site: the time
// of a game's turn that falls in it is charged to nobody.
type Outage struct {
	Start, End time.Time
}

// Uptime keeps when the site was served: each instance's heartbeat, and
// the outages found from them when an instance starts after every other
// had stopped or fallen silent.
type Uptime interface {
	// Beat records instance's sign of life at at; gone says that it is
	// stopping.
	Beat(ctx context.Context, instance string, at time.Time, gone bool) error
	// Beats returns every instance's last beat, latest first.
	Beats(ctx context.Context) ([]Beat, error)
	// ForgetBeats deletes the beats older than before.
	ForgetBeats(ctx context.Context, before time.Time) error
	// AddOutage records an outage; one starting when a recorded one
	// starts is the same outage, told twice (two instances starting at
	// once), and is not added again.
	AddOutage(ctx context.Context, o Outage) error
	// Outages returns the outages that end after after, oldest first.
	Outages(ctx context.Context, after time.Time) ([]Outage, error)
}
