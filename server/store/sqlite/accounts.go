package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"stax/server/store"
)

// CreateUser implements store.Accounts.
func (s *Store) CreateUser(ctx context.Context, u *store.User) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password_hash, created, skeleton)
			SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM retired_names WHERE name_key = ?)`,
			u.ID, u.Name, store.NameKey(u.Name), u.PasswordHash, ms(u.Created), store.NameSkeleton(u.Name), store.NameKey(u.Name))
		if isConstraint(err) {
			return fmt.Errorf("user %q: %w: the name, or one that looks like it, is taken", u.Name, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("create user %q: %w", u.Name, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("user %q: %w: the name belonged to a deleted account", u.Name, store.ErrConflict)
		}
		return nil
	})
}

// userCols are the columns of users that scanUser reads.
const userCols = `id, name, password_hash, created, bot, no_rated_bots, seen`

// scanUser reads the userCols of a row into u.
func scanUser(row interface{ Scan(...any) error }, u *store.User) error {
	var created int64
	var seen sql.NullInt64
	if err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &created, &u.Bot, &u.NoRatedBots, &seen); err != nil {
		return err
	}
	u.Created, u.Seen = fromMS(created), fromNullMS(seen)
	return nil
}

func (s *Store) user(ctx context.Context, where string, arg any) (*store.User, error) {
	var u store.User
	err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE `+where, arg), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("user %v: %w", arg, store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("user %v: %w", arg, err)
	}
	return &u, nil
}

// UserByName implements store.Accounts.
func (s *Store) UserByName(ctx context.Context, name string) (*store.User, error) {
	return s.user(ctx, "name_key = ?", store.NameKey(name))
}

// UserByID implements store.Accounts.
func (s *Store) UserByID(ctx context.Context, id string) (*store.User, error) {
	return s.user(ctx, "id = ?", id)
}

// SetPassword implements store.Accounts.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, userID)
		if err != nil {
			return fmt.Errorf("user %s: set password: %w", userID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
		}
		return nil
	})
}

// DeleteUser implements store.Accounts.
func (s *Store) DeleteUser(ctx context.Context, userID, anonymous string) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE seats SET user_id = '', name = ? WHERE user_id = ?`, anonymous, userID); err != nil {
			return fmt.Errorf("user %s: anonymise seats: %w", userID, err)
		}
		for _, q := range []string{`DELETE FROM rating_history WHERE user_id = ?`, `DELETE FROM ratings WHERE user_id = ?`, `DELETE FROM sessions WHERE user_id = ?`,
			`DELETE FROM tokens WHERE user_id = ?`} {
			if _, err := tx.ExecContext(ctx, q, userID); err != nil {
				return fmt.Errorf("user %s: delete: %w", userID, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO retired_names (name_key) SELECT name_key FROM users WHERE id = ? ON CONFLICT DO NOTHING`, userID); err != nil {
			return fmt.Errorf("user %s: retire the name: %w", userID, err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, userID)
		if err != nil {
			return fmt.Errorf("user %s: delete: %w", userID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("user %s: %w", userID, store.ErrNotFound)
		}
		return nil
	})
}

// CreateSession implements store.Accounts.
func (s *Store) CreateSession(ctx context.Context, ss *store.Session) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created, expires) VALUES (?, ?, ?, ?)`,
			ss.TokenHash, ss.UserID, ms(ss.Created), ms(ss.Expires))
		if isConstraint(err) {
			return fmt.Errorf("session: %w: the session exists or its account does not", store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		return nil
	})
}

// Session implements store.Accounts.
func (s *Store) Session(ctx context.Context, tokenHash string) (*store.Session, error) {
	ss := store.Session{TokenHash: tokenHash}
	var created, expires int64
	err := s.r.QueryRowContext(ctx, `SELECT user_id, created, expires FROM sessions WHERE token_hash = ?`, tokenHash).Scan(&ss.UserID, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("session: %w", store.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	ss.Created, ss.Expires = fromMS(created), fromMS(expires)
	return &ss, nil
}

func (s *Store) exec(ctx context.Context, what, query string, args ...any) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
}

// DeleteSession implements store.Accounts.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	return s.exec(ctx, "delete session", `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
}

