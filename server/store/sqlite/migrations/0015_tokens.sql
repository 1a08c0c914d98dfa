-- Personal API tokens (the hash of each secret, never the secret) and bot
-- accounts: an account's bot mark, a player's refusal of rated games
-- against bots, and when a bot was last connected (NULL: never).
ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN no_rated_bots INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN seen INTEGER;
CREATE INDEX users_bots ON users (seen) WHERE bot = 1;

CREATE TABLE tokens (
	id          TEXT PRIMARY KEY,
	user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	hash        TEXT NOT NULL UNIQUE,
	description TEXT NOT NULL,
	-- The scopes, separated by spaces.
	scopes      TEXT NOT NULL,
	created     INTEGER NOT NULL,
	used        INTEGER
);
CREATE INDEX tokens_user ON tokens (user_id, created);
