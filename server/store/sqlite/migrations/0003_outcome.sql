-- A game's outcome in the text form of game.Outcome, which keeps every
-- player's result, the reason, the scores and the detail exactly, in place
-- of the result, reason and detail columns. Finished games keep what those
-- columns held (reasons become one word: "ply cap" is "ply-cap").
ALTER TABLE games ADD COLUMN outcome TEXT NOT NULL DEFAULT '*';
UPDATE games SET outcome = result || ' ' || replace(reason, ' ', '-')
	|| CASE WHEN detail <> '' THEN '; ' || detail ELSE '' END
	WHERE status = 'finished' AND result <> '*';
ALTER TABLE games DROP COLUMN result;
ALTER TABLE games DROP COLUMN reason;
ALTER TABLE games DROP COLUMN detail;
