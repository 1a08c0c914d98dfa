-- The puzzles' domain: the ratings of the puzzles (the puzzles themselves
-- are the program's, named by their IDs), the accounts' puzzle ratings and
-- their attempts.
CREATE TABLE puzzle_ratings (
	puzzle_id  text PRIMARY KEY,
	rating     double precision NOT NULL,
	deviation  double precision NOT NULL,
	volatility double precision NOT NULL,
	attempts   integer NOT NULL,
	updated    timestamptz NOT NULL
);

CREATE TABLE puzzle_players (
	user_id    text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	rating     double precision NOT NULL,
	deviation  double precision NOT NULL,
	volatility double precision NOT NULL,
	attempts   integer NOT NULL,
	updated    timestamptz NOT NULL
);

CREATE TABLE puzzle_attempts (
	user_id       text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	puzzle_id     text NOT NULL,
	at            timestamptz NOT NULL,
	solved        boolean NOT NULL,
	rated         boolean NOT NULL,
	player_before double precision NOT NULL,
	player_after  double precision NOT NULL,
	puzzle_before double precision NOT NULL,
	puzzle_after  double precision NOT NULL,
	PRIMARY KEY (user_id, puzzle_id, at)
);
CREATE INDEX puzzle_attempts_latest ON puzzle_attempts (user_id, at);
