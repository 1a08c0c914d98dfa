-- Computer moves to make: one row per move, claimed for a lease by the
-- worker that makes it.
CREATE TABLE jobs (
	id           INTEGER PRIMARY KEY,
	game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply          INTEGER NOT NULL,
	owner        TEXT NOT NULL DEFAULT '',
	attempts     INTEGER NOT NULL DEFAULT 0,
	not_before   INTEGER NOT NULL,
	leased_until INTEGER NOT NULL DEFAULT 0,
	done_at      INTEGER NOT NULL DEFAULT 0,
	UNIQUE (game_id, ply)
);
CREATE INDEX jobs_pending ON jobs (not_before) WHERE done_at = 0;
