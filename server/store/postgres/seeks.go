package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// changeSeeks runs a statement that deletes seeks and, when it deleted
// any, announces an EventSeek about id once it is committed; it returns how
// many it deleted.
func (s *Store) changeSeeks(ctx context.Context, id, query string, args ...any) (int64, error) {
	tag, err := s.pool.Exec(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	if n := tag.RowsAffected(); n > 0 {
		s.tell(ctx, store.Event{Kind: store.EventSeek, Game: id})
		return n, nil
	}
	return 0, nil
}

// CreateSeek implements store.Seeks.
func (s *Store) CreateSeek(ctx context.Context, sk *store.Seek) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO seeks (id, owner_id, to_id, body, created, expires) VALUES ($1, $2, $3, $4, $5, $6)`,
		sk.ID, sk.Owner, sk.To, sk.Body, sk.Created, sk.Expires)
	if isConflict(err) {
		return fmt.Errorf("seek %s: %w: the id exists", sk.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("create seek %s: %w", sk.ID, err)
	}
	s.tell(ctx, store.Event{Kind: store.EventSeek, Game: sk.ID})
	return nil
}

const seekCols = `id, owner_id, to_id, body, created, expires`

func scanSeek(row pgx.Row) (*store.Seek, error) {
	var sk store.Seek
	if err := row.Scan(&sk.ID, &sk.Owner, &sk.To, &sk.Body, &sk.Created, &sk.Expires); err != nil {
		return nil, err
	}
	sk.Created, sk.Expires = sk.Created.UTC(), sk.Expires.UTC()
	return &sk, nil
}

// Seeks implements store.Seeks.
func (s *Store) Seeks(ctx context.Context) ([]*store.Seek, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+seekCols+` FROM seeks ORDER BY created, id`)
	if err != nil {
		return nil, fmt.Errorf("seeks: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*store.Seek, error) { return scanSeek(row) })
	if err != nil {
		return nil, fmt.Errorf("seeks: %w", err)
	}
	if out == nil {
		out = []*store.Seek{}
	}
	return out, nil
}

// GetSeek implements store.Seeks.
func (s *Store) GetSeek(ctx context.Context, id string) (*store.Seek, error) {
	sk, err := scanSeek(s.pool.QueryRow(ctx, `SELECT `+seekCols+` FROM seeks WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("seek %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("seek %s: %w", id, err)
	}
	return sk, nil
}

// TakeSeek implements store.Seeks.
func (s *Store) TakeSeek(ctx context.Context, id string) error {
	n, err := s.changeSeeks(ctx, id, `DELETE FROM seeks WHERE id = $1`, id)
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
	if _, err := s.changeSeeks(ctx, "", `DELETE FROM seeks WHERE owner_id = $1 OR to_id = $1`, userID); err != nil {
		return fmt.Errorf("delete the seeks of %s: %w", userID, err)
	}
	return nil
}

// Present implements store.Seeks.
func (s *Store) Present(ctx context.Context, instance string, users []string, until time.Time) error {
	if len(users) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO lobby_presence (user_id, instance, until) SELECT u, $2, $3 FROM unnest($1::text[]) AS u
		ON CONFLICT (user_id, instance) DO UPDATE SET until = excluded.until`, users, instance, until)
	if err != nil {
		return fmt.Errorf("lobby presence: %w", err)
	}
	return nil
}

// Leave implements store.Seeks.
func (s *Store) Leave(ctx context.Context, instance, user string, now time.Time) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM lobby_presence WHERE user_id = $1 AND instance = $2`, user, instance); err != nil {
		return fmt.Errorf("leave the lobby: %w", err)
	}
	if _, err := s.changeSeeks(ctx, "", `DELETE FROM seeks WHERE owner_id = $1
		AND NOT EXISTS (SELECT 1 FROM lobby_presence WHERE user_id = $1 AND until > $2)`, user, now); err != nil {
		return fmt.Errorf("withdraw the seeks of %s: %w", user, err)
	}
	return nil
}

// ExpireSeeks implements store.Seeks.
func (s *Store) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	if _, err := s.pool.Exec(ctx, `DELETE FROM lobby_presence WHERE until <= $1`, now); err != nil {
		return 0, fmt.Errorf("forget lobby presence: %w", err)
	}
	n, err := s.changeSeeks(ctx, "", `DELETE FROM seeks WHERE expires <= $1
		AND NOT EXISTS (SELECT 1 FROM lobby_presence WHERE user_id = seeks.owner_id AND until > $1)`, now)
	if err != nil {
		return 0, fmt.Errorf("expire seeks: %w", err)
	}
	return int(n), nil
}
