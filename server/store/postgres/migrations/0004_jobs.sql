-- Computer moves to make: one row per move, claimed for a lease by the
-- worker that makes it (SELECT ... FOR UPDATE SKIP LOCKED).
CREATE TABLE jobs (
	id           bigserial PRIMARY KEY,
	game_id      text COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply          integer NOT NULL,
	owner        text NOT NULL DEFAULT '',
	attempts     integer NOT NULL DEFAULT 0,
	not_before   timestamptz NOT NULL,
	leased_until timestamptz,
	done_at      timestamptz,
	UNIQUE (game_id, ply)
);
CREATE INDEX jobs_pending ON jobs (not_before) WHERE done_at IS NULL;
