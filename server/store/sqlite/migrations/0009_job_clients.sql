-- The client (the player's address) of each computer move, so that the
-- workers share the computer moves fairly between clients.
ALTER TABLE jobs ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX jobs_client ON jobs (client) WHERE done_at = 0;
