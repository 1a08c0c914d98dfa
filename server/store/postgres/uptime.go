package postgres

import (
	"context"
	"fmt"
	"time"

	"stax/server/store"
)

// Beat implements store.Uptime.
func (s *Store) Beat(ctx context.Context, instance string, at time.Time, gone bool) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO beats (instance, at, gone) VALUES ($1, $2, $3)
		ON CONFLICT (instance) DO UPDATE SET at = excluded.at, gone = excluded.gone`, instance, at, gone)
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	return nil
}

// Beats implements store.Uptime.
func (s *Store) Beats(ctx context.Context) ([]store.Beat, error) {
	rows, err := s.pool.Query(ctx, `SELECT instance, at, gone FROM beats ORDER BY at DESC, instance`)
	if err != nil {
		return nil, fmt.Errorf("heartbeats: %w", err)
	}
	defer rows.Close()
	var out []store.Beat
	for rows.Next() {
		var b store.Beat
		if err := rows.Scan(&b.Instance, &b.At, &b.Gone); err != nil {
			return nil, fmt.Errorf("heartbeats: %w", err)
		}
		b.At = b.At.UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

// ForgetBeats implements store.Uptime.
func (s *Store) ForgetBeats(ctx context.Context, before time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM beats WHERE at < $1`, before); err != nil {
		return fmt.Errorf("forget heartbeats: %w", err)
	}
	return nil
}

// AddOutage implements store.Uptime.
func (s *Store) AddOutage(ctx context.Context, o store.Outage) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO outages (start, "end") VALUES ($1, $2) ON CONFLICT (start) DO NOTHING`, o.Start, o.End); err != nil {
		return fmt.Errorf("record an outage: %w", err)
	}
	return nil
}

// Outages implements store.Uptime.
func (s *Store) Outages(ctx context.Context, after time.Time) ([]store.Outage, error) {
	rows, err := s.pool.Query(ctx, `SELECT start, "end" FROM outages WHERE "end" > $1 ORDER BY start`, after)
	if err != nil {
		return nil, fmt.Errorf("outages: %w", err)
	}
	defer rows.Close()
	var out []store.Outage
	for rows.Next() {
		var o store.Outage
		if err := rows.Scan(&o.Start, &o.End); err != nil {
			return nil, fmt.Errorf("outages: %w", err)
		}
		o.Start, o.End = o.Start.UTC(), o.End.UTC()
		out = append(out, o)
	}
	return out, rows.Err()
}
