-- The names of deleted accounts: retired, so that nobody takes the name
-- of a player others have met, played and seen on the leaderboards.
CREATE TABLE retired_names (
	name_key TEXT PRIMARY KEY
);
