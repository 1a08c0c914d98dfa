-- Moderation: blocks between accounts, players' reports, moderators'
-- restrictions, and one-time password reset tokens.
CREATE TABLE blocks (
	user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	blocked_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, blocked_id)
);

-- Reports outlive the accounts they name: no foreign keys.
CREATE TABLE reports (
	id       text PRIMARY KEY,
	reporter text NOT NULL,
	target   text NOT NULL DEFAULT '',
	game_id  text NOT NULL DEFAULT '',
	chat     text NOT NULL DEFAULT '',
	reason   text NOT NULL,
	created  timestamptz NOT NULL,
	closed   timestamptz,
	note     text NOT NULL DEFAULT ''
);
CREATE INDEX reports_open ON reports (created) WHERE closed IS NULL;

CREATE TABLE restrictions (
	user_id  text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	muted    boolean NOT NULL DEFAULT false,
	disabled boolean NOT NULL DEFAULT false
);

CREATE TABLE password_resets (
	token_hash text PRIMARY KEY,
	user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	expires    timestamptz NOT NULL
);
