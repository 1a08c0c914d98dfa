-- The puzzles' domain: the ratings of the puzzles (the puzzles themselves
-- are the program's, named by their IDs), the accounts' puzzle ratings and
-- their attempts.
CREATE TABLE puzzle_ratings (
	puzzle_id  TEXT PRIMARY KEY,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	attempts   INTEGER NOT NULL,
	updated    INTEGER NOT NULL
);

CREATE TABLE puzzle_players (
	user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	attempts   INTEGER NOT NULL,
	updated    INTEGER NOT NULL
);

CREATE TABLE puzzle_attempts (
	user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	puzzle_id     TEXT NOT NULL,
	at            INTEGER NOT NULL,
	solved        INTEGER NOT NULL,
	rated         INTEGER NOT NULL,
	player_before REAL NOT NULL,
	player_after  REAL NOT NULL,
	puzzle_before REAL NOT NULL,
	puzzle_after  REAL NOT NULL,
	PRIMARY KEY (user_id, puzzle_id, at)
);
CREATE INDEX puzzle_attempts_latest ON puzzle_attempts (user_id, at);
