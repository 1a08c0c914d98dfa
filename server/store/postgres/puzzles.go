package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// PuzzleRatings implements store.Puzzles.
func (s *Store) PuzzleRatings(ctx context.Context) (map[string]store.PuzzleRating, error) {
	rows, err := s.pool.Query(ctx, `SELECT puzzle_id, rating, deviation, volatility, attempts, updated FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("puzzle ratings: %w", err)
	}
	defer rows.Close()
	out := map[string]store.PuzzleRating{}
	for rows.Next() {
		var id string
		var r store.PuzzleRating
		if err := rows.Scan(&id, &r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &r.Updated); err != nil {
			return nil, fmt.Errorf("puzzle ratings: %w", err)
		}
		r.Updated = r.Updated.UTC()
		out[id] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("puzzle ratings: %w", err)
	}
	return out, nil
}

// PuzzlePlayer implements store.Puzzles.
func (s *Store) PuzzlePlayer(ctx context.Context, userID string) (store.PuzzleRating, error) {
	var r store.PuzzleRating
	err := s.pool.QueryRow(ctx, `SELECT rating, deviation, volatility, attempts, updated FROM puzzle_players WHERE user_id = $1`, userID).
		Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Attempts, &r.Updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("puzzle rating of %s: %w", userID, store.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("puzzle rating of %s: %w", userID, err)
	}
	r.Updated = r.Updated.UTC()
	return r, nil
}

// AttemptedPuzzles implements store.Puzzles.
func (s *Store) AttemptedPuzzles(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("puzzles attempted by %s: %w", userID, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("puzzles attempted by %s: %w", userID, err)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// errPuzzleConflict rolls back a RecordAttempt that clashes with what is
// stored.
var errPuzzleConflict = errors.New("puzzle attempt conflict")

// RecordAttempt implements store.Puzzles. Two rated attempts of an
// account at once are kept apart by its row of puzzle_players: the second
// waits for the first and then finds the count of attempts changed.
func (s *Store) RecordAttempt(ctx context.Context, a store.PuzzleAttempt, player, puzzle store.PuzzleRating) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if a.Rated {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, a.UserID, a.PuzzleID).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return fmt.Errorf("%w: %s attempted %s already", errPuzzleConflict, a.UserID, a.PuzzleID)
			}
			for _, r := range []struct {
				table, key, id string
				rating         store.PuzzleRating
			}{{"puzzle_players", "user_id", a.UserID, player}, {"puzzle_ratings", "puzzle_id", a.PuzzleID, puzzle}} {
				var sql string
				var args []any
				if r.rating.Attempts == 1 {
					sql = `INSERT INTO ` + r.table + ` (` + r.key + `, rating, deviation, volatility, attempts, updated)
						VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT DO NOTHING`
					args = []any{r.id, r.rating.Rating, r.rating.Deviation, r.rating.Volatility, a.At}
				} else {
					sql = `UPDATE ` + r.table + ` SET rating = $1, deviation = $2, volatility = $3, attempts = $4, updated = $5
						WHERE ` + r.key + ` = $6 AND attempts = $7`
					args = []any{r.rating.Rating, r.rating.Deviation, r.rating.Volatility, r.rating.Attempts, a.At, r.id, r.rating.Attempts - 1}
				}
				tag, err := tx.Exec(ctx, sql, args...)
				if err != nil {
					return err
				}
				if tag.RowsAffected() != 1 {
					return fmt.Errorf("%w: the rating of %s changed meanwhile", errPuzzleConflict, r.id)
				}
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, a.UserID, a.PuzzleID, a.At, a.Solved, a.Rated,
			a.PlayerBefore, a.PlayerAfter, a.PuzzleBefore, a.PuzzleAfter)
		if isConflict(err) {
			return fmt.Errorf("%w: an attempt at the same time, or no such account", errPuzzleConflict)
		}
		return err
	})
	if errors.Is(err, errPuzzleConflict) || isConflict(err) {
		return fmt.Errorf("attempt of %s at puzzle %s: %w: %v", a.UserID, a.PuzzleID, store.ErrConflict, err)
	}
	if err != nil {
		return fmt.Errorf("attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	return nil
}

// PuzzleAttempts implements store.Puzzles.
func (s *Store) PuzzleAttempts(ctx context.Context, userID string, limit int) ([]store.PuzzleAttempt, error) {
	return s.puzzleAttempts(ctx, userID, `ORDER BY at DESC, puzzle_id COLLATE "C" LIMIT `+strconv.Itoa(max(limit, 0)))
}

// puzzleAttempts returns an account's attempts in the order (and up to
// the limit) tail says.
func (s *Store) puzzleAttempts(ctx context.Context, userID, tail string) ([]store.PuzzleAttempt, error) {
	rows, err := s.pool.Query(ctx, `SELECT puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE user_id = $1 `+tail, userID)
	if err != nil {
		return nil, fmt.Errorf("puzzle attempts of %s: %w", userID, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.PuzzleAttempt, error) {
		a := store.PuzzleAttempt{UserID: userID}
		err := row.Scan(&a.PuzzleID, &a.At, &a.Solved, &a.Rated, &a.PlayerBefore, &a.PlayerAfter, &a.PuzzleBefore, &a.PuzzleAfter)
		a.At = a.At.UTC()
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("puzzle attempts of %s: %w", userID, err)
	}
	if out == nil {
		out = []store.PuzzleAttempt{}
	}
	return out, nil
}

// ListPuzzlePlayers implements store.Puzzles.
func (s *Store) ListPuzzlePlayers(ctx context.Context, after string, limit int) ([]*store.PuzzlePlayer, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT user_id COLLATE "C" AS id FROM puzzle_attempts WHERE user_id COLLATE "C" > $1 ORDER BY id LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list puzzle players: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list puzzle players: %w", err)
	}
	out := []*store.PuzzlePlayer{}
	for _, id := range ids {
		p := &store.PuzzlePlayer{UserID: id}
		p.Rating, err = s.PuzzlePlayer(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		list, err := s.puzzleAttempts(ctx, id, `ORDER BY at, puzzle_id COLLATE "C"`)
		if err != nil {
			return nil, err
		}
		p.Attempts = list
		out = append(out, p)
	}
	return out, nil
}

// RestorePuzzlePlayer implements store.Puzzles.
func (s *Store) RestorePuzzlePlayer(ctx context.Context, p *store.PuzzlePlayer) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1`, p.UserID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: the account has attempted puzzles already", errPuzzleConflict)
		}
		if r := p.Rating; r.Attempts > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempts, updated) VALUES ($1, $2, $3, $4, $5, $6)`,
				p.UserID, r.Rating, r.Deviation, r.Volatility, r.Attempts, r.Updated); err != nil {
				return err
			}
		}
		for _, a := range p.Attempts {
			if _, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, p.UserID, a.PuzzleID, a.At, a.Solved, a.Rated,
				a.PlayerBefore, a.PlayerAfter, a.PuzzleBefore, a.PuzzleAfter); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errPuzzleConflict) || isConflict(err) {
		return fmt.Errorf("restore the puzzles of %s: %w: %v", p.UserID, store.ErrConflict, err)
	}
	if err != nil {
		return fmt.Errorf("restore the puzzles of %s: %w", p.UserID, err)
	}
	return nil
}

// RestorePuzzleRating implements store.Puzzles.
func (s *Store) RestorePuzzleRating(ctx context.Context, puzzleID string, r store.PuzzleRating) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, updated) VALUES ($1, $2, $3, $4, $5, $6)`,
		puzzleID, r.Rating, r.Deviation, r.Volatility, r.Attempts, r.Updated)
	if isConflict(err) {
		return fmt.Errorf("restore the rating of puzzle %s: %w: it is rated already", puzzleID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("restore the rating of puzzle %s: %w", puzzleID, err)
	}
	return nil
}
