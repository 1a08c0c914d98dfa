package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"stax/games"
	"stax/server/explorer"
	"stax/server/ratings"
	"stax/server/store"
	"stax/server/store/postgres"
)

// runDBExplore indexes every finished game of a database not indexed yet
// for the opening explorer: what the servers do as games finish, for a
// database that holds games from before the explorer.
func runDBExplore(e *env, db string) error {
	if db == "" {
		return &usageError{"--db is required, e.g. stax db explore --db stax.db"}
	}
	if !postgres.IsURL(db) {
		// Opening a SQLite file creates it: a mistyped name must not
		// index an empty database.
		if _, err := os.Stat(db); err != nil {
			return fmt.Errorf("--db %s: %w", db, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, db, "")
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer st.Close()
	xs, ok := st.(store.Explorer)
	if !ok {
		return fmt.Errorf("--db %s: the store %T keeps no opening explorer", redactDB(db), st)
	}
	cfg := explorer.Config{Store: xs, Games: games.All(), PoolOf: ratings.PoolOf}
	if r, ok := st.(store.Ratings); ok {
		cfg.Ratings = r
	}
	x := explorer.New(cfg)
	start := time.Now()
	total := 0
	for {
		// A batch at a time, to show the progress.
		n, err := x.IndexMissed(ctx, 1000)
		total += n
		if err != nil {
			if errors.Is(err, context.Canceled) {
				err = errors.New("interrupted; running it again goes on where it stopped")
			}
			return fmt.Errorf("%s: indexed %d games: %w", redactDB(db), total, err)
		}
		if n == 0 {
			break
		}
		fmt.Fprintf(e.stderr, "indexed %d games\n", total)
	}
	fmt.Fprintf(e.stdout, "indexed %d finished games of %s for the opening explorer in %s\n", total, redactDB(db), time.Since(start).Round(time.Millisecond))
	return nil
}
