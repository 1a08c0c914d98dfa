-- The skeleton of each account's name (store.NameSkeleton): no two
-- accounts have names that look alike. Accounts made before it have none.
ALTER TABLE users ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX users_skeleton ON users (skeleton) WHERE skeleton != '';
