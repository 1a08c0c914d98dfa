package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"stax/server/store"
)

// IndexGame implements store.Explorer.
func (s *Store) IndexGame(ctx context.Context, gameID, spec string, rated bool, at time.Time, entries []store.ExplorerEntry) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO explorer_games (game_id, at) VALUES (?, ?)`, gameID, ms(at)); err != nil {
			return err
		}
		st, err := tx.PrepareContext(ctx, `INSERT INTO explorer_moves (spec, hash, move, rated, games, wins, draws, losses, rating_sum, rating_games)
			VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
			ON CONFLICT (spec, hash, move, rated) DO UPDATE SET games = games + 1, wins = wins + excluded.wins, draws = draws + excluded.draws,
			losses = losses + excluded.losses, rating_sum = rating_sum + excluded.rating_sum, rating_games = rating_games + excluded.rating_games`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, e := range entries {
			w, d, l := results(e.Result)
			known := 0
			if e.Rating > 0 {
				known = 1
			}
			if _, err := st.ExecContext(ctx, spec, int64(e.Hash), e.Move, boolInt(rated), w, d, l, e.Rating, known); err != nil {
				return err
			}
		}
		return nil
	})
	if isConstraint(err) {
		return fmt.Errorf("index game %s: %w: it is indexed already", gameID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("index game %s: %w", gameID, err)
	}
	return nil
}

// results returns the counts of wins, draws and losses of a result.
func results(r int) (w, d, l int) {
	switch {
	case r > 0:
		return 1, 0, 0
	case r < 0:
		return 0, 0, 1
	}
	return 0, 1, 0
}

// ExplorerMoves implements store.Explorer.
func (s *Store) ExplorerMoves(ctx context.Context, spec string, hash uint64) ([]store.ExplorerMove, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT move, rated, games, wins, draws, losses, rating_sum, rating_games FROM explorer_moves
		WHERE spec = ? AND hash = ?`, spec, int64(hash))
	if err != nil {
		return nil, fmt.Errorf("explorer moves: %w", err)
	}
	defer rows.Close()
	out := []store.ExplorerMove{}
	for rows.Next() {
		var m store.ExplorerMove
		if err := rows.Scan(&m.Move, &m.Rated, &m.Games, &m.Wins, &m.Draws, &m.Losses, &m.RatingSum, &m.RatingGames); err != nil {
			return nil, fmt.Errorf("explorer moves: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Unindexed implements store.Explorer.
func (s *Store) Unindexed(ctx context.Context, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = ?
		AND NOT EXISTS (SELECT 1 FROM explorer_games WHERE game_id = games.id)
		AND (rated = 0 OR EXISTS (SELECT 1 FROM rated_games WHERE game_id = games.id))
		ORDER BY updated, id LIMIT ?`, store.Finished, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}
