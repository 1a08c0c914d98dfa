package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"stax/server/store"
)

// tokenCols are the columns of tokens that scanToken reads.
const tokenCols = `id, user_id, hash, description, scopes, created, used`

// scanToken reads the tokenCols of a row.
func scanToken(row pgx.Row) (*store.Token, error) {
	var t store.Token
	var scopes string
	var used *time.Time
	if err := row.Scan(&t.ID, &t.UserID, &t.Hash, &t.Description, &scopes, &t.Created, &used); err != nil {
		return nil, err
	}
	t.Scopes = strings.Fields(scopes)
	t.Created = t.Created.UTC()
	if used != nil {
		t.Used = used.UTC()
	}
	return &t, nil
}

// nullTime is a time for a column where NULL stands for the zero time.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// execer runs a statement: the pool, or a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// insertToken stores t: an account that does not exist is ErrNotFound, an
// id or hash taken ErrConflict.
func insertToken(ctx context.Context, db execer, t *store.Token) error {
	_, err := db.Exec(ctx, `INSERT INTO tokens (`+tokenCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		t.ID, t.UserID, t.Hash, t.Description, strings.Join(t.Scopes, " "), t.Created, nullTime(t.Used))
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "23503":
		return fmt.Errorf("token %s: account %s: %w", t.ID, t.UserID, store.ErrNotFound)
	case isConflict(err):
		return fmt.Errorf("token %s: %w: its id or hash is taken", t.ID, store.ErrConflict)
	case err != nil:
		return fmt.Errorf("token %s: %w", t.ID, err)
	}
	return nil
}

// CreateToken implements store.Tokens.
func (s *Store) CreateToken(ctx context.Context, t *store.Token) error {
	return insertToken(ctx, s.pool, t)
}

// TokenByHash implements store.Tokens.
func (s *Store) TokenByHash(ctx context.Context, hash string) (*store.Token, error) {
	t, err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("token: %w", store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	return t, nil
}

// tokens returns an account's tokens, newest first.
func (s *Store) tokens(ctx context.Context, userID string) ([]store.Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+tokenCols+` FROM tokens WHERE user_id = $1 ORDER BY created DESC, id COLLATE "C"`, userID)
	if err != nil {
		return nil, fmt.Errorf("tokens of %s: %w", userID, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Token, error) {
		t, err := scanToken(row)
		if err != nil {
			return store.Token{}, err
		}
		return *t, nil
	})
	if err != nil {
		return nil, fmt.Errorf("tokens of %s: %w", userID, err)
	}
	if out == nil {
		out = []store.Token{}
	}
	return out, nil
}

// TokensOf implements store.Tokens.
func (s *Store) TokensOf(ctx context.Context, userID string) ([]*store.Token, error) {
	ts, err := s.tokens(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]*store.Token, len(ts))
	for i := range ts {
		out[i] = &ts[i]
	}
	return out, nil
}

// DeleteToken implements store.Tokens.
func (s *Store) DeleteToken(ctx context.Context, userID, id string) (*store.Token, error) {
	t, err := scanToken(s.pool.QueryRow(ctx, `DELETE FROM tokens WHERE id = $1 AND user_id = $2 RETURNING `+tokenCols, id, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("token %s of %s: %w", id, userID, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("delete token %s: %w", id, err)
	}
	return t, nil
}

// TokenUsed implements store.Tokens.
func (s *Store) TokenUsed(ctx context.Context, id string, t time.Time) error {
	return s.exec(ctx, "token used", `UPDATE tokens SET used = $1 WHERE id = $2`, t, id)
}

// update runs one UPDATE of an account's row: an unknown account is
// ErrNotFound.
func (s *Store) update(ctx context.Context, what, userID, query string, args ...any) error {
	tag, err := s.pool.Exec(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("user %s: %s: %w", userID, what, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
	}
	return nil
}

// SetBot implements store.Tokens.
func (s *Store) SetBot(ctx context.Context, userID string) error {
	return s.update(ctx, "make a bot", userID, `UPDATE users SET bot = true WHERE id = $1`, userID)
}

// SetBotsRated implements store.Tokens.
func (s *Store) SetBotsRated(ctx context.Context, userID string, accept bool) error {
	return s.update(ctx, "rated games against bots", userID, `UPDATE users SET no_rated_bots = $1 WHERE id = $2`, !accept, userID)
}

// BotSeen implements store.Tokens.
func (s *Store) BotSeen(ctx context.Context, userID string, t time.Time) error {
	return s.update(ctx, "bot seen", userID, `UPDATE users SET seen = CASE WHEN bot THEN $1 ELSE seen END WHERE id = $2`, t, userID)
}

// Bots implements store.Tokens.
func (s *Store) Bots(ctx context.Context, limit int) ([]*store.User, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+userCols+` FROM users WHERE bot ORDER BY seen DESC NULLS LAST, name_key LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*store.User, error) {
		var u store.User
		return &u, scanUser(row, &u)
	})
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	if out == nil {
		out = []*store.User{}
	}
	return out, nil
}
