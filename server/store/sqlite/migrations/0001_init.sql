-- Games, their seats and their moves.
CREATE TABLE games (
	id       TEXT PRIMARY KEY,
	spec     TEXT NOT NULL,
	start    TEXT NOT NULL DEFAULT '',
	status   TEXT NOT NULL DEFAULT 'playing',
	result   TEXT NOT NULL DEFAULT '*',
	reason   TEXT NOT NULL DEFAULT '',
	detail   TEXT NOT NULL DEFAULT '',
	resigned INTEGER NOT NULL DEFAULT -1,
	ply      INTEGER NOT NULL DEFAULT 0,
	created  INTEGER NOT NULL,
	updated  INTEGER NOT NULL
);
CREATE INDEX games_updated ON games (updated);
CREATE INDEX games_status_updated ON games (status, updated);

CREATE TABLE seats (
	game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat        INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	level       TEXT NOT NULL DEFAULT '',
	name        TEXT NOT NULL DEFAULT '',
	token_hash  TEXT NOT NULL DEFAULT '',
	invite_hash TEXT NOT NULL DEFAULT '',
	joined      INTEGER NOT NULL DEFAULT 1,
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE moves (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply     INTEGER NOT NULL,
	move    TEXT NOT NULL,
	at      INTEGER NOT NULL,
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
