-- The players waiting for quick pairing: one pool per game and time
-- control, shared by every instance.
CREATE TABLE pairing (
	pool     TEXT NOT NULL,
	user_id  TEXT NOT NULL,
	rating   REAL NOT NULL,
	body     BLOB NOT NULL,
	created  INTEGER NOT NULL,
	expires  INTEGER NOT NULL,
	PRIMARY KEY (pool, user_id)
);
CREATE INDEX pairing_user ON pairing (user_id);