// DeleteSessions implements store.Accounts.
func (s *Store) DeleteSessions(ctx context.Context, userID, keep string) error {
	return s.exec(ctx, "delete sessions", `DELETE FROM sessions WHERE user_id = ? AND token_hash != ?`, userID, keep)
}

// DeleteExpiredSessions implements store.Accounts.
func (s *Store) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	return s.exec(ctx, "delete expired sessions", `DELETE FROM sessions WHERE expires < ?`, ms(t))
}

// GamesOf implements store.Accounts.
func (s *Store) GamesOf(ctx context.Context, userID string, limit int, status string) ([]*store.Game, error) {
	q := `SELECT ` + gameCols + ` FROM games WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?)`
	args := []any{userID}
	if status != "" {
		q += ` AND status = ?`
		args = append(args, status)
	}
	gs, err := s.list(ctx, q+` ORDER BY updated DESC, id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}

func (s *Store) ratings(ctx context.Context, query string, args ...any) ([]store.Rating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT r.user_id, u.name, u.bot, r.pool, r.rating, r.deviation, r.volatility, r.games, r.updated
		FROM ratings r JOIN users u ON u.id = r.user_id `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	defer rows.Close()
	out := []store.Rating{}
	for rows.Next() {
		var r store.Rating
		var updated int64
		if err := rows.Scan(&r.UserID, &r.Name, &r.Bot, &r.Pool, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, fmt.Errorf("ratings: %w", err)
		}
		r.Updated = fromMS(updated)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Ratings implements store.Accounts.
func (s *Store) Ratings(ctx context.Context, userID string) ([]store.Rating, error) {
	return s.ratings(ctx, `WHERE r.user_id = ? ORDER BY r.pool`, userID)
}

// Leaderboard implements store.Accounts.
func (s *Store) Leaderboard(ctx context.Context, pool string, maxDeviation float64, activeSince time.Time, limit int) ([]store.Rating, error) {
	return s.ratings(ctx, `WHERE r.pool = ? AND r.deviation <= ? AND r.updated >= ? ORDER BY r.rating DESC, u.name_key LIMIT ?`, pool, maxDeviation, ms(activeSince), limit)
}

// RatingHistory implements store.Accounts.
func (s *Store) RatingHistory(ctx context.Context, userID, pool string) ([]store.RatingPoint, error) {
	return s.history(ctx, `WHERE user_id = ? AND pool = ? ORDER BY at, game_id`, userID, pool)
}

func (s *Store) history(ctx context.Context, query string, args ...any) ([]store.RatingPoint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT pool, game_id, at, rating, deviation, volatility FROM rating_history `+query, args...)
	if err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	defer rows.Close()
	out := []store.RatingPoint{}
	for rows.Next() {
		var p store.RatingPoint
		var at int64
		if err := rows.Scan(&p.Pool, &p.GameID, &at, &p.Rating, &p.Deviation, &p.Volatility); err != nil {
			return nil, fmt.Errorf("rating history: %w", err)
		}
		p.At = fromMS(at)
		out = append(out, p)
	}
	return out, rows.Err()
}

// ListAccounts implements store.Accounts.
func (s *Store) ListAccounts(ctx context.Context, after string, limit int) ([]*store.Account, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userCols+` FROM users WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	var out []*store.Account
	for rows.Next() {
		var a store.Account
		if err := scanUser(rows, &a.User); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list accounts: %w", err)
		}
		out = append(out, &a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	for _, a := range out {
		if a.Ratings, err = s.Ratings(ctx, a.User.ID); err != nil {
			return nil, err
		}
		if a.History, err = s.history(ctx, `WHERE user_id = ? ORDER BY pool, at, game_id`, a.User.ID); err != nil {
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
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password_hash, created, bot, no_rated_bots, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			u.ID, u.Name, store.NameKey(u.Name), u.PasswordHash, ms(u.Created), boolInt(u.Bot), boolInt(u.NoRatedBots), nullMS(u.Seen))
		if isConstraint(err) {
			return fmt.Errorf("user %s %q: %w: the id or the name is taken", u.ID, u.Name, store.ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("restore user %s: %w", u.ID, err)
		}
		for _, r := range a.Ratings {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				u.ID, r.Pool, r.Rating, r.Deviation, r.Volatility, r.Games, ms(r.Updated)); err != nil {
				return fmt.Errorf("restore user %s: rating in %s: %w", u.ID, r.Pool, err)
			}
		}
		for _, p := range a.History {
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, pool, game_id, at, rating, deviation, volatility) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				u.ID, p.Pool, p.GameID, ms(p.At), p.Rating, p.Deviation, p.Volatility); err != nil {
				return fmt.Errorf("restore user %s: rating history in %s: %w", u.ID, p.Pool, err)
			}
		}
		for i := range a.Tokens {
			if err := insertToken(ctx, tx, &a.Tokens[i]); err != nil {
				return fmt.Errorf("restore user %s: %w", u.ID, err)
			}
		}
		return nil
	})
}

// RatedGames implements store.Accounts.
func (s *Store) RatedGames(ctx context.Context, after string, limit int) ([]store.RatedGame, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id, at FROM rated_games WHERE game_id > ? ORDER BY game_id LIMIT ?`, after, limit)
	if err != nil {
		return nil, fmt.Errorf("rated games: %w", err)
	}
	defer rows.Close()
	var out []store.RatedGame
	for rows.Next() {
		var g store.RatedGame
		var at int64
		if err := rows.Scan(&g.GameID, &at); err != nil {
			return nil, fmt.Errorf("rated games: %w", err)
		}
		g.At = fromMS(at)
		out = append(out, g)
	}
	return out, rows.Err()
}

// Rate implements store.Accounts.
func (s *Store) Rate(ctx context.Context, gameID string, at time.Time, ratings []store.Rating) error {
	return s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rated_games (game_id, at) VALUES (?, ?)`, gameID, ms(at)); err != nil {
			if isConstraint(err) {
				return fmt.Errorf("game %s: %w: it was rated already", gameID, store.ErrConflict)
			}
			return fmt.Errorf("rate game %s: %w", gameID, err)
		}
		for _, r := range ratings {
			var res sql.Result
			var err error
			if r.Games == 1 {
				res, err = tx.ExecContext(ctx, `INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated)
					VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING`, r.UserID, r.Pool, r.Rating, r.Deviation, r.Volatility, ms(at))
			} else {
				res, err = tx.ExecContext(ctx, `UPDATE ratings SET rating = ?, deviation = ?, volatility = ?, games = ?, updated = ?
					WHERE user_id = ? AND pool = ? AND games = ?`, r.Rating, r.Deviation, r.Volatility, r.Games, ms(at), r.UserID, r.Pool, r.Games-1)
			}
			if err != nil {
				return fmt.Errorf("rate game %s: %w", gameID, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("rate game %s: %w: the rating of %s in %s changed meanwhile", gameID, store.ErrConflict, r.UserID, r.Pool)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, pool, game_id, at, rating, deviation, volatility)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, r.UserID, r.Pool, gameID, ms(at), r.Rating, r.Deviation, r.Volatility); err != nil {
				return fmt.Errorf("rate game %s: %w", gameID, err)
			}
		}
		return nil
	})
}

// TakeBack implements store.Store.
func (s *Store) TakeBack(ctx context.Context, id string, ply int) error {
	return s.writeEvent(ctx, &store.Event{Kind: store.EventTakeBack, Game: id, Ply: ply}, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND ply = ?
			AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = ? AND ply > ?)
			AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = ?)`, id, ply, id, ply, id, store.Playing)
		if err != nil {
			return fmt.Errorf("game %s take back ply %d: %w", id, ply, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("game %s ply %d: %w: not the last move of a game being played", id, ply, store.ErrConflict)
		}
		return nil
	})
}

// Unrated implements store.Accounts.
func (s *Store) Unrated(ctx context.Context, limit int) ([]*store.Game, error) {
	gs, err := s.list(ctx, `SELECT `+gameCols+` FROM games WHERE rated = 1 AND status = ?
		AND NOT EXISTS (SELECT 1 FROM rated_games WHERE game_id = games.id) ORDER BY updated, id LIMIT ?`, store.Finished, limit)
	if err != nil {
		return nil, err
	}
	return gs, s.fill(ctx, gs, false)
}
