package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// Pair implements store.Pairing. A transaction-scoped advisory lock on the
// pool serialises the instances pairing in it, so that two players asking
// at once find each other.
func (s *Store) Pair(ctx context.Context, req store.PairRequest) (*store.Waiting, error) {
	w := req.Waiting
	var partner *store.Waiting
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		partner = nil
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('pairing ' || $1))`, w.Pool); err != nil {
			return err
		}
		var created time.Time
		err := tx.QueryRow(ctx, `SELECT created FROM pairing WHERE pool = $1 AND user_id = $2 AND expires > $3`, w.Pool, w.User, req.Now).Scan(&created)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if req.Renew {
				return fmt.Errorf("%s in pool %s: %w", w.User, w.Pool, store.ErrNotFound)
			}
		case err != nil:
			return err
		default:
			w.Created = created.UTC()
		}
		rows, err := tx.Query(ctx, `SELECT pool, user_id, rating, body, created, expires FROM pairing
			WHERE pool = $1 AND user_id <> $2 AND expires > $3 ORDER BY created, user_id`, w.Pool, w.User, req.Now)
		if err != nil {
			return err
		}
		others, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*store.Waiting, error) {
			var o store.Waiting
			if err := row.Scan(&o.Pool, &o.User, &o.Rating, &o.Body, &o.Created, &o.Expires); err != nil {
				return nil, err
			}
			o.Created, o.Expires = o.Created.UTC(), o.Expires.UTC()
			return &o, nil
		})
		if err != nil {
			return err
		}
		for _, o := range others {
			if req.Match(w, o) {
				partner = o
				break
			}
		}
		if partner != nil {
			_, err := tx.Exec(ctx, `DELETE FROM pairing WHERE pool = $1 AND user_id IN ($2, $3)`, w.Pool, w.User, partner.User)
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO pairing (pool, user_id, rating, body, created, expires) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (pool, user_id) DO UPDATE SET rating = excluded.rating, body = excluded.body, expires = excluded.expires,
			created = CASE WHEN pairing.expires > $7 THEN pairing.created ELSE excluded.created END`,
			w.Pool, w.User, w.Rating, w.Body, w.Created, w.Expires, req.Now)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pair %s in %s: %w", w.User, w.Pool, err)
	}
	return partner, nil
}

// Unwait implements store.Pairing.
func (s *Store) Unwait(ctx context.Context, user, pool string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM pairing WHERE user_id = $1 AND ($2 = '' OR pool = $2)`, user, pool)
	if err != nil {
		return fmt.Errorf("stop pairing %s: %w", user, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s waits in no pool %q: %w", user, pool, store.ErrNotFound)
	}
	return nil
}

// ExpireWaiting implements store.Pairing.
func (s *Store) ExpireWaiting(ctx context.Context, now time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM pairing WHERE expires <= $1`, now)
	if err != nil {
		return 0, fmt.Errorf("expire pairing: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
