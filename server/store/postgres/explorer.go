package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// IndexGame implements store.Explorer.
func (s *Store) IndexGame(ctx context.Context, gameID, spec string, rated bool, at time.Time, entries []store.ExplorerEntry) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO explorer_games (game_id, at) VALUES ($1, $2)`, gameID, at); err != nil {
			return err
		}
		// One statement for the whole game: the entries as arrays.
		n := len(entries)
		hashes, moves := make([]int64, n), make([]string, n)
		wins, draws, losses, known := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
		sums := make([]float64, n)
		for i, e := range entries {
			hashes[i], moves[i], sums[i] = int64(e.Hash), e.Move, e.Rating
			switch {
			case e.Result > 0:
				wins[i] = 1
			case e.Result < 0:
				losses[i] = 1
			default:
				draws[i] = 1
			}
			if e.Rating > 0 {
				known[i] = 1
			}
		}
		if n == 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO explorer_moves AS m (spec, hash, move, rated, games, wins, draws, losses, rating_sum, rating_games)
			SELECT $1, e.hash, e.move, $2, 1, e.wins, e.draws, e.losses, e.sum, e.known
			FROM unnest($3::bigint[], $4::text[], $5::int[], $6::int[], $7::int[], $8::float8[], $9::int[]) AS e(hash, move, wins, draws, losses, sum, known)
			ON CONFLICT (spec, hash, move, rated) DO UPDATE SET games = m.games + 1, wins = m.wins + excluded.wins, draws = m.draws + excluded.draws,
			losses = m.losses + excluded.losses, rating_sum = m.rating_sum + excluded.rating_sum, rating_games = m.rating_games + excluded.rating_games`,
			spec, rated, hashes, moves, wins, draws, losses, sums, known)
		return err
	})
	if isConflict(err) {
		return fmt.Errorf("index game %s: %w: it is indexed already", gameID, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("index game %s: %w", gameID, err)
	}
	return nil
}

// ExplorerMoves implements store.Explorer.
func (s *Store) ExplorerMoves(ctx context.Context, spec string, hash uint64) ([]store.ExplorerMove, error) {
	rows, err := s.pool.Query(ctx, `SELECT move, rated, games, wins, draws, losses, rating_sum, rating_games FROM explorer_moves
		WHERE spec = $1 AND hash = $2`, spec, int64(hash))
	if err != nil {
		return nil, fmt.Errorf("explorer moves: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ExplorerMove, error) {
		var m store.ExplorerMove
		err := row.Scan(&m.Move, &m.Rated, &m.Games, &m.Wins, &m.Draws, &m.Losses, &m.RatingSum, &m.RatingGames)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("explorer moves: %w", err)
	}
	if out == nil {
		out = []store.ExplorerMove{}
	}
	return out, nil
}

// Unindexed implements store.Explorer.
func (s *Store) Unindexed(ctx context.Context, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE status = $1
		AND NOT EXISTS (SELECT 1 FROM explorer_games WHERE game_id = games.id)
		AND (NOT rated OR EXISTS (SELECT 1 FROM rated_games WHERE game_id = games.id))
		ORDER BY updated, id LIMIT $2`, store.Finished, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, true)
}
