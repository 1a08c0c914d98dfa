-- Each instance's last sign of life, and the outages found from them: the
-- time no instance served a game is charged to nobody.
CREATE TABLE beats (
	instance TEXT PRIMARY KEY,
	at       TIMESTAMPTZ NOT NULL,
	gone     BOOLEAN NOT NULL
);
CREATE TABLE outages (
	start TIMESTAMPTZ PRIMARY KEY,
	"end" TIMESTAMPTZ NOT NULL
);
