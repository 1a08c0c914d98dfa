-- Games, their seats and their moves.
CREATE TABLE games (
	id       text COLLATE "C" PRIMARY KEY, -- ids sort byte by byte, as in SQLite
	spec     text NOT NULL,
	start    text NOT NULL DEFAULT '',
	status   text NOT NULL DEFAULT 'playing',
	result   text NOT NULL DEFAULT '*',
	reason   text NOT NULL DEFAULT '',
	detail   text NOT NULL DEFAULT '',
	resigned integer NOT NULL DEFAULT -1,
	ply      integer NOT NULL DEFAULT 0,
	created  timestamptz NOT NULL,
	updated  timestamptz NOT NULL
);
CREATE INDEX games_updated ON games (updated);
CREATE INDEX games_status_updated ON games (status, updated);

CREATE TABLE seats (
	game_id     text COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat        integer NOT NULL,
	kind        text NOT NULL,
	level       text NOT NULL DEFAULT '',
	name        text NOT NULL DEFAULT '',
	token_hash  text NOT NULL DEFAULT '',
	invite_hash text NOT NULL DEFAULT '',
	joined      boolean NOT NULL DEFAULT true,
	PRIMARY KEY (game_id, seat)
);

-- The primary key orders each game's moves: of two writers of one ply,
-- exactly one wins.
CREATE TABLE moves (
	game_id text COLLATE "C" NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply     integer NOT NULL,
	move    text NOT NULL,
	at      timestamptz NOT NULL,
	PRIMARY KEY (game_id, ply)
);
