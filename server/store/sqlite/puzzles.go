package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"stax/server/store"
)

// PuzzleRatings implements store.Puzzles.
func (s *Store) PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, rating, deviation, volatility, attempts, updated FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("puzzle ratings: %w", err)
	}
	defer rows.Close()
	out := map[string]store.PuzzleRating{}
	for rows.Next() {
		var id string
		var r store.PuzzleRating
		var updated int64
		if err := rows.Scan(&id, &r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &updated); err != nil {
			return nil, fmt.Errorf("puzzle ratings: %w", err)
		}
		r.Updated = fromMS(updated)
		out[id] = r
	}
	return out, rows.Err()
}

// PuzzlePlayer implements store.Puzzles.
func (s *Store) PuzzlePlayer(ctx context.Context, userID string) (store.PuzzleRating, error) {
	var r store.PuzzleRating
	var updated int64
	err := s.r.QueryRowContext(ctx, `SELECT rating, deviation, volatility, attempts, updated FROM puzzle_players WHERE user_id = ?`, userID).
		Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("puzzle rating of %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("puzzle rating of %s: %w", userID, err)
	}
	r.Updated = fromMS(updated)
	return r, nil
}

// AttemptedPuzzles implements store.Puzzles.
func (s *Store) AttemptedPuzzles(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id = ?`, userID)
	if err != nil {
		return nil, fmt.Errorf("puzzles attempted by %s: %w", userID, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("puzzles attempted by %s: %w", userID, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// errPuzzleConflict rolls back a RecordAttempt that clashes with what is
// stored.
var errPuzzleConflict = errors.New("puzzle attempt conflict")

// RecordAttempt implements store.Puzzles.
func (s *Store) RecordAttempt(ctx context.Context, a store.PuzzleAttempt, player, puzzle store.PuzzleRating) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if a.Rated {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?`, a.UserID, a.PuzzleID).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return fmt.Errorf("%w: %s attempted %s already", errPuzzleConflict, a.UserID, a.PuzzleID)
			}
			for _, r := range []struct {
				table, key, id string
				rating         store.PuzzleRating
			}{{"puzzle_players", "user_id", a.UserID, player}, {"puzzle_ratings", "puzzle_id", a.PuzzleID, puzzle}} {
				var res sql.Result
				var err error
				if r.rating.Attempts == 1 {
					res, err = tx.ExecContext(ctx, `INSERT INTO `+r.table+` (`+r.key+`, rating, deviation, volatility, attempts, updated)
						VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING`, r.id, r.rating.Rating, r.rating.Deviation, r.rating.Volatility, ms(a.At))
				} else {
					res, err = tx.ExecContext(ctx, `UPDATE `+r.table+` SET rating = ?, deviation = ?, volatility = ?, attempts = ?, updated = ?
						WHERE `+r.key+` = ? AND attempts = ?`, r.rating.Rating, r.rating.Deviation, r.rating.Volatility, r.rating.Attempts, ms(a.At), r.id, r.rating.Attempts-1)
				}
				if err != nil {
					return err
				}
				if n, _ := res.RowsAffected(); n != 1 {
					return fmt.Errorf("%w: the rating of %s changed meanwhile", errPuzzleConflict, r.id)
				}
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.UserID, a.PuzzleID, ms(a.At), boolInt(a.Solved), boolInt(a.Rated),
			a.PlayerBefore, a.PlayerAfter, a.PuzzleBefore, a.PuzzleAfter)
		if isConstraint(err) {
			return fmt.Errorf("%w: an attempt at the same time, or no such account", errPuzzleConflict)
		}
		return err
	})
	if errors.Is(err, errPuzzleConflict) {
		return fmt.Errorf("attempt of %s at puzzle %s: %w: %v", a.UserID, a.PuzzleID, store.ErrConflict, err)
	}
	if err != nil {
		return fmt.Errorf("attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	return nil
}

// PuzzleAttempts implements store.Puzzles.
func (s *Store) PuzzleAttempts(ctx context.Context, userID string, limit int) ([]store.PuzzleAttempt, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE user_id = ? ORDER BY at DESC, puzzle_id LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("puzzle attempts of %s: %w", userID, err)
	}
	defer rows.Close()
	out := []store.PuzzleAttempt{}
	for rows.Next() {
		a := store.PuzzleAttempt{UserID: userID}
		var at int64
		if err := rows.Scan(&a.PuzzleID, &at, &a.Solved, &a.Rated, &a.PlayerBefore, &a.PlayerAfter, &a.PuzzleBefore, &a.PuzzleAfter); err != nil {
			return nil, fmt.Errorf("puzzle attempts of %s: %w", userID, err)
		}
		a.At = fromMS(at)
		out = append(out, a)
	}
	return out, rows.Err()
}
