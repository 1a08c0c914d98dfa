-- Moderation: blocks between accounts, players' reports, moderators'
-- restrictions, one-time password reset tokens and removed chat lines.
CREATE TABLE blocks (
	user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	blocked_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, blocked_id)
);

-- Reports outlive the accounts they name: no foreign keys.
CREATE TABLE reports (
	id       TEXT PRIMARY KEY,
	reporter TEXT NOT NULL,
	target   TEXT NOT NULL DEFAULT '',
	game_id  TEXT NOT NULL DEFAULT '',
	chat     TEXT NOT NULL DEFAULT '',
	reason   TEXT NOT NULL,
	created  INTEGER NOT NULL,
	closed   INTEGER NOT NULL DEFAULT 0,
	note     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX reports_open ON reports (created) WHERE closed = 0;

CREATE TABLE restrictions (
	user_id  TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	muted    INTEGER NOT NULL DEFAULT 0,
	disabled INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE password_resets (
	token_hash TEXT PRIMARY KEY,
	user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	expires    INTEGER NOT NULL
);

-- Chat lines removed by an operator; chat itself is kept in memory only.
CREATE TABLE chat_removals (
	game_id TEXT NOT NULL,
	sender  TEXT NOT NULL,
	text    TEXT NOT NULL,
	removed INTEGER NOT NULL
);
CREATE INDEX chat_removals_removed ON chat_removals (removed);
