-- The opening explorer: for each position of a game spec (by its hash) the
-- moves the finished games played from it, rated and casual apart, and
-- the games indexed, each once.
CREATE TABLE explorer_moves (
	spec         text NOT NULL,
	hash         bigint NOT NULL,
	move         text NOT NULL,
	rated        boolean NOT NULL,
	games        integer NOT NULL,
	wins         integer NOT NULL,
	draws        integer NOT NULL,
	losses       integer NOT NULL,
	rating_sum   double precision NOT NULL,
	rating_games integer NOT NULL,
	PRIMARY KEY (spec, hash, move, rated)
);

CREATE TABLE explorer_games (
	game_id text PRIMARY KEY,
	at      timestamptz NOT NULL
);
