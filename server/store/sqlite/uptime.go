package sqlite

import (
	"context"
	"fmt"
	"time"

	"stax/server/store"
)

// Beat implements store.Uptime.
func (s *Store) Beat(ctx context.Context, instance string, at time.Time, gone bool) error {
	return s.exec(ctx, "heartbeat", `INSERT INTO beats (instance, at, gone) VALUES (?, ?, ?)
		ON CONFLICT (instance) DO UPDATE SET at = excluded.at, gone = excluded.gone`, instance, ms(at), gone)
}

// Beats implements store.Uptime.
func (s *Store) Beats(ctx context.Context) ([]store.Beat, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT instance, at, gone FROM beats ORDER BY at DESC, instance`)
	if err != nil {
		return nil, fmt.Errorf("heartbeats: %w", err)
	}
	defer rows.Close()
	var out []store.Beat
	for rows.Next() {
		var b store.Beat
		var at int64
		if err := rows.Scan(&b.Instance, &at, &b.Gone); err != nil {
			return nil, fmt.Errorf("heartbeats: %w", err)
		}
		b.At = fromMS(at)
		out = append(out, b)
	}
	return out, rows.Err()
}

// ForgetBeats implements store.Uptime.
func (s *Store) ForgetBeats(ctx context.Context, before time.Time) error {
	return s.exec(ctx, "forget heartbeats", `DELETE FROM beats WHERE at < ?`, ms(before))
}

// AddOutage implements store.Uptime.
func (s *Store) AddOutage(ctx context.Context, o store.Outage) error {
	return s.exec(ctx, "record an outage", `INSERT INTO outages (start, end) VALUES (?, ?) ON CONFLICT (start) DO NOTHING`, ms(o.Start), ms(o.End))
}

// Outages implements store.Uptime.
func (s *Store) Outages(ctx context.Context, after time.Time) ([]store.Outage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT start, end FROM outages WHERE end > ? ORDER BY start`, ms(after))
	if err != nil {
		return nil, fmt.Errorf("outages: %w", err)
	}
	defer rows.Close()
	var out []store.Outage
	for rows.Next() {
		var start, end int64
		if err := rows.Scan(&start, &end); err != nil {
			return nil, fmt.Errorf("outages: %w", err)
		}
		out = append(out, store.Outage{Start: fromMS(start), End: fromMS(end)})
	}
	return out, rows.Err()
}
