-- Accounts, sessions, ratings; seats held by accounts; rated games and
-- time controls.
CREATE TABLE users (
	id            text PRIMARY KEY,
	name          text NOT NULL,
	name_key      text NOT NULL UNIQUE,
	password_hash text NOT NULL,
	created       timestamptz NOT NULL
);

CREATE TABLE sessions (
	token_hash text PRIMARY KEY,
	user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created    timestamptz NOT NULL,
	expires    timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires);

ALTER TABLE seats ADD COLUMN user_id text NOT NULL DEFAULT '';
CREATE INDEX seats_user ON seats (user_id) WHERE user_id <> '';

ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN clock_initial_ms bigint NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN clock_increment_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_days integer NOT NULL DEFAULT 0;

CREATE TABLE ratings (
	user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	pool       text NOT NULL,
	rating     double precision NOT NULL,
	deviation  double precision NOT NULL,
	volatility double precision NOT NULL,
	games      integer NOT NULL,
	updated    timestamptz NOT NULL,
	PRIMARY KEY (user_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, rating);

CREATE TABLE rating_history (
	user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	pool       text NOT NULL,
	game_id    text NOT NULL,
	at         timestamptz NOT NULL,
	rating     double precision NOT NULL,
	deviation  double precision NOT NULL,
	volatility double precision NOT NULL,
	PRIMARY KEY (user_id, pool, at, game_id)
);

-- A game is rated once: the first writer inserts its row.
CREATE TABLE rated_games (
	game_id text PRIMARY KEY,
	at      timestamptz NOT NULL
);
