package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"stax/server/store"
)

// errUnchanged rolls back a write that found nothing to change, so that it
// reports no event.
var errUnchanged = errors.New("nothing changed")

// changeSeeks runs fn, which returns how many seeks it changed, in a
// write that reports an EventSeek about id when it changed any.
func (s *Store) changeSeeks(ctx context.Context, id string, fn func(ctx context.Context, tx *sql.Tx) (int64, error)) (int64, error) {
	var n int64
	err := s.writeEvent(ctx, &store.Event{Kind: store.EventSeek, Game: id}, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		n, err = fn(ctx, tx)
		if err == nil && n == 0 {
			err = errUnchanged
		}
		return err
	})
	if errors.Is(err, errUnchanged) {
		return 0, nil
	}
	return n, err
}

// deleted runs a deletion and returns how many rows it deleted.
func deleted(ctx context.Context, tx *sql.Tx, query string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// CreateSeek implements store.Seeks.
func (s *Store) CreateSeek(ctx context.Context, sk *store.Seek) error {
	_, err := s.changeSeeks(ctx, sk.ID, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		_, err := tx.ExecContext(ctx, `INSERT INTO seeks (id, owner_id, to_id, body, created, expires) VALUES (?, ?, ?, ?, ?, ?)`,
			sk.ID, sk.Owner, sk.To, sk.Body, ms(sk.Created), ms(sk.Expires))
		if isConstraint(err) {
			return 0, fmt.Errorf("seek %s: %w: the id exists", sk.ID, store.ErrConflict)
		}
		if err != nil {
			return 0, fmt.Errorf("create seek %s: %w", sk.ID, err)
		}
		return 1, nil
	})
	return err
}

const seekCols = `id, owner_id, to_id, body, created, expires`

func scanSeek(row interface{ Scan(...any) error }) (*store.Seek, error) {
	var sk store.Seek
	var created, expires int64
	if err := row.Scan(&sk.ID, &sk.Owner, &sk.To, &sk.Body, &created, &expires); err != nil {
		return nil, err
	}
	sk.Created, sk.Expires = fromMS(created), fromMS(expires)
	return &sk, nil
}

// Seeks implements store.Seeks.
func (s *Store) Seeks(ctx context.Context) ([]*store.Seek, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+seekCols+` FROM seeks ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("seeks: %w", err)
	}
	defer rows.Close()
	out := []*store.Seek{}
	for rows.Next() {
		sk, err := scanSeek(rows)
		if err != nil {
			return nil, fmt.Errorf("seeks: %w", err)
		}
		out = append(out, sk)
	}
	return out, rows.Err()
}

// GetSeek implements store.Seeks.
func (s *Store) GetSeek(ctx context.Context, id string) (*store.Seek, error) {
	sk, err := scanSeek(s.r.QueryRowContext(ctx, `SELECT `+seekCols+` FROM seeks WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("seek %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("seek %s: %w", id, err)
	}
	return sk, nil
}

// TakeSeek implements store.Seeks.
func (s *Store) TakeSeek(ctx context.Context, id string) error {
	n, err := s.changeSeeks(ctx, id, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		return deleted(ctx, tx, `DELETE FROM seeks WHERE id = ?`, id)
	})
	if err != nil {
		return fmt.Errorf("take seek %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("seek %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// DeleteSeeks implements store.Seeks.
func (s *Store) DeleteSeeks(ctx context.Context, userID string) error {
	_, err := s.changeSeeks(ctx, "", func(ctx context.Context, tx *sql.Tx) (int64, error) {
		return deleted(ctx, tx, `DELETE FROM seeks WHERE owner_id = ? OR to_id = ?`, userID, userID)
	})
	if err != nil {
		return fmt.Errorf("delete the seeks of %s: %w", userID, err)
	}
	return nil
}

// Present implements store.Seeks.
func (s *Store) Present(ctx context.Context, instance string, users []string, until time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, u := range users {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lobby_presence (user_id, instance, until) VALUES (?, ?, ?)
				ON CONFLICT (user_id, instance) DO UPDATE SET until = excluded.until`, u, instance, ms(until)); err != nil {
				return fmt.Errorf("lobby presence of %s: %w", u, err)
			}
		}
		return nil
	})
}

// Leave implements store.Seeks.
func (s *Store) Leave(ctx context.Context, instance, user string, now time.Time) error {
	if err := s.exec(ctx, "leave the lobby", `DELETE FROM lobby_presence WHERE user_id = ? AND instance = ?`, user, instance); err != nil {
		return err
	}
	_, err := s.changeSeeks(ctx, "", func(ctx context.Context, tx *sql.Tx) (int64, error) {
		return deleted(ctx, tx, `DELETE FROM seeks WHERE owner_id = ?
			AND NOT EXISTS (SELECT 1 FROM lobby_presence WHERE user_id = ? AND until > ?)`, user, user, ms(now))
	})
	if err != nil {
		return fmt.Errorf("withdraw the seeks of %s: %w", user, err)
	}
	return nil
}

// ExpireSeeks implements store.Seeks.
func (s *Store) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	// Most sweeps find nothing: look before writing.
	var due int
	err := s.r.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM lobby_presence WHERE until <= ?) +
		(SELECT COUNT(*) FROM seeks WHERE expires <= ?
			AND NOT EXISTS (SELECT 1 FROM lobby_presence WHERE user_id = seeks.owner_id AND until > ?))`, ms(now), ms(now), ms(now)).Scan(&due)
	if err != nil || due == 0 {
		return 0, err
	}
	if err := s.exec(ctx, "forget lobby presence", `DELETE FROM lobby_presence WHERE until <= ?`, ms(now)); err != nil {
		return 0, err
	}
	n, err := s.changeSeeks(ctx, "", func(ctx context.Context, tx *sql.Tx) (int64, error) {
		return deleted(ctx, tx, `DELETE FROM seeks WHERE expires <= ?
			AND NOT EXISTS (SELECT 1 FROM lobby_presence WHERE user_id = seeks.owner_id AND until > ?)`, ms(now), ms(now))
	})
	if err != nil {
		return 0, fmt.Errorf("expire seeks: %w", err)
	}
	return int(n), nil
}
