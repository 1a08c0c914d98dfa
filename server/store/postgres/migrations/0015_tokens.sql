-- Personal API tokens (the hash of each secret, never the secret) and bot
-- accounts: an account's bot mark, a player's refusal of rated games
-- against bots, and when a bot was last connected (NULL: never).
ALTER TABLE users ADD COLUMN bot boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN no_rated_bots boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN seen timestamptz;
CREATE INDEX users_bots ON users (seen) WHERE bot;

CREATE TABLE tokens (
	id          text PRIMARY KEY,
	user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	hash        text NOT NULL UNIQUE,
	description text NOT NULL,
	-- The scopes, separated by spaces.
	scopes      text NOT NULL,
	created     timestamptz NOT NULL,
	used        timestamptz
);
CREATE INDEX tokens_user ON tokens (user_id, created);
