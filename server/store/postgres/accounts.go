package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"stax/server/store"
)

// CreateUser implements store.Accounts.
func (s *Store) CreateUser(ctx context.Context, u *store.User) error {
	tag, err := s.pool.Exec(ctx, `INSERT INTO users (id, name, name_key, password_hash, created, skeleton)
		SELECT $1, $2, $3, $4, $5, $6 WHERE NOT EXISTS (SELECT 1 FROM retired_names WHERE name_key = $3)`,
		u.ID, u.Name, store.NameKey(u.Name), u.PasswordHash, u.Created, store.NameSkeleton(u.Name))
	if isConflict(err) {
		return fmt.Errorf("user %q: %w: the name, or one that looks like it, is taken", u.Name, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("create user %q: %w", u.Name, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("user %q: %w: the name belonged to a deleted account", u.Name, store.ErrConflict)
	}
	return nil
}

// userCols are the columns of users that scanUser reads.
const userCols = `id, name, password_hash, created, bot, no_rated_bots, seen`

// scanUser reads the userCols of a row into u.
func scanUser(row pgx.Row, u *store.User) error {
	var seen *time.Time
	if err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.Created, &u.Bot, &u.NoRatedBots, &seen); err != nil {
		return err
	}
	u.Created, u.Seen = u.Created.UTC(), time.Time{}
	if seen != nil {
		u.Seen = seen.UTC()
	}
	return nil
}

func (s *Store) user(ctx context.Context, where string, arg any) (*store.User, error) {
	var u store.User
	err := scanUser(s.pool.QueryRow(ctx, `SELECT `+userCols+` FROM users WHERE `+where, arg), &u)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("user %v: %w", arg, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("user %v: %w", arg, err)
	}
	return &u, nil
}

// UserByName implements store.Accounts.
func (s *Store) UserByName(ctx context.Context, name string) (*store.User, error) {
	return s.user(ctx, "name_key = $1", store.NameKey(name))
}

// UserByID implements store.Accounts.
func (s *Store) UserByID(ctx context.Context, id string) (*store.User, error) {
	return s.user(ctx, "id = $1", id)
}

// SetPassword implements store.Accounts.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, userID)
	if err != nil {
		return fmt.Errorf("user %s: set password: %w", userID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
	}
	return nil
}

// DeleteUser implements store.Accounts.
func (s *Store) DeleteUser(ctx context.Context, userID, anonymous string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE seats SET user_id = '', name = $1 WHERE user_id = $2`, anonymous, userID); err != nil {
			return fmt.Errorf("user %s: anonymise seats: %w", userID, err)
		}
		for _, q := range []string{`DELETE FROM rating_history WHERE user_id = $1`, `DELETE FROM ratings WHERE user_id = $1`, `DELETE FROM sessions WHERE user_id = $1`,
			`DELETE FROM tokens WHERE user_id = $1`} {
			if _, err := tx.Exec(ctx, q, userID); err != nil {
				return fmt.Errorf("user %s: delete: %w", userID, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO retired_names (name_key) SELECT name_key FROM users WHERE id = $1 ON CONFLICT DO NOTHING`, userID); err != nil {
			return fmt.Errorf("user %s: retire the name: %w", userID, err)
		}
		tag, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID)
		if err != nil {
			return fmt.Errorf("user %s: delete: %w", userID, err)
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
		}
		return nil
	})
}

// CreateSession implements store.Accounts.
func (s *Store) CreateSession(ctx context.Context, ss *store.Session) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, created, expires) VALUES ($1, $2, $3, $4)`,
		ss.TokenHash, ss.UserID, ss.Created, ss.Expires)
	if isConflict(err) {
		return fmt.Errorf("session: %w: the session exists or its account does not", store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// Session implements store.Accounts.
func (s *Store) Session(ctx context.Context, tokenHash string) (*store.Session, error) {
	ss := store.Session{TokenHash: tokenHash}
	err := s.pool.QueryRow(ctx, `SELECT user_id, created, expires FROM sessions WHERE token_hash = $1`, tokenHash).Scan(&ss.UserID, &ss.Created, &ss.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("session: %w", store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	ss.Created, ss.Expires = ss.Created.UTC(), ss.Expires.UTC()
	return &ss, nil
}

func (s *Store) exec(ctx context.Context, what, query string, args ...any) error {
	if _, err := s.pool.Exec(ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// DeleteSession implements store.Accounts.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	return s.exec(ctx, "delete session", `DELETE FROM sessions WHERE token_hash = $1`, tokenHash)
}

// DeleteSessions implements store.Accounts.
func (s *Store) DeleteSessions(ctx context.Context, userID, keep string) error {
	return s.exec(ctx, "delete sessions", `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, userID, keep)
}

