-- The players waiting for quick pairing: one pool per game and time
-- control, shared by every instance.
CREATE TABLE pairing (
	pool     text COLLATE "C" NOT NULL,
	user_id  text NOT NULL,
	rating   double precision NOT NULL,
	body     bytea NOT NULL,
	created  timestamptz NOT NULL,
	expires  timestamptz NOT NULL,
	PRIMARY KEY (pool, user_id)
);
CREATE INDEX pairing_user ON pairing (user_id);
