package httpx

import (
	"context"
	"time"
)

// Every calls f with the time every period until ctx is done: the sweeps
// and clocks of the domains. It returns when ctx is done.
func Every(ctx context.Context, period time.Duration, f func(now time.Time)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			f(now)
		}
	}
}
