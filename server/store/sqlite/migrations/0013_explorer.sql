-- The opening explorer: for each position of a game spec (by its hash) the
-- moves the finished games played from it, rated and casual apart, and
-- the games indexed, each once.
CREATE TABLE explorer_moves (
	spec         TEXT NOT NULL,
	hash         INTEGER NOT NULL,
	move         TEXT NOT NULL,
	rated        INTEGER NOT NULL,
	games        INTEGER NOT NULL,
	wins         INTEGER NOT NULL,
	draws        INTEGER NOT NULL,
	losses       INTEGER NOT NULL,
	rating_sum   REAL NOT NULL,
	rating_games INTEGER NOT NULL,
	PRIMARY KEY (spec, hash, move, rated)
) WITHOUT ROWID;

CREATE TABLE explorer_games (
	game_id TEXT PRIMARY KEY,
	at      INTEGER NOT NULL
);
