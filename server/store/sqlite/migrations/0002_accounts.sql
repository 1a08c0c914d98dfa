-- Accounts, sessions, ratings; seats held by accounts; rated games and
-- time controls.
CREATE TABLE users (
	id            TEXT PRIMARY KEY,
	name          TEXT NOT NULL,
	name_key      TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	created       INTEGER NOT NULL
);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created    INTEGER NOT NULL,
	expires    INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires);

ALTER TABLE seats ADD COLUMN user_id TEXT NOT NULL DEFAULT '';
CREATE INDEX seats_user ON seats (user_id) WHERE user_id != '';

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_days INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
	user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	pool       TEXT NOT NULL,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (user_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, rating);

CREATE TABLE rating_history (
	user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	pool       TEXT NOT NULL,
	game_id    TEXT NOT NULL,
	at         INTEGER NOT NULL,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	PRIMARY KEY (user_id, pool, at, game_id)
);

-- A game is rated once: the first writer inserts its row.
CREATE TABLE rated_games (
	game_id TEXT PRIMARY KEY,
	at      INTEGER NOT NULL
);
