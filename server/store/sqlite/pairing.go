package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"stax/server/store"
)

// Pair implements store.Pairing. The writer's transactions are immediate,
// so one instance at a time pairs in the whole database.
func (s *Store) Pair(ctx context.Context, req store.PairRequest) (*store.Waiting, error) {
	w := req.Waiting
	var partner *store.Waiting
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		partner = nil
		now := ms(req.Now)
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT created FROM pairing WHERE pool = ? AND user_id = ? AND expires > ?`, w.Pool, w.User, now).Scan(&created)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if req.Renew {
				return fmt.Errorf("%s in pool %s: %w", w.User, w.Pool, store.ErrNotFound)
			}
		case err != nil:
			return err
		default:
			w.Created = fromMS(created)
		}
		rows, err := tx.QueryContext(ctx, `SELECT pool, user_id, rating, body, created, expires FROM pairing
			WHERE pool = ? AND user_id != ? AND expires > ? ORDER BY created, user_id`, w.Pool, w.User, now)
		if err != nil {
			return err
		}
		var others []*store.Waiting
		for rows.Next() {
			var o store.Waiting
			var c, e int64
			if err := rows.Scan(&o.Pool, &o.User, &o.Rating, &o.Body, &c, &e); err != nil {
				rows.Close()
				return err
			}
			o.Created, o.Expires = fromMS(c), fromMS(e)
			others = append(others, &o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, o := range others {
			if req.Match(w, o) {
				partner = o
				break
			}
		}
		if partner != nil {
			_, err := tx.ExecContext(ctx, `DELETE FROM pairing WHERE pool = ? AND user_id IN (?, ?)`, w.Pool, w.User, partner.User)
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO pairing (pool, user_id, rating, body, created, expires) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (pool, user_id) DO UPDATE SET rating = excluded.rating, body = excluded.body, expires = excluded.expires,
			created = CASE WHEN pairing.expires > ? THEN pairing.created ELSE excluded.created END`,
			w.Pool, w.User, w.Rating, w.Body, ms(w.Created), ms(w.Expires), now)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pair %s in %s: %w", w.User, w.Pool, err)
	}
	return partner, nil
}

// Unwait implements store.Pairing.
func (s *Store) Unwait(ctx context.Context, user, pool string) error {
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if pool == "" {
			n, err = deleted(ctx, tx, `DELETE FROM pairing WHERE user_id = ?`, user)
		} else {
			n, err = deleted(ctx, tx, `DELETE FROM pairing WHERE user_id = ? AND pool = ?`, user, pool)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("stop pairing %s: %w", user, err)
	}
	if n == 0 {
		return fmt.Errorf("%s waits in no pool %q: %w", user, pool, store.ErrNotFound)
	}
	return nil
}

// ExpireWaiting implements store.Pairing.
func (s *Store) ExpireWaiting(ctx context.Context, now time.Time) (int, error) {
	// Most sweeps find nothing: look before writing.
	var due int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM pairing WHERE expires <= ?`, ms(now)).Scan(&due); err != nil || due == 0 {
		return 0, err
	}
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		n, err = deleted(ctx, tx, `DELETE FROM pairing WHERE expires <= ?`, ms(now))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("expire pairing: %w", err)
	}
	return int(n), nil
}
