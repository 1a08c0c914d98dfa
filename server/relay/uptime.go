package relay

import (
	"context"
	"fmt"
	"time"

	"stax/server/store"
)

// BeatEvery is how often an instance records its sign of life (see
// store.Uptime), and BeatGrace how long one may go without it before the
// next instance to start takes the site for stopped since its last one.
// A crashed site thus charges at most BeatGrace of its downtime to the
// players to move; a stopped one, none.
const (
	BeatEvery = time.Second
	BeatGrace = 2 * BeatEvery
)

// Beat records this instance's sign of life; gone says it is stopping.
// Live play calls it every BeatEvery.
func (r *Relay) Beat(gone bool) {
	ctx, cancel := context.WithTimeout(context.Background(), BeatEvery)
	defer cancel()
	if err := r.cfg.Uptime.Beat(ctx, r.cfg.Instance, r.cfg.Now(), gone); err != nil {
		r.cfg.Log.Warn("heartbeat", "err", err)
	}
}

// Arrive records the site's downtime before this instance's start, when
// no other instance is serving: from the last sign of life of any
// instance to now. It then says that this instance is alive, and returns
// the outages since since, which the games' clocks charge to nobody.
func (r *Relay) Arrive(ctx context.Context, since time.Time) ([]store.Outage, error) {
	now := r.cfg.Now()
	beats, err := r.cfg.Uptime.Beats(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the instances' heartbeats: %w", err)
	}
	alive := false
	for _, b := range beats {
		alive = alive || !b.Gone && now.Sub(b.At) < BeatGrace
	}
	if len(beats) > 0 && !alive && now.After(beats[0].At) {
		o := store.Outage{Start: beats[0].At, End: now}
		if err := r.cfg.Uptime.AddOutage(ctx, o); err != nil {
			// A database that refuses writes still serves what it
			// holds (and /healthz says it is unwell).
			r.cfg.Log.Error("record the downtime", "from", o.Start, "err", err)
		} else {
			r.cfg.Log.Info("downtime before this start, charged to no player", "from", o.Start, "for", o.End.Sub(o.Start))
		}
	}
	outages, err := r.cfg.Uptime.Outages(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("read the downtime: %w", err)
	}
	r.Beat(false)
	// The beats of the instances long gone are of no more use.
	if err := r.cfg.Uptime.ForgetBeats(ctx, now.Add(-time.Hour)); err != nil {
		r.cfg.Log.Warn("forget old heartbeats", "err", err)
	}
	return outages, nil
}