// DeleteExpiredSessions implements store.Accounts.
func (s *Store) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	return s.exec(ctx, "delete expired sessions", `DELETE FROM sessions WHERE expires < $1`, t)
}

// GamesOf implements store.Accounts.
func (s *Store) GamesOf(ctx context.Context, userID string, limit int, status string) ([]*store.Game, error) {
	q := `SELECT ` + gameCols + ` FROM games WHERE id IN (SELECT game_id FROM seats WHERE user_id = $1)`
	args := []any{userID}
	if status != "" {
		q += ` AND status = $3`
		args = append(args, limit, status)
	} else {
		args = append(args, limit)
	}
	gs, err := s.list(ctx, q+` ORDER BY updated DESC, id LIMIT $2`, args...)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}

func (s *Store) ratings(ctx context.Context, query string, args ...any) ([]store.Rating, error) {
	rows, err := s.pool.Query(ctx, `SELECT r.user_id, u.name, u.bot, r.pool, r.rating, r.deviation, r.volatility, r.games, r.updated
		FROM ratings r JOIN users u ON u.id = r.user_id `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Rating, error) {
		var r store.Rating
		err := row.Scan(&r.UserID, &r.Name, &r.Bot, &r.Pool, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &r.Updated)
		r.Updated = r.Updated.UTC()
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	if out == nil {
		out = []store.Rating{}
	}
	return out, nil
}

// Ratings implements store.Accounts.
func (s *Store) Ratings(ctx context.Context, userID string) ([]store.Rating, error) {
	return s.ratings(ctx, `WHERE r.user_id = $1 ORDER BY r.pool COLLATE "C"`, userID)
}

// Leaderboard implements store.Accounts.
func (s *Store) Leaderboard(ctx context.Context, pool string, maxDeviation float64, activeSince time.Time, limit int) ([]store.Rating, error) {
	return s.ratings(ctx, `WHERE r.pool = $1 AND r.deviation <= $2 AND r.updated >= $3 ORDER BY r.rating DESC, u.name_key LIMIT $4`, pool, maxDeviation, activeSince, limit)
}

// RatingHistory implements store.Accounts.
func (s *Store) RatingHistory(ctx context.Context, userID, pool string) ([]store.RatingPoint, error) {
	return s.history(ctx, `WHERE user_id = $1 AND pool = $2 ORDER BY at, game_id`, userID, pool)
}

func (s *Store) history(ctx context.Context, query string, args ...any) ([]store.RatingPoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT pool, game_id, at, rating, deviation, volatility FROM rating_history `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RatingPoint, error) {
		var p store.RatingPoint
		err := row.Scan(&p.Pool, &p.GameID, &p.At, &p.Rating, &p.Deviation, &p.Volatility)
		p.At = p.At.UTC()
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	if out == nil {
		out = []store.RatingPoint{}
	}
	return out, nil
}

// ListAccounts implements store.Accounts.
func (s *Store) ListAccounts(ctx context.Context, after string, limit int) ([]*store.Account, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+userCols+` FROM users WHERE id COLLATE "C" > $1 ORDER BY id COLLATE "C" LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*store.Account, error) {
		var a store.Account
		return &a, scanUser(row, &a.User)
	})
	if err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	for _, a := range out {
		if a.Ratings, err = s.Ratings(ctx, a.User.ID); err != nil {
			return nil, err
		}
		if a.History, err = s.history(ctx, `WHERE user_id = $1 ORDER BY pool COLLATE "C", at, game_id`, a.User.ID); err != nil {
			return nil, err
		}
		if a.Tokens, err = s.tokens(ctx, a.User.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RestoreAccount implements store.Accounts.
func (s *Store) RestoreAccount(ctx context.Context, a *store.Account) error {
	u := &a.User
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO users (id, name, name_key, password_hash, created, bot, no_rated_bots, seen) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			u.ID, u.Name, store.NameKey(u.Name), u.PasswordHash, u.Created, u.Bot, u.NoRatedBots, nullTime(u.Seen)); err != nil {
			return err
		}
		for _, r := range a.Ratings {
			if _, err := tx.Exec(ctx, `INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				u.ID, r.Pool, r.Rating, r.Deviation, r.Volatility, r.Games, r.Updated); err != nil {
				return err
			}
		}
		for _, p := range a.History {
			if _, err := tx.Exec(ctx, `INSERT INTO rating_history (user_id, pool, game_id, at, rating, deviation, volatility) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				u.ID, p.Pool, p.GameID, p.At, p.Rating, p.Deviation, p.Volatility); err != nil {
				return err
			}
		}
		for i := range a.Tokens {
			if err := insertToken(ctx, tx, &a.Tokens[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if isConflict(err) {
		return fmt.Errorf("user %s %q: %w: the id or the name is taken", u.ID, u.Name, store.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("restore user %s: %w", u.ID, err)
	}
	return nil
}

// RatedGames implements store.Accounts.
func (s *Store) RatedGames(ctx context.Context, after string, limit int) ([]store.RatedGame, error) {
	rows, err := s.pool.Query(ctx, `SELECT game_id, at FROM rated_games WHERE game_id COLLATE "C" > $1 ORDER BY game_id COLLATE "C" LIMIT $2`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("rated games: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RatedGame, error) {
		var g store.RatedGame
		err := row.Scan(&g.GameID, &g.At)
		g.At = g.At.UTC()
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("rated games: %w", err)
	}
	return out, nil
}

// errRatingChanged rolls back a Rate whose ratings were changed meanwhile.
var errRatingChanged = errors.New("rating changed")

// Rate implements store.Accounts.
func (s *Store) Rate(ctx context.Context, gameID string, at time.Time, ratings []store.Rating) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO rated_games (game_id, at) VALUES ($1, $2)`, gameID, at); err != nil {
			return err
		}
		for _, r := range ratings {
			var n int64
			if r.Games == 1 {
				tag, err := tx.Exec(ctx, `INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated)
					VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT DO NOTHING`, r.UserID, r.Pool, r.Rating, r.Deviation, r.Volatility, at)
				if err != nil {
					return err
				}
				n = tag.RowsAffected()
			} else {
				tag, err := tx.Exec(ctx, `UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, updated = $5
					WHERE user_id = $6 AND pool = $7 AND games = $8`, r.Rating, r.Deviation, r.Volatility, r.Games, at, r.UserID, r.Pool, r.Games-1)
				if err != nil {
					return err
				}
				n = tag.RowsAffected()
			}
			if n != 1 {
				return fmt.Errorf("%w: the rating of %s in %s", errRatingChanged, r.UserID, r.Pool)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO rating_history (user_id, pool, game_id, at, rating, deviation, volatility)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, r.UserID, r.Pool, gameID, at, r.Rating, r.Deviation, r.Volatility); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, errRatingChanged):
		return fmt.Errorf("rate game %s: %w: %v changed meanwhile", gameID, store.ErrConflict, err)
	case isConflict(err):
		return fmt.Errorf("game %s: %w: it was rated already", gameID, store.ErrConflict)
	case err != nil:
		return fmt.Errorf("rate game %s: %w", gameID, err)
	}
	return nil
}

// TakeBack implements store.Store.
func (s *Store) TakeBack(ctx context.Context, id string, ply int) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM moves WHERE game_id = $1 AND ply = $2
		AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = $1 AND ply > $2)
		AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = $3)`, id, ply, store.Playing)
	if err != nil {
		return fmt.Errorf("game %s take back ply %d: %w", id, ply, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("game %s ply %d: %w: not the last move of a game being played", id, ply, store.ErrConflict)
	}
	s.tell(ctx, store.Event{Kind: store.EventTakeBack, Game: id, Ply: ply})
	return nil
}

// Unrated implements store.Accounts.
func (s *Store) Unrated(ctx context.Context, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE rated AND status = $1
		AND NOT EXISTS (SELECT 1 FROM rated_games WHERE game_id = games.id) ORDER BY updated, id LIMIT $2`, store.Finished, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}
