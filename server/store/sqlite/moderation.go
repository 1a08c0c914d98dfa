package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"stax/server/store"
)

// Block implements store.Moderation.
func (s *Store) Block(ctx context.Context, userID, blocked string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO blocks (user_id, blocked_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, userID, blocked)
		if isConstraint(err) {
			return fmt.Errorf("block %s by %s: %w: no such account", blocked, userID, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("block %s by %s: %w", blocked, userID, err)
		}
		return nil
	})
}

// Unblock implements store.Moderation.
func (s *Store) Unblock(ctx context.Context, userID, blocked string) error {
	return s.exec(ctx, "unblock", `DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?`, userID, blocked)
}

// Blocks implements store.Moderation.
func (s *Store) Blocks(ctx context.Context) ([]store.Block, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT b.user_id, b.blocked_id, u.name FROM blocks b JOIN users u ON u.id = b.blocked_id
		ORDER BY b.user_id, u.name_key`)
	if err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	defer rows.Close()
	out := []store.Block{}
	for rows.Next() {
		var b store.Block
		if err := rows.Scan(&b.UserID, &b.Blocked, &b.BlockedName); err != nil {
			return nil, fmt.Errorf("blocks: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// AddReport implements store.Moderation.
func (s *Store) AddReport(ctx context.Context, r *store.Report) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO reports (id, reporter, target, game_id, chat, reason, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Reporter, r.Target, r.Game, r.Chat, r.Reason, ms(r.Created))
		if isConstraint(err) {
			return fmt.Errorf("report %s: %w: the id exists", r.ID, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("add report %s: %w", r.ID, err)
		}
		return nil
	})
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, all bool, limit int) ([]*store.Report, error) {
	q := `SELECT id, reporter, target, game_id, chat, reason, created, closed, note FROM reports`
	if !all {
		q += ` WHERE closed = 0`
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY created, id LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	defer rows.Close()
	out := []*store.Report{}
	for rows.Next() {
		var r store.Report
		var created, closed int64
		if err := rows.Scan(&r.ID, &r.Reporter, &r.Target, &r.Game, &r.Chat, &r.Reason, &created, &closed, &r.Note); err != nil {
			return nil, fmt.Errorf("reports: %w", err)
		}
		r.Created = fromMS(created)
		if closed != 0 {
			r.Closed = fromMS(closed)
		}
		out = append(out, &r)
	}
	return out, rows.Err()
}

// CloseReport implements store.Moderation.
func (s *Store) CloseReport(ctx context.Context, id, note string, at time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var closed int64
		err := tx.QueryRowContext(ctx, `SELECT closed FROM reports WHERE id = ?`, id).Scan(&closed)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("report %s: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("report %s: %w", id, err)
		}
		if closed != 0 {
			return fmt.Errorf("report %s: %w: closed already", id, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reports SET closed = ?, note = ? WHERE id = ?`, max(ms(at), 1), note, id); err != nil {
			return fmt.Errorf("close report %s: %w", id, err)
		}
		return nil
	})
}

// Restrict implements store.Moderation.
func (s *Store) Restrict(ctx context.Context, r store.Restriction) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if !r.Muted && !r.Disabled {
			var n int
			if err = tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE id = ?`, r.UserID).Scan(&n); err == nil && n == 0 {
				return fmt.Errorf("restrict %s: %w: no such account", r.UserID, store.ErrNotFound)
			}
			if err == nil {
				_, err = tx.ExecContext(ctx, `DELETE FROM restrictions WHERE user_id = ?`, r.UserID)
			}
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO restrictions (user_id, muted, disabled) VALUES (?, ?, ?)
				ON CONFLICT (user_id) DO UPDATE SET muted = excluded.muted, disabled = excluded.disabled`, r.UserID, r.Muted, r.Disabled)
			if isConstraint(err) {
				return fmt.Errorf("restrict %s: %w: no such account", r.UserID, store.ErrNotFound)
			}
		}
		if err != nil {
			return fmt.Errorf("restrict %s: %w", r.UserID, err)
		}
		return nil
	})
}

// Restrictions implements store.Moderation.
func (s *Store) Restrictions(ctx context.Context) ([]store.Restriction, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, muted, disabled FROM restrictions ORDER BY user_id`)
	if err != nil {
		return nil, fmt.Errorf("restrictions: %w", err)
	}
	defer rows.Close()
	out := []store.Restriction{}
	for rows.Next() {
		var r store.Restriction
		if err := rows.Scan(&r.UserID, &r.Muted, &r.Disabled); err != nil {
			return nil, fmt.Errorf("restrictions: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CreateReset implements store.Moderation.
func (s *Store) CreateReset(ctx context.Context, tokenHash, userID string, expires time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, user_id, expires) VALUES (?, ?, ?)`, tokenHash, userID, ms(expires))
		if isConstraint(err) {
			return fmt.Errorf("password reset for %s: %w: no such account", userID, store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("password reset for %s: %w", userID, err)
		}
		return nil
	})
}

// UseReset implements store.Moderation.
func (s *Store) UseReset(ctx context.Context, tokenHash string, now time.Time) (string, error) {
	var userID string
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var expires int64
		err := tx.QueryRowContext(ctx, `DELETE FROM password_resets WHERE token_hash = ? RETURNING user_id, expires`, tokenHash).Scan(&userID, &expires)
		if errors.Is(err, sql.ErrNoRows) || err == nil && expires <= ms(now) {
			return fmt.Errorf("password reset: %w: the link is unknown, used or expired", store.ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("password reset: %w", err)
		}
		return nil
	})
	return userID, err
}

// RemoveChat implements store.Moderation.
func (s *Store) RemoveChat(ctx context.Context, r store.ChatRemoval) error {
	return s.exec(ctx, "remove chat line", `INSERT INTO chat_removals (game_id, sender, text, removed) VALUES (?, ?, ?, ?)`,
		r.Game, r.From, r.Text, ms(r.Removed))
}

// ChatRemovals implements store.Moderation.
func (s *Store) ChatRemovals(ctx context.Context, since time.Time) ([]store.ChatRemoval, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, sender, text, removed FROM chat_removals WHERE removed >= ? ORDER BY removed, rowid`, ms(since))
	if err != nil {
		return nil, fmt.Errorf("chat removals: %w", err)
	}
	defer rows.Close()
	out := []store.ChatRemoval{}
	for rows.Next() {
		var r store.ChatRemoval
		var removed int64
		if err := rows.Scan(&r.Game, &r.From, &r.Text, &removed); err != nil {
			return nil, fmt.Errorf("chat removals: %w", err)
		}
		r.Removed = fromMS(removed)
		out = append(out, r)
	}
	return out, rows.Err()
}
