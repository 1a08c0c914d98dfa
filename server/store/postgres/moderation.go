package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// Block implements store.Moderation.
func (s *Store) Block(ctx context.Context, userID, blocked string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO blocks (user_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, userID, blocked)
	if isConflict(err) {
		return fmt.Errorf("block %s by %s: %w: no such account", blocked, userID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("block %s by %s: %w", blocked, userID, err)
	}
	return nil
}

// Unblock implements store.Moderation.
func (s *Store) Unblock(ctx context.Context, userID, blocked string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2`, userID, blocked); err != nil {
		return fmt.Errorf("unblock %s by %s: %w", blocked, userID, err)
	}
	return nil
}

// Blocks implements store.Moderation.
func (s *Store) Blocks(ctx context.Context) ([]store.Block, error) {
	rows, err := s.pool.Query(ctx, `SELECT b.user_id, b.blocked_id, u.name FROM blocks b JOIN users u ON u.id = b.blocked_id
		ORDER BY b.user_id COLLATE "C", u.name_key COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	out := []store.Block{}
	for rows.Next() {
		var b store.Block
		if err := rows.Scan(&b.UserID, &b.Blocked, &b.BlockedName); err != nil {
			rows.Close()
			return nil, fmt.Errorf("blocks: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// AddReport implements store.Moderation.
func (s *Store) AddReport(ctx context.Context, r *store.Report) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO reports (id, reporter, target, game_id, chat, reason, created) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		r.ID, r.Reporter, r.Target, r.Game, r.Chat, r.Reason, r.Created)
	if isConflict(err) {
		return fmt.Errorf("report %s: %w: the id exists", r.ID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("add report %s: %w", r.ID, err)
	}
	return nil
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, all bool, limit int) ([]*store.Report, error) {
	q := `SELECT id, reporter, target, game_id, chat, reason, created, closed, note FROM reports`
	if !all {
		q += ` WHERE closed IS NULL`
	}
	rows, err := s.pool.Query(ctx, q+` ORDER BY created, id COLLATE "C" LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	out := []*store.Report{}
	for rows.Next() {
		var r store.Report
		var closed *time.Time
		if err := rows.Scan(&r.ID, &r.Reporter, &r.Target, &r.Game, &r.Chat, &r.Reason, &r.Created, &closed, &r.Note); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reports: %w", err)
		}
		r.Created = r.Created.UTC()
		if closed != nil {
			r.Closed = closed.UTC()
		}
		out = append(out, &r)
	}
	return out, rows.Err()
}

// CloseReport implements store.Moderation.
func (s *Store) CloseReport(ctx context.Context, id, note string, at time.Time) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var closed *time.Time
		err := tx.QueryRow(ctx, `SELECT closed FROM reports WHERE id = $1 FOR UPDATE`, id).Scan(&closed)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("report %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("report %s: %w", id, err)
		}
		if closed != nil {
			return fmt.Errorf("report %s: %w: closed already", id, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `UPDATE reports SET closed = $1, note = $2 WHERE id = $3`, at, note, id); err != nil {
			return fmt.Errorf("close report %s: %w", id, err)
		}
		return nil
	})
}

// Restrict implements store.Moderation.
func (s *Store) Restrict(ctx context.Context, r store.Restriction) error {
	if !r.Muted && !r.Disabled {
		var n int
		if err := s.pool.QueryRow(ctx, `WITH d AS (DELETE FROM restrictions WHERE user_id = $1)
			SELECT count(*) FROM users WHERE id = $1`, r.UserID).Scan(&n); err != nil {
			return fmt.Errorf("restrict %s: %w", r.UserID, err)
		}
		if n == 0 {
			return fmt.Errorf("restrict %s: %w: no such account", r.UserID, store.ErrNotFound)
		}
		return nil
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO restrictions (user_id, muted, disabled) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET muted = excluded.muted, disabled = excluded.disabled`, r.UserID, r.Muted, r.Disabled)
	if isConflict(err) {
		return fmt.Errorf("restrict %s: %w: no such account", r.UserID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("restrict %s: %w", r.UserID, err)
	}
	return nil
}

// Restrictions implements store.Moderation.
func (s *Store) Restrictions(ctx context.Context) ([]store.Restriction, error) {
	rows, err := s.pool.Query(ctx, `SELECT user_id, muted, disabled FROM restrictions ORDER BY user_id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("restrictions: %w", err)
	}
	out := []store.Restriction{}
	for rows.Next() {
		var r store.Restriction
		if err := rows.Scan(&r.UserID, &r.Muted, &r.Disabled); err != nil {
			rows.Close()
			return nil, fmt.Errorf("restrictions: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CreateReset implements store.Moderation.
func (s *Store) CreateReset(ctx context.Context, tokenHash, userID string, expires time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO password_resets (token_hash, user_id, expires) VALUES ($1, $2, $3)`, tokenHash, userID, expires)
	if isConflict(err) {
		return fmt.Errorf("password reset for %s: %w: no such account", userID, store.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("password reset for %s: %w", userID, err)
	}
	return nil
}

// UseReset implements store.Moderation.
func (s *Store) UseReset(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	var userID string
	err := s.pool.QueryRow(ctx, `DELETE FROM password_resets WHERE token_hash = $1 AND expires > $2 RETURNING user_id`, tokenHash, now).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("password reset: %w: the link is unknown, used or expired", store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("password reset: %w", err)
	}
	return userID, nil
}

// RemoveChat implements store.Moderation.
func (s *Store) RemoveChat(ctx context.Context, r store.ChatRemoval) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO chat_removals (game_id, sender, text, removed) VALUES ($1, $2, $3, $4)`,
		r.Game, r.From, r.Text, r.Removed); err != nil {
		return fmt.Errorf("remove chat line: %w", err)
	}
	return nil
}

// ChatRemovals implements store.Moderation.
func (s *Store) ChatRemovals(ctx context.Context, since time.Time) ([]store.ChatRemoval, error) {
	rows, err := s.pool.Query(ctx, `SELECT game_id, sender, text, removed FROM chat_removals WHERE removed >= $1 ORDER BY removed, game_id COLLATE "C", sender COLLATE "C", text COLLATE "C"`, since)
	if err != nil {
		return nil, fmt.Errorf("chat removals: %w", err)
	}
	out := []store.ChatRemoval{}
	for rows.Next() {
		var r store.ChatRemoval
		if err := rows.Scan(&r.Game, &r.From, &r.Text, &r.Removed); err != nil {
			rows.Close()
			return nil, fmt.Errorf("chat removals: %w", err)
		}
		r.Removed = r.Removed.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}
