package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"stax/server/store"
)

// tokenCols are the columns of tokens that scanToken reads.
const tokenCols = `id, user_id, hash, description, scopes, created, used`

// scanToken reads the tokenCols of a row.
func scanToken(row interface{ Scan(...any) error }) (*store.Token, error) {
	var t store.Token
	var scopes string
	var created int64
	var used sql.NullInt64
	if err := row.Scan(&t.ID, &t.UserID, &t.Hash, &t.Description, &scopes, &created, &used); err != nil {
		return nil, err
	}
	t.Scopes = strings.Fields(scopes)
	t.Created, t.Used = fromMS(created), fromNullMS(used)
	return &t, nil
}

// insertToken stores t in a write's transaction: an account that does not
// exist is ErrNotFound, an id or hash taken ErrConflict.
func insertToken(ctx context.Context, tx *sql.Tx, t *store.Token) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE id = ?`, t.UserID).Scan(&n); err != nil {
		return fmt.Errorf("token %s: %w", t.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("token %s: account %s: %w", t.ID, t.UserID, store.ErrNotFound)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO tokens (`+tokenCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.UserID, t.Hash, t.Description, strings.Join(t.Scopes, " "), ms(t.Created), nullMS(t.Used))
	if isConstraint(err) {
		return fmt.Errorf("token %s: %w: its id or hash is taken", t.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("token %s: %w", t.ID, err)
	}
	return nil
}

// CreateToken implements store.Tokens.
func (s *Store) CreateToken(ctx context.Context, t *store.Token) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return insertToken(ctx, tx, t)
	})
}

// TokenByHash implements store.Tokens.
func (s *Store) TokenByHash(ctx context.Context, hash string) (*store.Token, error) {
	t, err := scanToken(s.r.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("token: %w", store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	return t, nil
}

// tokens returns an account's tokens, newest first.
func (s *Store) tokens(ctx context.Context, userID string) ([]store.Token, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE user_id = ? ORDER BY created DESC, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("tokens of %s: %w", userID, err)
	}
	defer rows.Close()
	out := []store.Token{}
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("tokens of %s: %w", userID, err)
		}
		out = append(out, *t)
	}
	return out, rows.Err()
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
	var t *store.Token
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		t, err = scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE id = ? AND user_id = ?`, id, userID))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("token %s of %s: %w", id, userID, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("token %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete token %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// TokenUsed implements store.Tokens.
func (s *Store) TokenUsed(ctx context.Context, id string, t time.Time) error {
	return s.exec(ctx, "token used", `UPDATE tokens SET used = ? WHERE id = ?`, ms(t), id)
}

// update runs one UPDATE of an account's row: an unknown account is
// ErrNotFound.
func (s *Store) update(ctx context.Context, what, userID, query string, args ...any) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("user %s: %s: %w", userID, what, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
		}
		return nil
	})
}

// SetBot implements store.Tokens.
func (s *Store) SetBot(ctx context.Context, userID string) error {
	return s.update(ctx, "make a bot", userID, `UPDATE users SET bot = 1 WHERE id = ?`, userID)
}

// SetBotsRated implements store.Tokens.
func (s *Store) SetBotsRated(ctx context.Context, userID string, accept bool) error {
	return s.update(ctx, "rated games against bots", userID, `UPDATE users SET no_rated_bots = ? WHERE id = ?`, boolInt(!accept), userID)
}

// BotSeen implements store.Tokens.
func (s *Store) BotSeen(ctx context.Context, userID string, t time.Time) error {
	return s.update(ctx, "bot seen", userID, `UPDATE users SET seen = CASE WHEN bot = 1 THEN ? ELSE seen END WHERE id = ?`, ms(t), userID)
}

// Bots implements store.Tokens.
func (s *Store) Bots(ctx context.Context, limit int) ([]*store.User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userCols+` FROM users WHERE bot = 1 ORDER BY seen DESC NULLS LAST, name_key LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	defer rows.Close()
	out := []*store.User{}
	for rows.Next() {
		var u store.User
		if err := scanUser(rows, &u); err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		out = append(out, &u)
	}
	return out, rows.Err()
}
