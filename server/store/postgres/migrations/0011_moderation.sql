-- Moderation: blocks between accounts, players' reports, moderators'
-- restrictions, one-time password reset tokens and removed chat lines.
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

-- Chat lines removed by an operator; chat itself is kept in memory only.
CREATE TABLE chat_removals (
	game_id text NOT NULL,
	sender  text NOT NULL,
	text    text NOT NULL,
	removed timestamptz NOT NULL
);
CREATE INDEX chat_removals_removed ON chat_removals (removed);
