package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

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
	return s.puzzleAttempts(ctx, userID, `ORDER BY at DESC, puzzle_id LIMIT `+strconv.Itoa(max(limit, 0)))
}

// puzzleAttempts returns an account's attempts in the order (and up to
// the limit) tail says.
func (s *Store) puzzleAttempts(ctx context.Context, userID, tail string) ([]store.PuzzleAttempt, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE user_id = ? `+tail, userID)
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

// ListPuzzlePlayers implements store.Puzzles.
func (s *Store) ListPuzzlePlayers(ctx context.Context, after string, limit int) ([]*store.PuzzlePlayer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT user_id FROM puzzle_attempts WHERE user_id > ? ORDER BY user_id LIMIT ?`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list puzzle players: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list puzzle players: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list puzzle players: %w", err)
	}
	out := []*store.PuzzlePlayer{}
	for _, id := range ids {
		p := &store.PuzzlePlayer{UserID: id}
		p.Rating, err = s.PuzzlePlayer(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if p.Attempts, err = s.puzzleAttempts(ctx, id, `ORDER BY at, puzzle_id`); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// RestorePuzzlePlayer implements store.Puzzles.
func (s *Store) RestorePuzzlePlayer(ctx context.Context, p *store.PuzzlePlayer) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = ?`, p.UserID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: the account has attempted puzzles already", errPuzzleConflict)
		}
		if r := p.Rating; r.Attempts > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempts, updated) VALUES (?, ?, ?, ?, ?, ?)`,
				p.UserID, r.Rating, r.Deviation, r.Volatility, r.Attempts, ms(r.Updated)); err != nil {
				return err
			}
		}
		for _, a := range p.Attempts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.UserID, a.PuzzleID, ms(a.At), boolInt(a.Solved), boolInt(a.Rated),
				a.PlayerBefore, a.PlayerAfter, a.PuzzleBefore, a.PuzzleAfter); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errPuzzleConflict) || isConstraint(err) {
		return fmt.Errorf("restore the puzzles of %s: %w: %v", p.UserID, store.ErrConflict, err)
	}
	if err != nil {
		return fmt.Errorf("restore the puzzles of %s: %w", p.UserID, err)
	}
	return nil
}

// RestorePuzzleRating implements store.Puzzles.
func (s *Store) RestorePuzzleRating(ctx context.Context, puzzleID string, r store.PuzzleRating) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, updated) VALUES (?, ?, ?, ?, ?, ?)`,
			puzzleID, r.Rating, r.Deviation, r.Volatility, r.Attempts, ms(r.Updated))
		return err
	})
	if isConstraint(err) {
		return fmt.Errorf("restore the rating of puzzle %s: %w: it is rated already", puzzleID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("restore the rating of puzzle %s: %w", puzzleID, err)
	}
	return nil
}
