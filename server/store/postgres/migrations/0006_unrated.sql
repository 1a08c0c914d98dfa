-- The rated games, to find on start those whose rating was never written.
CREATE INDEX games_rated ON games (updated) WHERE rated;
