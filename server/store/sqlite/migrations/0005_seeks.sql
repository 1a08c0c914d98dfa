-- The lobby's seeks and challenges, shared by every instance, and which
-- instance holds a lobby connection of which account.
CREATE TABLE seeks (
	id       TEXT PRIMARY KEY,
	owner_id TEXT NOT NULL,
	to_id    TEXT NOT NULL DEFAULT '',
	body     BLOB NOT NULL,
	created  INTEGER NOT NULL,
	expires  INTEGER NOT NULL
);
CREATE INDEX seeks_owner ON seeks (owner_id);
CREATE INDEX seeks_to ON seeks (to_id) WHERE to_id != '';

CREATE TABLE lobby_presence (
	user_id  TEXT NOT NULL,
	instance TEXT NOT NULL,
	until    INTEGER NOT NULL,
	PRIMARY KEY (user_id, instance)
);
