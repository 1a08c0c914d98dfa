-- The lobby's seeks and challenges, shared by every instance, and which
-- instance holds a lobby connection of which account.
CREATE TABLE seeks (
	id       text COLLATE "C" PRIMARY KEY,
	owner_id text NOT NULL,
	to_id    text NOT NULL DEFAULT '',
	body     bytea NOT NULL,
	created  timestamptz NOT NULL,
	expires  timestamptz NOT NULL
);
CREATE INDEX seeks_owner ON seeks (owner_id);
CREATE INDEX seeks_to ON seeks (to_id) WHERE to_id <> '';

CREATE TABLE lobby_presence (
	user_id  text NOT NULL,
	instance text NOT NULL,
	until    timestamptz NOT NULL,
	PRIMARY KEY (user_id, instance)
);
