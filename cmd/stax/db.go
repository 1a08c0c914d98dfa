package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"stax/server/store"
	"stax/server/store/postgres"
)

// runDB runs the database commands: copy, and explore.
func runDB(e *env, args []string) error {
	fs := newFlags(e, "db")
	from := fs.String("from", "", "the `DB` to copy from: a SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the `DB` to copy to (created and migrated if needed; empty, or an earlier copy of the same games)")
	db := fs.String("db", "", "the `DB` whose finished games explore indexes for the opening explorer")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 1 && rest[0] == "explore" {
		return runDBExplore(e, *db)
	}
	if len(rest) != 1 || rest[0] != "copy" {
		return &usageError{"want a database command: copy or explore, e.g. stax db copy --from stax.db --to postgres://..."}
	}
	if *from == "" || *to == "" {
		return &usageError{"--from and --to are required"}
	}
	if *from == *to {
		return &usageError{"--from and --to name the same database"}
	}
	if !postgres.IsURL(*from) {
		// Opening a SQLite file creates it: a mistyped source must not
		// copy an empty database.
		if _, err := os.Stat(*from); err != nil {
			return fmt.Errorf("--from %s: %w", *from, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	src, err := openStore(ctx, *from, "")
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	defer src.Close()
	dst, err := openStore(ctx, *to, "")
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	defer dst.Close()
	n, err := store.Copy(ctx, src, dst, func(n store.Copied) {
		fmt.Fprintf(e.stderr, "copied %d accounts, %d games (%d moves); %d accounts and %d games already there\n", n.Accounts, n.Games, n.Moves, n.AccountsSkipped, n.Skipped)
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted; running the same copy again goes on where it stopped")
		}
		return fmt.Errorf("%s to %s: %w", redactDB(*from), redactDB(*to), err)
	}
	fmt.Fprintf(e.stdout, "copied %d games (%d moves) and %d accounts (%d ratings, %d points of rating history) from %s to %s; %d games and %d accounts were there already; all %d games, %d accounts and %d marks of rated games checked identical in both\n",
		n.Games, n.Moves, n.Accounts, n.Ratings, n.RatingPoints, redactDB(*from), redactDB(*to), n.Skipped, n.AccountsSkipped, n.Checked, n.AccountsChecked, n.RatedGames)
	if n.Tokens > 0 {
		fmt.Fprintf(e.stdout, "and the accounts' %d API tokens, checked identical\n", n.Tokens)
	}
	if n.Blocks+n.Restrictions+n.Reports > 0 {
		fmt.Fprintf(e.stdout, "and the moderation: %d blocks and %d restrictions, checked identical; %d reports copied, and all checked identical\n", n.Blocks, n.Restrictions, n.Reports)
	}
	if n.PuzzleRatings+n.PuzzlePlayers+n.PuzzlePlayersChecked > 0 {
		fmt.Fprintf(e.stdout, "copied the ratings of %d puzzles and the puzzles of %d accounts (%d attempts); the puzzles of %d accounts checked identical in both\n",
			n.PuzzleRatings, n.PuzzlePlayers, n.PuzzleAttempts, n.PuzzlePlayersChecked)
	}
	return nil
}
