-- Each instance's last sign of life, and the outages found from them: the
-- time no instance served a game is charged to nobody.
CREATE TABLE beats (
	instance TEXT PRIMARY KEY,
	at       INTEGER NOT NULL,
	gone     INTEGER NOT NULL
);
CREATE TABLE outages (
	start INTEGER PRIMARY KEY,
	end   INTEGER NOT NULL
);
